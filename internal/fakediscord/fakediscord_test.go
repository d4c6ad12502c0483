package fakediscord_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"

	"mazebot/internal/fakediscord"
	"mazebot/internal/fakediscord/member"
)

const testToken = "Bot test-app.token-value"

// discord is a test's fake Discord: Discord's side (the Server), and its
// members' (a member.Client).
type discord struct {
	*fakediscord.Server
	*member.Client
}

// newDiscord starts a fake Discord for the test, closed at its end.
func newDiscord(t *testing.T, cfg fakediscord.Config) *discord {
	t.Helper()
	srv := fakediscord.New(cfg)
	t.Cleanup(srv.Close)
	return &discord{Server: srv, Client: member.New(srv)}
}

// Discord's gateway opcodes and close codes, and its send limit
// (discord-api-docs, topics/opcodes-and-status-codes, events/gateway).
const (
	opDispatch       = 0
	opHeartbeat      = 1
	opIdentify       = 2
	opPresenceUpdate = 3
	opResume         = 6
	opInvalidSession = 9
	opHello          = 10
	opHeartbeatACK   = 11

	closeRateLimited      = 4008
	closeInvalidShard     = 4010
	closeShardingRequired = 4011

	sendLimit = 120 // payloads a connection may send a minute
)

// ---- scripted bot ----

type script func(s *discordgo.Session, i *discordgo.Interaction) error

// bot is a discordgo session connected to a test's own fake Discord, that
// answers interactions with the scripts the test gives it.
type bot struct {
	*discordgo.Session
	mu      sync.Mutex
	scripts map[string]script
	results map[string]chan error
}

// setup starts a fake Discord of the test's own and a bot connected to it
// through its Transport (discordgo's global endpoints stay as they are),
// and waits until the bot is ready.
func setup(t *testing.T) (context.Context, *discord, *bot) {
	t.Helper()
	fake := newDiscord(t, fakediscord.Config{Token: testToken})
	b := &bot{Session: newSession(t, fake, testToken), scripts: map[string]script{}, results: map[string]chan error{}}
	b.AddHandler(b.onInteraction)
	if err := b.Open(); err != nil {
		t.Fatalf("open a discordgo session against the fake: %v", err)
	}
	t.Cleanup(func() { _ = b.Close() }) // before fake.Close
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	if err := fake.WaitReady(ctx); err != nil {
		t.Fatalf("WaitReady: %v", err)
	}
	return ctx, fake, b
}

// newSession is a discordgo session (not opened) whose requests reach fake.
func newSession(t *testing.T, fake *discord, token string) *discordgo.Session {
	t.Helper()
	s, err := discordgo.New(token)
	if err != nil {
		t.Fatal(err)
	}
	s.Client = fake.HTTPClient()
	s.Identify.Intents = discordgo.IntentsGuilds
	return s
}

// on makes the bot answer interactions with key (command name, or custom_id
// up to the first ':') by running fn for the rest of the test.
func (b *bot) on(t *testing.T, key string, fn script) {
	t.Helper()
	b.mu.Lock()
	b.scripts[key] = fn
	b.mu.Unlock()
	t.Cleanup(func() {
		b.mu.Lock()
		delete(b.scripts, key)
		b.mu.Unlock()
	})
}

func (b *bot) resultChan(id string) chan error {
	b.mu.Lock()
	defer b.mu.Unlock()
	ch, ok := b.results[id]
	if !ok {
		ch = make(chan error, 1)
		b.results[id] = ch
	}
	return ch
}

func (b *bot) onInteraction(s *discordgo.Session, ic *discordgo.InteractionCreate) {
	var key string
	switch ic.Type {
	case discordgo.InteractionApplicationCommand, discordgo.InteractionApplicationCommandAutocomplete:
		key = ic.ApplicationCommandData().Name
	case discordgo.InteractionMessageComponent:
		key, _, _ = strings.Cut(ic.MessageComponentData().CustomID, ":")
	case discordgo.InteractionModalSubmit:
		key = ic.ModalSubmitData().CustomID
	}
	b.mu.Lock()
	fn := b.scripts[key]
	b.mu.Unlock()
	var err error
	if fn == nil {
		err = fmt.Errorf("no script for %q", key)
	} else {
		err = fn(s, ic.Interaction)
	}
	b.resultChan(ic.ID) <- err
}

// eventually polls cond until it holds or ctx ends.
func eventually(ctx context.Context, cond func() bool) error {
	for !cond() {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(5 * time.Millisecond):
		}
	}
	return nil
}

// result is what the bot's script returned for ix.
func (b *bot) result(t *testing.T, ix *member.Interaction) error {
	t.Helper()
	select {
	case err := <-b.resultChan(ix.ID):
		return err
	case <-time.After(10 * time.Second):
		t.Fatalf("handler for interaction %s did not finish", ix.ID)
		return nil
	}
}

// slash runs a slash command as spec says; the test stops if the member
// cannot send it.
func (d *discord) slash(t *testing.T, ctx context.Context, spec member.SlashSpec) *member.Interaction {
	t.Helper()
	ix, err := d.SlashCommand(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

// restCode is the Discord error code of a discordgo REST error (0 if none).
func restCode(err error) int {
	var re *discordgo.RESTError
	if errors.As(err, &re) && re.Message != nil {
		return re.Message.Code
	}
	return 0
}

func reply(s *discordgo.Session, i *discordgo.Interaction, data *discordgo.InteractionResponseData) error {
	return s.InteractionRespond(i, &discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseChannelMessageWithSource, Data: data,
	})
}

func row(buttons ...discordgo.MessageComponent) discordgo.ActionsRow {
	return discordgo.ActionsRow{Components: buttons}
}

func button(id, label string) discordgo.Button {
	return discordgo.Button{CustomID: id, Label: label, Style: discordgo.PrimaryButton}
}

func pngBytes(t *testing.T, w, h int) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewRGBA(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// ---- tests ----

func TestReady(t *testing.T) {
	t.Parallel()
	_, fake, sess := setup(t)
	if got := fake.Identifies(); got < 1 {
		t.Errorf("Identifies()=%d, want at least 1", got)
	}
	sess.State.RLock()
	user, sid := sess.State.User, sess.State.SessionID
	sess.State.RUnlock()
	if user == nil {
		t.Fatal("State.User is nil after READY")
	}
	if got, want := user.ID, fakediscord.DefaultAppID; got != want {
		t.Errorf("State.User.ID=%q, want %q", got, want)
	}
	if !user.Bot {
		t.Error("State.User.Bot=false, want true")
	}
	if got, want := sid, fake.SessionID(); got != want {
		t.Errorf("State.SessionID=%q, want %q", got, want)
	}
	me, err := sess.User("@me")
	if err != nil {
		t.Fatalf("GET /users/@me: %v", err)
	}
	if got, want := me.ID, fakediscord.DefaultAppID; got != want {
		t.Errorf("/users/@me id=%q, want %q", got, want)
	}
	gb, err := sess.GatewayBot()
	if err != nil {
		t.Fatalf("GET /gateway/bot: %v", err)
	}
	if gb.Shards != 1 || !strings.HasPrefix(gb.URL, "ws://127.0.0.1:") {
		t.Errorf("gateway/bot = %+v", gb)
	}
}

func TestSlashCommandReplyAndButton(t *testing.T) {
	t.Parallel()
	ctx, fake, sess := setup(t)
	sess.on(t, "echo", func(s *discordgo.Session, i *discordgo.Interaction) error {
		d := i.ApplicationCommandData()
		if i.Member == nil || i.Member.User == nil || i.Member.Permissions == 0 || i.AppPermissions == 0 {
			return fmt.Errorf("member or permissions missing: %+v", i)
		}
		content := fmt.Sprintf("%s x%d by %s in %s (%s)", d.GetOption("text").StringValue(),
			d.GetOption("n").IntValue(), i.Member.User.Username, i.GuildID, string(i.Locale))
		return reply(s, i, &discordgo.InteractionResponseData{
			Content:    content,
			Components: []discordgo.MessageComponent{row(button("inc:1", "+1"), button("done", "Done"))},
		})
	})
	sess.on(t, "inc", func(s *discordgo.Session, i *discordgo.Interaction) error {
		if i.Message == nil || i.Message.ID == "" || len(i.Message.Components) != 1 {
			return fmt.Errorf("component interaction without its message: %+v", i.Message)
		}
		if i.Member == nil || i.Member.User.ID != "42" {
			return fmt.Errorf("clicker = %+v, want user 42", i.Member)
		}
		return s.InteractionRespond(i, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseUpdateMessage,
			Data: &discordgo.InteractionResponseData{
				Content:    i.Message.Content + " +1",
				Components: []discordgo.MessageComponent{row(button("inc:2", "+1"), button("done", "Done"))},
			},
		})
	})

	ix, err := fake.SlashCommand(ctx, member.SlashSpec{Name: "echo", Locale: "ko",
		Options: []member.Option{{Name: "text", Value: "hi"}, {Name: "n", Value: 3}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := sess.result(t, ix); err != nil {
		t.Fatalf("handler: %v", err)
	}
	resp, err := ix.Wait(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := "hi x3 by " + fakediscord.DefaultUsername + " in " + fakediscord.DefaultGuildID + " (ko)"
	if got := resp.Content; got != want {
		t.Errorf("reply content=%q, want %q", got, want)
	}
	if got, want := resp.Type, discordgo.InteractionResponseChannelMessageWithSource; got != want {
		t.Errorf("response type=%d, want %d", got, want)
	}
	msg, err := ix.WaitFinal(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := msg.Type, 20; got != want {
		t.Errorf("message type=%d, want %d", got, want)
	}
	if got := fake.ChannelMessages(fakediscord.DefaultChannelID); len(got) != 1 || got[0].ID != msg.ID {
		t.Errorf("ChannelMessages=%v, want the reply only", got)
	}
	btns := msg.Buttons()
	if len(btns) != 2 || btns[0].CustomID != "inc:1" || btns[1].Label != "Done" {
		t.Fatalf("buttons=%+v", btns)
	}

	click, err := fake.ClickButton(ctx, member.ButtonSpec{CustomID: "inc:1", Message: msg, UserID: "42"})
	if err != nil {
		t.Fatal(err)
	}
	if err := sess.result(t, click); err != nil {
		t.Fatalf("button handler: %v", err)
	}
	updated, err := click.WaitFinal(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := updated.ID, msg.ID; got != want {
		t.Errorf("type 7 edited message %s, want %s", got, want)
	}
	if got, want := updated.Content, want+" +1"; got != want {
		t.Errorf("updated content=%q, want %q", got, want)
	}
	if got, want := updated.Edits, 1; got != want {
		t.Errorf("Edits=%d, want %d", got, want)
	}
	if updated.Button("inc:2") == nil {
		t.Errorf("updated buttons=%+v, want inc:2", updated.Buttons())
	}
	// The old button is gone: a user cannot click it any more.
	if _, err := fake.ClickButton(ctx, member.ButtonSpec{CustomID: "inc:1", Message: msg}); err == nil {
		t.Error("clicking a button that is no longer on the message succeeded")
	}
	// Sent keeps both versions, with every text a reader sees.
	sent := fake.Sent()
	if len(sent) != 2 || sent[0].ID != msg.ID || sent[1].ID != msg.ID {
		t.Fatalf("Sent=%+v, want the reply and its update", sent)
	}
	for i, wantTexts := range [][]string{{want, "+1", "Done"}, {want + " +1", "+1", "Done"}} {
		if got := sent[i].Texts(); strings.Join(got, "|") != strings.Join(wantTexts, "|") {
			t.Errorf("Sent()[%d].Texts()=%q, want %q", i, got, wantTexts)
		}
	}
	embed := fakediscord.Message{Embeds: []*discordgo.MessageEmbed{{Title: "T", Description: "D", Fields: []*discordgo.MessageEmbedField{{Name: "N", Value: "V"}},
		Footer: &discordgo.MessageEmbedFooter{Text: "F"}, Author: &discordgo.MessageEmbedAuthor{Name: "A"}}}}
	if got := strings.Join(embed.Texts(), ""); got != "TDNVFA" {
		t.Errorf("embed Texts=%q", got)
	}
}

func TestMultipartReplyKeepsFile(t *testing.T) {
	t.Parallel()
	ctx, fake, sess := setup(t)
	img := pngBytes(t, 7, 5)
	sess.on(t, "file", func(s *discordgo.Session, i *discordgo.Interaction) error {
		return reply(s, i, &discordgo.InteractionResponseData{
			Content: "here",
			Files:   []*discordgo.File{{Name: "SPOILER_maze.png", ContentType: "image/png", Reader: bytes.NewReader(img)}},
		})
	})
	ix := fake.slash(t, ctx, member.SlashSpec{Name: "file"})
	if err := sess.result(t, ix); err != nil {
		t.Fatalf("handler: %v", err)
	}
	resp, err := ix.Wait(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Files) != 1 || !bytes.Equal(resp.Files[0].Data, img) {
		t.Fatalf("response files=%+v, want the PNG bytes", resp.Files)
	}
	msg, err := ix.WaitFinal(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	a := msg.Attachment("SPOILER_maze.png")
	if a == nil {
		t.Fatalf("attachments=%+v", msg.Attachments)
	}
	if !a.Spoiler() || a.Width != 7 || a.Height != 5 || a.ContentType != "image/png" || a.Size != len(img) {
		t.Errorf("attachment=%+v", a)
	}
	res, err := http.Get(a.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if !bytes.Equal(body, img) {
		t.Error("attachment URL does not serve the uploaded bytes")
	}
}

func TestLateCallbackIsUnknownInteraction(t *testing.T) {
	t.Parallel()
	ctx, fake, sess := setup(t)
	fake.SetResponseDeadline(150 * time.Millisecond)
	sess.on(t, "slow", func(s *discordgo.Session, i *discordgo.Interaction) error {
		time.Sleep(300 * time.Millisecond)
		return reply(s, i, &discordgo.InteractionResponseData{Content: "too late"})
	})
	ix := fake.slash(t, ctx, member.SlashSpec{Name: "slow"})
	if _, err := ix.Wait(ctx); !errors.Is(err, member.ErrNoResponse) {
		t.Errorf("Wait err=%v, want ErrNoResponse", err)
	}
	err := sess.result(t, ix)
	if got, want := restCode(err), 10062; got != want {
		t.Errorf("late callback: code %d (%v), want %d", got, err, want)
	}
	if rej := ix.Rejections(); len(rej) != 1 || rej[0].Status != http.StatusNotFound {
		t.Errorf("Rejections=%+v", rej)
	}
}

func TestDoubleAck(t *testing.T) {
	t.Parallel()
	ctx, fake, sess := setup(t)
	sess.on(t, "double", func(s *discordgo.Session, i *discordgo.Interaction) error {
		if err := reply(s, i, &discordgo.InteractionResponseData{Content: "one"}); err != nil {
			return fmt.Errorf("first: %w", err)
		}
		return reply(s, i, &discordgo.InteractionResponseData{Content: "two"})
	})
	ix := fake.slash(t, ctx, member.SlashSpec{Name: "double"})
	err := sess.result(t, ix)
	if got, want := restCode(err), 40060; got != want {
		t.Errorf("second ack: code %d (%v), want %d", got, err, want)
	}
	if resp, _ := ix.Wait(ctx); resp == nil || resp.Content != "one" {
		t.Errorf("recorded response=%+v, want the first", resp)
	}
}

func TestDeferThenEditAttachments(t *testing.T) {
	t.Parallel()
	ctx, fake, sess := setup(t)
	file := func(name string) *discordgo.File {
		return &discordgo.File{Name: name, ContentType: "text/plain", Reader: strings.NewReader(name)}
	}
	sess.on(t, "defer", func(s *discordgo.Session, i *discordgo.Interaction) error {
		if _, err := s.InteractionResponseEdit(i, &discordgo.WebhookEdit{}); restCode(err) != 10015 {
			return fmt.Errorf("edit before ack: %v, want 10015", err)
		}
		err := s.InteractionRespond(i, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseDeferredChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Flags: discordgo.MessageFlagsEphemeral},
		})
		if err != nil {
			return err
		}
		content := "ready"
		if _, err := s.InteractionResponseEdit(i, &discordgo.WebhookEdit{Content: &content, Files: []*discordgo.File{file("a.txt")}}); err != nil {
			return err
		}
		m, err := s.InteractionResponseEdit(i, &discordgo.WebhookEdit{Files: []*discordgo.File{file("b.txt")}})
		if err != nil {
			return err
		}
		if len(m.Attachments) != 2 {
			return fmt.Errorf("after an edit without an attachments list: %d attachments, want 2", len(m.Attachments))
		}
		_, err = s.InteractionResponseEdit(i, &discordgo.WebhookEdit{
			Attachments: &[]*discordgo.MessageAttachment{}, Files: []*discordgo.File{file("c.txt")},
		})
		return err
	})
	ix := fake.slash(t, ctx, member.SlashSpec{Name: "defer"})
	resp, err := ix.Wait(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Type != discordgo.InteractionResponseDeferredChannelMessageWithSource || !resp.Ephemeral() {
		t.Errorf("first response=%+v, want an ephemeral deferral", resp)
	}
	msg, err := ix.WaitFinal(ctx, func(m *fakediscord.Message) bool { return m.Edits == 3 })
	if err != nil {
		t.Fatal(err)
	}
	if err := sess.result(t, ix); err != nil {
		t.Fatalf("handler: %v", err)
	}
	if msg.Content != "ready" || !msg.Ephemeral() || msg.Loading() {
		t.Errorf("final message=%+v", msg)
	}
	if len(msg.Attachments) != 1 || msg.Attachments[0].Filename != "c.txt" || string(msg.Attachments[0].Data) != "c.txt" {
		t.Errorf("attachments=%+v, want only c.txt", msg.Attachments)
	}
}

func TestFollowupAfterDeferEditsLoadingMessage(t *testing.T) {
	t.Parallel()
	ctx, fake, sess := setup(t)
	sess.on(t, "fu", func(s *discordgo.Session, i *discordgo.Interaction) error {
		err := s.InteractionRespond(i, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource})
		if err != nil {
			return err
		}
		first, err := s.FollowupMessageCreate(i, true, &discordgo.WebhookParams{Content: "first", Flags: discordgo.MessageFlagsEphemeral})
		if err != nil {
			return err
		}
		if first.Flags&discordgo.MessageFlagsEphemeral != 0 {
			return fmt.Errorf("the followup that ends a public deferral became ephemeral")
		}
		_, err = s.FollowupMessageCreate(i, true, &discordgo.WebhookParams{Content: "second", Flags: discordgo.MessageFlagsEphemeral})
		return err
	})
	ix := fake.slash(t, ctx, member.SlashSpec{Name: "fu"})
	if err := sess.result(t, ix); err != nil {
		t.Fatalf("handler: %v", err)
	}
	orig, err := ix.WaitFinal(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if orig.Content != "first" {
		t.Errorf("original=%q, want the first followup's content", orig.Content)
	}
	fus := ix.Followups()
	if len(fus) != 1 || fus[0].Content != "second" || !fus[0].Ephemeral() {
		t.Errorf("followups=%+v, want one ephemeral \"second\"", fus)
	}
}

func TestMessageLimits(t *testing.T) {
	t.Parallel()
	ctx, fake, sess := setup(t)
	buttons := func(prefix string, n int) discordgo.ActionsRow {
		var r discordgo.ActionsRow
		for i := 0; i < n; i++ {
			r.Components = append(r.Components, button(fmt.Sprintf("%s%d", prefix, i), "x"))
		}
		return r
	}
	var rows6 []discordgo.MessageComponent
	for i := 0; i < 6; i++ {
		rows6 = append(rows6, buttons(fmt.Sprintf("r%d-", i), 1))
	}
	tests := []struct {
		name string
		data *discordgo.InteractionResponseData
		code int
	}{
		{"OK2000CodePoints", &discordgo.InteractionResponseData{Content: strings.Repeat("🟩", 2000)}, 0},
		{"ErrContent2001", &discordgo.InteractionResponseData{Content: strings.Repeat("⬛", 2001)}, 50035},
		{"ErrSixRows", &discordgo.InteractionResponseData{Content: "x", Components: rows6}, 50035},
		{"ErrSixButtons", &discordgo.InteractionResponseData{Content: "x", Components: []discordgo.MessageComponent{buttons("b", 6)}}, 50035},
		{"ErrLongCustomID", &discordgo.InteractionResponseData{Content: "x", Components: []discordgo.MessageComponent{row(button(strings.Repeat("c", 101), "x"))}}, 50035},
		{"ErrDuplicateCustomID", &discordgo.InteractionResponseData{Content: "x", Components: []discordgo.MessageComponent{row(button("same", "a")), row(button("same", "b"))}}, 50035},
		{"ErrEmpty", &discordgo.InteractionResponseData{}, 50006},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sess.on(t, "limits", func(s *discordgo.Session, i *discordgo.Interaction) error { return reply(s, i, tt.data) })
			ix := fake.slash(t, ctx, member.SlashSpec{Name: "limits"})
			err := sess.result(t, ix)
			if got := restCode(err); got != tt.code {
				t.Errorf("code=%d (%v), want %d", got, err, tt.code)
			}
		})
	}
}

// reconnect runs cause, which takes the bot's gateway connection away,
// waits until the bot is ready again and returns how many RESUMEs and
// IDENTIFYs that took.
func reconnect(t *testing.T, ctx context.Context, fake *discord, cause func()) (resumes, identifies int) {
	t.Helper()
	resumes, identifies = fake.Resumes(), fake.Identifies()
	cause()
	if err := fake.WaitReady(ctx); err != nil {
		t.Fatal(err)
	}
	return fake.Resumes() - resumes, fake.Identifies() - identifies
}

func TestDropGatewayResumes(t *testing.T) {
	t.Parallel()
	ctx, fake, sess := setup(t)
	if resumes, ids := reconnect(t, ctx, fake, fake.DropGateway); resumes != 1 || ids != 0 {
		t.Errorf("after a drop: %d RESUMEs and %d IDENTIFYs, want 1 and 0 (no new session)", resumes, ids)
	}
	sess.on(t, "after", func(s *discordgo.Session, i *discordgo.Interaction) error {
		return reply(s, i, &discordgo.InteractionResponseData{Content: "still here"})
	})
	ix := fake.slash(t, ctx, member.SlashSpec{Name: "after"})
	if m, err := ix.WaitFinal(ctx, nil); err != nil || m.Content != "still here" {
		t.Fatalf("after resume: %v %+v", err, m)
	}
}

func TestBulkOverwriteAndValidation(t *testing.T) {
	t.Parallel()
	ctx, fake, sess := setup(t)
	minSize := 5.0
	cmds := []*discordgo.ApplicationCommand{
		{Name: "maze", Description: "Make a maze", Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionString, Name: "algorithm", Description: "Algorithm", Required: true,
				Choices: []*discordgo.ApplicationCommandOptionChoice{{Name: "Sidewinder", Value: "sidewinder"}}},
			{Type: discordgo.ApplicationCommandOptionInteger, Name: "size", Description: "Size", MinValue: &minSize, MaxValue: 201},
		}},
		{Name: "Solve this maze", Type: discordgo.MessageApplicationCommand},
	}
	got, err := sess.ApplicationCommandBulkOverwrite(fakediscord.DefaultAppID, fakediscord.DefaultGuildID, cmds)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].ID == "" || got[0].ApplicationID != fakediscord.DefaultAppID || got[1].Type != discordgo.MessageApplicationCommand {
		t.Fatalf("bulk overwrite returned %+v", got)
	}
	guild, stored, puts := fake.Commands()
	if guild != fakediscord.DefaultGuildID || len(stored) != 2 || puts != 1 || stored[0].ID != got[0].ID {
		t.Errorf("Commands()=%q %d %d", guild, len(stored), puts)
	}
	// Same names keep their ids.
	again, err := sess.ApplicationCommandBulkOverwrite(fakediscord.DefaultAppID, fakediscord.DefaultGuildID, cmds)
	if err != nil || again[0].ID != got[0].ID {
		t.Errorf("second overwrite: %v, id %s want %s", err, again[0].ID, got[0].ID)
	}

	// A user can only send what the definition allows.
	for _, opts := range [][]member.Option{
		{{Name: "algorithm", Value: "prim"}},
		{{Name: "size", Value: 9}},
		{{Name: "algorithm", Value: "sidewinder"}, {Name: "size", Value: 3}},
		{{Name: "algorithm", Value: "sidewinder"}, {Name: "colour", Value: "red"}},
	} {
		if _, err := fake.SlashCommand(ctx, member.SlashSpec{Name: "maze", Options: opts}); err == nil {
			t.Errorf("options %+v were accepted", opts)
		}
	}
	sess.on(t, "maze", func(s *discordgo.Session, i *discordgo.Interaction) error {
		d := i.ApplicationCommandData()
		if d.ID != got[0].ID {
			return fmt.Errorf("command id %s, want %s", d.ID, got[0].ID)
		}
		return reply(s, i, &discordgo.InteractionResponseData{Content: fmt.Sprint(d.GetOption("size").IntValue())})
	})
	ix := fake.slash(t, ctx, member.SlashSpec{Name: "maze", Options: []member.Option{{Name: "algorithm", Value: "sidewinder"}, {Name: "size", Value: 21}}})
	if err := sess.result(t, ix); err != nil {
		t.Fatal(err)
	}

	bad := []*discordgo.ApplicationCommand{{Name: "Maze", Description: "upper case"}}
	if _, err := sess.ApplicationCommandBulkOverwrite(fakediscord.DefaultAppID, "", bad); restCode(err) != 50035 {
		t.Errorf("invalid command name: %v, want 50035", err)
	}

	// Localizations follow the rules of what they localize.
	ko := func(s string) *map[discordgo.Locale]string { return &map[discordgo.Locale]string{discordgo.Korean: s} }
	localized := []*discordgo.ApplicationCommand{
		{Name: "maze", Description: "Make a maze", NameLocalizations: ko("미로"), DescriptionLocalizations: ko("미로를 만듭니다"), Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionString, Name: "algorithm", Description: "Algorithm",
				NameLocalizations: map[discordgo.Locale]string{discordgo.Korean: "알고리즘"}, DescriptionLocalizations: map[discordgo.Locale]string{discordgo.Korean: "파는 방법"},
				Choices: []*discordgo.ApplicationCommandOptionChoice{{Name: "Sidewinder", Value: "sidewinder", NameLocalizations: map[discordgo.Locale]string{discordgo.Korean: "사이드와인더"}}}},
		}},
		{Name: "Solve this maze", Type: discordgo.MessageApplicationCommand, NameLocalizations: ko("이 미로 풀기")},
	}
	if _, err := sess.ApplicationCommandBulkOverwrite(fakediscord.DefaultAppID, "", localized); err != nil {
		t.Fatalf("valid localizations refused: %v", err)
	}
	for name, mutate := range map[string]func(c []*discordgo.ApplicationCommand){
		"name with a space": func(c []*discordgo.ApplicationCommand) {
			(*c[0].NameLocalizations)[discordgo.Korean] = "오늘의 미로"
		},
		"name in capitals": func(c []*discordgo.ApplicationCommand) {
			(*c[0].NameLocalizations)[discordgo.Greek] = "Λαβύρινθος"
		},
		"unknown locale": func(c []*discordgo.ApplicationCommand) { (*c[0].NameLocalizations)["kr"] = "미로" },
		"long description": func(c []*discordgo.ApplicationCommand) {
			(*c[0].DescriptionLocalizations)[discordgo.Korean] = strings.Repeat("미", 101)
		},
		"option name": func(c []*discordgo.ApplicationCommand) {
			c[0].Options[0].NameLocalizations[discordgo.Korean] = "알고 리즘"
		},
		"empty option text": func(c []*discordgo.ApplicationCommand) {
			c[0].Options[0].DescriptionLocalizations[discordgo.Korean] = ""
		},
		"long choice": func(c []*discordgo.ApplicationCommand) {
			c[0].Options[0].Choices[0].NameLocalizations[discordgo.Korean] = strings.Repeat("가", 101)
		},
		"long menu name": func(c []*discordgo.ApplicationCommand) {
			(*c[1].NameLocalizations)[discordgo.Korean] = strings.Repeat("가", 33)
		},
		"menu with descriptions": func(c []*discordgo.ApplicationCommand) { c[1].DescriptionLocalizations = ko("설명") },
	} {
		cmds := cloneCommands(t, localized)
		mutate(cmds)
		if _, err := sess.ApplicationCommandBulkOverwrite(fakediscord.DefaultAppID, "", cmds); restCode(err) != 50035 {
			t.Errorf("%s: %v, want 50035", name, err)
		}
	}
}

// cloneCommands deep-copies command definitions through JSON.
func cloneCommands(t *testing.T, cmds []*discordgo.ApplicationCommand) []*discordgo.ApplicationCommand {
	t.Helper()
	b, err := json.Marshal(cmds)
	if err != nil {
		t.Fatal(err)
	}
	var out []*discordgo.ApplicationCommand
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestMessageCommandOnPlantedMessage(t *testing.T) {
	t.Parallel()
	ctx, fake, sess := setup(t)
	planted := fake.PostChannelMessage(fakediscord.DefaultChannelID, fakediscord.Message{Content: "just chatting", AuthorID: "77"})
	sess.on(t, "Solve this maze", func(s *discordgo.Session, i *discordgo.Interaction) error {
		d := i.ApplicationCommandData()
		target := d.Resolved.Messages[d.TargetID]
		if target == nil {
			return fmt.Errorf("resolved message %s missing", d.TargetID)
		}
		return reply(s, i, &discordgo.InteractionResponseData{
			Content: "not a maze: " + target.Content, Flags: discordgo.MessageFlagsEphemeral,
		})
	})
	ix, err := fake.MessageCommand(ctx, member.MessageCommandSpec{Name: "Solve this maze", Target: planted})
	if err != nil {
		t.Fatal(err)
	}
	m, err := ix.WaitFinal(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if m.Content != "not a maze: just chatting" || !m.Ephemeral() || m.Type != 23 {
		t.Errorf("reply=%+v", m)
	}
	// Ephemeral replies are not visible through the channel routes.
	if _, err := sess.ChannelMessage(fakediscord.DefaultChannelID, m.ID); restCode(err) != 10008 {
		t.Errorf("GET ephemeral message via channel: %v, want 10008", err)
	}
}

func TestDMInteractionHasUser(t *testing.T) {
	t.Parallel()
	ctx, fake, sess := setup(t)
	sess.on(t, "dm", func(s *discordgo.Session, i *discordgo.Interaction) error {
		if i.Member != nil || i.User == nil || i.GuildID != "" {
			return fmt.Errorf("DM interaction: member=%v user=%v guild=%q", i.Member, i.User, i.GuildID)
		}
		return reply(s, i, &discordgo.InteractionResponseData{Content: "hello " + i.User.Username})
	})
	ix := fake.slash(t, ctx, member.SlashSpec{Name: "dm", DM: true, ChannelID: "900", Username: "alice"})
	if err := sess.result(t, ix); err != nil {
		t.Fatal(err)
	}
	if m, err := ix.WaitFinal(ctx, nil); err != nil || m.Content != "hello alice" {
		t.Errorf("reply: %v %+v", err, m)
	}
}

func TestChannelMessagesAndAuth(t *testing.T) {
	t.Parallel()
	ctx, fake, sess := setup(t)
	sent, err := sess.ChannelMessageSendComplex("555", &discordgo.MessageSend{
		Content: "daily maze",
		Files:   []*discordgo.File{{Name: "a.png", Reader: bytes.NewReader(pngBytes(t, 2, 2))}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if sent.ID == "" || sent.Author == nil || sent.Author.ID != fakediscord.DefaultAppID || len(sent.Attachments) != 1 || sent.Timestamp.IsZero() {
		t.Fatalf("sent=%+v", sent)
	}
	edit := discordgo.NewMessageEdit("555", sent.ID).SetContent("daily maze (edited)")
	edit.Files = []*discordgo.File{{Name: "b.png", Reader: bytes.NewReader(pngBytes(t, 3, 3))}}
	if _, err := sess.ChannelMessageEditComplex(edit); err != nil {
		t.Fatal(err)
	}
	m, err := fake.WaitChannelMessage(ctx, "555", func(m *fakediscord.Message) bool { return m.Edits == 1 })
	if err != nil {
		t.Fatal(err)
	}
	if m.Content != "daily maze (edited)" || len(m.Attachments) != 2 {
		t.Errorf("edited=%+v", m)
	}
	list, err := sess.ChannelMessages("555", 10, "", "", "")
	if err != nil || len(list) != 1 {
		t.Errorf("GET messages: %v %d", err, len(list))
	}

	for _, auth := range []string{"", "Bot wrong", strings.TrimPrefix(testToken, "Bot ")} {
		req, _ := http.NewRequest("GET", fake.URL()+"/api/v9/users/@me", nil)
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusUnauthorized {
			t.Errorf("Authorization %q: status %d, want 401", auth, res.StatusCode)
		}
	}
	if n := len(fake.RESTErrors()); n != 3 {
		t.Errorf("RESTErrors has %d entries, want the 3 unauthorized requests", n)
	}
}

func TestWrongTokenIsRejectedWith4004(t *testing.T) {
	t.Parallel()
	_, fake, _ := setup(t)
	s := newSession(t, fake, "Bot wrong")
	s.ShouldReconnectOnError = false
	ids := fake.Identifies()
	err := s.Open()
	var ce *websocket.CloseError
	if !errors.As(err, &ce) || ce.Code != 4004 {
		t.Fatalf("Open with a wrong token: %v, want close 4004", err)
	}
	if got := fake.Identifies(); got != ids {
		t.Errorf("Identifies()=%d, want %d", got, ids)
	}
}

// TestRawGateway speaks the gateway protocol by hand against a
// Server of its own, to check the frames themselves and RESUME replay.
func TestRawGateway(t *testing.T) {
	t.Parallel()
	srv := newDiscord(t, fakediscord.Config{Token: testToken, HeartbeatInterval: 500 * time.Millisecond})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	dial := func() *websocket.Conn {
		c, _, err := websocket.DefaultDialer.Dial(srv.GatewayURL()+"/?v=9&encoding=json", nil)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	type frame struct {
		Op int             `json:"op"`
		S  int64           `json:"s"`
		T  string          `json:"t"`
		D  json.RawMessage `json:"d"`
	}
	read := func(c *websocket.Conn) frame {
		t.Helper()
		_ = c.SetReadDeadline(time.Now().Add(3 * time.Second))
		mt, b, err := c.ReadMessage()
		if err != nil {
			t.Fatalf("read: %v", err)
		}
		if mt != websocket.TextMessage {
			t.Fatalf("frame type %d, want text", mt)
		}
		var f frame
		if err := json.Unmarshal(b, &f); err != nil {
			t.Fatal(err)
		}
		return f
	}
	send := func(c *websocket.Conn, op int, d any) {
		t.Helper()
		if err := c.WriteJSON(map[string]any{"op": op, "d": d}); err != nil {
			t.Fatal(err)
		}
	}

	// A wrong token is closed with 4004.
	bad := dial()
	if f := read(bad); f.Op != 10 {
		t.Fatalf("first frame op %d, want 10", f.Op)
	}
	send(bad, 2, map[string]any{"token": "Bot nope"})
	_ = bad.SetReadDeadline(time.Now().Add(3 * time.Second))
	_, _, err := bad.ReadMessage()
	if !websocket.IsCloseError(err, 4004) {
		t.Errorf("wrong token: %v, want close 4004", err)
	}
	bad.Close()

	c := dial()
	hello := read(c)
	var h struct {
		HeartbeatInterval int `json:"heartbeat_interval"`
	}
	_ = json.Unmarshal(hello.D, &h)
	if hello.Op != 10 || h.HeartbeatInterval != 500 {
		t.Fatalf("HELLO=%+v", hello)
	}
	send(c, 1, nil)
	if f := read(c); f.Op != 11 {
		t.Fatalf("heartbeat answer op %d, want 11", f.Op)
	}
	send(c, 2, map[string]any{"token": testToken, "intents": 1, "properties": map[string]string{}})
	ready := read(c)
	var r struct {
		SessionID        string `json:"session_id"`
		ResumeGatewayURL string `json:"resume_gateway_url"`
		User             struct {
			ID  string `json:"id"`
			Bot bool   `json:"bot"`
		} `json:"user"`
		Application struct {
			ID string `json:"id"`
		} `json:"application"`
		Guilds []any `json:"guilds"`
	}
	_ = json.Unmarshal(ready.D, &r)
	if ready.Op != 0 || ready.T != "READY" || ready.S != 1 || r.SessionID == "" || r.ResumeGatewayURL == "" ||
		r.User.ID != fakediscord.DefaultAppID || !r.User.Bot || r.Application.ID != fakediscord.DefaultAppID || r.Guilds == nil {
		t.Fatalf("READY=%+v %s", ready, ready.D)
	}

	if _, err := srv.SlashCommand(ctx, member.SlashSpec{Name: "maze", Options: []member.Option{{Name: "size", Value: 21}}}); err != nil {
		t.Fatal(err)
	}
	ic := read(c)
	var p struct {
		ID             string `json:"id"`
		ApplicationID  string `json:"application_id"`
		Token          string `json:"token"`
		Type           int    `json:"type"`
		Version        int    `json:"version"`
		Locale         string `json:"locale"`
		GuildID        string `json:"guild_id"`
		ChannelID      string `json:"channel_id"`
		AppPermissions any    `json:"app_permissions"`
		Member         *struct {
			Permissions any `json:"permissions"`
			User        struct {
				ID       string `json:"id"`
				Username string `json:"username"`
			} `json:"user"`
		} `json:"member"`
		User *struct{} `json:"user"`
		Data struct {
			Name    string `json:"name"`
			Options []struct {
				Name  string `json:"name"`
				Type  int    `json:"type"`
				Value any    `json:"value"`
			} `json:"options"`
		} `json:"data"`
	}
	if err := json.Unmarshal(ic.D, &p); err != nil {
		t.Fatal(err)
	}
	_, permIsString := p.AppPermissions.(string)
	if ic.T != "INTERACTION_CREATE" || ic.S != 2 || p.ID == "" || p.ApplicationID != fakediscord.DefaultAppID || p.Token == "" ||
		p.Type != 2 || p.Version != 1 || p.Locale == "" || p.GuildID == "" || p.ChannelID == "" || !permIsString ||
		p.Member == nil || p.User != nil || p.Member.User.ID == "" || p.Data.Name != "maze" ||
		len(p.Data.Options) != 1 || p.Data.Options[0].Type != 4 || p.Data.Options[0].Value != 21.0 {
		t.Fatalf("INTERACTION_CREATE=%s", ic.D)
	}
	if _, ok := p.Member.Permissions.(string); !ok {
		t.Errorf("member.permissions=%#v, want a string", p.Member.Permissions)
	}

	// Drop the socket before reading the next dispatch; RESUME from seq 2
	// replays it, then RESUMED follows.
	if _, err := srv.SlashCommand(ctx, member.SlashSpec{Name: "dm", DM: true}); err != nil {
		t.Fatal(err)
	}
	c.Close()
	for srv.Connected() {
		time.Sleep(5 * time.Millisecond)
	}
	c2 := dial()
	defer c2.Close()
	read(c2) // HELLO
	send(c2, 6, map[string]any{"token": testToken, "session_id": r.SessionID, "seq": 2})
	replayed := read(c2)
	if replayed.S != 3 || replayed.T != "INTERACTION_CREATE" || !bytes.Contains(replayed.D, []byte(`"user"`)) {
		t.Errorf("replayed=%+v", replayed)
	}
	if f := read(c2); f.T != "RESUMED" || f.S != 4 {
		t.Errorf("after replay: %+v, want RESUMED seq 4", f)
	}
	if srv.Resumes() != 1 || srv.Identifies() != 1 {
		t.Errorf("Resumes()=%d Identifies()=%d, want 1 1", srv.Resumes(), srv.Identifies())
	}

	// An unknown session gets INVALID_SESSION.
	c3 := dial()
	defer c3.Close()
	read(c3)
	send(c3, 6, map[string]any{"token": testToken, "session_id": "nope", "seq": 1})
	if f := read(c3); f.Op != 9 || string(f.D) != "false" {
		t.Errorf("resume of unknown session: %+v, want op 9 false", f)
	}
}

func TestModalAndAutocomplete(t *testing.T) {
	t.Parallel()
	ctx, fake, sess := setup(t)
	sess.on(t, "ask", func(s *discordgo.Session, i *discordgo.Interaction) error {
		return s.InteractionRespond(i, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseModal,
			Data: &discordgo.InteractionResponseData{CustomID: "answer", Title: "Maze ID", Components: []discordgo.MessageComponent{
				row(discordgo.TextInput{CustomID: "id", Label: "ID", Style: discordgo.TextInputShort}),
			}},
		})
	})
	sess.on(t, "answer", func(s *discordgo.Session, i *discordgo.Interaction) error {
		in := i.ModalSubmitData().Components[0].(*discordgo.ActionsRow).Components[0].(*discordgo.TextInput)
		return reply(s, i, &discordgo.InteractionResponseData{Content: "got " + in.Value})
	})
	ask := fake.slash(t, ctx, member.SlashSpec{Name: "ask"})
	if resp, err := ask.Wait(ctx); err != nil || resp.Type != discordgo.InteractionResponseModal || resp.Title != "Maze ID" {
		t.Fatalf("modal response: %v %+v", err, resp)
	}
	if _, err := ask.WaitFinal(ctx, nil); !errors.Is(err, member.ErrNoMessage) {
		t.Errorf("WaitFinal after a modal: %v, want ErrNoMessage", err)
	}
	sub, err := fake.SubmitModal(ctx, member.ModalSpec{From: ask, Values: map[string]string{"id": "sw-21-42"}})
	if err != nil {
		t.Fatal(err)
	}
	if m, err := sub.WaitFinal(ctx, nil); err != nil || m.Content != "got sw-21-42" {
		t.Errorf("modal submit reply: %v %+v", err, m)
	}

	sess.on(t, "pick", func(s *discordgo.Session, i *discordgo.Interaction) error {
		typed := i.ApplicationCommandData().Options[0]
		if !typed.Focused {
			return fmt.Errorf("option not focused")
		}
		return s.InteractionRespond(i, &discordgo.InteractionResponse{
			Type: discordgo.InteractionApplicationCommandAutocompleteResult,
			Data: &discordgo.InteractionResponseData{Choices: []*discordgo.ApplicationCommandOptionChoice{
				{Name: typed.StringValue() + "winder", Value: "sidewinder"},
			}},
		})
	})
	ac, err := fake.Autocomplete(ctx, member.SlashSpec{Name: "pick", Options: []member.Option{{Name: "algorithm", Value: "side", Focused: true}}})
	if err != nil {
		t.Fatal(err)
	}
	if resp, err := ac.Wait(ctx); err != nil || len(resp.Choices) != 1 || resp.Choices[0].Name != "sidewinder" {
		t.Errorf("autocomplete: %v %+v", err, resp)
	}
}

func TestEphemeralButtonOnlyForItsUser(t *testing.T) {
	t.Parallel()
	ctx, fake, sess := setup(t)
	sess.on(t, "secret", func(s *discordgo.Session, i *discordgo.Interaction) error {
		return reply(s, i, &discordgo.InteractionResponseData{
			Content: "psst", Flags: discordgo.MessageFlagsEphemeral,
			Components: []discordgo.MessageComponent{row(button("reveal", "Reveal"))},
		})
	})
	sess.on(t, "reveal", func(s *discordgo.Session, i *discordgo.Interaction) error {
		if i.Message == nil || i.Message.Flags&discordgo.MessageFlagsEphemeral == 0 {
			return fmt.Errorf("component message flags lost: %+v", i.Message)
		}
		return s.InteractionRespond(i, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate})
	})
	ix := fake.slash(t, ctx, member.SlashSpec{Name: "secret", UserID: "7"})
	m, err := ix.WaitFinal(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fake.ClickButton(ctx, member.ButtonSpec{CustomID: "reveal", Message: m, UserID: "8"}); err == nil {
		t.Error("another user clicked an ephemeral message's button")
	}
	click, err := fake.ClickButton(ctx, member.ButtonSpec{CustomID: "reveal", Message: m, UserID: "7"})
	if err != nil {
		t.Fatal(err)
	}
	if err := sess.result(t, click); err != nil {
		t.Fatal(err)
	}
	if resp, err := click.Wait(ctx); err != nil || resp.Type != discordgo.InteractionResponseDeferredMessageUpdate {
		t.Errorf("deferred update: %v %+v", err, resp)
	}
}

func TestReconnectAndInvalidSession(t *testing.T) {
	t.Parallel()
	ctx, fake, sess := setup(t)
	// op 7 resumes the session; INVALID_SESSION alone starts a new one.
	if resumes, ids := reconnect(t, ctx, fake, fake.RequestReconnect); resumes != 1 || ids != 0 {
		t.Errorf("after op 7: %d RESUMEs and %d IDENTIFYs, want 1 and 0", resumes, ids)
	}
	if _, ids := reconnect(t, ctx, fake, fake.InvalidateSession); ids != 1 {
		t.Errorf("after INVALID_SESSION: %d IDENTIFYs, want 1", ids)
	}
	for {
		sess.State.RLock()
		sid := sess.State.SessionID
		sess.State.RUnlock()
		if sid == fake.SessionID() {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("session id %q, want the new %q", sid, fake.SessionID())
		}
		time.Sleep(5 * time.Millisecond)
	}
	sess.on(t, "again", func(s *discordgo.Session, i *discordgo.Interaction) error {
		return reply(s, i, &discordgo.InteractionResponseData{Content: "ok"})
	})
	ix := fake.slash(t, ctx, member.SlashSpec{Name: "again"})
	if _, err := ix.WaitFinal(ctx, nil); err != nil {
		t.Fatal(err)
	}
}

func TestHTTPEndpoint(t *testing.T) {
	t.Parallel()
	ctx, fake, _ := setup(t)
	pub, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	endpoint := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !discordgo.VerifyInteraction(r, pub) {
			http.Error(w, "invalid request signature", http.StatusUnauthorized)
			return
		}
		var i discordgo.Interaction
		if err := json.NewDecoder(r.Body).Decode(&i); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		resp := discordgo.InteractionResponse{Type: discordgo.InteractionResponsePong}
		if i.Type == discordgo.InteractionApplicationCommand {
			resp = discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
				Data: &discordgo.InteractionResponseData{Content: "over http: " + i.ApplicationCommandData().Name}}
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(resp)
	}))
	defer endpoint.Close()
	fake.UseHTTPEndpoint(endpoint.URL, priv)

	if status, body, err := fake.PingEndpoint(ctx); err != nil || status != 200 || !bytes.Contains(body, []byte(`"type":1`)) {
		t.Errorf("PING: %v %d %s", err, status, body)
	}
	if status, err := fake.ProbeEndpoint(ctx); err != nil || status != http.StatusUnauthorized {
		t.Errorf("bad signature: %v %d, want 401", err, status)
	}
	ix := fake.slash(t, ctx, member.SlashSpec{Name: "maze"})
	if m, err := ix.WaitFinal(ctx, nil); err != nil || m.Content != "over http: maze" {
		t.Errorf("inline response: %v %+v", err, m)
	}
}

func TestCleanCloseEndsSession(t *testing.T) {
	t.Parallel()
	srv := newDiscord(t, fakediscord.Config{Token: testToken})
	c, _, err := websocket.DefaultDialer.Dial(srv.GatewayURL(), nil)
	if err != nil {
		t.Fatal(err)
	}
	_ = c.WriteJSON(map[string]any{"op": 2, "d": map[string]any{"token": testToken}})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := eventually(ctx, srv.Connected); err != nil {
		t.Fatal(err)
	}
	sid := srv.SessionID()
	_ = c.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""))
	// The closing handshake: read until the server's close comes back, as
	// discordgo waits before it drops the connection. Dropping it at once
	// with frames unread can reset it before the server reads the close.
	_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
	for {
		if _, _, err := c.ReadMessage(); err != nil {
			break
		}
	}
	c.Close()
	if err := eventually(ctx, func() bool { return len(srv.Sessions()) == 0 }); err != nil {
		t.Fatalf("session %s still resumable after a 1000 close: %v", sid, err)
	}
}

// TestGuildPreferredLocale: GET /guilds/{id} answers a server the bot is in
// with its preferred_locale, which its interactions carry as guild_locale;
// a server it is not in is 10004 Unknown Guild.
func TestGuildPreferredLocale(t *testing.T) {
	t.Parallel()
	ctx, fake, sess := setup(t)
	const korean = "7000000000000000001"
	fake.SetGuildLocale(korean, "ko")
	g, err := sess.Guild(korean, discordgo.WithContext(ctx))
	if err != nil || g.ID != korean || g.PreferredLocale != "ko" {
		t.Fatalf("GET /guilds/%s = %+v (%v), want preferred_locale ko", korean, g, err)
	}
	if g, err := sess.Guild(fakediscord.DefaultGuildID, discordgo.WithContext(ctx)); err != nil || g.PreferredLocale != fakediscord.DefaultLocale {
		t.Fatalf("GET /guilds/%s = %+v (%v), want preferred_locale %s", fakediscord.DefaultGuildID, g, err, fakediscord.DefaultLocale)
	}
	if _, err := sess.Guild("7000000000000000002", discordgo.WithContext(ctx)); restCode(err) != 10004 {
		t.Fatalf("a server the bot is not in: %v, want 10004 Unknown Guild", err)
	}
	sess.on(t, "where", func(s *discordgo.Session, i *discordgo.Interaction) error {
		return reply(s, i, &discordgo.InteractionResponseData{Content: string(*i.GuildLocale)})
	})
	ix := fake.slash(t, ctx, member.SlashSpec{Name: "where", GuildID: korean, SkipValidation: true})
	if resp, err := ix.Wait(ctx); err != nil || resp.Content != "ko" {
		t.Fatalf("guild_locale of an interaction in the server: %+v (%v), want ko", resp, err)
	}
}
