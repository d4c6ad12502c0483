package e2e

// Issue 36: interactions that carry what discordgo v0.29.0 cannot decode (a
// component type newer than the library, a Label in a modal, an interaction
// type Discord has not invented yet) are answered, over the gateway and
// over the HTTP endpoint, and the operator hears of each kind once.

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"mazebot/internal/fakediscord"
	"mazebot/internal/fakediscord/member"
)

// componentsV2 is the message flag IS_COMPONENTS_V2.
const componentsV2 = 1 << 15

// otherAppsMessage is another app's Components V2 message whose container
// holds a content inventory entry (type 16), which discordgo cannot decode.
const otherAppsMessage = `[{"type":17,"id":1,"components":[
	{"type":10,"id":2,"content":"Weekly quest log"},
	{"type":16,"id":3,"content_inventory_entry":{"id":"7","traits":[]}},
	{"type":9,"id":4,"components":[{"type":10,"id":5,"content":"side"}],"accessory":{"type":99,"id":6}}
]}]`

func TestE2EUnknownComponents(t *testing.T) {
	t.Parallel()
	for _, via := range []string{"Gateway", "HTTPEndpoint"} {
		t.Run(via, func(t *testing.T) {
			t.Parallel()
			d := newDiscord(t)
			var a *testApp
			if via == "Gateway" {
				a = d.startApp(t)
			} else {
				a = d.startHTTPApp(t)
			}
			other := d.PostChannelMessage(fakediscord.DefaultChannelID, fakediscord.Message{
				AuthorID: "1300000000000000777", AuthorUsername: "questbot", AuthorBot: true,
				Flags: componentsV2, ComponentsJSON: json.RawMessage(otherAppsMessage),
			})
			card := final(t, d.slash(t, "maze", opt("algorithm", "sidewinder"), opt("size", 9)))
			solveID := ""
			for _, b := range card.Buttons() {
				if strings.HasPrefix(b.CustomID, "solve:") {
					solveID = b.CustomID
				}
			}
			if solveID == "" {
				t.Fatalf("the card has no Solve button: %v", card.Buttons())
			}

			// Twice each: the second time must not log again.
			for round := range 2 {
				ctx := testContext(t)
				ix, err := d.MessageCommand(ctx, member.MessageCommandSpec{Name: "Solve this maze", Target: other})
				if err != nil {
					t.Fatal(err)
				}
				if msg := final(t, ix); !msg.Ephemeral() || !strings.Contains(msg.Text(), "not one of my mazes") {
					t.Fatalf("round %d: Solve this maze answered %q (ephemeral %v), want the private refusal", round, msg.Text(), msg.Ephemeral())
				}

				// The card as a client could show it once Discord adds a
				// component: the Solve button beside a type-21 radio group.
				var comps []any
				if err := json.Unmarshal(card.ComponentsJSON, &comps); err != nil {
					t.Fatal(err)
				}
				comps = append(comps, map[string]any{"type": 21, "id": 90, "custom_id": "poll", "options": []any{}})
				raw, _ := json.Marshal(comps)
				forged := &fakediscord.Message{ID: "1300000000000000888", ChannelID: card.ChannelID, GuildID: card.GuildID,
					AuthorID: card.AuthorID, AuthorBot: true, Flags: card.Flags, ComponentsJSON: raw}
				ix, err = d.ClickButton(ctx, member.ButtonSpec{CustomID: solveID, Message: forged})
				if err != nil {
					t.Fatal(err)
				}
				if msg := final(t, ix); !msg.Ephemeral() || !strings.Contains(msg.Text(), "path") {
					t.Fatalf("round %d: Solve on a message with an unknown component answered %q (ephemeral %v), want the solution, privately", round, msg.Text(), msg.Ephemeral())
				}

				// A modal's fields in Labels (18) beside a checkbox (23).
				ix, err = d.Send(ctx, fakediscord.Action{Type: discordgo.InteractionModalSubmit, Data: map[string]any{
					"custom_id": "feedback",
					"components": []any{
						map[string]any{"type": 18, "id": 1, "component": map[string]any{"type": 4, "id": 2, "custom_id": "note", "value": "lovely maze"}},
						map[string]any{"type": 18, "id": 3, "component": map[string]any{"type": 23, "id": 4, "custom_id": "again", "value": true}},
					},
				}})
				if err != nil {
					t.Fatal(err)
				}
				if msg := final(t, ix); !msg.Ephemeral() {
					t.Fatalf("round %d: the modal submit was answered in public: %q", round, msg.Text())
				}
			}
			for _, kind := range []string{"component type 16", "component type 99", "component type 21", "component type 23"} {
				waitLog(t, a, 1, "does not understand", `what="`+kind+`"`)
			}
			if n := strings.Count(a.logs.String(), "dropped a malformed interaction"); n != 0 {
				t.Fatalf("%d interactions dropped", n)
			}
		})
	}
}

// A kind of interaction newer than the bot gets a private answer, not
// silence.
func TestE2EUnknownInteractionType(t *testing.T) {
	t.Parallel()
	d := newDiscord(t)
	a := d.startApp(t)
	ix, err := d.Send(testContext(t), fakediscord.Action{Type: 9, Data: map[string]any{"id": "1"}})
	if err != nil {
		t.Fatal(err)
	}
	msg := final(t, ix)
	if !msg.Ephemeral() || !strings.Contains(msg.Text(), "cannot handle yet") {
		t.Fatalf("answered %q (ephemeral %v), want a private note that it is new", msg.Text(), msg.Ephemeral())
	}
	waitLog(t, a, 1, "does not understand", `what="interaction type 9"`)
}
