package fakediscord

import (
	"encoding/json"
	"net/http"
	"strconv"
)

// DMs, as Discord documents them (resources/user "Create DM", topics/
// opcodes-and-status-codes): POST /users/@me/channels {"recipient_id"}
// answers the DM channel with that user (type 1), the same one each time;
// a message to a user who does not take DMs from the bot (CloseDMs) is
// answered 403 code 50007 "Cannot send messages to this user".

var errCannotDM = &apiError{Status: http.StatusForbidden, Code: 50007, Message: "Cannot send messages to this user"}

// firstDMChannel is the first DM channel's ID; the next ones follow it.
const firstDMChannel = 1600000000000000001

// dmState is the directory's DM channels, by user and by channel.
type dmState struct {
	byUser    map[string]string // user → DM channel
	recipient map[string]string // DM channel → user
	closed    map[string]bool   // users who take no DMs from the bot
}

func (d *dmState) init() {
	if d.byUser == nil {
		d.byUser, d.recipient, d.closed = map[string]string{}, map[string]string{}, map[string]bool{}
	}
}

// CloseDMs makes userID refuse the bot's DMs, as a member who turned off
// DMs from the server's members does. Reset forgets it.
func (s *Server) CloseDMs(userID string) {
	d := s.guilds
	d.mu.Lock()
	defer d.mu.Unlock()
	d.dms.init()
	d.dms.closed[userID] = true
}

// DMChannel is the DM channel opened with userID, "" before the bot
// opened one.
func (s *Server) DMChannel(userID string) string {
	d := s.guilds
	d.mu.Lock()
	defer d.mu.Unlock()
	d.dms.init()
	return d.dms.byUser[userID]
}

// dmRefused tells whether channelID is a DM whose recipient takes no DMs.
func (d *directory) dmRefused(channelID string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.dms.init()
	user, ok := d.dms.recipient[channelID]
	return ok && d.dms.closed[user]
}

// postDM answers POST /users/@me/channels.
func (d *directory) postDM(w http.ResponseWriter, r *http.Request) {
	if r.PathValue("user") != "@me" {
		d.s.fail(w, r, errNotFound, nil)
		return
	}
	obj, _, e := readPayload(w, r)
	var user string
	if e == nil {
		if err := json.Unmarshal(obj["recipient_id"], &user); err != nil || user == "" {
			f := newFormErrors()
			f.add([]string{"recipient_id"}, "BASE_TYPE_REQUIRED", "This field is required")
			e = f.err()
		}
	}
	if e != nil {
		d.s.fail(w, r, e, nil)
		return
	}
	d.mu.Lock()
	d.dms.init()
	channel, ok := d.dms.byUser[user]
	if !ok {
		channel = strconv.Itoa(firstDMChannel + len(d.dms.byUser))
		d.dms.byUser[user], d.dms.recipient[channel] = channel, user
		d.channels[channel] = channelInfo{dm: true}
	}
	d.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]any{
		"id": channel, "type": 1, "last_message_id": nil, "flags": 0,
		"recipients": []any{userObject(user, "user"+user)},
	})
}
