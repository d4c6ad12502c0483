package fakediscord_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"mazebot/internal/fakediscord"
)

// TestComponentsV2 holds the fake to Discord's Components V2 rules: the
// flag makes the components the whole message (no content, no embeds), 40
// components and 4,000 characters of text at most, containers one deep,
// media naming files the message carries; an edit may set the flag but
// never drop it.
func TestComponentsV2(t *testing.T) {
	t.Parallel()
	ctx, fake, sess := setup(t)
	const channel = "555"
	v2 := discordgo.MessageFlagsIsComponentsV2
	text := func(s string) discordgo.TextDisplay { return discordgo.TextDisplay{Content: s} }
	card := func(parts ...discordgo.MessageComponent) []discordgo.MessageComponent {
		return []discordgo.MessageComponent{discordgo.Container{Components: parts}}
	}
	gallery := func(name string) discordgo.MediaGallery {
		return discordgo.MediaGallery{Items: []discordgo.MediaGalleryItem{{Media: discordgo.UnfurledMediaItem{URL: "attachment://" + name}}}}
	}
	picture := func() []*discordgo.File {
		return []*discordgo.File{{Name: "maze.png", ContentType: "image/png", Reader: bytes.NewReader(pngBytes(t, 2, 2))}}
	}
	var many []discordgo.MessageComponent
	for range 40 {
		many = append(many, text("x"))
	}

	tests := []struct {
		name string
		send *discordgo.MessageSend
		code int
	}{
		{"OKCard", &discordgo.MessageSend{Flags: v2, Files: picture(), Components: card(text("**A maze**"), gallery("maze.png"), row(button("b", "Play")))}, 0},
		{"OK4000Characters", &discordgo.MessageSend{Flags: v2, Components: card(text(strings.Repeat("🟩", 2000)), text(strings.Repeat("⬛", 2000)))}, 0},
		{"ErrContent", &discordgo.MessageSend{Flags: v2, Content: "hello", Components: card(text("a"))}, 50035},
		{"ErrEmbeds", &discordgo.MessageSend{Flags: v2, Embeds: []*discordgo.MessageEmbed{{Title: "t"}}, Components: card(text("a"))}, 50035},
		{"Err41Components", &discordgo.MessageSend{Flags: v2, Components: card(many...)}, 50035},
		{"Err4001Characters", &discordgo.MessageSend{Flags: v2, Components: card(text(strings.Repeat("🟩", 2000)), text(strings.Repeat("⬛", 2001)))}, 50035},
		{"ErrMissingAttachment", &discordgo.MessageSend{Flags: v2, Files: picture(), Components: card(gallery("other.png"))}, 50035},
		{"ErrContainerInContainer", &discordgo.MessageSend{Flags: v2, Components: card(discordgo.Container{Components: []discordgo.MessageComponent{text("a")}})}, 50035},
		{"ErrNoComponents", &discordgo.MessageSend{Flags: v2, Files: picture()}, 50035},
		{"ErrTextDisplayWithoutFlag", &discordgo.MessageSend{Components: card(text("a"))}, 50035},
	}
	for _, tt := range tests {
		_, err := sess.ChannelMessageSendComplex(channel, tt.send)
		if got := restCode(err); got != tt.code {
			t.Errorf("%s: code %d (%v), want %d", tt.name, got, err, tt.code)
		}
	}

	// A legacy message becomes a card, and stays one.
	sent, err := sess.ChannelMessageSendComplex(channel, &discordgo.MessageSend{Content: "thinking…"})
	if err != nil {
		t.Fatal(err)
	}
	empty := ""
	upgrade := discordgo.NewMessageEdit(channel, sent.ID)
	upgrade.Flags, upgrade.Components = v2, &[]discordgo.MessageComponent{text("first")}
	if _, err := sess.ChannelMessageEditComplex(upgrade); restCode(err) != 50035 {
		t.Errorf("an upgrade that keeps the content: %v, want 50035", err)
	}
	upgrade.Content = &empty
	upgrade.Components = &[]discordgo.MessageComponent{text("first"), text("second")}
	if _, err := sess.ChannelMessageEditComplex(upgrade); err != nil {
		t.Fatalf("upgrade to a card: %v", err)
	}
	m, err := fake.WaitChannelMessage(ctx, channel, func(m *fakediscord.Message) bool { return m.ID == sent.ID && m.Edits == 1 })
	if err != nil {
		t.Fatal(err)
	}
	if m.Flags&fakediscord.FlagComponentsV2 == 0 || m.Text() != "first\nsecond" {
		t.Errorf("upgraded message: flags %d, text %q; want the V2 flag and both texts", m.Flags, m.Text())
	}
	drop := discordgo.NewMessageEdit(channel, sent.ID).SetContent("back to text")
	drop.Flags, drop.Components = discordgo.MessageFlagsSuppressEmbeds, &[]discordgo.MessageComponent{}
	if _, err := sess.ChannelMessageEditComplex(drop); restCode(err) != 50035 {
		t.Errorf("an edit dropping the V2 flag: %v, want 50035", err)
	}
	if _, err := sess.ChannelMessageEditComplex(discordgo.NewMessageEdit(channel, sent.ID).SetContent("extra")); restCode(err) != 50035 {
		t.Errorf("content on a V2 message: %v, want 50035", err)
	}
	if got := fake.Message(sent.ID); got.Edits != 1 || got.Text() != "first\nsecond" {
		t.Errorf("after the refused edits the message is %q (%d edits), want it as upgraded", got.Text(), got.Edits)
	}
}
