package discord

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/bwmarrin/discordgo"
)

// CommandGuilds remembers the servers given mazebot's commands of their
// own (DISCORD_GUILD_ID, for instant updates while developing). Discord
// keeps a server's commands until they are overwritten, so after a move
// to global commands, or to another server, that server would list every
// command twice, or stale ones. The store implements it.
type CommandGuilds interface {
	CommandGuilds(ctx context.Context) ([]string, error)
	AddCommandGuild(ctx context.Context, guildID string, at time.Time) error
	RemoveCommandGuild(ctx context.Context, guildID string) error
}

// guildCommands keeps track, in store (nil forgets), of the servers given
// commands of their own: guildID is the one the sync writes to now ("" for
// global commands).
type guildCommands struct {
	store   CommandGuilds
	session *discordgo.Session
	guildID string
	log     *slog.Logger
}

// record records the server about to get commands of its own, before the
// sync: a process stopped right after the sync must not forget a server
// Discord now lists commands for.
func (gc guildCommands) record(ctx context.Context) error {
	if gc.store == nil || gc.guildID == "" {
		return nil
	}
	if err := gc.store.AddCommandGuild(ctx, gc.guildID, time.Now()); err != nil {
		return fmt.Errorf("record the commands of server %s: %w", gc.guildID, err)
	}
	return nil
}

// tidy runs after a sync: it empties the commands of every
// recorded server but the one synced to. A server the bot has left (403)
// is forgotten too: its commands went with the bot.
func (gc guildCommands) tidy(ctx context.Context, appID string) error {
	cg := gc.store
	if cg == nil {
		return nil
	}
	guilds, err := cg.CommandGuilds(ctx)
	if err != nil {
		return fmt.Errorf("servers with commands of their own: %w", err)
	}
	var errs []error
	for _, g := range guilds {
		if g == gc.guildID {
			continue
		}
		// An empty list, never null: Discord reads null as no list at all.
		_, err := gc.session.ApplicationCommandBulkOverwrite(appID, g, []*discordgo.ApplicationCommand{}, discordgo.WithContext(ctx),
			discordgo.WithRetryOnRatelimit(true), discordgo.WithRestRetries(3))
		var rest *discordgo.RESTError
		switch {
		case err == nil:
			gc.log.Info("removed a server's own commands, left from an earlier DISCORD_GUILD_ID", "guild", g)
		case errors.As(err, &rest) && rest.Response != nil && rest.Response.StatusCode == http.StatusForbidden:
			gc.log.Info("forgot the commands of a server mazebot is no longer in", "guild", g)
		default:
			errs = append(errs, fmt.Errorf("remove the commands of server %s: %w", g, err))
			continue
		}
		if err := cg.RemoveCommandGuild(ctx, g); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
