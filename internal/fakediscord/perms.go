package fakediscord

import (
	"net/http"
	"strconv"

	"github.com/bwmarrin/discordgo"
)

// SetChannelPermissions sets the bot's permissions in channelID (the
// permission integer Discord computes from roles and overwrites), so the
// channel routes answer the way Discord does (discord-api-docs,
// resources/message and resources/channel):
//
//   - without VIEW_CHANNEL every channel route answers 403 code 50001
//     "Missing Access";
//   - creating a message (and typing) needs SEND_MESSAGES, and uploading
//     files ATTACH_FILES: 403 code 50013 "Missing Permissions";
//   - without READ_MESSAGE_HISTORY listing messages returns none, and
//     fetching one message answers 50001.
//
// ADMINISTRATOR grants everything. Interactions dispatched in the channel
// carry perms as app_permissions unless their Actor sets AppPermissions.
// Interaction responses, followups and their edits go through the webhook
// routes and are not affected, as on Discord. Reset forgets these settings.
func (s *Server) SetChannelPermissions(channelID string, perms int64) {
	d := s.guilds
	d.mu.Lock()
	defer d.mu.Unlock()
	d.perms[channelID] = perms
}

// ClearChannelPermissions gives the bot every permission in channelID
// again.
func (s *Server) ClearChannelPermissions(channelID string) {
	d := s.guilds
	d.mu.Lock()
	defer d.mu.Unlock()
	delete(d.perms, channelID)
}

// channelAccess checks that the bot has VIEW_CHANNEL and need in
// channelID, and says which permissions it has there.
func (d *directory) channelAccess(channelID string, need int64) (*apiError, int64) {
	d.mu.Lock()
	defer d.mu.Unlock()
	perms, set := d.perms[channelID]
	switch {
	case !set || perms&discordgo.PermissionAdministrator != 0:
		return nil, perms
	case perms&discordgo.PermissionViewChannel == 0:
		return errMissingAccess, perms
	case perms&need != need:
		return errMissingPerms, perms
	}
	return nil, perms
}

// hasChannelPerm reports whether the bot has perm in channelID.
func (d *directory) hasChannelPerm(channelID string, perm int64) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	perms, set := d.perms[channelID]
	return !set || perms&discordgo.PermissionAdministrator != 0 || perms&perm == perm
}

// checkChannel is channelAccess for a handler: it records and answers the
// error and reports whether the request may go on.
func (s *Server) checkChannel(w http.ResponseWriter, r *http.Request, channelID string, need int64) bool {
	e, perms := s.guilds.channelAccess(channelID, need)
	if e == nil {
		return true
	}
	s.fail(w, r, withDetail(e, "bot permissions in channel "+channelID+": "+strconv.FormatInt(perms, 10)), nil)
	return false
}
