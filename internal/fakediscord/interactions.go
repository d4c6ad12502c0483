package fakediscord

import (
	"bytes"
	"cmp"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
)

// DefaultPermissions are a regular member's permissions in a text channel,
// and DefaultAppPermissions the bot's, as decimal strings like Discord sends.
var (
	DefaultPermissions = strconv.FormatInt(discordgo.PermissionViewChannel|discordgo.PermissionSendMessages|
		discordgo.PermissionEmbedLinks|discordgo.PermissionAttachFiles|discordgo.PermissionReadMessageHistory|
		discordgo.PermissionAddReactions|discordgo.PermissionUseExternalEmojis|discordgo.PermissionUseApplicationCommands|
		discordgo.PermissionSendMessagesInThreads|discordgo.PermissionCreatePublicThreads, 10)
	DefaultAppPermissions = strconv.FormatInt(discordgo.PermissionViewChannel|discordgo.PermissionSendMessages|
		discordgo.PermissionEmbedLinks|discordgo.PermissionAttachFiles|discordgo.PermissionReadMessageHistory|
		discordgo.PermissionAddReactions|discordgo.PermissionUseExternalEmojis|discordgo.PermissionUseApplicationCommands|
		discordgo.PermissionSendMessagesInThreads, 10)
)

// Actor is who acts, and where. Empty fields take what Discord would:
// see Locate.
type Actor struct {
	DM        bool // a direct message with the bot: user instead of member
	GuildID   string
	ChannelID string
	UserID    string
	Username  string
	Locale    string // the member's client locale, e.g. "ko"
	// GuildLocale is the server's preferred locale (SetGuildLocale, else
	// en-US) unless set here.
	GuildLocale string
	Permissions string // the member's permissions, a decimal string
	// AppPermissions are the bot's permissions in the channel
	// (SetChannelPermissions, else DefaultAppPermissions) unless set here.
	AppPermissions string
	// UserInstall: the command comes through the member's own install of
	// the app, not the server's: authorizing_integration_owners holds only
	// the user (key 1). The bot is then no member of a server or private
	// channel it is used in; a test models that with
	// SetChannelPermissions(channel, 0), as Discord refuses such channels.
	UserInstall bool
	// PrivateChannel: a DM or group DM between users (context 2), not one
	// with the bot; with DM.
	PrivateChannel bool
}

// Locate fills in an Actor as Discord knows it: the default channel; the
// guild of a channel an interaction came from before (or that it is a
// DM), else the default guild; the default user, name and locale; a
// member's default permissions, and the bot's in the channel.
func (s *Server) Locate(a Actor) Actor {
	a.ChannelID = cmp.Or(a.ChannelID, DefaultChannelID)
	if info, ok := s.guilds.channel(a.ChannelID); ok && a.GuildID == "" && !a.DM {
		a.DM, a.GuildID = info.dm, info.guildID
	}
	if a.DM {
		a.GuildID = ""
	} else if a.GuildID == "" {
		a.GuildID = DefaultGuildID
	}
	a.UserID = cmp.Or(a.UserID, DefaultUserID)
	a.Username = cmp.Or(a.Username, DefaultUsername)
	a.Locale = cmp.Or(a.Locale, DefaultLocale)
	a.Permissions = cmp.Or(a.Permissions, DefaultPermissions)
	if a.AppPermissions == "" {
		a.AppPermissions = DefaultAppPermissions
		if perms, ok := s.guilds.appPermissions(a.ChannelID); ok {
			a.AppPermissions = perms
		} else if roles := s.guilds.botRolePermissions(a.GuildID); roles != 0 {
			// Server-wide ones (MANAGE_ROLES) come from the bot's roles.
			def, _ := strconv.ParseInt(DefaultAppPermissions, 10, 64)
			a.AppPermissions = strconv.FormatInt(def|roles, 10)
		}
	}
	if a.GuildLocale == "" {
		a.GuildLocale = s.guilds.guildLocale(a.GuildID)
	}
	return a
}

// Action is what a member's Discord client sends when the member acts:
// runs a command, clicks a component, submits a modal, types an
// autocompleted option. The package member builds them from what a test
// says a member does.
type Action struct {
	Actor
	Type discordgo.InteractionType
	// Data is the interaction's data as the client fills it: name, type
	// and options of a command; custom_id and component_type of a
	// component; custom_id and components of a modal. Interact adds what
	// Discord adds: a command's id (and guild_id), target_id and
	// data.resolved (users, channels, the target message).
	Data map[string]any
	// Message is the message acted on: the one a component is on (or a
	// modal's interaction came from), or a message command's target. The
	// stored version is used when the Server has it; a message it does not
	// have is sent as given, as a modified client could.
	Message *Message
}

// Interact makes the INTERACTION_CREATE that a's action makes, as Discord
// builds it, and sends it to the bot: over the gateway, to the ready
// session whose shard owns its guild (shard 0 for DMs), or to the HTTP
// endpoint (UseHTTPEndpoint). Without a ready session it waits, up to
// ctx; the response deadline starts when the interaction is sent.
func (s *Server) Interact(ctx context.Context, act Action) (*Interaction, error) {
	a := s.Locate(act.Actor)
	data, err := normalize(act.Data)
	if err != nil {
		return nil, err
	}
	msg := act.Message
	if msg != nil {
		if stored := s.Message(msg.ID); stored != nil {
			if stored.Deleted {
				return nil, fmt.Errorf("fakediscord: message %s was deleted", msg.ID)
			}
			msg = stored
		}
		if owner := s.interactions.get(msg.InteractionID); msg.Ephemeral() && owner != nil && owner.UserID != a.UserID {
			return nil, fmt.Errorf("fakediscord: message %s is ephemeral: only user %s sees it, not %s", msg.ID, owner.UserID, a.UserID)
		}
	}
	ix := &Interaction{Type: act.Type, GuildID: a.GuildID, ChannelID: a.ChannelID, UserID: a.UserID, s: s,
		user: userObject(a.UserID, a.Username)}
	switch act.Type {
	case discordgo.InteractionApplicationCommand, discordgo.InteractionApplicationCommandAutocomplete:
		ix.CommandName, _ = data["name"].(string)
		s.resolveCommand(a, data, msg)
	case discordgo.InteractionMessageComponent, discordgo.InteractionModalSubmit:
		ix.CustomID, _ = data["custom_id"].(string)
		if msg != nil {
			ix.SourceMessageID = msg.ID
		}
	}
	ix.build(a, data, msg)
	err = s.await(ctx, topicGateway, func() (bool, error) { return s.interactions.send(ix), nil })
	if err != nil {
		return nil, err
	}
	return ix, nil
}

// normalize copies data through JSON, so that Interact reads one shape
// whatever the caller built (numbers stay exact).
func normalize(data map[string]any) (map[string]any, error) {
	b, err := json.Marshal(data)
	if err != nil {
		return nil, fmt.Errorf("fakediscord: interaction data: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	out := map[string]any{}
	if err := dec.Decode(&out); err != nil {
		return nil, fmt.Errorf("fakediscord: interaction data: %w", err)
	}
	if out == nil {
		out = map[string]any{}
	}
	return out, nil
}

// resolveCommand adds to a command's data what Discord does: the
// registered command's id (and guild_id), or a fresh id for a command
// never registered; data.resolved for user, mentionable, role, channel and
// attachment options (Upload); a message command's target_id and resolved message.
func (s *Server) resolveCommand(a Actor, data map[string]any, target *Message) {
	name, _ := data["name"].(string)
	typ := discordgo.ChatApplicationCommand
	if n, ok := data["type"].(json.Number); ok {
		if v, err := n.Int64(); err == nil {
			typ = discordgo.ApplicationCommandType(v)
		}
	}
	if def := s.commands.find(a.GuildID, name, typ); def != nil {
		data["id"] = def.ID
		if def.GuildID != "" {
			data["guild_id"] = def.GuildID
		}
	} else {
		data["id"] = s.ids.next()
	}
	res := map[string]any{}
	if typ == discordgo.MessageApplicationCommand && target != nil {
		data["target_id"] = target.ID
		res["messages"] = map[string]any{target.ID: s.wire(target)}
	}
	users, channels, attachments, roles := map[string]any{}, map[string]any{}, map[string]any{}, map[string]any{}
	var walk func(opts any)
	walk = func(opts any) {
		list, _ := opts.([]any)
		for _, item := range list {
			o, _ := item.(map[string]any)
			if o == nil {
				continue
			}
			walk(o["options"])
			id, _ := o["value"].(string)
			t, _ := o["type"].(json.Number)
			switch t.String() {
			case strconv.Itoa(int(discordgo.ApplicationCommandOptionRole)):
				// The server's roles (SetRoles); an id it lacks is not
				// resolved.
				if role, ok := s.guilds.resolvedRole(a.GuildID, id); ok && !a.DM {
					roles[id] = role
				}
			case strconv.Itoa(int(discordgo.ApplicationCommandOptionUser)), strconv.Itoa(int(discordgo.ApplicationCommandOptionMentionable)):
				if role, ok := s.guilds.resolvedRole(a.GuildID, id); ok && !a.DM {
					roles[id] = role
				} else if id != "" {
					users[id] = userObject(id, "user"+id)
				}
			case strconv.Itoa(int(discordgo.ApplicationCommandOptionChannel)):
				// Only channels the member can pick here: none in a DM, and
				// none the fake saw in another server or a DM.
				if info, known := s.guilds.channel(id); id == "" || a.DM || (known && (info.dm || info.guildID != a.GuildID)) {
					continue
				}
				channels[id] = map[string]any{"id": id, "name": "channel-" + id, "type": int(discordgo.ChannelTypeGuildText), "permissions": a.Permissions}
			case strconv.Itoa(int(discordgo.ApplicationCommandOptionAttachment)):
				// Uploaded first (Upload), then named by its id; resolved
				// with what Discord read of it. The file is the member's
				// to see only until used: ephemeral.
				if f, ok := s.messages.upload(a.ChannelID, id); ok {
					attachments[id] = wireAttachment{ID: f.ID, Filename: f.Filename, Size: f.Size, URL: f.URL, ProxyURL: f.URL,
						ContentType: f.ContentType, Width: f.Width, Height: f.Height, Ephemeral: true}
				}
			}
		}
	}
	walk(data["options"])
	if len(users) > 0 {
		res["users"] = users
	}
	if len(channels) > 0 {
		res["channels"] = channels
	}
	if len(attachments) > 0 {
		res["attachments"] = attachments
	}
	if len(roles) > 0 {
		res["roles"] = roles
	}
	if len(res) > 0 {
		data["resolved"] = res
	}
}

// Interaction is one interaction the fake sent, and what the bot answered.
type Interaction struct {
	ID          string
	Token       string
	Type        discordgo.InteractionType
	GuildID     string // "" in DMs
	ChannelID   string
	UserID      string
	CommandName string // application commands
	CustomID    string // components and modal submits
	// SourceMessageID is the message a component was on, or the one the
	// interaction a modal answered came from ("" otherwise).
	SourceMessageID string
	// Payload is the INTERACTION_CREATE data as dispatched.
	Payload json.RawMessage
	// Dispatched is when the fake sent it; the response deadline counts
	// from here.
	Dispatched time.Time
	// Shard and SessionID name the gateway session it was dispatched to:
	// the one whose shard owns GuildID (shard 0 for DMs). Shard is -1 when
	// it went to an HTTP endpoint.
	Shard     int
	SessionID string

	s      *Server
	user   map[string]any
	owners map[string]string

	// mu guards what follows. It is taken before the message store's or
	// the gateway's lock, never after.
	mu          sync.Mutex
	deadline    time.Duration
	timer       *time.Timer
	resp        *Response
	originalID  string
	followupIDs []string
	rejections  []RESTError
	delivery    *httpDelivery // how it went to an HTTP endpoint
}

// build fills in the id, token and payload as Discord sends them.
func (ix *Interaction) build(a Actor, data map[string]any, msg *Message) {
	s := ix.s
	ix.ID, ix.Token = s.ids.next(), "fake-"+randomHex(32)
	ctxType := 0 // GUILD
	owner := a.GuildID
	chType := 0 // GUILD_TEXT
	if a.DM {
		ctxType, owner, chType = 1, "0", 1 // BOT_DM, DM
	}
	if a.DM && a.PrivateChannel {
		ctxType, chType = 2, 3 // PRIVATE_CHANNEL, GROUP_DM
	}
	ix.owners = map[string]string{"0": owner}
	if a.UserInstall {
		ix.owners = map[string]string{"1": a.UserID}
	}
	payload := map[string]any{
		"id":                             ix.ID,
		"application_id":                 s.cfg.AppID,
		"type":                           int(ix.Type),
		"token":                          ix.Token,
		"version":                        1,
		"data":                           data,
		"channel_id":                     a.ChannelID,
		"channel":                        map[string]any{"id": a.ChannelID, "type": chType},
		"locale":                         a.Locale,
		"app_permissions":                a.AppPermissions,
		"entitlements":                   []any{},
		"authorizing_integration_owners": ix.owners,
		"context":                        ctxType,
		"attachment_size_limit":          MaxFileSize,
	}
	if a.DM {
		payload["user"] = ix.user
	} else {
		payload["guild_id"] = a.GuildID
		payload["guild_locale"] = a.GuildLocale
		payload["guild"] = map[string]any{"id": a.GuildID, "locale": a.GuildLocale, "features": []string{}}
		payload["member"] = map[string]any{
			"user": ix.user, "roles": []string{}, "joined_at": "2024-01-01T00:00:00.000000+00:00",
			"premium_since": nil, "deaf": false, "mute": false, "pending": false, "nick": nil,
			"avatar": nil, "flags": 0, "permissions": a.Permissions,
		}
		payload["channel"].(map[string]any)["guild_id"] = a.GuildID
	}
	if msg != nil {
		payload["message"] = s.wire(msg)
	}
	b, err := json.Marshal(payload)
	if err != nil {
		panic("fakediscord: marshal interaction: " + err.Error())
	}
	ix.Payload = b
}

// interactionStore is every interaction sent, by id and by token, and how
// they are delivered: the response deadline and the HTTP endpoint. Its
// lock is a leaf.
type interactionStore struct {
	s *Server

	mu       sync.Mutex
	byID     map[string]*Interaction
	byToken  map[string]*Interaction
	issued   []string // every interaction token, kept across Reset
	deadline time.Duration
	endpoint string // deliver interactions here instead of the gateway
	key      ed25519.PrivateKey
}

func (st *interactionStore) reset() {
	st.stopTimers()
	st.mu.Lock()
	defer st.mu.Unlock()
	st.byID = make(map[string]*Interaction)
	st.byToken = make(map[string]*Interaction)
	st.deadline = st.s.cfg.ResponseDeadline
	st.endpoint, st.key = "", nil
}

func (st *interactionStore) stopTimers() {
	st.mu.Lock()
	all := make([]*Interaction, 0, len(st.byID))
	for _, ix := range st.byID {
		all = append(all, ix)
	}
	st.mu.Unlock()
	for _, ix := range all {
		ix.mu.Lock()
		if ix.timer != nil {
			ix.timer.Stop()
		}
		ix.mu.Unlock()
	}
}

func (st *interactionStore) setDeadline(d time.Duration) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.deadline = d
}

func (st *interactionStore) get(id string) *Interaction {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.byID[id]
}

func (st *interactionStore) withToken(token string) *Interaction {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.byToken[token]
}

// send delivers ix if it can be now: to the HTTP endpoint, or to a ready
// session of its guild's shard. It reports whether it did.
func (st *interactionStore) send(ix *Interaction) bool {
	st.mu.Lock()
	endpoint, key, deadline := st.endpoint, st.key, st.deadline
	st.mu.Unlock()
	if endpoint == "" && !st.s.gateway.canDeliver(ix.GuildID) {
		return false
	}
	// Known before the bot can answer it.
	st.mu.Lock()
	st.byID[ix.ID], st.byToken[ix.Token] = ix, ix
	st.mu.Unlock()
	ix.mu.Lock()
	ix.Dispatched, ix.deadline, ix.Shard = time.Now(), deadline, -1
	sent := true
	if endpoint != "" {
		go st.s.deliverHTTP(ix, endpoint, key, deadline)
	} else {
		ix.Shard, ix.SessionID, sent = st.s.gateway.dispatchInteraction(ix.GuildID, ix.Payload)
	}
	if sent {
		ix.timer = time.AfterFunc(deadline+time.Millisecond, ix.changed)
	}
	ix.mu.Unlock()
	st.mu.Lock()
	if sent {
		st.issued = append(st.issued, ix.Token)
	} else { // the shard went away since canDeliver: wait for it again
		delete(st.byID, ix.ID)
		delete(st.byToken, ix.Token)
	}
	st.mu.Unlock()
	if sent {
		st.s.guilds.learn(ix.ChannelID, channelInfo{guildID: ix.GuildID, dm: ix.GuildID == ""})
		st.s.logf("interaction %s (type %d) dispatched", ix.ID, ix.Type)
	}
	return sent
}

// InteractionTokens returns every interaction token the fake has issued
// since New, Reset notwithstanding: secrets a bot must never log.
func (s *Server) InteractionTokens() []string {
	st := s.interactions
	st.mu.Lock()
	defer st.mu.Unlock()
	return append([]string(nil), st.issued...)
}

// ---- what a test sees of an interaction ----

// changed tells waiters that ix changed.
func (ix *Interaction) changed() { ix.s.changes.fire(topicInteraction(ix.ID)) }

// Changed returns a channel that the next change of the interaction
// closes: its first response, a followup, a rejected request, its
// response deadline passing. Take it before reading the interaction, and
// wait for it when what you wait for is not there yet.
func (ix *Interaction) Changed() <-chan struct{} { return ix.s.changes.wait(topicInteraction(ix.ID)) }

// Response returns the first callback, or nil if there is none yet.
func (ix *Interaction) Response() *Response {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if ix.resp == nil {
		return nil
	}
	c := *ix.resp
	return &c
}

// Expired reports whether the response deadline passed without a first
// callback: the member sees "This interaction failed".
func (ix *Interaction) Expired() bool {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return ix.resp == nil && time.Since(ix.Dispatched) > ix.deadline
}

// Original returns the interaction's original response message (for type
// 6/7, the component's message), or nil.
func (ix *Interaction) Original() *Message {
	ix.mu.Lock()
	id := ix.originalID
	ix.mu.Unlock()
	if id == "" {
		return nil
	}
	return ix.s.Message(id)
}

// Followups returns the followup messages created for this interaction, in
// order (deleted ones included, marked Deleted).
func (ix *Interaction) Followups() []*Message {
	ix.mu.Lock()
	ids := append([]string(nil), ix.followupIDs...)
	ix.mu.Unlock()
	var out []*Message
	for _, id := range ids {
		if m := ix.s.Message(id); m != nil {
			out = append(out, m)
		}
	}
	return out
}

// Rejections lists the errors the fake returned to requests for this
// interaction (late or double callbacks, invalid edits, ...).
func (ix *Interaction) Rejections() []RESTError {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return append([]RESTError(nil), ix.rejections...)
}

func (ix *Interaction) addRejection(e RESTError) {
	ix.mu.Lock()
	ix.rejections = append(ix.rejections, e)
	ix.mu.Unlock()
	ix.changed()
}

// Response is the first callback of an interaction. It does not change
// once made; its slices are shared: treat them as read-only.
type Response struct {
	Type           discordgo.InteractionResponseType
	Flags          int
	Content        string
	Embeds         []*discordgo.MessageEmbed
	Components     []discordgo.MessageComponent
	ComponentsJSON json.RawMessage
	Files          []Attachment
	Data           json.RawMessage // the raw "data" object
	CustomID       string          // modal
	Title          string          // modal
	Choices        []*discordgo.ApplicationCommandOptionChoice
	Elapsed        time.Duration // from dispatch to callback
	// MessageID is the message the callback made (types 4 and 5) or is
	// about (6 and 7: the component's); "" for the others.
	MessageID string
	// EditsBefore is, for types 6 and 7, how many edits that message had
	// before the callback.
	EditsBefore int
	// Instance is the Activity instance a LAUNCH_ACTIVITY (type 12)
	// opened or put the member in.
	Instance string
}

// Ephemeral reports whether flag 64 was set.
func (r *Response) Ephemeral() bool { return r.Flags&FlagEphemeral != 0 }

// Text is what the response's message says, as Message.Text.
func (r *Response) Text() string { return textOf(r.Content, r.ComponentsJSON) }

// Buttons lists the buttons of the response's components.
func (r *Response) Buttons() []Button { return buttonsOf(r.ComponentsJSON) }
