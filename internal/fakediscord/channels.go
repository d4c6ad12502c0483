package fakediscord

import (
	"net/http"
	"strconv"
	"sync"

	"github.com/bwmarrin/discordgo"
)

// directory is what the fake knows of guilds and channels: the guild of
// each channel an interaction came from (or that it was a DM), the
// servers' preferred locales, and the bot's permissions in channels where
// a test set them. Its lock is a leaf.
type directory struct {
	s *Server

	mu       sync.Mutex
	channels map[string]channelInfo // what interactions told about channels
	locales  map[string]string      // a server's preferred_locale, when set
	perms    map[string]int64       // the bot's permissions by channel, when set
	dms      dmState                // the DM channels the bot opened (dms.go)
	roles    map[string]*guildRoles // servers' roles and members (roles.go)
}

type channelInfo struct {
	guildID string
	dm      bool
}

func (d *directory) reset() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.channels = make(map[string]channelInfo)
	d.locales = make(map[string]string)
	d.perms = make(map[string]int64)
	d.dms = dmState{}
	d.roles = nil
}

// channel returns what is known of channelID.
func (d *directory) channel(channelID string) (channelInfo, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	c, ok := d.channels[channelID]
	return c, ok
}

// learn records where an interaction came from.
func (d *directory) learn(channelID string, c channelInfo) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.channels[channelID] = c
}

// guildLocale is guildID's preferred_locale, DefaultLocale unless set.
func (d *directory) guildLocale(guildID string) string {
	d.mu.Lock()
	defer d.mu.Unlock()
	if l, ok := d.locales[guildID]; ok {
		return l
	}
	return DefaultLocale
}

// appPermissions is the bot's permissions in channelID as Discord sends
// them, when a test set them.
func (d *directory) appPermissions(channelID string) (string, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	perms, ok := d.perms[channelID]
	return strconv.FormatInt(perms, 10), ok
}

// SetGuildLocale sets a server's primary language, Discord's
// preferred_locale: what GET /guilds/{id} answers, and the guild_locale of
// its interactions unless an Actor gives another. Reset forgets it.
func (s *Server) SetGuildLocale(guildID, locale string) {
	d := s.guilds
	d.mu.Lock()
	defer d.mu.Unlock()
	d.locales[guildID] = locale
}

// getGuild answers a server the bot is in: the default one, one that an
// interaction came from, or one with a locale or roles set; else 10004 Unknown
// Guild, as for a server that removed the bot. The object carries what
// Discord's guild object must (discord-api-docs, resources/guild).
func (d *directory) getGuild(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("guild")
	d.mu.Lock()
	locale, known := d.locales[id]
	_, hasRoles := d.roles[id]
	known = known || hasRoles
	for _, c := range d.channels {
		known = known || !c.dm && c.guildID == id
	}
	d.mu.Unlock()
	if !known && id != DefaultGuildID {
		d.s.fail(w, r, errUnknownGuild, nil)
		return
	}
	if locale == "" {
		locale = DefaultLocale
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"id": id, "name": "guild-" + id, "icon": nil, "splash": nil, "discovery_splash": nil,
		"owner_id": DefaultUserID, "afk_channel_id": nil, "afk_timeout": 300,
		"verification_level": 0, "default_message_notifications": 0, "explicit_content_filter": 0,
		"roles": []any{}, "emojis": []any{}, "features": []string{}, "mfa_level": 0,
		"application_id": nil, "system_channel_id": nil, "system_channel_flags": 0, "rules_channel_id": nil,
		"vanity_url_code": nil, "description": nil, "banner": nil, "premium_tier": 0,
		"preferred_locale": locale, "public_updates_channel_id": nil, "nsfw_level": 0,
		"premium_progress_bar_enabled": false, "safety_alerts_channel_id": nil,
	})
}

func (d *directory) getChannel(w http.ResponseWriter, r *http.Request) {
	channel := r.PathValue("channel")
	if !d.s.checkChannel(w, r, channel, 0) {
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"id": channel, "type": 0, "name": "channel-" + channel, "position": 0,
		"permission_overwrites": []any{}, "nsfw": false, "last_message_id": nil,
	})
}

func (d *directory) postTyping(w http.ResponseWriter, r *http.Request) {
	if !d.s.checkChannel(w, r, r.PathValue("channel"), discordgo.PermissionSendMessages) {
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
