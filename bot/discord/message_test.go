package discord

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"mazebot/bot"
)

func TestNewMessage(t *testing.T) {
	file := bot.File{Name: "maze.png", ContentType: "image/png", Data: []byte("PNG"), Description: "A 21×21 maze"}
	card := []discordgo.MessageComponent{discordgo.Container{Components: []discordgo.MessageComponent{discordgo.TextDisplay{Content: "hi"}}}}
	for _, tc := range []struct {
		name    string
		reply   bot.Reply
		mode    replacing
		want    []string // in the JSON
		wantNot []string // top-level keys it must not have
	}{
		{"OKPlain", bot.Reply{Content: "hi"}, creating, []string{`"content":"hi"`, `"components":[]`}, []string{"embeds", "attachments", "flags"}},
		{"OKPlainEdit", bot.Reply{Content: "hi"}, replaceAll, []string{`"content":"hi"`, `"embeds":[]`, `"components":[]`, `"attachments":[]`}, []string{"flags"}},
		{"OKKeepOldFiles", bot.Reply{Content: "hi"}, keepOldFiles, []string{`"embeds":[]`}, []string{"attachments"}},
		{"OKEphemeral", bot.Reply{Content: "psst", Ephemeral: true}, creating, []string{`"flags":64`}, nil},
		{"OKAltText", bot.Reply{Content: "m", Files: []bot.File{file}}, creating, []string{`"attachments":[{"id":"0","filename":"maze.png","description":"A 21×21 maze"}]`}, nil},
		// Components V2: no content, not even "", and the flag; an edit
		// clears the content with null (converting a message needs it).
		{"OKV2", bot.Reply{V2: true, Components: card, Files: []bot.File{file}}, creating, []string{`"flags":32768`, `"type":17`, `"description":"A 21×21 maze"`}, []string{"content", "embeds"}},
		{"OKV2Edit", bot.Reply{V2: true, Components: card}, replaceAll, []string{`"content":null`, `"flags":32768`, `"embeds":[]`, `"attachments":[]`}, nil},
		{"OKV2Ephemeral", bot.Reply{V2: true, Components: card, Ephemeral: true}, creating, []string{`"flags":32832`}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			raw, err := json.Marshal(newMessage(tc.reply, tc.mode))
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if !strings.Contains(string(raw), w) {
					t.Errorf("%s lacks %s", raw, w)
				}
			}
			var top map[string]json.RawMessage
			if err := json.Unmarshal(raw, &top); err != nil {
				t.Fatal(err)
			}
			for _, k := range tc.wantNot {
				if _, ok := top[k]; ok {
					t.Errorf("%s has %q", raw, k)
				}
			}
		})
	}
}
