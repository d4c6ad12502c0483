package commands

import (
	"bytes"
	"context"
	"fmt"

	"mazebot/bot"
	"mazebot/commands/customid"
	"mazebot/commands/pictures"
	"mazebot/commands/views"
	"mazebot/lang"
	"mazebot/mazecore"
	"mazebot/render"
)

// handlePrintButton answers Print privately with the maze's PDF: page 1
// the maze, page 2 its solution, so the embargo holds it back as it does
// Solve. The paper is Letter for members whose Discord is in US English,
// A4 for everyone else.
func (f *Mazes) handlePrintButton(ctx context.Context, in *bot.Interaction) error {
	text := customid.Rest(in.MessageComponentData().CustomID)
	id, err := parseMazeID(text)
	if err != nil {
		return err
	}
	if !views.Printable(id) {
		return bot.Refuse("error.print_too_big", lang.Args{"Size": views.Size(id), "Max": views.Side(views.PrintMaxSide)})
	}
	if err := f.checkEmbargo(ctx, in, id); err != nil {
		return err
	}
	paper := render.A4
	if in.Locale == "en-US" {
		paper = render.Letter
	}
	l := in.Lang()
	key := "print|" + l.Code() + "|" + paper.String() + "|" + id.String()
	reply, err := f.pictures.Reply(ctx, in, pictures.Request{Key: key, Ephemeral: true}, func() (bot.Reply, error) {
		m, err := generate(id)
		if err != nil {
			return bot.Reply{}, err
		}
		var buf bytes.Buffer
		title := l.T("print.title", lang.Args{"Algorithm": views.AlgorithmTitle(id.Algorithm), "Size": views.Size(id)})
		if err := render.PDF(&buf, m, render.PDFOptions{Paper: paper, Title: title}); err != nil {
			return bot.Reply{}, fmt.Errorf("print %s: %w", id, err)
		}
		file := bot.File{Name: "maze-" + id.String() + ".pdf", ContentType: "application/pdf", Data: buf.Bytes(),
			Description: views.Alt(l, id, views.ShowsPrintout, mazecore.Point{})}
		return views.Printout(l, id, l.T("paper."+paper.String()), file), nil
	})
	if err != nil {
		return err
	}
	return answer(ctx, in, reply)
}
