package fakediscord

import (
	"net/http"
	"strconv"

	"github.com/bwmarrin/discordgo"
)

var errMissingPerms = &apiError{Status: http.StatusForbidden, Code: 50013, Message: "Missing Permissions"}

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
// carry perms as app_permissions unless their spec sets AppPermissions.
// Interaction responses, followups and their edits go through the webhook
// routes and are not affected, as on Discord. Reset forgets these settings.
func (s *Server) SetChannelPermissions(channelID string, perms int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.perms[channelID] = perms
}

// ClearChannelPermissions gives the bot every permission in channelID
// again.
func (s *Server) ClearChannelPermissions(channelID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.perms, channelID)
}

// channelAccessLocked checks that the bot has VIEW_CHANNEL and need in
// channelID. s.mu must be held.
func (s *Server) channelAccessLocked(channelID string, need int64) *apiError {
	perms, set := s.perms[channelID]
	if !set || perms&discordgo.PermissionAdministrator != 0 {
		return nil
	}
	if perms&discordgo.PermissionViewChannel == 0 {
		return errMissingAccess
	}
	if perms&need != need {
		return errMissingPerms
	}
	return nil
}

// hasChannelPermLocked reports whether the bot has perm in channelID.
func (s *Server) hasChannelPermLocked(channelID string, perm int64) bool {
	perms, set := s.perms[channelID]
	return !set || perms&discordgo.PermissionAdministrator != 0 || perms&perm == perm
}

// checkChannel is channelAccessLocked for handlers that do not hold s.mu;
// it records and answers the error and reports whether the request may go
// on.
func (s *Server) checkChannel(w http.ResponseWriter, r *http.Request, channelID string, need int64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.channelAccessLocked(channelID, need)
	if e == nil {
		return true
	}
	e = withDetail(e, "bot permissions in channel "+channelID+": "+strconv.FormatInt(s.perms[channelID], 10))
	s.recordLocked(r, e, nil)
	writeAPIError(w, e)
	return false
}
