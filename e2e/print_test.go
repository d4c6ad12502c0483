package e2e

import (
	"bytes"
	"strings"
	"testing"

	"mazebot/internal/fakediscord/member"
)

// TestE2EPrint: through Discord, a /maze card's Print button answers the
// member privately with the maze's two-page PDF, shown in the card as a
// file Discord accepts; /maze theme:print style:line is a picture even
// for a maze small enough for emoji.
func TestE2EPrint(t *testing.T) {
	t.Parallel()
	fake := newDiscordWithApp(t)
	mazeMsg, m := fake.postMaze(t, opt("algorithm", "sidewinder"), opt("size", 21), opt("seed", 5))
	var print string
	for _, b := range mazeMsg.Buttons() {
		if strings.HasPrefix(b.CustomID, "print:") {
			print = b.CustomID
		}
	}
	if print != "print:"+m.ID().String() {
		t.Fatalf("buttons %+v, want Print for maze %s", mazeMsg.Buttons(), m.ID())
	}
	msg := final(t, fake.click(t, member.ButtonSpec{CustomID: print, Message: mazeMsg}))
	if !msg.Ephemeral() || len(msg.Attachments) != 1 {
		t.Fatalf("Print: %+v, want a private message with one attachment", msg)
	}
	pdf := msg.Attachments[0]
	if pdf.Filename != "maze-"+m.ID().String()+".pdf" || !bytes.HasPrefix(pdf.Data, []byte("%PDF-")) || !strings.Contains(msg.Text(), m.ID().String()) {
		t.Fatalf("attachment %s (%d bytes), text %q: want the maze's PDF, named", pdf.Filename, len(pdf.Data), msg.Text())
	}
	small := final(t, fake.slash(t, "maze", opt("size", 7), opt("theme", "print"), opt("style", "line")))
	if len(small.Attachments) != 1 || small.Attachments[0].ContentType != "image/png" {
		t.Fatalf("/maze size:7 theme:print style:line: %+v, want a PNG", small)
	}
}
