package member

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/bwmarrin/discordgo"

	"mazebot/internal/fakediscord"
)

// Client acts as the members of one fake Discord. Its methods are safe
// for concurrent use.
type Client struct {
	srv *fakediscord.Server
}

// New returns a Client for srv.
func New(srv *fakediscord.Server) *Client { return &Client{srv: srv} }

// Option is a slash command option as a member fills it in. Type may be
// left zero: it is taken from the registered command, or inferred from
// Value (string, bool, integers, floats; nil Value with Options is a
// subcommand).
type Option struct {
	Name    string
	Value   any
	Type    discordgo.ApplicationCommandOptionType
	Options []Option // of a subcommand or subcommand group
	Focused bool     // the option being typed (autocomplete)
}

// SlashSpec describes a slash command invocation. Empty fields take
// Discord's defaults (fakediscord.Server.Locate); DM sends it in a direct
// message (user instead of member).
type SlashSpec struct {
	Name           string
	Options        []Option
	DM             bool
	GuildID        string
	ChannelID      string
	UserID         string
	Username       string
	Locale         string // the member's client locale, e.g. "ko"
	GuildLocale    string
	Permissions    string // the member's permissions, decimal string
	AppPermissions string // the bot's permissions, decimal string
	// UserInstall and PrivateChannel: see fakediscord.Actor.
	UserInstall    bool
	PrivateChannel bool
	// SkipValidation sends options even when they break the registered
	// command's definition (unknown or missing options, choices, ranges),
	// which a real Discord client would not let a member do.
	SkipValidation bool
}

func (s SlashSpec) actor() fakediscord.Actor {
	return fakediscord.Actor{DM: s.DM, GuildID: s.GuildID, ChannelID: s.ChannelID, UserID: s.UserID, Username: s.Username,
		Locale: s.Locale, GuildLocale: s.GuildLocale, Permissions: s.Permissions, AppPermissions: s.AppPermissions,
		UserInstall: s.UserInstall, PrivateChannel: s.PrivateChannel}
}

// ButtonSpec describes a click on a button of Message. Where-fields default
// to the message's channel and guild.
type ButtonSpec struct {
	CustomID       string
	Message        *fakediscord.Message
	DM             bool
	GuildID        string
	ChannelID      string
	UserID         string
	Username       string
	Locale         string
	Permissions    string
	AppPermissions string
	// UserInstall and PrivateChannel: see fakediscord.Actor (a button on a
	// message a member's own install made, in a group DM).
	UserInstall    bool
	PrivateChannel bool
}

// MessageCommandSpec describes a message context-menu command on Target.
// Where-fields default to the target's channel and guild.
type MessageCommandSpec struct {
	Name           string
	Target         *fakediscord.Message
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
// the member typed.
type ModalSpec struct {
	From   *Interaction
	Values map[string]string
}

// onMessage is an actor on message m: its channel and guild unless given.
func onMessage(m *fakediscord.Message, dm bool, guild, channel, user, name, locale, perms, appPerms string) fakediscord.Actor {
	if channel == "" {
		channel = m.ChannelID
	}
	if guild == "" {
		guild = m.GuildID
	}
	return fakediscord.Actor{DM: dm, GuildID: guild, ChannelID: channel, UserID: user, Username: name,
		Locale: locale, Permissions: perms, AppPermissions: appPerms}
}

// SlashCommand runs a CHAT_INPUT application command. It waits (up to
// ctx) for a ready gateway connection; the response deadline starts then.
func (c *Client) SlashCommand(ctx context.Context, spec SlashSpec) (*Interaction, error) {
	return c.command(ctx, spec, discordgo.InteractionApplicationCommand)
}

// Autocomplete types in an autocompleted option; mark the option being
// typed with Focused. The bot answers with type 8 (Response.Choices).
func (c *Client) Autocomplete(ctx context.Context, spec SlashSpec) (*Interaction, error) {
	spec.SkipValidation = true
	return c.command(ctx, spec, discordgo.InteractionApplicationCommandAutocomplete)
}

func (c *Client) command(ctx context.Context, spec SlashSpec, typ discordgo.InteractionType) (*Interaction, error) {
	if spec.Name == "" {
		return nil, fmt.Errorf("member: SlashSpec.Name is empty")
	}
	a := c.srv.Locate(spec.actor())
	def := c.srv.Command(a.GuildID, spec.Name, discordgo.ChatApplicationCommand)
	var defs []*discordgo.ApplicationCommandOption
	if def != nil {
		defs = def.Options
	}
	opts, err := encodeOptions(spec.Options, defs, !spec.SkipValidation && def != nil, "/"+spec.Name)
	if err != nil {
		return nil, err
	}
	if def != nil && !spec.SkipValidation {
		if err := offered(def, a); err != nil {
			return nil, err
		}
	}
	data := map[string]any{"name": spec.Name, "type": int(discordgo.ChatApplicationCommand)}
	if len(opts) > 0 {
		data["options"] = opts
	}
	return c.interact(ctx, fakediscord.Action{Actor: a, Type: typ, Data: data})
}

// offered tells whether a Discord client offers the command where a
// stands: its contexts (a server, the DM with the bot, another private
// channel) and how the app is installed there (the server's install, or
// the member's own). A command not offered cannot be typed.
func offered(def *discordgo.ApplicationCommand, a fakediscord.Actor) error {
	ctx := discordgo.InteractionContextGuild
	switch {
	case a.DM && a.PrivateChannel:
		ctx = discordgo.InteractionContextPrivateChannel
	case a.DM:
		ctx = discordgo.InteractionContextBotDM
	}
	install := discordgo.ApplicationIntegrationGuildInstall
	if a.UserInstall {
		install = discordgo.ApplicationIntegrationUserInstall
	}
	if def.Contexts != nil && !slices.Contains(*def.Contexts, ctx) {
		return fmt.Errorf("member: /%s is not offered in context %d (its contexts: %v)", def.Name, ctx, *def.Contexts)
	}
	if def.IntegrationTypes != nil && !slices.Contains(*def.IntegrationTypes, install) {
		return fmt.Errorf("member: /%s is not offered through integration type %d (its types: %v)", def.Name, install, *def.IntegrationTypes)
	}
	return nil
}

// EntryPoint runs the app's Entry Point command (type 4), as a member
// does from the app launcher, as spec says (its Name and Options are not
// used: the command has none). The bot gets it when the command's handler
// is 1 (APP_HANDLER); with handler 2 Discord launches the Activity itself
// and no interaction is made, which is an error here.
func (c *Client) EntryPoint(ctx context.Context, spec SlashSpec) (*Interaction, error) {
	a := c.srv.Locate(spec.actor())
	var def *discordgo.ApplicationCommand
	for _, cmd := range c.srv.CommandsIn("") {
		if cmd.Type == fakediscord.PrimaryEntryPointCommand {
			def = cmd
		}
	}
	name := ""
	if def != nil {
		name = def.Name
	}
	switch {
	case name == "":
		return nil, fmt.Errorf("member: the app has no Entry Point command")
	case c.srv.EntryPointHandler() != fakediscord.EntryPointAppHandler:
		return nil, fmt.Errorf("member: the Entry Point command has handler %d: Discord launches it, the app gets no interaction", c.srv.EntryPointHandler())
	}
	// The app launcher offers it only where its contexts and integration
	// types say, as any command.
	if !spec.SkipValidation {
		if err := offered(def, a); err != nil {
			return nil, err
		}
	}
	data := map[string]any{"name": name, "type": int(fakediscord.PrimaryEntryPointCommand)}
	return c.interact(ctx, fakediscord.Action{Actor: a, Type: discordgo.InteractionApplicationCommand, Data: data})
}

// ClickButton clicks the enabled button CustomID on spec.Message, in its
// current version when the fake has it stored; a message it does not have
// (one a test forged) is clicked as given, as a modified client could.
func (c *Client) ClickButton(ctx context.Context, spec ButtonSpec) (*Interaction, error) {
	m := spec.Message
	if m == nil {
		return nil, fmt.Errorf("member: ButtonSpec.Message is nil")
	}
	if stored := c.srv.Message(m.ID); stored != nil {
		if stored.Deleted {
			return nil, fmt.Errorf("member: message %s was deleted", m.ID)
		}
		m = stored
	}
	shown := m
	if len(m.ComponentsJSON) == 0 && len(m.Components) > 0 {
		raw, err := json.Marshal(m.Components)
		if err != nil {
			return nil, err
		}
		shown = &fakediscord.Message{ComponentsJSON: raw}
	}
	var btn *fakediscord.Button
	if spec.CustomID != "" {
		btn = shown.Button(spec.CustomID)
	}
	switch {
	case btn == nil:
		return nil, fmt.Errorf("member: message %s has no button with custom_id %q (buttons: %v)", m.ID, spec.CustomID, shown.Buttons())
	case btn.Disabled:
		return nil, fmt.Errorf("member: button %q on message %s is disabled", spec.CustomID, m.ID)
	}
	a := onMessage(m, spec.DM, spec.GuildID, spec.ChannelID, spec.UserID, spec.Username, spec.Locale, spec.Permissions, spec.AppPermissions)
	a.UserInstall, a.PrivateChannel = spec.UserInstall, spec.PrivateChannel
	data := map[string]any{"custom_id": spec.CustomID, "component_type": int(discordgo.ButtonComponent)}
	return c.interact(ctx, fakediscord.Action{Actor: a, Type: discordgo.InteractionMessageComponent, Data: data, Message: m})
}

// MessageCommand runs a message context-menu command on spec.Target.
func (c *Client) MessageCommand(ctx context.Context, spec MessageCommandSpec) (*Interaction, error) {
	if spec.Name == "" || spec.Target == nil {
		return nil, fmt.Errorf("member: MessageCommandSpec needs Name and Target")
	}
	m := spec.Target
	if stored := c.srv.Message(m.ID); stored != nil {
		m = stored
	}
	a := onMessage(m, spec.DM, spec.GuildID, spec.ChannelID, spec.UserID, spec.Username, spec.Locale, spec.Permissions, spec.AppPermissions)
	data := map[string]any{"name": spec.Name, "type": int(discordgo.MessageApplicationCommand)}
	return c.interact(ctx, fakediscord.Action{Actor: a, Type: discordgo.InteractionApplicationCommand, Data: data, Message: m})
}

// SubmitModal submits the modal the bot opened in answer to spec.From, as
// the member who got it, where it was opened.
func (c *Client) SubmitModal(ctx context.Context, spec ModalSpec) (*Interaction, error) {
	from := spec.From
	if from == nil {
		return nil, fmt.Errorf("member: ModalSpec.From is nil")
	}
	resp := from.Response()
	if resp == nil || resp.Type != discordgo.InteractionResponseModal {
		return nil, fmt.Errorf("member: interaction %s was not answered with a modal", from.ID)
	}
	var rows []struct {
		Type       int `json:"type"`
		Components []struct {
			Type     int     `json:"type"`
			CustomID *string `json:"custom_id"`
		} `json:"components"`
	}
	_ = json.Unmarshal(resp.ComponentsJSON, &rows)
	var comps []any
	for _, r := range rows {
		var inner []any
		for _, in := range r.Components {
			id := ""
			if in.CustomID != nil {
				id = *in.CustomID
			}
			inner = append(inner, map[string]any{"type": in.Type, "custom_id": id, "value": spec.Values[id]})
		}
		comps = append(comps, map[string]any{"type": r.Type, "components": inner})
	}
	// As the member who opened it: the payload Discord sent then says who.
	var p struct {
		Member *struct {
			Permissions string `json:"permissions"`
			User        struct {
				Username string `json:"username"`
			} `json:"user"`
		} `json:"member"`
		User *struct {
			Username string `json:"username"`
		} `json:"user"`
		AppPermissions string `json:"app_permissions"`
		Locale         string `json:"locale"`
	}
	_ = json.Unmarshal(from.Payload, &p)
	a := fakediscord.Actor{DM: from.GuildID == "", GuildID: from.GuildID, ChannelID: from.ChannelID, UserID: from.UserID,
		Locale: p.Locale, AppPermissions: p.AppPermissions}
	switch {
	case p.Member != nil:
		a.Permissions, a.Username = p.Member.Permissions, p.Member.User.Username
	case p.User != nil:
		a.Username = p.User.Username
	}
	var source *fakediscord.Message
	if from.SourceMessageID != "" {
		source = c.srv.Message(from.SourceMessageID)
	}
	data := map[string]any{"custom_id": resp.CustomID, "components": comps}
	return c.interact(ctx, fakediscord.Action{Actor: a, Type: discordgo.InteractionModalSubmit, Data: data, Message: source})
}

// Send sends act as given, for what no command or button of the bot makes
// but a newer Discord or a modified client could send: a modal the bot
// never opened, a type of interaction not invented yet.
func (c *Client) Send(ctx context.Context, act fakediscord.Action) (*Interaction, error) {
	return c.interact(ctx, act)
}

func (c *Client) interact(ctx context.Context, act fakediscord.Action) (*Interaction, error) {
	ix, err := c.srv.Interact(ctx, act)
	if err != nil {
		return nil, err
	}
	return &Interaction{Interaction: ix, srv: c.srv}, nil
}

// Errors of the waiting methods, besides the context's and
// fakediscord.ErrClosed.
var (
	// ErrNoResponse is returned when an interaction was not acknowledged
	// before its response deadline (Discord shows "This interaction failed").
	ErrNoResponse = errors.New("member: interaction not acknowledged before the response deadline")
	// ErrNoMessage is returned by WaitFinal when the interaction was answered
	// without a message (a modal or autocomplete choices).
	ErrNoMessage = errors.New("member: interaction was answered without a message")
	// ErrDeleted is returned by WaitFinal when the message was deleted.
	ErrDeleted = errors.New("member: message deleted")
)
