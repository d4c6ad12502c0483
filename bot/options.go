package bot

import (
	"fmt"
	"reflect"

	"github.com/bwmarrin/discordgo"
)

// Options decodes the options of a slash command, or of its subcommand,
// into the struct dst points to, in one call: each field tagged
// `option:"name"` gets that option's value. A field is a string, bool,
// int64 or float64, or a pointer to one, which stays nil when the option
// is absent. Discord sends integers as JSON numbers, which discordgo
// decodes as float64; they fill int64 fields. A value of another type than
// its field's (only a hand-made interaction sends one) counts as absent,
// so the handler's defaults and checks apply to it.
func Options(in *Interaction, dst any) {
	opts := leafOptions(in)
	byName := make(map[string]any, len(opts))
	for _, o := range opts {
		byName[o.Name] = o.Value
	}
	v := reflect.ValueOf(dst).Elem()
	t := v.Type()
	for i := range t.NumField() {
		name, ok := t.Field(i).Tag.Lookup("option")
		if !ok {
			continue
		}
		value, ok := byName[name]
		if !ok {
			continue
		}
		field := v.Field(i)
		if field.Kind() == reflect.Pointer {
			elem := reflect.New(field.Type().Elem())
			if set(elem.Elem(), value) {
				field.Set(elem)
			}
			continue
		}
		set(field, value)
	}
}

// set stores value in field if its type fits.
func set(field reflect.Value, value any) bool {
	switch field.Kind() {
	case reflect.String:
		return setAs(value, field.SetString)
	case reflect.Bool:
		return setAs(value, field.SetBool)
	case reflect.Int64:
		switch n := value.(type) {
		case float64:
			field.SetInt(int64(n))
		case int64:
			field.SetInt(n)
		case int:
			field.SetInt(int64(n))
		default:
			return false
		}
		return true
	case reflect.Float64:
		return setAs(value, field.SetFloat)
	}
	panic(fmt.Sprintf("bot.Options: a field of kind %s", field.Kind()))
}

// setAs hands value to setter if it is a T, and says whether it was.
func setAs[T any](value any, setter func(T)) bool {
	v, ok := value.(T)
	if ok {
		setter(v)
	}
	return ok
}

// leafOptions are the options of the command, or of its subcommand.
func leafOptions(in *Interaction) []*discordgo.ApplicationCommandInteractionDataOption {
	opts := in.ApplicationCommandData().Options
	if len(opts) > 0 && opts[0].Type == discordgo.ApplicationCommandOptionSubCommand {
		opts = opts[0].Options
	}
	return opts
}

// Subcommand is the name of the subcommand used, "" for none.
func Subcommand(in *Interaction) string {
	opts := in.ApplicationCommandData().Options
	if len(opts) > 0 && opts[0].Type == discordgo.ApplicationCommandOptionSubCommand {
		return opts[0].Name
	}
	return ""
}

// Focused is the option an autocompletion asks about, and what the member
// has typed into it so far.
func Focused(in *Interaction) (name, typed string) {
	for _, o := range leafOptions(in) {
		if o.Focused {
			s, _ := o.Value.(string)
			return o.Name, s
		}
	}
	return "", ""
}
