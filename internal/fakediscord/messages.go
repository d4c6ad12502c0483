package fakediscord

import (
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
)

// messageStore is every message: those the bot sent (channel posts,
// interaction responses, followups, their edits), and those a test
// planted as a user's. A stored *Message is never changed: an edit stores
// a new version, so a snapshot can share it. Its lock, st.mu, may be taken
// while an Interaction's is held, never the other way round; it holds only
// leaf locks.
type messageStore struct {
	s *Server

	mu          sync.Mutex
	byID        map[string]*Message // the current version of each message
	order       []string            // ids in creation order
	byChannel   map[string][]string // ids in creation order, by channel
	uploads     map[string]Attachment
	fetches     map[string]int    // GETs of each upload, by channel/id
	sent        []*Message        // every version of every message the bot sent (Sent)
	nonces      map[string]string // nonceKey -> id of the newest message with it
	nonceWindow time.Duration
}

func (st *messageStore) reset() {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.byID = make(map[string]*Message)
	st.order = nil
	st.byChannel = make(map[string][]string)
	st.uploads = make(map[string]Attachment)
	st.fetches = make(map[string]int)
	st.sent = nil
	st.nonces = make(map[string]string)
	st.nonceWindow = st.s.cfg.NonceWindow
}

// changedLocked tells waiters that m changed.
func (st *messageStore) changedLocked(m *Message) {
	st.s.changes.fire(topicMessage(m.ID), topicChannel(m.ChannelID))
}

// createLocked stores a new message the bot sent, built from f. st.mu
// must be held.
func (st *messageStore) createLocked(channelID, guildID string, f *msgFields, flags, typ int, meta *ixMeta) *Message {
	if guildID == "" {
		c, _ := st.s.guilds.channel(channelID)
		guildID = c.guildID
	}
	id := st.s.ids.next()
	m := &Message{
		ID:             id,
		ChannelID:      channelID,
		GuildID:        guildID,
		Type:           typ,
		Content:        f.content,
		Flags:          flags,
		Embeds:         f.embeds,
		ComponentsJSON: f.components,
		Components:     decodeComponents(f.components),
		AuthorID:       st.s.cfg.AppID,
		AuthorUsername: st.s.cfg.BotUsername,
		AuthorBot:      true,
		Timestamp:      snowflakeTime(id),
		created:        true,
		meta:           meta,
	}
	if meta != nil {
		m.InteractionID, m.InteractionToken = meta.id, meta.token
	}
	m.Attachments = st.storeFilesLocked(m, f.files)
	st.addLocked(m)
	if !m.Loading() {
		st.sent = append(st.sent, m)
	}
	return m
}

// addLocked stores a message new to the store.
func (st *messageStore) addLocked(m *Message) {
	if _, dup := st.byID[m.ID]; !dup {
		st.order = append(st.order, m.ID)
		st.byChannel[m.ChannelID] = append(st.byChannel[m.ChannelID], m.ID)
	}
	st.byID[m.ID] = m
	st.changedLocked(m)
}

// storeFilesLocked gives uploads ids and URLs, and keeps them for GET
// /attachments.
func (st *messageStore) storeFilesLocked(m *Message, files []Attachment) []Attachment {
	var out []Attachment
	for _, a := range files {
		a.ID = st.s.ids.next()
		a.URL = st.s.URL() + "/attachments/" + m.ChannelID + "/" + a.ID + "/" + a.Filename
		st.uploads[m.ChannelID+"/"+a.ID] = a
		out = append(out, a)
	}
	return out
}

// editLocked stores m edited by f as m's new version and returns it:
// present fields replace, attachments are kept unless an attachments list
// is sent, new files are added. The loading flag is cleared. st.mu must be
// held.
func (st *messageStore) editLocked(old *Message, f *msgFields) *Message {
	m := old.snapshot()
	if f.hasContent {
		m.Content = f.content
	}
	if f.hasEmbeds {
		m.Embeds = f.embeds
	}
	if f.hasComponents {
		m.ComponentsJSON = f.components
		m.Components = decodeComponents(f.components)
	}
	// The edit was validated: editedFlags has no error to give.
	m.Flags, _ = editedFlags(old, f)
	if f.hasAttachments {
		keep := map[string]bool{}
		for _, id := range f.keep {
			keep[id] = true
		}
		var kept []Attachment
		for _, a := range m.Attachments {
			if keep[a.ID] {
				kept = append(kept, a)
			}
		}
		m.Attachments = kept
	}
	// Clip: the old version's attachments must not see the new ones.
	m.Attachments = append(slices.Clip(m.Attachments), st.storeFilesLocked(m, f.files)...)
	m.Flags &^= FlagLoading
	m.Edits++
	m.EditedTimestamp = time.Now().UTC()
	st.byID[m.ID] = m
	st.sent = append(st.sent, m)
	st.changedLocked(m)
	return m
}

// deleteLocked marks m deleted.
func (st *messageStore) deleteLocked(old *Message) {
	m := old.snapshot()
	m.Deleted = true
	st.byID[m.ID] = m
	st.changedLocked(m)
}

// channelMessageLocked finds a message visible through the channel routes.
func (st *messageStore) channelMessageLocked(channelID, id string) *Message {
	m := st.byID[id]
	if m == nil || m.Deleted || m.ChannelID != channelID || m.Ephemeral() {
		return nil
	}
	return m
}

// ---- the channel routes ----

func (st *messageStore) list(w http.ResponseWriter, r *http.Request) {
	channel := r.PathValue("channel")
	q := r.URL.Query()
	limit := 50
	if n, err := strconv.Atoi(q.Get("limit")); err == nil && n >= 1 && n <= 100 {
		limit = n
	}
	before, after := q.Get("before"), q.Get("after")
	if !st.s.checkChannel(w, r, channel, 0) {
		return
	}
	// Without READ_MESSAGE_HISTORY Discord returns no messages.
	if !st.s.guilds.hasChannelPerm(channel, discordgo.PermissionReadMessageHistory) {
		limit = 0
	}
	var found []*Message
	st.mu.Lock()
	ids := st.byChannel[channel]
	for i := len(ids) - 1; i >= 0 && len(found) < limit; i-- {
		m := st.channelMessageLocked(channel, ids[i])
		if m == nil || (before != "" && !idLess(m.ID, before)) || (after != "" && !idLess(after, m.ID)) {
			continue
		}
		found = append(found, m)
	}
	st.mu.Unlock()
	out := []wireMessage{}
	for _, m := range found {
		out = append(out, st.s.wire(m))
	}
	writeJSON(w, http.StatusOK, out)
}

func idLess(a, b string) bool {
	x, _ := strconv.ParseUint(a, 10, 64)
	y, _ := strconv.ParseUint(b, 10, 64)
	return x < y
}

// post creates a message. With enforce_nonce and a nonce the bot used in
// the channel within the nonce window, it answers the existing message
// (200, same body) and creates none, as Discord does.
func (st *messageStore) post(w http.ResponseWriter, r *http.Request) {
	channel := r.PathValue("channel")
	if st.s.guilds.dmRefused(channel) {
		st.s.fail(w, r, errCannotDM, nil)
		return
	}
	if !st.s.checkChannel(w, r, channel, discordgo.PermissionSendMessages) {
		return
	}
	obj, files, e := readPayload(w, r)
	if e == nil && obj == nil {
		e = errEmptyMessage
	}
	var nonce nonceFields
	if e == nil {
		nonce, e = decodeNonce(obj)
	}
	var f *msgFields
	if e == nil {
		f, e = decodeMsgFields(obj, files)
	}
	flags := 0
	if e == nil {
		flags = f.flags & (FlagSuppressEmbeds | FlagSuppressNotifications | FlagComponentsV2)
		e = validateFields(f, flags, nil, true)
	}
	if e == nil && len(files) > 0 {
		if e, _ = st.s.guilds.channelAccess(channel, discordgo.PermissionAttachFiles); e != nil {
			e = withDetail(e, "no ATTACH_FILES")
		}
	}
	if e != nil {
		st.s.fail(w, r, e, nil)
		return
	}
	st.mu.Lock()
	m, existing := st.nonceMatchLocked(channel, nonce.text), true
	if !nonce.enforce || nonce.text == "" || m == nil {
		m, existing = st.createLocked(channel, "", f, flags, int(discordgo.MessageTypeDefault), nil), false
		if nonce.raw != nil {
			m.Nonce, m.nonceJSON = nonce.text, nonce.raw // no reader has seen m: st.mu is held
			st.nonces[nonceKey(channel, m.AuthorID, nonce.text)] = m.ID
		}
	}
	st.mu.Unlock()
	if existing {
		st.s.logf("channel %s: nonce %q is message %s's: no new message", channel, nonce.text, m.ID)
	} else {
		st.s.logf("channel %s: message %s posted", m.ChannelID, m.ID)
	}
	writeJSON(w, http.StatusOK, st.s.wire(m))
}

func (st *messageStore) get(w http.ResponseWriter, r *http.Request) {
	channel := r.PathValue("channel")
	if !st.s.checkChannel(w, r, channel, 0) {
		return
	}
	st.mu.Lock()
	m := st.channelMessageLocked(channel, r.PathValue("message"))
	st.mu.Unlock()
	switch {
	case !st.s.guilds.hasChannelPerm(channel, discordgo.PermissionReadMessageHistory):
		st.s.fail(w, r, withDetail(errMissingAccess, "no READ_MESSAGE_HISTORY"), nil)
	case m == nil:
		st.s.fail(w, r, errUnknownMessage, nil)
	default:
		writeJSON(w, http.StatusOK, st.s.wire(m))
	}
}

func (st *messageStore) patch(w http.ResponseWriter, r *http.Request) {
	channel := r.PathValue("channel")
	if !st.s.checkChannel(w, r, channel, 0) {
		return
	}
	obj, files, e := readPayload(w, r)
	var f *msgFields
	if e == nil {
		f, e = decodeMsgFields(obj, files)
	}
	var m *Message
	if e == nil {
		st.mu.Lock()
		m = st.channelMessageLocked(channel, r.PathValue("message"))
		switch {
		case m == nil:
			e = errUnknownMessage
		case m.AuthorID != st.s.cfg.AppID:
			e = errNotAuthor
		default:
			var flags int
			if flags, e = editedFlags(m, f); e == nil {
				e = validateFields(f, flags, m, false)
			}
		}
		if e == nil {
			m = st.editLocked(m, f)
		}
		st.mu.Unlock()
	}
	if e != nil {
		st.s.fail(w, r, e, nil)
		return
	}
	writeJSON(w, http.StatusOK, st.s.wire(m))
}

func (st *messageStore) delete(w http.ResponseWriter, r *http.Request) {
	channel := r.PathValue("channel")
	if !st.s.checkChannel(w, r, channel, 0) {
		return
	}
	st.mu.Lock()
	m := st.channelMessageLocked(channel, r.PathValue("message"))
	if m != nil {
		st.deleteLocked(m)
	}
	st.mu.Unlock()
	if m == nil {
		st.s.fail(w, r, errUnknownMessage, nil)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// serveAttachment serves an upload at its URL,
// /attachments/{channel}/{id}/{filename}.
func (st *messageStore) serveAttachment(w http.ResponseWriter, r *http.Request) {
	st.mu.Lock()
	key := r.PathValue("channel") + "/" + r.PathValue("id")
	a, ok := st.uploads[key]
	if ok {
		st.fetches[key]++
	}
	st.mu.Unlock()
	if !ok || a.Filename != r.PathValue("filename") {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", a.ContentType)
	w.Header().Set("Content-Length", strconv.Itoa(len(a.Data)))
	_, _ = w.Write(a.Data)
}

// Upload stores a file a member attaches to a command's attachment
// option, as their client uploads it before the command is sent: it gets
// an id and a URL, and is served there; Interact resolves an attachment
// option naming its id in channelID (data.resolved.attachments) as
// Discord does. Its size, content type (from the name when not given)
// and an image's dimensions are Discord's reading of the bytes.
func (s *Server) Upload(channelID, filename, contentType string, data []byte) Attachment {
	st := s.messages
	a := newAttachment(filename, contentType, data)
	a.ID = s.ids.next()
	a.URL = s.URL() + "/attachments/" + channelID + "/" + a.ID + "/" + a.Filename
	st.mu.Lock()
	defer st.mu.Unlock()
	st.uploads[channelID+"/"+a.ID] = a
	return a
}

// AttachmentFetches is how often the file a was fetched from its URL.
func (s *Server) AttachmentFetches(channelID string, a Attachment) int {
	st := s.messages
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.fetches[channelID+"/"+a.ID]
}

// upload returns the file uploaded as id in channelID.
func (st *messageStore) upload(channelID, id string) (Attachment, bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	a, ok := st.uploads[channelID+"/"+id]
	return a, ok
}

// ---- what a test sees of messages ----

// Message returns a snapshot of the message with id (deleted ones too), or nil.
func (s *Server) Message(id string) *Message {
	st := s.messages
	st.mu.Lock()
	defer st.mu.Unlock()
	if m := st.byID[id]; m != nil {
		return m.snapshot()
	}
	return nil
}

// ChannelMessages lists the messages in a channel, oldest first, including
// ephemeral ones (which the channel routes hide from the bot) and excluding
// deleted ones.
func (s *Server) ChannelMessages(channelID string) []*Message {
	st := s.messages
	st.mu.Lock()
	defer st.mu.Unlock()
	var out []*Message
	for _, id := range st.byChannel[channelID] {
		if m := st.byID[id]; !m.Deleted {
			out = append(out, m.snapshot())
		}
	}
	return out
}

// MessagesCreated counts the messages the bot created in channelID since
// New or Reset: channel posts, interaction responses and followups,
// deleted ones included. A create answered with an existing message
// (enforce_nonce) creates none.
func (s *Server) MessagesCreated(channelID string) int {
	st := s.messages
	st.mu.Lock()
	defer st.mu.Unlock()
	n := 0
	for _, id := range st.byChannel[channelID] {
		if st.byID[id].created {
			n++
		}
	}
	return n
}

// MessageChanged returns a channel that the next change of the message
// with id closes: its creation, an edit, its deletion. Take it before
// reading the message, and wait for it when what you wait for is not
// there yet.
func (s *Server) MessageChanged(id string) <-chan struct{} {
	return s.changes.wait(topicMessage(id))
}

// ChannelChanged is MessageChanged for any message in channelID.
func (s *Server) ChannelChanged(channelID string) <-chan struct{} {
	return s.changes.wait(topicChannel(channelID))
}

// Sent lists every message the bot sent, each version apart: a message as
// created, then as each edit left it (type 7 updates, PATCHes, the edit
// that ends a deferral; a deferral's empty "thinking" placeholder is left
// out). Ephemeral messages, followups and channel posts are all there,
// oldest first, as snapshots.
func (s *Server) Sent() []*Message {
	st := s.messages
	st.mu.Lock()
	defer st.mu.Unlock()
	out := make([]*Message, len(st.sent))
	for i, m := range st.sent {
		out[i] = m.snapshot()
	}
	return out
}

// PostChannelMessage plants a message as if a user had sent it, e.g. a
// non-maze message for a context-menu command. Empty ID, AuthorID and
// AuthorUsername are filled in; Components (or ComponentsJSON) are kept. It
// returns the stored message. No gateway event is sent.
func (s *Server) PostChannelMessage(channelID string, m Message) *Message {
	stored := m
	stored.ChannelID = channelID
	if stored.ID == "" {
		stored.ID = s.ids.next()
	}
	if stored.AuthorID == "" {
		stored.AuthorID = DefaultUserID
	}
	if stored.AuthorUsername == "" {
		stored.AuthorUsername = "user" + stored.AuthorID
	}
	if stored.Timestamp.IsZero() {
		stored.Timestamp = time.Now().UTC()
	}
	if len(stored.ComponentsJSON) == 0 && len(stored.Components) > 0 {
		b, err := json.Marshal(stored.Components)
		if err != nil {
			panic("fakediscord: marshal components: " + err.Error())
		}
		stored.ComponentsJSON = b
	}
	stored.ComponentsJSON = append(json.RawMessage(nil), stored.ComponentsJSON...)
	stored.Components = decodeComponents(stored.ComponentsJSON)
	stored.Embeds = cloneEmbeds(m.Embeds)
	stored.Attachments = nil
	stored.created, stored.meta, stored.nonceJSON = false, nil, nil
	st := s.messages
	st.mu.Lock()
	defer st.mu.Unlock()
	for _, a := range m.Attachments {
		na := newAttachment(a.Filename, a.ContentType, append([]byte(nil), a.Data...))
		stored.Attachments = append(stored.Attachments, st.storeFilesLocked(&stored, []Attachment{na})...)
	}
	st.addLocked(&stored)
	return stored.snapshot()
}
