package commands

import (
	"slices"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// TestInstallContexts: the maze, its solution and help are offered
// wherever mazebot is installed, a member's own install included, in
// servers, DMs and group DMs; the daily, events and leaderboards only in
// servers that added it (issue 18 item 3).
func TestInstallContexts(t *testing.T) {
	anywhere, serverOnly := []string{"maze", "solve", "help", solveMessageCommandName}, []string{"daily", "event", "leaderboard", "profile"}
	defs := map[string]*discordgo.ApplicationCommand{}
	for _, d := range newEnv(t, envOptions{}).router.Definitions() {
		defs[d.Name] = d
	}
	check := func(name string, types []discordgo.ApplicationIntegrationType, contexts []discordgo.InteractionContextType) {
		t.Helper()
		d := defs[name]
		if d == nil || d.IntegrationTypes == nil || d.Contexts == nil || !slices.Equal(*d.IntegrationTypes, types) || !slices.Equal(*d.Contexts, contexts) {
			t.Errorf("%s: integration types %v, contexts %v; want %v, %v", name, d.IntegrationTypes, d.Contexts, types, contexts)
		}
	}
	for _, name := range anywhere {
		check(name, []discordgo.ApplicationIntegrationType{0, 1}, []discordgo.InteractionContextType{0, 1, 2})
	}
	for _, name := range serverOnly {
		check(name, []discordgo.ApplicationIntegrationType{0}, []discordgo.InteractionContextType{0})
	}
}

// TestUserInstall: a member's own install answers /maze in a DM and in a
// server that never added the bot; the daily there is refused privately,
// saying why.
func TestUserInstall(t *testing.T) {
	e := newEnv(t, envOptions{})
	userOwned := map[string]any{"1": "u1"}
	dm := decodeInteraction(t, map[string]any{
		"type": discordgo.InteractionApplicationCommand, "guild_id": "", "member": nil, "context": 1,
		"user": map[string]any{"id": "u1", "username": "ada"}, "authorizing_integration_owners": userOwned,
		"data": map[string]any{"id": "c1", "name": "maze", "type": 1, "options": []map[string]any{{"name": "size", "type": 4, "value": 11}}},
	})
	if rec := e.send(t, dm); len(rec.Replies) != 1 || !strings.Contains(rec.Replies[0].Text(), "11×11") {
		t.Fatalf("/maze in a DM of a user install: %+v", rec.Replies)
	}
	elsewhere := slash(t, "maze", map[string]any{"size": 11})
	elsewhere.AuthorizingIntegrationOwners = map[discordgo.ApplicationIntegrationType]string{discordgo.ApplicationIntegrationUserInstall: "u1"}
	elsewhere.Context = discordgo.InteractionContextGuild
	if rec := e.send(t, elsewhere); len(rec.Replies) != 1 || !strings.Contains(rec.Replies[0].Text(), "11×11") {
		t.Fatalf("/maze in a server that did not add the bot: %+v", rec.Replies)
	}
	daily := dailySlash(t, permsMember, "today", nil)
	daily.AuthorizingIntegrationOwners = elsewhere.AuthorizingIntegrationOwners
	if msg := checkRefusal(t, e.send(t, daily)); !strings.Contains(msg, "added to this server") {
		t.Fatalf("/daily where only the member installed it: %q", msg)
	}
	dailyDM := decodeInteraction(t, map[string]any{
		"type": discordgo.InteractionApplicationCommand, "guild_id": "", "member": nil, "context": 1,
		"user": map[string]any{"id": "u1", "username": "ada"}, "authorizing_integration_owners": userOwned,
		"data": map[string]any{"id": "c1", "name": "daily", "type": 1, "options": []map[string]any{{"name": "today", "type": 1}}},
	})
	if msg := checkRefusal(t, e.send(t, dailyDM)); !strings.Contains(msg, "belongs to a server") {
		t.Fatalf("/daily in a DM: %q", msg)
	}
}
