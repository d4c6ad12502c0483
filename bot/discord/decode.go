package discord

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log"
	"log/slog"
	"path"
	"runtime"
	"strings"
	"sync"

	"github.com/bwmarrin/discordgo"

	"mazebot/metrics"
)

// Discord keeps adding component types, and discordgo v0.29.0 (its last
// release) fails a whole INTERACTION_CREATE on any type it does not know,
// wherever it sits: in the target message of a menu command, the message a
// button is on, a modal's submitted fields. So an interaction is decoded
// here: as discordgo would when it can, and otherwise after taking out the
// parts nobody here could read, so that it is answered as if they were not
// there.

// labelComponent is Discord's Label (type 18), which wraps one field of a
// modal: it is unwrapped into an action row around that field, the shape
// the modal handlers read.
const labelComponent discordgo.ComponentType = 18

// knownComponents are the types discordgo v0.29.0 decodes.
var knownComponents = map[discordgo.ComponentType]bool{
	discordgo.ActionsRowComponent: true, discordgo.ButtonComponent: true, discordgo.SelectMenuComponent: true,
	discordgo.TextInputComponent: true, discordgo.UserSelectMenuComponent: true, discordgo.RoleSelectMenuComponent: true,
	discordgo.MentionableSelectMenuComponent: true, discordgo.ChannelSelectMenuComponent: true,
	discordgo.SectionComponent: true, discordgo.TextDisplayComponent: true, discordgo.ThumbnailComponent: true,
	discordgo.MediaGalleryComponent: true, discordgo.FileComponentType: true, discordgo.SeparatorComponent: true,
	discordgo.ContainerComponent: true,
}

// lastOptionType is the highest application command option type
// discordgo v0.29.0 names (attachment).
const lastOptionType = discordgo.ApplicationCommandOptionAttachment

// decodeInteraction decodes an interaction's JSON. unknown names each part
// that was not understood and left out ("component type 16"); err is set
// only when the interaction cannot be read even without them. A JSON null
// decodes to a nil interaction.
func decodeInteraction(raw []byte) (ix *discordgo.Interaction, unknown []string, err error) {
	if err := json.Unmarshal(raw, &ix); err != nil {
		// The slow path, only for what discordgo refuses.
		tree, perr := parseTree(raw)
		if perr != nil {
			return nil, nil, err
		}
		tree = prune(tree, &unknown)
		clean, merr := json.Marshal(tree)
		if merr != nil {
			return nil, unknown, err
		}
		ix = nil
		if err := json.Unmarshal(clean, &ix); err != nil {
			return nil, unknown, err
		}
	}
	if ix == nil {
		return nil, unknown, nil
	}
	switch ix.Type {
	case discordgo.InteractionApplicationCommand, discordgo.InteractionApplicationCommandAutocomplete,
		discordgo.InteractionMessageComponent, discordgo.InteractionModalSubmit, discordgo.InteractionPing:
	default:
		unknown = append(unknown, fmt.Sprintf("interaction type %d", int(ix.Type)))
	}
	if d, ok := ix.Data.(discordgo.ApplicationCommandInteractionData); ok {
		unknown = unknownOptions(d.Options, unknown)
	}
	return ix, unknown, nil
}

// unknownOptions adds the option types past those discordgo names: their
// values reach the handlers undecoded, which treat them as absent.
func unknownOptions(opts []*discordgo.ApplicationCommandInteractionDataOption, unknown []string) []string {
	for _, o := range opts {
		if o == nil {
			continue
		}
		if o.Type < discordgo.ApplicationCommandOptionSubCommand || o.Type > lastOptionType {
			unknown = append(unknown, fmt.Sprintf("option type %d", int(o.Type)))
		}
		unknown = unknownOptions(o.Options, unknown)
	}
	return unknown
}

// parseTree reads JSON keeping numbers as written: snowflakes and
// permission integers must survive the round trip.
func parseTree(raw []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var tree any
	if err := dec.Decode(&tree); err != nil {
		return nil, err
	}
	return tree, nil
}

// prune walks the whole interaction: components can be found in the data,
// the message, resolved messages and snapshots of forwarded ones, nested
// in rows, sections and containers. Every "components" list and every
// "accessory" or "component" object keeps what discordgo can decode.
func prune(node any, unknown *[]string) any {
	switch v := node.(type) {
	case []any:
		for i := range v {
			v[i] = prune(v[i], unknown)
		}
	case map[string]any:
		for key, child := range v {
			switch key {
			case "components":
				if list, ok := child.([]any); ok {
					v[key] = pruneComponents(list, unknown)
					continue
				}
			case "accessory", "component":
				if c, ok := pruneComponent(child, unknown); ok {
					v[key] = c
				} else {
					delete(v, key)
				}
				continue
			}
			v[key] = prune(child, unknown)
		}
	}
	return node
}

func pruneComponents(list []any, unknown *[]string) []any {
	kept := list[:0]
	for _, c := range list {
		if c, ok := pruneComponent(c, unknown); ok {
			kept = append(kept, c)
		}
	}
	return kept
}

// pruneComponent returns c fit for discordgo, or false when it must go.
func pruneComponent(c any, unknown *[]string) (any, bool) {
	obj, ok := c.(map[string]any)
	if !ok {
		*unknown = append(*unknown, "component that is not an object")
		return nil, false
	}
	typ := componentType(obj)
	switch {
	case typ == labelComponent:
		inner, ok := pruneComponent(obj["component"], unknown)
		if !ok {
			return nil, false
		}
		row := map[string]any{"type": json.Number("1"), "components": []any{inner}}
		if id, ok := obj["id"]; ok {
			row["id"] = id
		}
		return row, true
	case knownComponents[typ]:
		return prune(obj, unknown), true
	default:
		*unknown = append(*unknown, fmt.Sprintf("component type %d", int(typ)))
		return nil, false
	}
}

// componentType reads a component's type; anything but a small whole
// number is type 0, which no component has.
func componentType(obj map[string]any) discordgo.ComponentType {
	n, ok := obj["type"].(json.Number)
	if !ok {
		return 0
	}
	i, err := n.Int64()
	if err != nil || i < 0 || i > 1<<16 {
		return 0
	}
	return discordgo.ComponentType(i)
}

// maxUnknownKinds bounds what the reporter remembers and the metric's
// labels: Discord adds a few types a year, not thousands.
const maxUnknownKinds = 32

// unknownReporter tells the operator what Discord sent that this build
// does not understand: a counter per kind, and one log line the first
// time each kind is seen, not one per event.
type unknownReporter struct {
	log     *slog.Logger
	metrics metrics.Unknowns

	mu   sync.Mutex
	seen map[string]bool
}

func newUnknownReporter(log *slog.Logger, m metrics.Unknowns) *unknownReporter {
	if m == nil {
		m = metrics.Nop{}
	}
	return &unknownReporter{log: log, metrics: m, seen: map[string]bool{}}
}

func (u *unknownReporter) report(kinds []string) {
	for _, kind := range kinds {
		u.mu.Lock()
		first := !u.seen[kind]
		if first {
			if len(u.seen) >= maxUnknownKinds {
				kind, first = "other", !u.seen["other"]
			}
			u.seen[kind] = true
		}
		u.mu.Unlock()
		u.metrics.NotUnderstood(kind)
		if first {
			u.log.Warn("Discord sent something this build does not understand; it was left out and the interaction answered without it (logged once per kind; see mazebot_discord_not_understood_total)", "what", kind)
		}
	}
}

var quietDiscordgoOnce sync.Once

// quietDiscordgo keeps discordgo from logging each INTERACTION_CREATE it
// fails to decode: the bot decodes it again itself and unknownReporter
// says once what was not understood. Everything else discordgo logs is
// written as discordgo writes it. discordgo.Logger is the library's one
// process-wide hook.
func quietDiscordgo() {
	quietDiscordgoOnce.Do(func() {
		discordgo.Logger = func(level, caller int, format string, a ...any) {
			if strings.HasPrefix(format, "error unmarshalling %s event") && len(a) > 0 && a[0] == "INTERACTION_CREATE" {
				return
			}
			// As discordgo's own msglog, one frame further down.
			pc, file, line, _ := runtime.Caller(caller + 1)
			name := runtime.FuncForPC(pc).Name()
			name = name[strings.LastIndex(name, ".")+1:]
			log.Printf("[DG%d] %s:%d:%s() %s\n", level, path.Base(file), line, name, fmt.Sprintf(format, a...))
		}
	})
}
