package discord

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"

	"github.com/bwmarrin/discordgo"

	"mazebot/bot"
)

// commandSync writes the router's command definitions to Discord: global
// ones, or one server's (guildID, for instant updates while developing),
// and empties the servers given commands of their own before (guilds).
type commandSync struct {
	session *discordgo.Session
	guildID string
	guilds  guildCommands
	log     *slog.Logger
}

// sync overwrites the commands with defs, as the application of ready.
func (s *commandSync) sync(ctx context.Context, ready *discordgo.Ready, defs []*discordgo.ApplicationCommand) error {
	appID := ready.User.ID
	if ready.Application != nil && ready.Application.ID != "" {
		appID = ready.Application.ID
	}
	if err := s.guilds.record(ctx); err != nil {
		s.log.Warn("could not record the server's own commands; a later move to global commands will not remove them", "err", err)
	}
	endpoint := discordgo.EndpointApplicationGlobalCommands(appID)
	if s.guildID != "" {
		endpoint = discordgo.EndpointApplicationGuildCommands(appID, s.guildID)
	}
	// An overwrite is idempotent and nothing waits on it: discordgo may
	// retry it (and the read before it) through rate limits and 502s.
	retry := []discordgo.RequestOption{discordgo.WithContext(ctx), discordgo.WithRetryOnRatelimit(true), discordgo.WithRestRetries(3)}
	var kept json.RawMessage
	if s.guildID == "" {
		// Discord refuses a global overwrite that drops the app's Entry
		// Point command (50240): one the router does not define is read
		// back and sent again as it is.
		var err error
		if kept, err = s.entryPoint(appID, retry); err != nil {
			return fmt.Errorf("read the global commands: %w", err)
		}
	}
	body, n, err := commandsBody(defs, s.guildID != "", kept)
	if err != nil {
		return err
	}
	raw, err := s.session.RequestWithBucketID("PUT", endpoint, body, endpoint, retry...)
	if err != nil {
		return fmt.Errorf("sync %d commands: %w", n, err)
	}
	var synced []json.RawMessage
	if err := json.Unmarshal(raw, &synced); err != nil {
		return fmt.Errorf("sync %d commands: read the answer: %w", n, err)
	}
	scope := "global"
	if s.guildID != "" {
		scope = "guild " + s.guildID
	}
	s.log.Info("commands synced", "count", len(synced), "scope", scope)
	// Old servers' commands are a nuisance, not a reason to stop: the
	// next start tries again.
	if err := s.guilds.tidy(ctx, appID); err != nil {
		s.log.Warn("could not remove old servers' commands; the next start tries again", "err", err)
	}
	return nil
}

// entryAppHandler is the Entry Point command's handler APP_HANDLER (1:
// the app gets the interaction and may answer LAUNCH_ACTIVITY; 2: Discord
// launches the Activity itself). discordgo v0.29.0 has no field for it.
const entryAppHandler = 1

// entryPoint reads the app's global commands and returns its Entry Point
// command, raw, or nil when it has none.
func (s *commandSync) entryPoint(appID string, opts []discordgo.RequestOption) (json.RawMessage, error) {
	endpoint := discordgo.EndpointApplicationGlobalCommands(appID)
	raw, err := s.session.RequestWithBucketID("GET", endpoint, nil, endpoint, opts...)
	if err != nil {
		return nil, err
	}
	var cmds []json.RawMessage
	if err := json.Unmarshal(raw, &cmds); err != nil {
		return nil, err
	}
	for _, c := range cmds {
		var head struct {
			Type discordgo.ApplicationCommandType `json:"type"`
		}
		if json.Unmarshal(c, &head) == nil && head.Type == bot.PrimaryEntryPoint {
			return c, nil
		}
	}
	return nil, nil
}

// entryCommand is an Entry Point definition as it is sent: discordgo's
// fields and the handler.
type entryCommand struct {
	*discordgo.ApplicationCommand
	Handler int `json:"handler"`
}

// commandsBody is the bulk overwrite of defs: an Entry Point among them is
// sent with handler 1 (the router answers it); a guild's overwrite leaves
// it out (it can only be global); kept, the Entry Point read back, is sent
// again when defs have none. It also returns how many commands it sends.
func commandsBody(defs []*discordgo.ApplicationCommand, guild bool, kept json.RawMessage) (json.RawMessage, int, error) {
	var out []any
	hasEntry := false
	for _, d := range defs {
		if d.Type != bot.PrimaryEntryPoint {
			out = append(out, d)
			continue
		}
		if !guild {
			hasEntry = true
			out = append(out, entryCommand{ApplicationCommand: d, Handler: entryAppHandler})
		}
	}
	if !hasEntry && kept != nil {
		out = append(out, kept)
	}
	if out == nil {
		out = []any{}
	}
	body, err := json.Marshal(out)
	if err != nil {
		return nil, 0, fmt.Errorf("encode the commands: %w", err)
	}
	return body, len(out), nil
}
