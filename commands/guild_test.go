package commands

import (
	"context"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"mazebot/contest"
)

// inGuild moves an interaction to another server.
func inGuild(ix *discordgo.Interaction, guildID string) *discordgo.Interaction {
	ix.GuildID = guildID
	return ix
}

// unresolved drops the resolved channels, as in an interaction Discord
// did not make.
func unresolved(ix *discordgo.Interaction) *discordgo.Interaction {
	data := ix.ApplicationCommandData()
	data.Resolved = nil
	ix.Data = data
	return ix
}

// resolvedIn gives the resolved channels a server, as Discord may.
func resolvedIn(ix *discordgo.Interaction, guildID string) *discordgo.Interaction {
	for _, ch := range ix.ApplicationCommandData().Resolved.Channels {
		ch.GuildID = guildID
	}
	return ix
}

// TestGuildBoundaries: the manager commands act only on their own
// server's channels and events.
func TestGuildBoundaries(t *testing.T) {
	ctx := context.Background()
	start := map[string]any{"algorithm": "backtracking", "size": eventSide, "duration": "30m", "channel": "777"}
	for _, tc := range []struct {
		name string
		ix   func(t *testing.T) *discordgo.Interaction
		want string
	}{
		{"ErrEndOtherServersEvent", func(t *testing.T) *discordgo.Interaction {
			return inGuild(eventCommandIx(t, "end", map[string]any{"channel": "777"}, "intruder", eventManagePerms), "g2")
		}, "no running event in <#777>"},
		{"ErrEndUnresolvedChannel", func(t *testing.T) *discordgo.Interaction {
			return unresolved(eventCommandIx(t, "end", map[string]any{"channel": "777"}, eventManager, eventManagePerms))
		}, "not a channel of this server"},
		{"ErrStartUnresolvedChannel", func(t *testing.T) *discordgo.Interaction {
			return unresolved(eventCommandIx(t, "start", start, eventManager, eventManagePerms))
		}, "not a channel of this server"},
		{"ErrStartOtherServersChannel", func(t *testing.T) *discordgo.Interaction {
			return resolvedIn(eventCommandIx(t, "start", start, eventManager, eventManagePerms), "g2")
		}, "not a channel of this server"},
		{"ErrSetupUnresolvedChannel", func(t *testing.T) *discordgo.Interaction {
			return unresolved(dailySlash(t, permsManager, "setup", map[string]any{"channel": "888", "time": "09:00", "timezone": "UTC"}))
		}, "not a channel of this server"},
		{"ErrSetupOtherServersChannel", func(t *testing.T) *discordgo.Interaction {
			return resolvedIn(dailySlash(t, permsManager, "setup", map[string]any{"channel": "888", "time": "09:00", "timezone": "UTC"}), "g2")
		}, "not a channel of this server"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, eventEnv())
			ev := e.startEvent(t, map[string]any{"channel": "777"}) // g1's event
			posts := len(e.poster.all())
			if msg := checkRefusal(t, e.send(t, tc.ix(t))); !strings.Contains(msg, tc.want) {
				t.Fatalf("refusal %q, want %q", msg, tc.want)
			}
			if got := e.event(t, ev.ID); got.Status != contest.Running {
				t.Fatalf("g1's event is %v, want still running", got.Status)
			}
			wantPosts(t, e.poster, posts, "after a refusal")
			if _, err := e.db.DailySettings(ctx, "g1"); err == nil {
				t.Fatal("daily settings were saved")
			}
		})
	}
	// /daily off turns off the invoking server's daily only.
	t.Run("OKOffOwnServerOnly", func(t *testing.T) {
		e := newEnv(t, envOptions{})
		e.setup(t, "09:00", "UTC")
		checkRefusal(t, e.send(t, inGuild(dailySlash(t, permsManager, "off", nil), "g2")))
		if s, err := e.db.DailySettings(ctx, "g1"); err != nil || !s.Enabled {
			t.Fatalf("g1's daily %+v (%v), want still on", s, err)
		}
	})
}
