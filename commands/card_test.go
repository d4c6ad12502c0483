package commands

import (
	"bytes"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"mazebot/commands/views"
	"mazebot/lang"
	"mazebot/mazecore"
	"mazebot/render"
)

// TestCardShowsEveryFormat: a card in any format of render's table but
// emoji and PNG (which picture lays out) attaches that format's file,
// written by its row, named with its extension: shown in the card when
// Discord shows it in a message (a GIF), as a file to open otherwise (an
// SVG, a PDF, text). A format offered on /maze is then its renderer and
// its row, with no branch here.
func TestCardShowsEveryFormat(t *testing.T) {
	l := lang.For("en-US")
	m, err := mazecore.Generate(mazecore.ID{Algorithm: mazecore.Sidewinder, Width: 9, Height: 7, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range render.Formats {
		if f.Name == renderEmoji || f.Name == renderPNG {
			continue
		}
		t.Run(f.Name, func(t *testing.T) {
			reply, err := card(l, m, f.Name, look{}, views.Setup{}, false)
			if err != nil {
				t.Fatal(err)
			}
			if len(reply.Files) != 1 {
				t.Fatalf("files %+v: want the maze's one %s", reply.Files, f.Name)
			}
			file := reply.Files[0]
			var want bytes.Buffer
			if err := f.Write(&want, m, render.Options{ID: m.ID()}); err != nil {
				t.Fatal(err)
			}
			if file.Name != "maze-"+m.ID().String()+f.Extension || file.ContentType != f.ContentType || !bytes.Equal(file.Data, want.Bytes()) {
				t.Fatalf("file %s (%s, %d bytes): want maze-%s%s (%s), as its row writes it (%d bytes)",
					file.Name, file.ContentType, len(file.Data), m.ID(), f.Extension, f.ContentType, want.Len())
			}
			if !strings.Contains(file.Description, m.ID().String()) {
				t.Fatalf("alt %q: want it to name the maze", file.Description)
			}
			gallery, fileShown := shownAs(reply.Components, "attachment://"+file.Name)
			if inline := views.Inline(f.ContentType); gallery != inline || fileShown == inline {
				t.Fatalf("in a gallery %v, as a file %v: want the gallery only for an image Discord shows (%v)", gallery, fileShown, inline)
			}
		})
	}
}

// shownAs tells whether a card's components show url in a media gallery
// and as a file component.
func shownAs(components []discordgo.MessageComponent, url string) (gallery, file bool) {
	for _, c := range components {
		switch c := c.(type) {
		case discordgo.Container:
			g, f := shownAs(c.Components, url)
			gallery, file = gallery || g, file || f
		case discordgo.MediaGallery:
			for _, it := range c.Items {
				gallery = gallery || it.Media.URL == url
			}
		case discordgo.FileComponent:
			file = file || c.File.URL == url
		}
	}
	return gallery, file
}
