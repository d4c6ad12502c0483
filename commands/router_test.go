package commands

import (
	"context"
	"errors"
	"log/slog"
	"mazebot/bot"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

// interactionLog is a metrics.Interactions that keeps what it is told.
type interactionLog struct {
	mu   sync.Mutex
	seen []string // "kind name outcome"
}

func (l *interactionLog) Interaction(kind, name, outcome string, took time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if took < 0 {
		outcome += " (negative time)"
	}
	l.seen = append(l.seen, kind+" "+name+" "+outcome)
}

func TestRouterMetrics(t *testing.T) {
	handle := func(err error, panics bool) bot.Handler {
		return func(context.Context, *bot.Interaction) error {
			if panics {
				var grid []int
				_ = grid[1] // a real runtime panic
			}
			return err
		}
	}
	def := func(name string) *discordgo.ApplicationCommand {
		return &discordgo.ApplicationCommand{Name: name, Description: name}
	}
	log := &interactionLog{}
	router := bot.NewRouter(slog.New(slog.DiscardHandler), log, testCommands{
		{Definition: def("fine"), Handle: handle(nil, false)},
		{Definition: def("nope"), Handle: handle(bot.Refuse("error.internal"), false)},
		{Definition: def("broken"), Handle: handle(errors.New("disk on fire"), false)},
		{Definition: def("boom"), Handle: handle(nil, true)},
	}, &Mazes{})
	for _, ix := range []*discordgo.Interaction{
		slash(t, "fine", nil), slash(t, "nope", nil), slash(t, "broken", nil), slash(t, "boom", nil), slash(t, "gone", nil),
		buttonIx(t, "ch1", "solve:not-a-maze", "u1"), buttonIx(t, "ch1", "zzz:whatever-id-123", "u1"),
	} {
		router.Dispatch(context.Background(), ix, &recorder{})
	}
	want := []string{
		"command fine ok", "command nope refused", "command broken error", "command boom panic", "command unknown unknown",
		"component solve refused", "component unknown unknown",
	}
	if !slices.Equal(log.seen, want) {
		t.Fatalf("reported\n%q\nwant\n%q", log.seen, want)
	}
}
