package discord

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/bwmarrin/discordgo"

	"mazebot/bot"
)

// fakeREST records the requests a responder makes.
type fakeREST struct {
	mu    sync.Mutex
	calls []string
}

func (f *fakeREST) record(format string, args ...any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, fmt.Sprintf(format, args...))
}

func (f *fakeREST) Respond(_ context.Context, _ *discordgo.Interaction, resp *callback) error {
	flags, files := 0, ""
	if resp.Data != nil {
		flags = int(resp.Data.Flags)
		for _, file := range resp.Data.files {
			files += fmt.Sprintf(" file %s=%s", file.Name, file.Data)
		}
	}
	f.record("respond type=%d flags=%d%s", resp.Type, flags, files)
	return nil
}

func (f *fakeREST) EditOriginal(_ context.Context, _ *discordgo.Interaction, m *message) error {
	var content string
	_ = json.Unmarshal(m.Content, &content) // none or null: ""
	f.record("edit content=%q attachments=%s", content, attachmentNames(m))
	return nil
}

func (f *fakeREST) DeleteOriginal(context.Context, *discordgo.Interaction) error {
	f.record("delete original")
	return nil
}

func (f *fakeREST) Followup(_ context.Context, _ *discordgo.Interaction, m *message) error {
	var content string
	_ = json.Unmarshal(m.Content, &content) // none or null: ""
	f.record("followup flags=%d content=%q", m.Flags, content)
	return nil
}

func TestResponder(t *testing.T) {
	ctx := context.Background()
	command := &discordgo.Interaction{Type: discordgo.InteractionApplicationCommand}
	button := &discordgo.Interaction{Type: discordgo.InteractionMessageComponent}
	public := bot.Reply{Content: "hi"}
	private := bot.Reply{Content: "psst", Ephemeral: true}
	for _, tc := range []struct {
		name  string
		ix    *discordgo.Interaction
		steps func(r *responder) error
		want  []string
	}{
		{"OKReply", command, func(r *responder) error { return r.Reply(ctx, public) },
			[]string{"respond type=4 flags=0"}},
		{"OKEphemeralReply", command, func(r *responder) error { return r.Reply(ctx, private) },
			[]string{"respond type=4 flags=64"}},
		{"OKDeferThenReplyEdits", command, func(r *responder) error {
			if err := r.Defer(ctx, false); err != nil {
				return err
			}
			return r.Reply(ctx, public)
		}, []string{"respond type=5 flags=0", `edit content="hi" attachments=[]`}},
		{"OKDeferPublicReplyPrivate", command, func(r *responder) error {
			if err := r.Defer(ctx, false); err != nil {
				return err
			}
			return r.Reply(ctx, private)
		}, []string{"respond type=5 flags=0", "delete original", `followup flags=64 content="psst"`}},
		{"OKSecondDeferIsNoop", command, func(r *responder) error {
			if err := r.Defer(ctx, true); err != nil {
				return err
			}
			return r.Defer(ctx, false)
		}, []string{"respond type=5 flags=64"}},
		{"OKButtonUpdate", button, func(r *responder) error { return r.Update(ctx, public) },
			[]string{"respond type=7 flags=0"}},
		{"OKAutoDeferButtonThenUpdate", button, func(r *responder) error {
			if err := r.Acknowledge(ctx); err != nil {
				return err
			}
			return r.Update(ctx, public)
		}, []string{"respond type=6 flags=0", `edit content="hi" attachments=[]`}},
		{"OKAutoDeferButtonThenReply", button, func(r *responder) error {
			if err := r.Acknowledge(ctx); err != nil {
				return err
			}
			return r.Reply(ctx, private)
		}, []string{"respond type=6 flags=0", `followup flags=64 content="psst"`}},
		{"OKAutoDeferAfterReplyIsNoop", command, func(r *responder) error {
			if err := r.Reply(ctx, public); err != nil {
				return err
			}
			return r.Acknowledge(ctx)
		}, []string{"respond type=4 flags=0"}},
		{"OKFilesAreFreshEachTime", command, func(r *responder) error {
			return r.Reply(ctx, bot.Reply{Files: []bot.File{{Name: "a.png", Data: []byte("PNG")}}})
		}, []string{"respond type=4 flags=0 file a.png=PNG"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rest := &fakeREST{}
			r := &responder{api: rest, ix: tc.ix}
			if err := tc.steps(r); err != nil {
				t.Fatal(err)
			}
			if got, want := strings.Join(rest.calls, "\n"), strings.Join(tc.want, "\n"); got != want {
				t.Fatalf("requests:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

func TestResponderSecondReplyFails(t *testing.T) {
	r := &responder{api: &fakeREST{}, ix: &discordgo.Interaction{Type: discordgo.InteractionApplicationCommand}}
	if err := r.Reply(context.Background(), bot.Reply{Content: "one"}); err != nil {
		t.Fatal(err)
	}
	if err := r.Reply(context.Background(), bot.Reply{Content: "two"}); err != errAlreadyReplied {
		t.Fatalf("second Reply err=%v, want errAlreadyReplied (the router then sends a followup)", err)
	}
}

// TestResponderChoices: an autocompletion is answered with its choices
// (type 8), once; the automatic deferral leaves it alone, as Discord has
// no deferral for it.
func TestResponderChoices(t *testing.T) {
	ctx := context.Background()
	api := &fakeREST{}
	r := &responder{api: api, ix: &discordgo.Interaction{Type: discordgo.InteractionApplicationCommandAutocomplete}}
	if err := r.Acknowledge(ctx); err != nil {
		t.Fatal(err)
	}
	if err := r.Choices(ctx, []*discordgo.ApplicationCommandOptionChoice{{Name: "Asia/Seoul", Value: "Asia/Seoul"}}); err != nil {
		t.Fatal(err)
	}
	if err := r.Choices(ctx, nil); err != errAlreadyReplied {
		t.Fatalf("second answer: %v, want errAlreadyReplied", err)
	}
	if got, want := strings.Join(api.calls, "\n"), "respond type=8 flags=0"; got != want {
		t.Fatalf("requests %q, want %q", got, want)
	}
}

// attachmentNames is a message's attachments list as the test reads it:
// "-" for none sent (the old ones stay), else the files it keeps, [] for
// none.
func attachmentNames(m *message) string {
	if m.Attachments == nil {
		return "-"
	}
	var names []string
	for _, a := range *m.Attachments {
		names = append(names, a.Filename)
	}
	return "[" + strings.Join(names, " ") + "]"
}
