package member

import (
	"fmt"
	"math"
	"reflect"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
)

// encodeOptions renders options as a Discord client sends them, checked
// against defs when validate is set, as the client checks what a member
// types; Discord adds data.resolved.
func encodeOptions(opts []Option, defs []*discordgo.ApplicationCommandOption, validate bool, where string) ([]map[string]any, error) {
	var out []map[string]any
	given := map[string]bool{}
	for _, o := range opts {
		var def *discordgo.ApplicationCommandOption
		for _, d := range defs {
			if d != nil && d.Name == o.Name {
				def = d
			}
		}
		if validate && def == nil {
			return nil, fmt.Errorf("member: %s has no option %q", where, o.Name)
		}
		given[o.Name] = true
		t := o.Type
		if t == 0 && def != nil {
			t = def.Type
		}
		if t == 0 {
			t = inferType(o)
		}
		entry := map[string]any{"name": o.Name, "type": int(t)}
		switch t {
		case discordgo.ApplicationCommandOptionSubCommand, discordgo.ApplicationCommandOptionSubCommandGroup:
			var subDefs []*discordgo.ApplicationCommandOption
			if def != nil {
				subDefs = def.Options
			}
			sub, err := encodeOptions(o.Options, subDefs, validate, where+" "+o.Name)
			if err != nil {
				return nil, err
			}
			if sub == nil {
				sub = []map[string]any{}
			}
			entry["options"] = sub
		default:
			v, err := optionValue(t, o.Value)
			if err != nil {
				return nil, fmt.Errorf("member: %s option %q: %w", where, o.Name, err)
			}
			if validate {
				if err := checkOptionValue(def, v); err != nil {
					return nil, fmt.Errorf("member: %s option %q: %w", where, o.Name, err)
				}
			}
			entry["value"] = v
			if o.Focused {
				entry["focused"] = true
			}
		}
		out = append(out, entry)
	}
	if validate {
		for _, d := range defs {
			if d != nil && d.Required && !given[d.Name] {
				return nil, fmt.Errorf("member: %s misses required option %q", where, d.Name)
			}
		}
	}
	return out, nil
}

func inferType(o Option) discordgo.ApplicationCommandOptionType {
	if o.Value == nil {
		return discordgo.ApplicationCommandOptionSubCommand
	}
	switch reflect.ValueOf(o.Value).Kind() {
	case reflect.Bool:
		return discordgo.ApplicationCommandOptionBoolean
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return discordgo.ApplicationCommandOptionInteger
	case reflect.Float32, reflect.Float64:
		return discordgo.ApplicationCommandOptionNumber
	}
	return discordgo.ApplicationCommandOptionString
}

// optionValue converts v to the JSON value Discord sends for type t.
func optionValue(t discordgo.ApplicationCommandOptionType, v any) (any, error) {
	rv := reflect.ValueOf(v)
	switch t {
	case discordgo.ApplicationCommandOptionInteger, discordgo.ApplicationCommandOptionNumber:
		var f float64
		switch rv.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			f = float64(rv.Int())
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			f = float64(rv.Uint())
		case reflect.Float32, reflect.Float64:
			f = rv.Float()
		default:
			return nil, fmt.Errorf("value %v (%T) is not a number", v, v)
		}
		if t == discordgo.ApplicationCommandOptionInteger {
			if f != math.Trunc(f) {
				return nil, fmt.Errorf("value %v is not an integer", v)
			}
			return int64(f), nil
		}
		return f, nil
	case discordgo.ApplicationCommandOptionBoolean:
		b, ok := v.(bool)
		if !ok {
			return nil, fmt.Errorf("value %v (%T) is not a bool", v, v)
		}
		return b, nil
	default:
		if v == nil {
			return nil, fmt.Errorf("missing value")
		}
		return fmt.Sprint(v), nil
	}
}

// checkOptionValue applies what the Discord client enforces: choices,
// min/max value and length.
func checkOptionValue(def *discordgo.ApplicationCommandOption, v any) error {
	if len(def.Choices) > 0 {
		for _, c := range def.Choices {
			if fmt.Sprint(c.Value) == fmt.Sprint(v) {
				return nil
			}
		}
		return fmt.Errorf("value %v is not one of the choices", v)
	}
	var f float64
	switch x := v.(type) {
	case int64:
		f = float64(x)
	case float64:
		f = x
	case string:
		n := utf8.RuneCountInString(x)
		if def.MinLength != nil && n < *def.MinLength {
			return fmt.Errorf("%q is shorter than %d", x, *def.MinLength)
		}
		if def.MaxLength > 0 && n > def.MaxLength {
			return fmt.Errorf("%q is longer than %d", x, def.MaxLength)
		}
		return nil
	default:
		return nil
	}
	if def.MinValue != nil && f < *def.MinValue {
		return fmt.Errorf("value %v is below the minimum %v", v, *def.MinValue)
	}
	if def.MaxValue != 0 && f > def.MaxValue {
		return fmt.Errorf("value %v is above the maximum %v", v, def.MaxValue)
	}
	return nil
}
