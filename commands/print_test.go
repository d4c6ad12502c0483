package commands

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"mazebot/bot"
	"mazebot/commands/customid"
	"mazebot/mazecore"
)

// TestPrintButton: Print under a /maze card answers privately with a
// two-page PDF of that maze, on Letter for a member in US English and A4
// for the others, described for a screen reader and shown as a file in
// the card; a maze too big to print well, or one whose solution is held
// back (page 2 is the solution), is refused with why.
func TestPrintButton(t *testing.T) {
	id := mazecore.ID{Algorithm: mazecore.Sidewinder, Width: 21, Height: 21, Seed: 7}
	for _, tc := range []struct{ locale, mediaBox string }{
		{"en-US", "/MediaBox [0 0 612.00 792.00]"},
		{"fr", "/MediaBox [0 0 595.28 841.89]"},
	} {
		t.Run(tc.locale, func(t *testing.T) {
			e := newEnv(t, envOptions{locale: tc.locale})
			reply := only(t, e.press(t, customid.Print(id), "u1"))
			if !reply.Ephemeral || len(reply.Files) != 1 {
				t.Fatalf("Print: %+v, want a private reply with one file", reply)
			}
			f := reply.Files[0]
			if f.Name != "maze-"+id.String()+".pdf" || f.ContentType != "application/pdf" || !bytes.HasPrefix(f.Data, []byte("%PDF-")) {
				t.Fatalf("file %s (%s), %q…: want the maze's PDF", f.Name, f.ContentType, f.Data[:min(8, len(f.Data))])
			}
			if n := bytes.Count(f.Data, []byte("/Type /Page\n")); n != 2 || !bytes.Contains(f.Data, []byte(tc.mediaBox)) {
				t.Fatalf("%d pages, media box %s in it: %v; want 2 pages on that paper", n, tc.mediaBox, bytes.Contains(f.Data, []byte(tc.mediaBox)))
			}
			if !strings.Contains(f.Description, id.String()) || !strings.Contains(reply.Text(), id.String()) {
				t.Fatalf("alt %q, text %q: want both to name the maze", f.Description, reply.Text())
			}
			if !strings.Contains(string(componentsJSON(t, reply)), `"url":"attachment://`+f.Name+`"`) {
				t.Fatalf("the card does not show the file: %s", componentsJSON(t, reply))
			}
		})
	}
	t.Run("TooBig", func(t *testing.T) {
		e := newEnv(t, envOptions{})
		big := mazecore.ID{Algorithm: mazecore.Sidewinder, Width: 201, Height: 201, Seed: 7}
		if msg := checkRefusal(t, e.press(t, customid.Print(big), "u1")); !strings.Contains(msg, "up to 101×101") {
			t.Fatalf("refusal %q, want the largest size Print takes", msg)
		}
	})
	t.Run("EventRunning", func(t *testing.T) {
		e := newEnv(t, envOptions{})
		ev := e.startEvent(t, nil)
		msg := checkRefusal(t, e.pressIn(t, eventCh, customid.Print(ev.MazeID), "u2"))
		if !strings.Contains(msg, "running event") {
			t.Fatalf("Print on a running event's maze: %q, want the solution held back", msg)
		}
	})
}

// TestMazeLook: theme and style make /maze a picture in that look (a
// small maze too, which would be emoji), cached apart from the default;
// with render:emoji they are refused, saying what they are for.
func TestMazeLook(t *testing.T) {
	e := newEnv(t, envOptions{})
	opts := map[string]any{"size": 7, "seed": 3}
	plain := only(t, e.send(t, slash(t, "maze", opts)))
	if len(plain.Files) != 0 {
		t.Fatalf("a 7×7 /maze has files %v, want an emoji grid", plain.Files)
	}
	printed := only(t, e.send(t, slash(t, "maze", map[string]any{"size": 7, "seed": 3, "theme": "print", "style": "line"})))
	dark := only(t, e.send(t, slash(t, "maze", map[string]any{"size": 7, "seed": 3, "render": "png"})))
	if len(printed.Files) != 1 || len(dark.Files) != 1 || bytes.Equal(printed.Files[0].Data, dark.Files[0].Data) {
		t.Fatalf("theme:print style:line gave %d files, render:png %d; want two different pictures", len(printed.Files), len(dark.Files))
	}
	if msg := checkRefusal(t, e.send(t, slash(t, "maze", map[string]any{"render": "emoji", "theme": "light"}))); !strings.Contains(msg, "for pictures") {
		t.Fatalf("render:emoji theme:light: %q, want a refusal saying what themes are for", msg)
	}
}

// componentsJSON is a reply's components as Discord receives them.
func componentsJSON(tb testing.TB, r bot.Reply) []byte {
	tb.Helper()
	raw, err := json.Marshal(r.Components)
	if err != nil {
		tb.Fatal(err)
	}
	return raw
}

// TestRaceButtonOnlyWhereARaceStarts: Race is offered under a maze only
// when Maze Arena is set up, and only in a server (a race starts in a
// server's channel); a bot without it, or a maze in a DM, shows Play
// and Solve (and Print) and no button that can only refuse.
func TestRaceButtonOnlyWhereARaceStarts(t *testing.T) {
	hasRace := func(r bot.Reply) bool {
		for _, b := range buttons(r) {
			if strings.HasPrefix(b.CustomID, customid.RacePrefix+":") {
				return true
			}
		}
		return false
	}
	opts := map[string]any{"size": 21, "seed": 9}
	on := newEnv(t, envOptions{})
	if !hasRace(only(t, on.send(t, slash(t, "maze", opts)))) {
		t.Fatal("with Maze Arena set up, a server's /maze has no Race")
	}
	dm := slash(t, "maze", opts)
	dm.GuildID, dm.User, dm.Member = "", dm.Member.User, nil
	if card := only(t, on.send(t, dm)); hasRace(card) || !hasButtons(card, customid.PlayPrefix, customid.SolvePrefix, customid.PrintPrefix) {
		t.Fatalf("a /maze in a DM has buttons %+v, want Play, Solve and Print", buttons(card))
	}
	off := newEnv(t, envOptions{noArena: true})
	if card := only(t, off.send(t, slash(t, "maze", opts))); hasRace(card) {
		t.Fatalf("without Maze Arena, /maze has buttons %+v", buttons(card))
	}
	// A circular maze's card likewise: Maze Arena races every grid.
	polar := map[string]any{"grid": "polar", "size": 9, "seed": 9}
	if card := only(t, on.send(t, slash(t, "maze", polar))); !hasRace(card) {
		t.Fatalf("with Maze Arena set up, a server's polar /maze has buttons %+v, want Race", buttons(card))
	}
	dm = slash(t, "maze", polar)
	dm.GuildID, dm.User, dm.Member = "", dm.Member.User, nil
	if card := only(t, on.send(t, dm)); hasRace(card) {
		t.Fatalf("a polar /maze in a DM has buttons %+v", buttons(card))
	}
	if card := only(t, off.send(t, slash(t, "maze", polar))); hasRace(card) {
		t.Fatalf("without Maze Arena, a polar /maze has buttons %+v", buttons(card))
	}
	ev := off.startEvent(t, nil)
	posts := off.poster.in(eventCh)
	if len(posts) == 0 {
		t.Fatal("the event posted nothing")
	}
	for _, msg := range posts {
		if hasRace(msg.reply) {
			t.Fatalf("without Maze Arena, event %s's post has Race: %+v", ev.Name, buttons(msg.reply))
		}
	}
}
