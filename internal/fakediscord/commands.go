package fakediscord

import (
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/bwmarrin/discordgo"
)

// commandStore is the application's commands, global and per guild, as
// the bot last wrote them. Its lock is a leaf.
type commandStore struct {
	s *Server

	mu        sync.Mutex
	byScope   map[string][]*discordgo.ApplicationCommand // by guild id, "" = global
	lastScope string                                     // of the last bulk overwrite
	puts      int
	// entryHandler is the handler of the global Entry Point command (type
	// 4), which discordgo's type has no field for: 1 APP_HANDLER, 2
	// DISCORD_LAUNCH_ACTIVITY; 0 while there is none.
	entryHandler int
}

// The command type and handlers of Activities' Entry Point command, which
// discordgo v0.29.0 does not name.
const PrimaryEntryPointCommand discordgo.ApplicationCommandType = 4

// The Entry Point's handlers: the app answers, or Discord launches.
const (
	EntryPointAppHandler    = 1
	EntryPointDiscordLaunch = 2
)

func (c *commandStore) reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.byScope = make(map[string][]*discordgo.ApplicationCommand)
	c.lastScope, c.puts, c.entryHandler = "", 0, 0
}

// seedEntryPoint adds the default Entry Point command, "launch" with
// handler 2, unless the app has one.
func (c *commandStore) seedEntryPoint() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, cmd := range c.byScope[""] {
		if cmdType(cmd) == PrimaryEntryPointCommand {
			return
		}
	}
	cmd := &discordgo.ApplicationCommand{Name: "launch", Description: "Launch the app's Activity", Type: PrimaryEntryPointCommand}
	c.byScope[""] = append(c.byScope[""], c.storeLocked(cmd, "", nil))
	c.entryHandler = EntryPointDiscordLaunch
}

// EntryPointHandler is the handler of the app's Entry Point command (1
// APP_HANDLER, 2 DISCORD_LAUNCH_ACTIVITY), 0 when it has none.
func (s *Server) EntryPointHandler() int {
	s.commands.mu.Lock()
	defer s.commands.mu.Unlock()
	return s.commands.entryHandler
}

// wireLocked is cmds as Discord sends them: discordgo's fields, and the
// Entry Point's handler. c.mu must be held.
func (c *commandStore) wireLocked(cmds []*discordgo.ApplicationCommand) []byte {
	out := make([]map[string]any, 0, len(cmds))
	for _, cmd := range cmds {
		b, _ := json.Marshal(cmd)
		var m map[string]any
		_ = json.Unmarshal(b, &m)
		if cmdType(cmd) == PrimaryEntryPointCommand {
			m["handler"] = c.entryHandler
		}
		out = append(out, m)
	}
	b, _ := json.Marshal(out)
	return b
}

// handlersOf reads the handler field of each command in a body.
func handlersOf(body []byte) []int {
	var raws []struct {
		Handler int `json:"handler"`
	}
	if json.Unmarshal(body, &raws) != nil {
		return nil
	}
	hs := make([]int, len(raws))
	for i, r := range raws {
		hs[i] = r.Handler
	}
	return hs
}

// CommandPuts returns the number of bulk overwrites since New or Reset:
// what a test polls while it waits for a sync, without Commands' copies
// of every command.
func (s *Server) CommandPuts() int {
	c := s.commands
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.puts
}

// Commands returns the commands of the last bulk overwrite (guildID "" for
// global) and the number of bulk overwrites since New or Reset.
func (s *Server) Commands() (guildID string, cmds []*discordgo.ApplicationCommand, puts int) {
	c := s.commands
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, cmd := range c.byScope[c.lastScope] {
		cmds = append(cmds, cloneCommand(cmd))
	}
	return c.lastScope, cmds, c.puts
}

// CommandsIn returns the commands registered in a guild ("" = global).
func (s *Server) CommandsIn(guildID string) []*discordgo.ApplicationCommand {
	c := s.commands
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []*discordgo.ApplicationCommand
	for _, cmd := range c.byScope[guildID] {
		out = append(out, cloneCommand(cmd))
	}
	return out
}

// Command returns the command a member in guildID ("" in a DM) sees under
// name and type: the guild's own, else the global one; nil if there is
// none. A member's client checks what it sends against it.
func (s *Server) Command(guildID, name string, t discordgo.ApplicationCommandType) *discordgo.ApplicationCommand {
	if cmd := s.commands.find(guildID, name, t); cmd != nil {
		return cloneCommand(cmd)
	}
	return nil
}

// find is Command without the copy: the stored command, read-only.
func (c *commandStore) find(guildID, name string, t discordgo.ApplicationCommandType) *discordgo.ApplicationCommand {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, scope := range []string{guildID, ""} {
		for _, cmd := range c.byScope[scope] {
			if cmd.Name == name && cmdType(cmd) == t {
				return cmd
			}
		}
		if guildID == "" {
			break
		}
	}
	return nil
}

func (c *commandStore) get(w http.ResponseWriter, r *http.Request) {
	c.mu.Lock()
	b := c.wireLocked(c.byScope[r.PathValue("guild")])
	c.mu.Unlock()
	writeRaw(w, http.StatusOK, b)
}

// put is a bulk overwrite of a scope's commands.
func (c *commandStore) put(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxRequestSize))
	if err != nil {
		c.s.fail(w, r, errTooLarge, nil)
		return
	}
	var cmds []*discordgo.ApplicationCommand
	if err := json.Unmarshal(body, &cmds); err != nil {
		c.s.fail(w, r, withDetail(errInvalidJSON, err.Error()), nil)
		return
	}
	guild := r.PathValue("guild") // "" for the global route
	handlers := handlersOf(body)
	if e := validateCommands(cmds, guild, handlers); e != nil {
		c.s.fail(w, r, e, nil)
		return
	}
	c.mu.Lock()
	old := c.byScope[guild]
	entry := 0
	for i, cmd := range cmds {
		if cmdType(cmd) == PrimaryEntryPointCommand {
			entry = handlers[i]
		}
	}
	if entry == 0 && guild == "" && c.entryHandler != 0 {
		// Discord keeps the Entry Point: an overwrite must name it.
		c.mu.Unlock()
		c.s.fail(w, r, errEntryPoint, nil)
		return
	}
	stored := make([]*discordgo.ApplicationCommand, 0, len(cmds))
	for _, cmd := range cmds {
		stored = append(stored, c.storeLocked(cmd, guild, old))
	}
	c.byScope[guild] = stored
	if guild == "" {
		c.entryHandler = entry
	}
	c.lastScope = guild
	c.puts++
	b := c.wireLocked(stored)
	c.mu.Unlock()
	c.s.logf("commands: bulk overwrite of %d in %q", len(stored), guild)
	writeRaw(w, http.StatusOK, b)
}

// post creates or replaces one command.
func (c *commandStore) post(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxRequestSize))
	var cmd *discordgo.ApplicationCommand
	if err != nil || json.Unmarshal(body, &cmd) != nil || cmd == nil {
		c.s.fail(w, r, errInvalidJSON, nil)
		return
	}
	guild := r.PathValue("guild")
	handlers := handlersOf([]byte("[" + string(body) + "]"))
	if e := validateCommands([]*discordgo.ApplicationCommand{cmd}, guild, handlers); e != nil {
		c.s.fail(w, r, e, nil)
		return
	}
	c.mu.Lock()
	old := c.byScope[guild]
	stored := c.storeLocked(cmd, guild, old)
	var list []*discordgo.ApplicationCommand
	for _, o := range old {
		// One Entry Point per app: a new one replaces the old.
		same := o.Name == stored.Name && cmdType(o) == cmdType(stored)
		if !same && !(cmdType(o) == PrimaryEntryPointCommand && cmdType(stored) == PrimaryEntryPointCommand) {
			list = append(list, o)
		}
	}
	c.byScope[guild] = append(list, stored)
	if cmdType(stored) == PrimaryEntryPointCommand {
		c.entryHandler = handlers[0]
	}
	b := c.wireLocked([]*discordgo.ApplicationCommand{stored})
	b = b[1 : len(b)-1] // the one object
	c.mu.Unlock()
	writeRaw(w, http.StatusCreated, b)
}

func cmdType(c *discordgo.ApplicationCommand) discordgo.ApplicationCommandType {
	if c.Type == 0 {
		return discordgo.ChatApplicationCommand
	}
	return c.Type
}

// storeLocked fills the server-side fields, keeping the id of a command
// with the same name and type.
func (c *commandStore) storeLocked(cmd *discordgo.ApplicationCommand, guild string, old []*discordgo.ApplicationCommand) *discordgo.ApplicationCommand {
	cp := cloneCommand(cmd)
	cp.Type = cmdType(cp)
	cp.ApplicationID = c.s.cfg.AppID
	cp.GuildID = guild
	cp.Version = c.s.ids.next()
	cp.ID = ""
	for _, o := range old {
		if o.Name == cp.Name && cmdType(o) == cp.Type {
			cp.ID = o.ID
		}
	}
	if cp.ID == "" {
		cp.ID = c.s.ids.next()
	}
	return cp
}

func cloneCommand(c *discordgo.ApplicationCommand) *discordgo.ApplicationCommand {
	b, err := json.Marshal(c)
	if err != nil {
		panic("fakediscord: marshal command: " + err.Error())
	}
	var out discordgo.ApplicationCommand
	if err := json.Unmarshal(b, &out); err != nil {
		panic("fakediscord: unmarshal command: " + err.Error())
	}
	return &out
}

var commandNameRE = regexp.MustCompile(`^[-_'\p{L}\p{N}\p{Devanagari}\p{Thai}]{1,32}$`)

// validateCommands checks commands written to a scope (guild "" for
// global), handlers[i] being the handler field of cmds[i].
func validateCommands(cmds []*discordgo.ApplicationCommand, guild string, handlers []int) *apiError {
	fe := newFormErrors()
	seen := map[string]bool{}
	chat, entries := 0, 0
	for i, c := range cmds {
		p := []string{itoa(i)}
		if c == nil {
			fe.add(p, "BASE_TYPE_REQUIRED", "This field is required")
			continue
		}
		t := cmdType(c)
		key := strconv.Itoa(int(t)) + "/" + c.Name
		if seen[key] {
			fe.add(append(p, "name"), "APPLICATION_COMMANDS_DUPLICATE_NAME", "Application command names must be unique")
		}
		seen[key] = true
		var names, descriptions map[discordgo.Locale]string
		if c.NameLocalizations != nil {
			names = *c.NameLocalizations
		}
		if c.DescriptionLocalizations != nil {
			descriptions = *c.DescriptionLocalizations
		}
		switch t {
		case discordgo.ChatApplicationCommand:
			chat++
			checkName(fe, append(p, "name"), c.Name)
			checkDescription(fe, append(p, "description"), c.Description)
			checkLocalizations(fe, append(p, "name_localizations"), names, checkName)
			checkLocalizations(fe, append(p, "description_localizations"), descriptions, checkDescription)
			checkOptions(fe, append(p, "options"), c.Options, 0)
		case discordgo.UserApplicationCommand, discordgo.MessageApplicationCommand:
			fe.length(append(p, "name"), runeLen(c.Name), 32)
			checkLocalizations(fe, append(p, "name_localizations"), names, checkMenuName)
			if c.Description != "" || len(descriptions) > 0 {
				fe.add(append(p, "description"), "APPLICATION_COMMAND_INVALID_DESCRIPTION", "Context menu commands cannot have a description.")
			}
			if len(c.Options) > 0 {
				fe.add(append(p, "options"), "APPLICATION_COMMAND_OPTIONS_INVALID", "Context menu commands cannot have options.")
			}
		case PrimaryEntryPointCommand:
			entries++
			checkName(fe, append(p, "name"), c.Name)
			checkDescription(fe, append(p, "description"), c.Description)
			checkLocalizations(fe, append(p, "name_localizations"), names, checkName)
			checkLocalizations(fe, append(p, "description_localizations"), descriptions, checkDescription)
			if len(c.Options) > 0 {
				fe.add(append(p, "options"), "APPLICATION_COMMAND_OPTIONS_INVALID", "Entry Point commands cannot have options.")
			}
			if guild != "" {
				fe.add(append(p, "type"), "APPLICATION_COMMAND_TYPE_INVALID", "Entry Point commands can only be global.")
			}
			if i >= len(handlers) || (handlers[i] != EntryPointAppHandler && handlers[i] != EntryPointDiscordLaunch) {
				fe.add(append(p, "handler"), "BASE_TYPE_CHOICES", "Value must be one of {1, 2}.")
			}
		default:
			fe.add(append(p, "type"), "BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3, 4}.")
		}
	}
	if entries > 1 {
		fe.add(nil, "APPLICATION_COMMANDS_ENTRY_POINT_LIMIT", "An application can only have one Entry Point command.")
	}
	if chat > 100 {
		fe.add(nil, "APPLICATION_COMMANDS_TOO_MANY", "Maximum number of application commands reached (100).")
	}
	if fe.any() {
		return fe.err()
	}
	return nil
}

func checkName(fe *formErrors, p []string, name string) {
	if !commandNameRE.MatchString(name) || strings.ToLower(name) != name {
		fe.add(p, "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid (1-32 lowercase letters, digits, - or _).")
	}
}

func checkMenuName(fe *formErrors, p []string, name string) { fe.length(p, runeLen(name), 32) }

func checkChoiceName(fe *formErrors, p []string, name string) { fe.length(p, runeLen(name), 100) }

// checkLocalizations checks a name_localizations or
// description_localizations map: keys are locales Discord has, values
// follow the rule of the field they localize.
func checkLocalizations(fe *formErrors, p []string, locs map[discordgo.Locale]string, check func(*formErrors, []string, string)) {
	for loc, text := range locs {
		lp := append(append([]string(nil), p...), string(loc))
		if _, ok := discordgo.Locales[loc]; !ok || loc == discordgo.Unknown {
			fe.add(lp, "BASE_TYPE_CHOICES", "Value must be one of Discord's locales.")
			continue
		}
		check(fe, lp, text)
	}
}

func checkDescription(fe *formErrors, p []string, d string) { fe.length(p, runeLen(d), 100) }

// checkOptions validates options at depth 0 (command), 1 (subcommand group or
// subcommand) or 2 (subcommand inside a group).
func checkOptions(fe *formErrors, p []string, opts []*discordgo.ApplicationCommandOption, depth int) {
	if len(opts) > 25 {
		fe.add(p, "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
	}
	seen := map[string]bool{}
	optional := false
	for i, o := range opts {
		op := append(append([]string(nil), p...), itoa(i))
		if o == nil {
			fe.add(op, "BASE_TYPE_REQUIRED", "This field is required")
			continue
		}
		checkName(fe, append(op, "name"), o.Name)
		checkDescription(fe, append(op, "description"), o.Description)
		checkLocalizations(fe, append(op, "name_localizations"), o.NameLocalizations, checkName)
		checkLocalizations(fe, append(op, "description_localizations"), o.DescriptionLocalizations, checkDescription)
		if seen[o.Name] {
			fe.add(append(op, "name"), "APPLICATION_COMMAND_OPTION_NAME_ALREADY_EXISTS", "Option names must be unique")
		}
		seen[o.Name] = true
		switch o.Type {
		case discordgo.ApplicationCommandOptionSubCommandGroup:
			if depth != 0 {
				fe.add(append(op, "type"), "APPLICATION_COMMAND_OPTION_TYPE_INVALID", "Subcommand groups can only be top-level options.")
			}
			for j, sub := range o.Options {
				if sub == nil || sub.Type != discordgo.ApplicationCommandOptionSubCommand {
					fe.add(append(op, "options", itoa(j), "type"), "APPLICATION_COMMAND_OPTION_TYPE_INVALID", "A subcommand group holds subcommands only.")
				}
			}
			checkOptions(fe, append(op, "options"), o.Options, 1)
		case discordgo.ApplicationCommandOptionSubCommand:
			if depth > 1 {
				fe.add(append(op, "type"), "APPLICATION_COMMAND_OPTION_TYPE_INVALID", "Subcommands nest at most in one group.")
			}
			checkOptions(fe, append(op, "options"), o.Options, 2)
		case 0, 12, 13, 14, 15, 16, 17, 18, 19, 20:
			fe.add(append(op, "type"), "BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}.")
		default:
			if len(o.Options) > 0 {
				fe.add(append(op, "options"), "APPLICATION_COMMAND_OPTION_TYPE_INVALID", "Only subcommands and groups have options.")
			}
			if o.Required && optional {
				fe.add(append(op, "required"), "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID", "Required options must be placed before non-required options")
			}
			if !o.Required {
				optional = true
			}
			if len(o.Choices) > 25 {
				fe.add(append(op, "choices"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
			}
			if len(o.Choices) > 0 && o.Autocomplete {
				fe.add(append(op, "autocomplete"), "APPLICATION_COMMAND_OPTION_AUTOCOMPLETE_AND_CHOICES", "Autocomplete and choices cannot both be set.")
			}
			for j, ch := range o.Choices {
				cp := append(append([]string(nil), op...), "choices", itoa(j))
				if ch == nil {
					continue
				}
				checkChoiceName(fe, append(cp, "name"), ch.Name)
				checkLocalizations(fe, append(cp, "name_localizations"), ch.NameLocalizations, checkChoiceName)
				if !choiceFits(o.Type, ch.Value) {
					fe.add(append(cp, "value"), "APPLICATION_COMMAND_OPTION_CHOICE_VALUE_INVALID", "Choice value does not match the option type.")
				}
			}
		}
	}
}

func choiceFits(t discordgo.ApplicationCommandOptionType, v any) bool {
	switch t {
	case discordgo.ApplicationCommandOptionString:
		s, ok := v.(string)
		return ok && runeLen(s) <= 100
	case discordgo.ApplicationCommandOptionInteger:
		f, ok := v.(float64)
		return ok && f == float64(int64(f))
	case discordgo.ApplicationCommandOptionNumber:
		_, ok := v.(float64)
		return ok
	}
	return false
}
