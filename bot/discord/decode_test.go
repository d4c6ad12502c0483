package discord

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log"
	"log/slog"
	"slices"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"mazebot/internal/testkit"
)

// interactionWith is an interaction of type typ whose data is data and
// whose message (the one a button is on) has components msg.
func interactionWith(typ discordgo.InteractionType, data map[string]any, msg []any) []byte {
	ix := map[string]any{
		"id": "1300000000000000001", "application_id": "1300000000000000002", "token": "tok", "type": int(typ),
		"version": 1, "locale": "en-US", "channel_id": "1300000000000000003", "guild_id": "1300000000000000004",
		"app_permissions": "117760",
		"member":          map[string]any{"user": map[string]any{"id": "1300000000000000005", "username": "ann"}, "permissions": "2048"},
		"data":            data,
	}
	if msg != nil {
		ix["message"] = map[string]any{"id": "1300000000000000006", "channel_id": "1300000000000000003", "flags": 1<<15 | 1<<40, "components": msg, "a_field_from_2030": true}
	}
	b, err := json.Marshal(ix)
	if err != nil {
		panic(err)
	}
	return b
}

func TestDecodeInteraction(t *testing.T) {
	inventory := map[string]any{"type": 16, "id": 3, "content_inventory_entry": map[string]any{"id": "7"}}
	button := map[string]any{"type": 2, "id": 5, "style": 1, "label": "Solve", "custom_id": "solve:abc"}
	for name, tc := range map[string]struct {
		raw     []byte
		unknown []string
		check   func(t *testing.T, ix *discordgo.Interaction)
	}{
		"OKKnownFastPath": {
			raw: interactionWith(discordgo.InteractionMessageComponent, map[string]any{"custom_id": "solve:abc", "component_type": 2},
				[]any{map[string]any{"type": 1, "components": []any{button}}}),
			check: func(t *testing.T, ix *discordgo.Interaction) {
				if len(ix.Message.Components) != 1 {
					t.Fatalf("components %v", ix.Message.Components)
				}
			},
		},
		"OKButtonBesideUnknownInContainer": {
			raw: interactionWith(discordgo.InteractionMessageComponent, map[string]any{"custom_id": "solve:abc", "component_type": 2},
				[]any{map[string]any{"type": 17, "components": []any{inventory, map[string]any{"type": 1, "components": []any{button}}}}}),
			unknown: []string{"component type 16"},
			check: func(t *testing.T, ix *discordgo.Interaction) {
				if ix.MessageComponentData().CustomID != "solve:abc" || ix.Member.User.ID != "1300000000000000005" {
					t.Fatalf("own fields lost: %+v", ix)
				}
				box := ix.Message.Components[0].(*discordgo.Container)
				if len(box.Components) != 1 || box.Components[0].Type() != discordgo.ActionsRowComponent {
					t.Fatalf("container holds %v, want the row alone", box.Components)
				}
			},
		},
		"OKSectionWithUnknownAccessory": {
			raw: interactionWith(discordgo.InteractionMessageComponent, map[string]any{"custom_id": "solve:abc", "component_type": 2},
				[]any{map[string]any{"type": 9, "components": []any{map[string]any{"type": 10, "content": "hi"}}, "accessory": map[string]any{"type": 99}}}),
			unknown: []string{"component type 99"},
			check: func(t *testing.T, ix *discordgo.Interaction) {
				if s := ix.Message.Components[0].(*discordgo.Section); s.Accessory != nil || len(s.Components) != 1 {
					t.Fatalf("section %+v", s)
				}
			},
		},
		"OKMessageCommandOnUnknownTarget": {
			raw: interactionWith(discordgo.InteractionApplicationCommand, map[string]any{
				"id": "9", "name": "Solve this maze", "type": 3, "target_id": "1300000000000000010",
				"resolved": map[string]any{"messages": map[string]any{"1300000000000000010": map[string]any{
					"id": "1300000000000000010", "content": "", "components": []any{map[string]any{"type": 17, "components": []any{inventory}}},
					"message_snapshots": []any{map[string]any{"message": map[string]any{"components": []any{inventory}}}},
				}}},
			}, nil),
			unknown: []string{"component type 16", "component type 16"},
			check: func(t *testing.T, ix *discordgo.Interaction) {
				d := ix.ApplicationCommandData()
				if d.Name != "Solve this maze" || d.TargetID != "1300000000000000010" || d.Resolved.Messages[d.TargetID] == nil {
					t.Fatalf("command data lost: %+v", d)
				}
			},
		},
		"OKModalLabelsUnwrapped": {
			raw: interactionWith(discordgo.InteractionModalSubmit, map[string]any{"custom_id": "feedback", "components": []any{
				map[string]any{"type": 18, "id": 1, "component": map[string]any{"type": 4, "custom_id": "note", "value": "lovely"}},
				map[string]any{"type": 18, "id": 2, "component": map[string]any{"type": 23, "custom_id": "again", "value": true}},
				map[string]any{"type": 19, "custom_id": "file", "values": []any{"1"}},
			}}, nil),
			unknown: []string{"component type 23", "component type 19"},
			check: func(t *testing.T, ix *discordgo.Interaction) {
				d := ix.ModalSubmitData()
				if len(d.Components) != 1 {
					t.Fatalf("modal components %v, want the one text input's row", d.Components)
				}
				row := d.Components[0].(*discordgo.ActionsRow)
				if in := row.Components[0].(*discordgo.TextInput); in.CustomID != "note" || in.Value != "lovely" || row.ID != 1 {
					t.Fatalf("text input %+v in row %d", in, row.ID)
				}
			},
		},
		"OKUnknownOptionType": {
			raw: interactionWith(discordgo.InteractionApplicationCommand, map[string]any{"id": "9", "name": "maze", "type": 1,
				"options": []any{map[string]any{"name": "size", "type": 4, "value": 21}, map[string]any{"name": "shape", "type": 42, "value": map[string]any{"x": 1}}}}, nil),
			unknown: []string{"option type 42"},
			check: func(t *testing.T, ix *discordgo.Interaction) {
				if len(ix.ApplicationCommandData().Options) != 2 {
					t.Fatal("options lost")
				}
			},
		},
		"OKUnknownInteractionType": {
			raw:     interactionWith(9, map[string]any{"id": "1"}, nil),
			unknown: []string{"interaction type 9"},
			check: func(t *testing.T, ix *discordgo.Interaction) {
				if !newInteractionType(ix) || unanswerable(ix) == "" {
					t.Fatalf("type %d: new=%v", ix.Type, newInteractionType(ix))
				}
			},
		},
		"OKSnowflakesExact": {
			raw: interactionWith(discordgo.InteractionMessageComponent, map[string]any{"custom_id": "solve:abc", "component_type": 2, "values": []any{}},
				[]any{inventory, map[string]any{"type": 1, "components": []any{button}}}),
			unknown: []string{"component type 16"},
			check: func(t *testing.T, ix *discordgo.Interaction) {
				if ix.ID != "1300000000000000001" || ix.Message.Flags != 1<<15|1<<40 || ix.AppPermissions != 117760 {
					t.Fatalf("id %s flags %d perms %d", ix.ID, ix.Message.Flags, ix.AppPermissions)
				}
			},
		},
	} {
		t.Run(name, func(t *testing.T) {
			ix, unknown, err := decodeInteraction(tc.raw)
			if err != nil {
				t.Fatal(err)
			}
			slices.Sort(unknown)
			slices.Sort(tc.unknown)
			if !slices.Equal(unknown, tc.unknown) {
				t.Fatalf("unknown %q, want %q", unknown, tc.unknown)
			}
			tc.check(t, ix)
		})
	}
	t.Run("ErrNotJSON", func(t *testing.T) {
		if _, _, err := decodeInteraction([]byte(`{"id":`)); err == nil {
			t.Fatal("no error")
		}
	})
	t.Run("ErrWrongFieldType", func(t *testing.T) {
		// Not something new: a field of the wrong type stays an error.
		if _, _, err := decodeInteraction([]byte(`{"id":"1","type":3,"data":{"custom_id":5},"message":{"components":[{"type":16}]}}`)); err == nil {
			t.Fatal("no error")
		}
	})
	t.Run("OKNull", func(t *testing.T) {
		if ix, _, err := decodeInteraction([]byte(`null`)); ix != nil || err != nil {
			t.Fatalf("%v %v", ix, err)
		}
	})
}

// componentTree makes a random component tree from the fuzzer's bytes:
// known and unknown types, nested in rows, containers, sections and
// labels, with the odd entry that is not an object at all.
type componentTree struct {
	b []byte
	i int
}

func (g *componentTree) next() int {
	if g.i >= len(g.b) {
		return 0
	}
	g.i++
	return int(g.b[g.i-1])
}

var fuzzTypes = []any{1, 2, 3, 4, 9, 10, 11, 12, 13, 14, 17, 18, 0, 15, 16, 19, 20, 21, 22, 23, 99, 70000, -1, "2", nil, 1.5}

func (g *componentTree) component(depth int) any {
	c := g.next()
	if c == 255 {
		return "not a component"
	}
	typ := fuzzTypes[c%len(fuzzTypes)]
	obj := map[string]any{"type": typ, "id": g.next()}
	switch typ {
	case 2:
		obj["custom_id"], obj["style"] = fmt.Sprintf("b%d", g.next()), 1
	case 4:
		obj["custom_id"], obj["value"] = fmt.Sprintf("t%d", g.next()), "typed"
	case 10:
		obj["content"] = "text"
	}
	if depth < 4 {
		switch g.next() % 4 {
		case 1:
			obj["component"] = g.component(depth + 1)
		case 2:
			obj["accessory"] = g.component(depth + 1)
		case 3:
			obj["components"] = g.list(depth + 1)
		}
	}
	return obj
}

func (g *componentTree) list(depth int) []any {
	out := []any{}
	for range g.next() % 5 {
		out = append(out, g.component(depth))
	}
	return out
}

// FuzzDecodeInteraction: whatever components an interaction carries, in
// the message, a modal's data or a menu command's target, an interaction
// whose own fields are valid is never lost.
func FuzzDecodeInteraction(f *testing.F) {
	f.Add([]byte{}, uint8(0))
	f.Add([]byte{10, 1, 3, 3, 14, 2, 0, 0}, uint8(1))
	f.Add([]byte{11, 1, 1, 4, 2, 7, 3, 1}, uint8(2))
	f.Add([]byte{255, 16, 3, 3, 18, 9, 1, 3, 4, 0}, uint8(0))
	f.Fuzz(func(t *testing.T, tree []byte, kind uint8) {
		g := &componentTree{b: tree}
		comps := g.list(0)
		var raw []byte
		switch kind % 3 {
		case 0:
			raw = interactionWith(discordgo.InteractionMessageComponent, map[string]any{"custom_id": "solve:abc", "component_type": 2}, comps)
		case 1:
			raw = interactionWith(discordgo.InteractionModalSubmit, map[string]any{"custom_id": "feedback", "components": comps}, comps)
		case 2:
			raw = interactionWith(discordgo.InteractionApplicationCommand, map[string]any{"id": "9", "name": "Solve this maze", "type": 3,
				"target_id": "10", "resolved": map[string]any{"messages": map[string]any{"10": map[string]any{"id": "10", "components": comps}}}}, nil)
		}
		ix, _, err := decodeInteraction(raw)
		if err != nil {
			t.Fatalf("lost: %v\n%s", err, raw)
		}
		if why := unanswerable(ix); why != "" || ix.ID != "1300000000000000001" || ix.Token != "tok" {
			t.Fatalf("unanswerable (%q) or own fields lost: %+v", why, ix)
		}
	})
}

func TestUnknownReporterLogsOncePerKind(t *testing.T) {
	var logs testkit.LogBuffer
	counts := map[string]int{}
	u := newUnknownReporter(slog.New(slog.NewTextHandler(&logs, nil)), countUnknowns(counts))
	for range 3 {
		u.report([]string{"component type 16", "component type 21"})
	}
	for i := range maxUnknownKinds + 5 {
		u.report([]string{fmt.Sprintf("option type %d", 100+i)})
	}
	if counts["component type 16"] != 3 || counts["other"] != 7 {
		t.Fatalf("counted %v", counts)
	}
	if n := strings.Count(logs.String(), `what="component type 16"`); n != 1 {
		t.Fatalf("%d log lines for type 16, want 1:\n%s", n, logs.String())
	}
	if n := strings.Count(logs.String(), "does not understand"); n != maxUnknownKinds+1 {
		t.Fatalf("%d log lines, want one per kind up to %d and one for the rest", n, maxUnknownKinds)
	}
}

type countUnknowns map[string]int

func (c countUnknowns) NotUnderstood(what string) { c[what]++ }

// discordgo's own line for each INTERACTION_CREATE it cannot decode is
// left out; its other lines are written as before.
func TestQuietDiscordgo(t *testing.T) {
	quietDiscordgo()
	var buf bytes.Buffer
	old := log.Writer()
	log.SetOutput(&buf)
	defer log.SetOutput(old)
	discordgo.Logger(discordgo.LogError, 2, "error unmarshalling %s event, %s", "INTERACTION_CREATE", "unknown component type: 16")
	if buf.Len() != 0 {
		t.Fatalf("logged %q", buf.String())
	}
	discordgo.Logger(discordgo.LogError, 2, "error unmarshalling %s event, %s", "GUILD_CREATE", "oops")
	if !strings.Contains(buf.String(), "[DG0]") || !strings.Contains(buf.String(), "GUILD_CREATE event, oops") {
		t.Fatalf("logged %q", buf.String())
	}
}
