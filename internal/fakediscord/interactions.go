package fakediscord

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"reflect"
	"slices"
	"strconv"
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

type channelInfo struct {
	guildID string
	dm      bool
}

// Option is a slash command option as a user fills it in. Type may be left
// zero: it is taken from the registered command, or inferred from Value
// (string, bool, integers, floats; nil Value with Options is a subcommand).
type Option struct {
	Name    string
	Value   any
	Type    discordgo.ApplicationCommandOptionType
	Options []Option // of a subcommand or subcommand group
	Focused bool     // the option being typed (autocomplete)
}

// SlashSpec describes a slash command invocation. Empty fields take the
// Default* values; DM sends it in a direct message (user instead of member).
type SlashSpec struct {
	Name           string
	Options        []Option
	DM             bool
	GuildID        string
	ChannelID      string
	UserID         string
	Username       string
	Locale         string // the user's client locale, e.g. "ko"
	GuildLocale    string
	Permissions    string // member's permissions, decimal string
	AppPermissions string // the bot's permissions, decimal string
	// SkipValidation sends options even when they break the registered
	// command's definition (unknown or missing options, choices, ranges),
	// which a real Discord client would not let a user do.
	SkipValidation bool
}

// ButtonSpec describes a click on a button of Message. Where-fields default
// to the message's channel and guild.
type ButtonSpec struct {
	CustomID       string
	Message        *Message
	DM             bool
	GuildID        string
	ChannelID      string
	UserID         string
	Username       string
	Locale         string
	Permissions    string
	AppPermissions string
}

// MessageCommandSpec describes a message context-menu command on Target.
type MessageCommandSpec struct {
	Name           string
	Target         *Message
	DM             bool
	GuildID        string
	ChannelID      string
	UserID         string
	Username       string
	Locale         string
	Permissions    string
	AppPermissions string
}

// ModalSpec describes the submission of the modal the bot opened in answer
// to From (a type 9 response). Values maps text input custom_ids to what
// the user typed.
type ModalSpec struct {
	From   *Interaction
	Values map[string]string
}

type actor struct {
	dm                                                        bool
	guildID, channelID, userID, username, locale, guildLocale string
	perms, appPerms                                           string
}

func (s *Server) actorLocked(dm bool, guild, channel, user, name, locale, perms, appPerms string) actor {
	a := actor{dm: dm, guildID: guild, channelID: channel, userID: user, username: name,
		locale: locale, perms: perms, appPerms: appPerms}
	if a.channelID == "" {
		a.channelID = DefaultChannelID
	}
	if info, ok := s.channels[a.channelID]; ok && guild == "" && !dm {
		a.dm, a.guildID = info.dm, info.guildID
	}
	if a.dm {
		a.guildID = ""
	} else if a.guildID == "" {
		a.guildID = DefaultGuildID
	}
	if a.userID == "" {
		a.userID = DefaultUserID
	}
	if a.username == "" {
		a.username = DefaultUsername
	}
	if a.locale == "" {
		a.locale = DefaultLocale
	}
	if a.perms == "" {
		a.perms = DefaultPermissions
	}
	if a.appPerms == "" {
		a.appPerms = DefaultAppPermissions
		if perms, ok := s.perms[a.channelID]; ok {
			a.appPerms = strconv.FormatInt(perms, 10)
		}
	}
	a.guildLocale = DefaultLocale
	if l, ok := s.guildLocales[a.guildID]; ok {
		a.guildLocale = l
	}
	return a
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

	// guarded by s.mu
	sentAt      time.Time
	deadline    time.Duration
	timer       *time.Timer
	resp        *Response
	originalID  string
	editsAtAck  int
	followupIDs []string
	sourceID    string // the message a component (or its modal) was on
	rejections  []RESTError
	delivery    *httpDelivery // how it went to an HTTP endpoint
}

// Response is the first callback of an interaction.
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
}

// Ephemeral reports whether flag 64 was set.
func (r *Response) Ephemeral() bool { return r.Flags&FlagEphemeral != 0 }

// Buttons lists the buttons of the response's components.
func (r *Response) Buttons() []Button { return buttonsOf(r.ComponentsJSON) }

func (r *Response) clone() *Response {
	c := *r
	c.Embeds = cloneEmbeds(r.Embeds)
	c.Components = decodeComponents(r.ComponentsJSON)
	c.Files = append([]Attachment(nil), r.Files...)
	return &c
}

// SlashCommand dispatches a CHAT_INPUT application command. It waits (up to
// ctx) for a ready gateway connection; the response deadline starts then.
func (s *Server) SlashCommand(ctx context.Context, spec SlashSpec) (*Interaction, error) {
	return s.command(ctx, spec, discordgo.InteractionApplicationCommand)
}

// Autocomplete dispatches an autocomplete interaction; mark the option being
// typed with Focused. The bot answers with type 8 (Response.Choices).
func (s *Server) Autocomplete(ctx context.Context, spec SlashSpec) (*Interaction, error) {
	spec.SkipValidation = true
	return s.command(ctx, spec, discordgo.InteractionApplicationCommandAutocomplete)
}

func (s *Server) command(ctx context.Context, spec SlashSpec, typ discordgo.InteractionType) (*Interaction, error) {
	if spec.Name == "" {
		return nil, fmt.Errorf("fakediscord: SlashSpec.Name is empty")
	}
	var ix *Interaction
	err := s.whenReady(ctx, func() error {
		a := s.actorLocked(spec.DM, spec.GuildID, spec.ChannelID, spec.UserID, spec.Username, spec.Locale, spec.Permissions, spec.AppPermissions)
		if !s.deliverableLocked(a.guildID) {
			return errNoShard
		}
		if spec.GuildLocale != "" {
			a.guildLocale = spec.GuildLocale
		}
		def := s.findCommandLocked(a.guildID, spec.Name, discordgo.ChatApplicationCommand)
		data := map[string]any{"name": spec.Name, "type": int(discordgo.ChatApplicationCommand)}
		var defs []*discordgo.ApplicationCommandOption
		validate := !spec.SkipValidation && def != nil
		s.setCommandIDLocked(data, def)
		if def != nil {
			defs = def.Options
		}
		opts, resolved, err := encodeOptions(spec.Options, defs, validate, "/"+spec.Name)
		if err != nil {
			return err
		}
		if len(opts) > 0 {
			data["options"] = opts
		}
		res := map[string]any{}
		if len(resolved) > 0 {
			res["users"] = resolved
		}
		if channels := s.resolveChannelsLocked(a, opts); len(channels) > 0 {
			res["channels"] = channels
		}
		if len(res) > 0 {
			data["resolved"] = res
		}
		ix = s.sendInteractionLocked(a, typ, data, nil)
		ix.CommandName = spec.Name
		return nil
	})
	return ix, err
}

// setCommandIDLocked gives command data the registered command's id (and
// guild), as Discord does, or a fresh id for a command never registered.
func (s *Server) setCommandIDLocked(data map[string]any, def *discordgo.ApplicationCommand) {
	if def == nil {
		data["id"] = s.newIDLocked()
		return
	}
	data["id"] = def.ID
	if def.GuildID != "" {
		data["guild_id"] = def.GuildID
	}
}

// ClickButton clicks the enabled button CustomID on spec.Message (its
// current stored version when the fake has it).
func (s *Server) ClickButton(ctx context.Context, spec ButtonSpec) (*Interaction, error) {
	if spec.Message == nil {
		return nil, fmt.Errorf("fakediscord: ButtonSpec.Message is nil")
	}
	var ix *Interaction
	err := s.whenReady(ctx, func() error {
		m := spec.Message
		if stored := s.messages[m.ID]; stored != nil {
			if stored.Deleted {
				return fmt.Errorf("fakediscord: message %s was deleted", m.ID)
			}
			m = stored
		}
		raw := m.ComponentsJSON
		if len(raw) == 0 && len(m.Components) > 0 {
			raw, _ = json.Marshal(m.Components)
		}
		var btn *Button
		for _, b := range buttonsOf(raw) {
			if b.CustomID == spec.CustomID && b.CustomID != "" {
				btn = &b
				break
			}
		}
		switch {
		case btn == nil:
			return fmt.Errorf("fakediscord: message %s has no button with custom_id %q (buttons: %v)", m.ID, spec.CustomID, buttonsOf(raw))
		case btn.Disabled:
			return fmt.Errorf("fakediscord: button %q on message %s is disabled", spec.CustomID, m.ID)
		}
		channel := spec.ChannelID
		if channel == "" {
			channel = m.ChannelID
		}
		guild := spec.GuildID
		if guild == "" {
			guild = m.GuildID
		}
		a := s.actorLocked(spec.DM, guild, channel, spec.UserID, spec.Username, spec.Locale, spec.Permissions, spec.AppPermissions)
		if !s.deliverableLocked(a.guildID) {
			return errNoShard
		}
		if owner := s.interactions[m.InteractionID]; m.Ephemeral() && owner != nil && owner.UserID != a.userID {
			return fmt.Errorf("fakediscord: message %s is ephemeral: only user %s sees it, not %s", m.ID, owner.UserID, a.userID)
		}
		data := map[string]any{"custom_id": spec.CustomID, "component_type": int(discordgo.ButtonComponent)}
		ix = s.sendInteractionLocked(a, discordgo.InteractionMessageComponent, data, m)
		ix.CustomID = spec.CustomID
		return nil
	})
	return ix, err
}

// MessageCommand runs a message context-menu command on spec.Target.
func (s *Server) MessageCommand(ctx context.Context, spec MessageCommandSpec) (*Interaction, error) {
	if spec.Name == "" || spec.Target == nil {
		return nil, fmt.Errorf("fakediscord: MessageCommandSpec needs Name and Target")
	}
	var ix *Interaction
	err := s.whenReady(ctx, func() error {
		m := spec.Target
		if stored := s.messages[m.ID]; stored != nil {
			m = stored
		}
		channel := spec.ChannelID
		if channel == "" {
			channel = m.ChannelID
		}
		guild := spec.GuildID
		if guild == "" {
			guild = m.GuildID
		}
		a := s.actorLocked(spec.DM, guild, channel, spec.UserID, spec.Username, spec.Locale, spec.Permissions, spec.AppPermissions)
		if !s.deliverableLocked(a.guildID) {
			return errNoShard
		}
		data := map[string]any{
			"name":      spec.Name,
			"type":      int(discordgo.MessageApplicationCommand),
			"target_id": m.ID,
			"resolved":  map[string]any{"messages": map[string]any{m.ID: s.wireLocked(m)}},
		}
		s.setCommandIDLocked(data, s.findCommandLocked(a.guildID, spec.Name, discordgo.MessageApplicationCommand))
		ix = s.sendInteractionLocked(a, discordgo.InteractionApplicationCommand, data, nil)
		ix.CommandName = spec.Name
		return nil
	})
	return ix, err
}

// SubmitModal submits the modal the bot opened in answer to spec.From.
func (s *Server) SubmitModal(ctx context.Context, spec ModalSpec) (*Interaction, error) {
	if spec.From == nil {
		return nil, fmt.Errorf("fakediscord: ModalSpec.From is nil")
	}
	var ix *Interaction
	err := s.whenReady(ctx, func() error {
		from := spec.From
		if from.resp == nil || from.resp.Type != discordgo.InteractionResponseModal {
			return fmt.Errorf("fakediscord: interaction %s was not answered with a modal", from.ID)
		}
		var rows []rawComponent
		_ = json.Unmarshal(from.resp.ComponentsJSON, &rows)
		var comps []any
		for _, r := range rows {
			var inner []any
			for _, c := range r.Components {
				id := ""
				if c.CustomID != nil {
					id = *c.CustomID
				}
				inner = append(inner, map[string]any{"type": c.Type, "custom_id": id, "value": spec.Values[id]})
			}
			comps = append(comps, map[string]any{"type": r.Type, "components": inner})
		}
		var p struct {
			Member *struct {
				Permissions string `json:"permissions"`
			} `json:"member"`
			AppPermissions string `json:"app_permissions"`
			Locale         string `json:"locale"`
		}
		_ = json.Unmarshal(from.Payload, &p)
		perms := ""
		if p.Member != nil {
			perms = p.Member.Permissions
		}
		name, _ := from.user["username"].(string)
		a := s.actorLocked(from.GuildID == "", from.GuildID, from.ChannelID, from.UserID, name, p.Locale, perms, p.AppPermissions)
		if !s.deliverableLocked(a.guildID) {
			return errNoShard
		}
		data := map[string]any{"custom_id": from.resp.CustomID, "components": comps}
		var msg *Message
		if from.sourceID != "" {
			msg = s.messages[from.sourceID]
		}
		ix = s.sendInteractionLocked(a, discordgo.InteractionModalSubmit, data, msg)
		ix.CustomID = from.resp.CustomID
		return nil
	})
	return ix, err
}

// errNoShard tells whenReady that no connected shard can take the
// interaction yet.
var errNoShard = errors.New("fakediscord: no ready shard for the interaction")

// whenReady runs send under s.mu until it does not report errNoShard: an
// interaction waits (up to ctx) for a ready connection of the shard that
// owns its guild (shard 0 for DMs), or goes at once to an HTTP endpoint.
// Its response deadline starts when it is sent.
func (s *Server) whenReady(ctx context.Context, send func() error) error {
	return s.waitFor(ctx, func() (bool, error) {
		if err := send(); !errors.Is(err, errNoShard) {
			return true, err
		}
		return false, nil
	})
}

// deliverableLocked reports whether an interaction in guildID ("" for a DM)
// can be sent now.
func (s *Server) deliverableLocked(guildID string) bool {
	return s.httpURL != "" || s.routeLocked(guildID) != nil
}

func (s *Server) findCommandLocked(guildID, name string, t discordgo.ApplicationCommandType) *discordgo.ApplicationCommand {
	for _, scope := range []string{guildID, ""} {
		for _, c := range s.commands[scope] {
			if c.Name == name && cmdType(c) == t {
				return c
			}
		}
		if guildID == "" {
			break
		}
	}
	return nil
}

// sendInteractionLocked builds and dispatches an INTERACTION_CREATE.
func (s *Server) sendInteractionLocked(a actor, typ discordgo.InteractionType, data map[string]any, msg *Message) *Interaction {
	id := s.newIDLocked()
	ix := &Interaction{
		ID: id, Token: "fake-" + randomHex(32), Type: typ,
		GuildID: a.guildID, ChannelID: a.channelID, UserID: a.userID,
		s: s, user: userObject(a.userID, a.username),
	}
	ctxType := 0 // GUILD
	owner := a.guildID
	chType := 0 // GUILD_TEXT
	if a.dm {
		ctxType, owner, chType = 1, "0", 1 // BOT_DM, DM
	}
	ix.owners = map[string]string{"0": owner}
	payload := map[string]any{
		"id":                             id,
		"application_id":                 s.cfg.AppID,
		"type":                           int(typ),
		"token":                          ix.Token,
		"version":                        1,
		"data":                           data,
		"channel_id":                     a.channelID,
		"channel":                        map[string]any{"id": a.channelID, "type": chType},
		"locale":                         a.locale,
		"app_permissions":                a.appPerms,
		"entitlements":                   []any{},
		"authorizing_integration_owners": ix.owners,
		"context":                        ctxType,
		"attachment_size_limit":          MaxFileSize,
	}
	if a.dm {
		payload["user"] = ix.user
	} else {
		payload["guild_id"] = a.guildID
		payload["guild_locale"] = a.guildLocale
		payload["guild"] = map[string]any{"id": a.guildID, "locale": a.guildLocale, "features": []string{}}
		payload["member"] = map[string]any{
			"user": ix.user, "roles": []string{}, "joined_at": "2024-01-01T00:00:00.000000+00:00",
			"premium_since": nil, "deaf": false, "mute": false, "pending": false, "nick": nil,
			"avatar": nil, "flags": 0, "permissions": a.perms,
		}
		if ch, ok := payload["channel"].(map[string]any); ok {
			ch["guild_id"] = a.guildID
		}
	}
	if msg != nil {
		payload["message"] = s.wireLocked(msg)
		ix.sourceID = msg.ID
	}
	ix.Payload, _ = json.Marshal(payload)
	s.channels[a.channelID] = channelInfo{guildID: a.guildID, dm: a.dm}
	s.interactions[id] = ix
	s.byToken[ix.Token] = ix
	s.issued = append(s.issued, ix.Token)
	ix.sentAt = time.Now()
	ix.Dispatched = ix.sentAt
	ix.deadline = s.deadline
	ix.Shard = -1
	if s.httpURL != "" {
		go s.deliverHTTP(ix, s.httpURL, s.httpKey, ix.deadline)
	} else if g := s.routeLocked(a.guildID); g != nil {
		ix.Shard, ix.SessionID = g.shard, g.id
		g.dispatchLocked("INTERACTION_CREATE", json.RawMessage(ix.Payload))
	}
	ix.timer = time.AfterFunc(ix.deadline+time.Millisecond, func() {
		s.mu.Lock()
		s.broadcastLocked()
		s.mu.Unlock()
	})
	s.logf("interaction %s (type %d) dispatched", id, typ)
	s.broadcastLocked()
	return ix
}

// resolveChannelsLocked resolves the channel options among opts (encoded,
// subcommands included) as Discord does: a partial channel (id, name, type,
// permissions) for each channel of the invoking server. A channel the fake
// saw in another server or a DM is left out, as Discord resolves only
// channels the member can pick where the command is used; so is any
// channel in a DM.
func (s *Server) resolveChannelsLocked(a actor, opts []map[string]any) map[string]any {
	out := map[string]any{}
	var walk func([]map[string]any)
	walk = func(opts []map[string]any) {
		for _, o := range opts {
			if sub, ok := o["options"].([]map[string]any); ok {
				walk(sub)
			}
			id, ok := o["value"].(string)
			if o["type"] != int(discordgo.ApplicationCommandOptionChannel) || !ok {
				continue
			}
			if info, known := s.channels[id]; a.dm || (known && (info.dm || info.guildID != a.guildID)) {
				continue
			}
			out[id] = map[string]any{"id": id, "name": "channel-" + id, "type": int(discordgo.ChannelTypeGuildText), "permissions": a.perms}
		}
	}
	walk(opts)
	return out
}

// encodeOptions renders options as Discord sends them, checked against defs
// when validate is set. It returns resolved users for user options.
func encodeOptions(opts []Option, defs []*discordgo.ApplicationCommandOption, validate bool, where string) ([]map[string]any, map[string]any, error) {
	var out []map[string]any
	resolved := map[string]any{}
	given := map[string]bool{}
	for _, o := range opts {
		var def *discordgo.ApplicationCommandOption
		for _, d := range defs {
			if d != nil && d.Name == o.Name {
				def = d
			}
		}
		if validate && def == nil {
			return nil, nil, fmt.Errorf("fakediscord: %s has no option %q", where, o.Name)
		}
		given[o.Name] = true
		t := o.Type
		if t == 0 && def != nil {
			t = def.Type
		}
		if t == 0 {
			t = inferType(o)
		}
		entry := map[string]any{"name": o.Name, "type": int(t)}
		switch t {
		case discordgo.ApplicationCommandOptionSubCommand, discordgo.ApplicationCommandOptionSubCommandGroup:
			var subDefs []*discordgo.ApplicationCommandOption
			if def != nil {
				subDefs = def.Options
			}
			sub, res, err := encodeOptions(o.Options, subDefs, validate, where+" "+o.Name)
			if err != nil {
				return nil, nil, err
			}
			for k, v := range res {
				resolved[k] = v
			}
			if sub == nil {
				sub = []map[string]any{}
			}
			entry["options"] = sub
		default:
			v, err := optionValue(t, o.Value)
			if err != nil {
				return nil, nil, fmt.Errorf("fakediscord: %s option %q: %w", where, o.Name, err)
			}
			if validate {
				if err := checkOptionValue(def, v); err != nil {
					return nil, nil, fmt.Errorf("fakediscord: %s option %q: %w", where, o.Name, err)
				}
			}
			entry["value"] = v
			if o.Focused {
				entry["focused"] = true
			}
			if t == discordgo.ApplicationCommandOptionUser || t == discordgo.ApplicationCommandOptionMentionable {
				if id, ok := v.(string); ok {
					resolved[id] = userObject(id, "user"+id)
				}
			}
		}
		out = append(out, entry)
	}
	if validate {
		for _, d := range defs {
			if d != nil && d.Required && !given[d.Name] {
				return nil, nil, fmt.Errorf("fakediscord: %s misses required option %q", where, d.Name)
			}
		}
	}
	return out, resolved, nil
}

func inferType(o Option) discordgo.ApplicationCommandOptionType {
	if o.Value == nil {
		return discordgo.ApplicationCommandOptionSubCommand
	}
	switch reflect.ValueOf(o.Value).Kind() {
	case reflect.Bool:
		return discordgo.ApplicationCommandOptionBoolean
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return discordgo.ApplicationCommandOptionInteger
	case reflect.Float32, reflect.Float64:
		return discordgo.ApplicationCommandOptionNumber
	}
	return discordgo.ApplicationCommandOptionString
}

// optionValue converts v to the JSON value Discord sends for type t.
func optionValue(t discordgo.ApplicationCommandOptionType, v any) (any, error) {
	rv := reflect.ValueOf(v)
	switch t {
	case discordgo.ApplicationCommandOptionInteger, discordgo.ApplicationCommandOptionNumber:
		var f float64
		switch rv.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			f = float64(rv.Int())
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			f = float64(rv.Uint())
		case reflect.Float32, reflect.Float64:
			f = rv.Float()
		default:
			return nil, fmt.Errorf("value %v (%T) is not a number", v, v)
		}
		if t == discordgo.ApplicationCommandOptionInteger {
			if f != math.Trunc(f) {
				return nil, fmt.Errorf("value %v is not an integer", v)
			}
			return int64(f), nil
		}
		return f, nil
	case discordgo.ApplicationCommandOptionBoolean:
		b, ok := v.(bool)
		if !ok {
			return nil, fmt.Errorf("value %v (%T) is not a bool", v, v)
		}
		return b, nil
	default:
		if v == nil {
			return nil, fmt.Errorf("missing value")
		}
		return fmt.Sprint(v), nil
	}
}

// checkOptionValue applies what the Discord client enforces: choices,
// min/max value and length.
func checkOptionValue(def *discordgo.ApplicationCommandOption, v any) error {
	if len(def.Choices) > 0 {
		for _, c := range def.Choices {
			if fmt.Sprint(c.Value) == fmt.Sprint(v) {
				return nil
			}
		}
		return fmt.Errorf("value %v is not one of the choices", v)
	}
	var f float64
	switch x := v.(type) {
	case int64:
		f = float64(x)
	case float64:
		f = x
	case string:
		n := runeLen(x)
		if def.MinLength != nil && n < *def.MinLength {
			return fmt.Errorf("%q is shorter than %d", x, *def.MinLength)
		}
		if def.MaxLength > 0 && n > def.MaxLength {
			return fmt.Errorf("%q is longer than %d", x, def.MaxLength)
		}
		return nil
	default:
		return nil
	}
	if def.MinValue != nil && f < *def.MinValue {
		return fmt.Errorf("value %v is below the minimum %v", v, *def.MinValue)
	}
	if def.MaxValue != 0 && f > def.MaxValue {
		return fmt.Errorf("value %v is above the maximum %v", v, def.MaxValue)
	}
	return nil
}

// ---- the interaction's side of the REST API ----

func (ix *Interaction) replyType() int {
	if ix.Type != discordgo.InteractionApplicationCommand {
		return int(discordgo.MessageTypeDefault)
	}
	var p struct {
		Data struct {
			Type int `json:"type"`
		} `json:"data"`
	}
	_ = json.Unmarshal(ix.Payload, &p)
	if p.Data.Type == int(discordgo.ChatApplicationCommand) {
		return int(discordgo.MessageTypeChatInputCommand)
	}
	return int(discordgo.MessageTypeContextMenuCommand)
}

func (s *Server) postCallback(w http.ResponseWriter, r *http.Request, p params) {
	obj, files, perr := readPayload(w, r)
	s.mu.Lock()
	defer s.mu.Unlock()
	ix := s.interactions[p["interaction"]]
	if ix == nil || ix.Token != p["token"] {
		s.recordLocked(r, errUnknownIx, nil)
		writeAPIError(w, errUnknownIx)
		return
	}
	e := s.callbackLocked(ix, obj, files, perr)
	if e != nil {
		s.recordLocked(r, e, ix)
		writeAPIError(w, e)
		return
	}
	s.logf("interaction %s: callback type %d after %v", ix.ID, ix.resp.Type, ix.resp.Elapsed)
	s.broadcastLocked()
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) callbackLocked(ix *Interaction, obj map[string]json.RawMessage, files []Attachment, perr *apiError) *apiError {
	if ix.resp != nil {
		return errAlreadyAcked
	}
	elapsed := time.Since(ix.sentAt)
	if elapsed > ix.deadline {
		return withDetail(errUnknownIx, fmt.Sprintf("first response after %v; the deadline is %v", elapsed.Round(time.Millisecond), ix.deadline))
	}
	if perr != nil {
		return perr
	}
	if obj == nil {
		return errInvalidJSON
	}
	var typ int
	if raw, ok := obj["type"]; !ok || json.Unmarshal(raw, &typ) != nil {
		fe := newFormErrors()
		fe.add([]string{"type"}, "BASE_TYPE_REQUIRED", "This field is required")
		return fe.err()
	}
	data := map[string]json.RawMessage{}
	if raw := obj["data"]; !isNull(raw) {
		if err := json.Unmarshal(raw, &data); err != nil {
			fe := newFormErrors()
			fe.add([]string{"data"}, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
			return fe.err()
		}
	}
	resp := &Response{Type: discordgo.InteractionResponseType(typ), Data: obj["data"], Elapsed: elapsed}
	autocomplete := ix.Type == discordgo.InteractionApplicationCommandAutocomplete
	hasSource := ix.sourceID != ""
	invalid := withDetail(errInvalidRespType, fmt.Sprintf("response type %d to interaction type %d", typ, ix.Type))
	switch resp.Type {
	case discordgo.InteractionResponseChannelMessageWithSource:
		if autocomplete {
			return invalid
		}
		f, e := decodeMsgFields(data, files, "data")
		if e != nil {
			return e
		}
		flags := f.flags & (FlagEphemeral | FlagSuppressEmbeds | FlagSuppressNotifications | FlagComponentsV2)
		if e := validateFields(f, flags, true, "data"); e != nil {
			return e
		}
		m := s.newMessageLocked(ix.ChannelID, ix.GuildID, f, flags, ix.replyType())
		m.InteractionID, m.InteractionToken = ix.ID, ix.Token
		ix.originalID = m.ID
		resp.fill(f, flags, m)
	case discordgo.InteractionResponseDeferredChannelMessageWithSource:
		if autocomplete {
			return invalid
		}
		f, e := decodeMsgFields(data, nil, "data")
		if e != nil {
			return e
		}
		flags := f.flags&(FlagEphemeral|FlagSuppressEmbeds|FlagSuppressNotifications) | FlagLoading
		m := s.newMessageLocked(ix.ChannelID, ix.GuildID, &msgFields{}, flags, ix.replyType())
		m.InteractionID, m.InteractionToken = ix.ID, ix.Token
		ix.originalID = m.ID
		resp.Flags = flags &^ FlagLoading
	case discordgo.InteractionResponseDeferredMessageUpdate, discordgo.InteractionResponseUpdateMessage:
		if !hasSource {
			return invalid
		}
		src := s.messages[ix.sourceID]
		if src == nil || src.Deleted {
			return errUnknownMessage
		}
		ix.originalID = src.ID
		ix.editsAtAck = src.Edits
		if resp.Type == discordgo.InteractionResponseUpdateMessage {
			f, e := decodeMsgFields(data, files, "data")
			if e != nil {
				return e
			}
			if e := validateFields(f, src.Flags, false, "data"); e != nil {
				return e
			}
			s.applyEditLocked(src, f)
			ix.editsAtAck = src.Edits - 1
			resp.fill(f, src.Flags, src)
		}
	case discordgo.InteractionApplicationCommandAutocompleteResult:
		if !autocomplete {
			return invalid
		}
		if raw, ok := data["choices"]; ok {
			if err := json.Unmarshal(raw, &resp.Choices); err != nil || len(resp.Choices) > 25 {
				fe := newFormErrors()
				fe.add([]string{"data", "choices"}, "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
				return fe.err()
			}
		}
	case discordgo.InteractionResponseModal:
		if autocomplete || ix.Type == discordgo.InteractionModalSubmit {
			return invalid
		}
		id, title, comps, e := validateModal(data)
		if e != nil {
			return e
		}
		resp.CustomID, resp.Title, resp.ComponentsJSON = id, title, comps
	default:
		return invalid
	}
	ix.resp = resp
	if ix.timer != nil {
		ix.timer.Stop()
	}
	return nil
}

func (r *Response) fill(f *msgFields, flags int, m *Message) {
	r.Flags = flags
	r.Content = f.content
	r.Embeds = f.embeds
	r.ComponentsJSON = f.components
	r.Files = append([]Attachment(nil), m.Attachments[len(m.Attachments)-len(f.files):]...)
}

// webhookLocked finds the interaction behind /webhooks/{app}/{token}.
func (s *Server) webhookLocked(p params) (*Interaction, *apiError) {
	ix := s.byToken[p["token"]]
	if p["app"] != s.cfg.AppID || ix == nil {
		return ix, errUnknownWebhook
	}
	if time.Since(ix.sentAt) > s.cfg.TokenLifetime {
		return ix, errInvalidWHToken
	}
	if ix.resp == nil {
		return ix, withDetail(errUnknownWebhook, "the interaction has not been acknowledged")
	}
	return ix, nil
}

// ixMessageLocked resolves @original or a followup id of ix.
func (s *Server) ixMessageLocked(ix *Interaction, id string) (*Message, *apiError) {
	if id == "@original" {
		id = ix.originalID
		if id == "" {
			return nil, withDetail(errUnknownMessage, "the interaction has no original response message")
		}
	} else if id != ix.originalID && !slices.Contains(ix.followupIDs, id) {
		return nil, withDetail(errUnknownMessage, "not a message of this interaction")
	}
	m := s.messages[id]
	if m == nil || m.Deleted {
		return nil, errUnknownMessage
	}
	return m, nil
}

func (s *Server) postFollowup(w http.ResponseWriter, r *http.Request, p params) {
	obj, files, perr := readPayload(w, r)
	s.mu.Lock()
	defer s.mu.Unlock()
	ix, e := s.webhookLocked(p)
	m, e := s.followupLocked(ix, e, obj, files, perr)
	if e != nil {
		s.recordLocked(r, e, ix)
		writeAPIError(w, e)
		return
	}
	s.broadcastLocked()
	if r.URL.Query().Get("wait") != "true" {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	b, _ := json.Marshal(s.wireLocked(m))
	writeRaw(w, http.StatusOK, b)
}

func (s *Server) followupLocked(ix *Interaction, e *apiError, obj map[string]json.RawMessage, files []Attachment, perr *apiError) (*Message, *apiError) {
	if e != nil {
		return nil, e
	}
	if perr != nil {
		return nil, perr
	}
	if obj == nil {
		return nil, &apiError{Status: http.StatusBadRequest, Code: 50006, Message: "Cannot send an empty message"}
	}
	f, e := decodeMsgFields(obj, files)
	if e != nil {
		return nil, e
	}
	flags := f.flags & (FlagEphemeral | FlagSuppressEmbeds | FlagSuppressNotifications | FlagComponentsV2)
	// After a type 5 deferral the first followup edits the loading message
	// (Discord's documented backwards compatibility); its ephemeral flag is
	// ignored.
	if orig := s.messages[ix.originalID]; orig != nil && !orig.Deleted && orig.Loading() {
		if e := validateFields(f, orig.Flags, true); e != nil {
			return nil, e
		}
		s.applyEditLocked(orig, f)
		return orig, nil
	}
	if e := validateFields(f, flags, true); e != nil {
		return nil, e
	}
	m := s.newMessageLocked(ix.ChannelID, ix.GuildID, f, flags, int(discordgo.MessageTypeDefault))
	m.InteractionID, m.InteractionToken = ix.ID, ix.Token
	ix.followupIDs = append(ix.followupIDs, m.ID)
	return m, nil
}

func (s *Server) getWebhookMessage(w http.ResponseWriter, r *http.Request, p params) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ix, e := s.webhookLocked(p)
	var m *Message
	if e == nil {
		m, e = s.ixMessageLocked(ix, p["message"])
	}
	if e != nil {
		s.recordLocked(r, e, ix)
		writeAPIError(w, e)
		return
	}
	b, _ := json.Marshal(s.wireLocked(m))
	writeRaw(w, http.StatusOK, b)
}

func (s *Server) patchWebhookMessage(w http.ResponseWriter, r *http.Request, p params) {
	obj, files, perr := readPayload(w, r)
	s.mu.Lock()
	defer s.mu.Unlock()
	ix, e := s.webhookLocked(p)
	var m *Message
	if e == nil {
		m, e = s.ixMessageLocked(ix, p["message"])
	}
	if e == nil {
		e = perr
	}
	var f *msgFields
	if e == nil {
		if obj == nil {
			obj = map[string]json.RawMessage{}
		}
		f, e = decodeMsgFields(obj, files)
	}
	if e == nil {
		e = validateFields(f, m.Flags, false)
	}
	if e != nil {
		s.recordLocked(r, e, ix)
		writeAPIError(w, e)
		return
	}
	s.applyEditLocked(m, f)
	s.broadcastLocked()
	b, _ := json.Marshal(s.wireLocked(m))
	writeRaw(w, http.StatusOK, b)
}

func (s *Server) deleteWebhookMessage(w http.ResponseWriter, r *http.Request, p params) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ix, e := s.webhookLocked(p)
	var m *Message
	if e == nil {
		m, e = s.ixMessageLocked(ix, p["message"])
	}
	if e != nil {
		s.recordLocked(r, e, ix)
		writeAPIError(w, e)
		return
	}
	m.Deleted = true
	s.broadcastLocked()
	w.WriteHeader(http.StatusNoContent)
}

// ---- test-side access to an interaction ----

// Wait returns the interaction's first callback. It fails with
// ErrNoResponse once the response deadline passes without one.
func (ix *Interaction) Wait(ctx context.Context) (*Response, error) {
	var out *Response
	err := ix.s.waitFor(ctx, func() (bool, error) {
		if ix.resp != nil {
			out = ix.resp.clone()
			return true, nil
		}
		if time.Since(ix.sentAt) > ix.deadline {
			return false, ErrNoResponse
		}
		return false, nil
	})
	return out, err
}

// Response returns the first callback, or nil if there is none yet.
func (ix *Interaction) Response() *Response {
	ix.s.mu.Lock()
	defer ix.s.mu.Unlock()
	if ix.resp == nil {
		return nil
	}
	return ix.resp.clone()
}

// WaitFinal waits for the message this interaction produced — its original
// response (type 4; type 5 once edited out of the loading state) or the
// message its component was on (type 7; type 6 once edited) — to satisfy
// pred (nil: any), and returns a snapshot. pred runs with the Server locked:
// it must not call the Server.
func (ix *Interaction) WaitFinal(ctx context.Context, pred func(*Message) bool) (*Message, error) {
	var out *Message
	err := ix.s.waitFor(ctx, func() (bool, error) {
		if ix.resp == nil {
			if time.Since(ix.sentAt) > ix.deadline {
				return false, ErrNoResponse
			}
			return false, nil
		}
		if ix.originalID == "" {
			return false, ErrNoMessage
		}
		m := ix.s.messages[ix.originalID]
		if m == nil {
			return false, ErrNoMessage
		}
		if m.Deleted {
			return false, ErrDeleted
		}
		if m.Loading() || (ix.resp.Type == discordgo.InteractionResponseDeferredMessageUpdate && m.Edits <= ix.editsAtAck) {
			return false, nil
		}
		snap := m.snapshot()
		if pred != nil && !pred(snap) {
			return false, nil
		}
		out = snap
		return true, nil
	})
	return out, err
}

// Original returns the interaction's original response message (for type
// 6/7, the component's message), or nil.
func (ix *Interaction) Original() *Message {
	ix.s.mu.Lock()
	defer ix.s.mu.Unlock()
	if m := ix.s.messages[ix.originalID]; m != nil {
		return m.snapshot()
	}
	return nil
}

// Followups returns the followup messages created for this interaction, in
// order (deleted ones included, marked Deleted).
func (ix *Interaction) Followups() []*Message {
	ix.s.mu.Lock()
	defer ix.s.mu.Unlock()
	var out []*Message
	for _, id := range ix.followupIDs {
		if m := ix.s.messages[id]; m != nil {
			out = append(out, m.snapshot())
		}
	}
	return out
}

// WaitFollowup waits for the n-th followup (0-based) and returns it.
func (ix *Interaction) WaitFollowup(ctx context.Context, n int) (*Message, error) {
	var out *Message
	err := ix.s.waitFor(ctx, func() (bool, error) {
		if n < len(ix.followupIDs) {
			out = ix.s.messages[ix.followupIDs[n]].snapshot()
			return true, nil
		}
		return false, nil
	})
	return out, err
}

// Rejections lists the errors the fake returned to requests for this
// interaction (late or double callbacks, invalid edits, ...).
func (ix *Interaction) Rejections() []RESTError {
	ix.s.mu.Lock()
	defer ix.s.mu.Unlock()
	return append([]RESTError(nil), ix.rejections...)
}
