package fakediscord

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
)

// ---- errors in Discord's shape ----

// apiError is an error answer: {"message": ..., "code": ..., "errors": ...}.
type apiError struct {
	Status  int
	Code    int
	Message string
	Errors  map[string]any // nested field errors (code 50035)
	Detail  string         // for RESTError.Detail
}

func (e *apiError) Error() string {
	return strconv.Itoa(e.Status) + " " + strconv.Itoa(e.Code) + " " + e.Message + " " + e.Detail
}

func writeAPIError(w http.ResponseWriter, e *apiError) {
	body := map[string]any{"message": e.Message, "code": e.Code}
	if len(e.Errors) > 0 {
		body["errors"] = e.Errors
	}
	writeJSON(w, e.Status, body)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	writeRaw(w, status, b)
}

func writeRaw(w http.ResponseWriter, status int, b []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// formErrors collects 50035 "Invalid Form Body" field errors.
type formErrors struct {
	tree   map[string]any
	detail []string
}

func newFormErrors() *formErrors { return &formErrors{tree: map[string]any{}} }

func (f *formErrors) add(path []string, code, msg string) {
	node := f.tree
	for _, p := range path {
		next, ok := node[p].(map[string]any)
		if !ok {
			next = map[string]any{}
			node[p] = next
		}
		node = next
	}
	errs, _ := node["_errors"].([]any)
	node["_errors"] = append(errs, map[string]any{"code": code, "message": msg})
	f.detail = append(f.detail, strings.Join(path, ".")+": "+code+": "+msg)
}

func (f *formErrors) any() bool { return len(f.detail) > 0 }

func (f *formErrors) err() *apiError {
	return &apiError{Status: http.StatusBadRequest, Code: 50035, Message: "Invalid Form Body",
		Errors: f.tree, Detail: strings.Join(f.detail, "; ")}
}

func itoa(i int) string { return strconv.Itoa(i) }

var (
	errUnauthorized    = &apiError{Status: http.StatusUnauthorized, Code: 0, Message: "401: Unauthorized"}
	errNotFound        = &apiError{Status: http.StatusNotFound, Code: 0, Message: "404: Not Found"}
	errMethod          = &apiError{Status: http.StatusMethodNotAllowed, Code: 0, Message: "405: Method Not Allowed"}
	errUnknownMessage  = &apiError{Status: http.StatusNotFound, Code: 10008, Message: "Unknown Message"}
	errUnknownWebhook  = &apiError{Status: http.StatusNotFound, Code: 10015, Message: "Unknown Webhook"}
	errUnknownIx       = &apiError{Status: http.StatusNotFound, Code: 10062, Message: "Unknown interaction"}
	errAlreadyAcked    = &apiError{Status: http.StatusBadRequest, Code: 40060, Message: "Interaction has already been acknowledged."}
	errInvalidJSON     = &apiError{Status: http.StatusBadRequest, Code: 50109, Message: "The request body contains invalid JSON."}
	errTooLarge        = &apiError{Status: http.StatusRequestEntityTooLarge, Code: 40005, Message: "Request entity too large"}
	errMissingAccess   = &apiError{Status: http.StatusForbidden, Code: 50001, Message: "Missing Access"}
	errNotAuthor       = &apiError{Status: http.StatusForbidden, Code: 50005, Message: "Cannot edit a message authored by another user"}
	errInvalidWHToken  = &apiError{Status: http.StatusUnauthorized, Code: 50027, Message: "Invalid Webhook Token"}
	errInvalidRespType = &apiError{Status: http.StatusBadRequest, Code: 50035, Message: "Invalid Form Body",
		Errors: map[string]any{"type": map[string]any{"_errors": []any{map[string]any{
			"code": "INTERACTION_RESPONSE_TYPE_INVALID", "message": "Invalid interaction response type for this interaction."}}}}}
)

func withDetail(e *apiError, detail string) *apiError {
	c := *e
	c.Detail = detail
	return &c
}

// recordLocked keeps e for RESTErrors (and for the interaction). s.mu must be
// held.
func (s *Server) recordLocked(r *http.Request, e *apiError, ix *Interaction) {
	s.recordErrLocked(r.Method, r.URL.Path, e, ix)
}

func (s *Server) recordErrLocked(method, path string, e *apiError, ix *Interaction) {
	re := RESTError{Method: method, Path: path, Status: e.Status, Code: e.Code, Message: e.Message, Detail: e.Detail}
	s.restErrors = append(s.restErrors, re)
	if ix != nil {
		ix.rejections = append(ix.rejections, re)
	}
	s.logf("REST %s %s -> %d %d %s %s", method, path, e.Status, e.Code, e.Message, e.Detail)
	s.broadcastLocked()
}

func (s *Server) fail(w http.ResponseWriter, r *http.Request, e *apiError, ix *Interaction) {
	s.mu.Lock()
	s.recordLocked(r, e, ix)
	s.mu.Unlock()
	writeAPIError(w, e)
}

// ---- routing ----

type params map[string]string

type route struct {
	method  string
	pattern []string
	bot     bool // requires the bot's Authorization header
	handle  func(http.ResponseWriter, *http.Request, params)
}

func (s *Server) routeTable() []route {
	r := func(method, pattern string, bot bool, h func(http.ResponseWriter, *http.Request, params)) route {
		return route{method: method, pattern: strings.Split(pattern, "/"), bot: bot, handle: h}
	}
	return []route{
		r("GET", "gateway", false, s.getGateway),
		r("GET", "gateway/bot", true, s.getGatewayBot),
		r("GET", "users/{user}", true, s.getUser),
		r("GET", "applications/@me", true, s.getApplication),
		r("GET", "applications/{app}/commands", true, s.getCommands),
		r("PUT", "applications/{app}/commands", true, s.putCommands),
		r("POST", "applications/{app}/commands", true, s.postCommand),
		r("GET", "applications/{app}/guilds/{guild}/commands", true, s.getCommands),
		r("PUT", "applications/{app}/guilds/{guild}/commands", true, s.putCommands),
		r("POST", "applications/{app}/guilds/{guild}/commands", true, s.postCommand),
		r("GET", "guilds/{guild}", true, s.getGuild),
		r("GET", "channels/{channel}", true, s.getChannel),
		r("POST", "channels/{channel}/typing", true, s.postTyping),
		r("GET", "channels/{channel}/messages", true, s.getChannelMessages),
		r("POST", "channels/{channel}/messages", true, s.postChannelMessage),
		r("GET", "channels/{channel}/messages/{message}", true, s.getChannelMessage),
		r("PATCH", "channels/{channel}/messages/{message}", true, s.patchChannelMessage),
		r("DELETE", "channels/{channel}/messages/{message}", true, s.deleteChannelMessage),
		r("POST", "interactions/{interaction}/{token}/callback", false, s.postCallback),
		r("POST", "webhooks/{app}/{token}", false, s.postFollowup),
		r("GET", "webhooks/{app}/{token}/messages/{message}", false, s.getWebhookMessage),
		r("PATCH", "webhooks/{app}/{token}/messages/{message}", false, s.patchWebhookMessage),
		r("DELETE", "webhooks/{app}/{token}/messages/{message}", false, s.deleteWebhookMessage),
	}
}

func match(pattern, parts []string) (params, bool) {
	if len(pattern) != len(parts) {
		return nil, false
	}
	p := params{}
	for i, seg := range pattern {
		if strings.HasPrefix(seg, "{") {
			if parts[i] == "" {
				return nil, false
			}
			p[strings.Trim(seg, "{}")] = parts[i]
		} else if seg != parts[i] {
			return nil, false
		}
	}
	return p, true
}

func (s *Server) serveAPI(w http.ResponseWriter, r *http.Request) {
	parts := apiParts(r.URL.Path)
	req, fault := s.beginRequest(r, parts)
	sw := &statusWriter{ResponseWriter: w, answered: func(status int) { s.endRequest(req, status) }}
	serve := func(w http.ResponseWriter) { s.route(w, r, parts) }
	if fault != nil {
		s.serveFault(sw, r, fault, serve)
	} else {
		serve(sw)
	}
	sw.answer(http.StatusOK) // net/http's implicit answer, if nothing was written
}

// findRoute returns the route for method and path parts, or nil.
func (s *Server) findRoute(method string, parts []string) *route {
	for i, rt := range s.routes {
		if _, ok := match(rt.pattern, parts); ok && rt.method == method {
			return &s.routes[i]
		}
	}
	return nil
}

// route answers a request below /api/vN (parts nil for other paths).
func (s *Server) route(w http.ResponseWriter, r *http.Request, parts []string) {
	if parts == nil {
		s.fail(w, r, errNotFound, nil)
		return
	}
	pathMatched := false
	for _, rt := range s.routes {
		p, ok := match(rt.pattern, parts)
		if !ok {
			continue
		}
		pathMatched = true
		if rt.method != r.Method {
			continue
		}
		if rt.bot && r.Header.Get("Authorization") != s.cfg.Token {
			s.fail(w, r, errUnauthorized, nil)
			return
		}
		rt.handle(w, r, p)
		return
	}
	if pathMatched {
		s.fail(w, r, errMethod, nil)
		return
	}
	s.fail(w, r, errNotFound, nil)
}

// readPayload reads a request body: JSON, or multipart/form-data with
// payload_json and files[N]. obj is nil when the body is empty.
func readPayload(w http.ResponseWriter, r *http.Request) (obj map[string]json.RawMessage, files []Attachment, e *apiError) {
	body := http.MaxBytesReader(w, r.Body, MaxRequestSize+1<<20)
	return parsePayload(r.Header.Get("Content-Type"), body)
}

func parsePayload(contentType string, body io.Reader) (obj map[string]json.RawMessage, files []Attachment, e *apiError) {
	fail := func(err error) (map[string]json.RawMessage, []Attachment, *apiError) {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, nil, errTooLarge
		}
		return nil, nil, withDetail(errInvalidJSON, err.Error())
	}
	mt, mp, _ := mime.ParseMediaType(contentType)
	var payload []byte
	if mt == "multipart/form-data" {
		mr := multipart.NewReader(body, mp["boundary"])
		type indexed struct {
			n int
			a Attachment
		}
		var ups []indexed
		for {
			part, err := mr.NextPart()
			if err == io.EOF {
				break
			}
			if err != nil {
				return fail(err)
			}
			data, err := io.ReadAll(part)
			if err != nil {
				return fail(err)
			}
			name := part.FormName()
			switch {
			case name == "payload_json":
				payload = data
			case part.FileName() != "":
				n := len(ups) + 1000
				if strings.HasPrefix(name, "files[") && strings.HasSuffix(name, "]") {
					if i, err := strconv.Atoi(name[len("files[") : len(name)-1]); err == nil {
						n = i
					}
				}
				ups = append(ups, indexed{n, newAttachment(part.FileName(), part.Header.Get("Content-Type"), data)})
			}
		}
		sort.SliceStable(ups, func(i, j int) bool { return ups[i].n < ups[j].n })
		for _, u := range ups {
			files = append(files, u.a)
		}
		if payload == nil {
			payload = []byte("{}")
		}
	} else {
		b, err := io.ReadAll(body)
		if err != nil {
			return fail(err)
		}
		if len(strings.TrimSpace(string(b))) == 0 {
			return nil, nil, nil
		}
		payload = b
	}
	if err := json.Unmarshal(payload, &obj); err != nil {
		return nil, nil, withDetail(errInvalidJSON, err.Error())
	}
	if obj == nil {
		obj = map[string]json.RawMessage{}
	}
	return obj, files, nil
}

// ---- gateway, users, application ----

func (s *Server) getGateway(w http.ResponseWriter, _ *http.Request, _ params) {
	writeJSON(w, http.StatusOK, map[string]any{"url": s.GatewayURL()})
}

func (s *Server) getUser(w http.ResponseWriter, _ *http.Request, p params) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if id := p["user"]; id != "@me" && id != s.cfg.AppID {
		writeJSON(w, http.StatusOK, userObject(id, "user"+id))
		return
	}
	writeJSON(w, http.StatusOK, s.botUserLocked())
}

func (s *Server) getApplication(w http.ResponseWriter, _ *http.Request, _ params) {
	s.mu.Lock()
	defer s.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]any{
		"id": s.cfg.AppID, "name": s.cfg.BotUsername, "description": "", "bot_public": true,
		"bot": s.botUserLocked(), "flags": 1 << 23, "verify_key": "",
	})
}

func userObject(id, name string) map[string]any {
	return map[string]any{
		"id": id, "username": name, "global_name": name, "discriminator": "0",
		"avatar": nil, "public_flags": 0,
	}
}

// ---- application commands ----

func (s *Server) getCommands(w http.ResponseWriter, r *http.Request, p params) {
	if p["app"] != s.cfg.AppID {
		s.fail(w, r, errMissingAccess, nil)
		return
	}
	s.mu.Lock()
	b, _ := json.Marshal(nonNil(s.commands[p["guild"]]))
	s.mu.Unlock()
	writeRaw(w, http.StatusOK, b)
}

func nonNil(c []*discordgo.ApplicationCommand) []*discordgo.ApplicationCommand {
	if c == nil {
		return []*discordgo.ApplicationCommand{}
	}
	return c
}

func (s *Server) putCommands(w http.ResponseWriter, r *http.Request, p params) {
	if p["app"] != s.cfg.AppID {
		s.fail(w, r, errMissingAccess, nil)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxRequestSize))
	if err != nil {
		s.fail(w, r, errTooLarge, nil)
		return
	}
	var cmds []*discordgo.ApplicationCommand
	if err := json.Unmarshal(body, &cmds); err != nil {
		s.fail(w, r, withDetail(errInvalidJSON, err.Error()), nil)
		return
	}
	if e := validateCommands(cmds); e != nil {
		s.fail(w, r, e, nil)
		return
	}
	guild := p["guild"]
	s.mu.Lock()
	old := s.commands[guild]
	stored := make([]*discordgo.ApplicationCommand, 0, len(cmds))
	for _, c := range cmds {
		stored = append(stored, s.storeCommandLocked(c, guild, old))
	}
	s.commands[guild] = stored
	s.cmdGuild = guild
	s.puts++
	b, _ := json.Marshal(stored)
	s.logf("commands: bulk overwrite of %d in %q", len(stored), guild)
	s.broadcastLocked()
	s.mu.Unlock()
	writeRaw(w, http.StatusOK, b)
}

func (s *Server) postCommand(w http.ResponseWriter, r *http.Request, p params) {
	if p["app"] != s.cfg.AppID {
		s.fail(w, r, errMissingAccess, nil)
		return
	}
	var c *discordgo.ApplicationCommand
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, MaxRequestSize)).Decode(&c); err != nil || c == nil {
		s.fail(w, r, errInvalidJSON, nil)
		return
	}
	if e := validateCommands([]*discordgo.ApplicationCommand{c}); e != nil {
		s.fail(w, r, e, nil)
		return
	}
	guild := p["guild"]
	s.mu.Lock()
	old := s.commands[guild]
	stored := s.storeCommandLocked(c, guild, old)
	var list []*discordgo.ApplicationCommand
	for _, o := range old {
		if !(o.Name == stored.Name && cmdType(o) == cmdType(stored)) {
			list = append(list, o)
		}
	}
	s.commands[guild] = append(list, stored)
	b, _ := json.Marshal(stored)
	s.broadcastLocked()
	s.mu.Unlock()
	writeRaw(w, http.StatusCreated, b)
}

func cmdType(c *discordgo.ApplicationCommand) discordgo.ApplicationCommandType {
	if c.Type == 0 {
		return discordgo.ChatApplicationCommand
	}
	return c.Type
}

// storeCommandLocked fills the server-side fields, keeping the id of a
// command with the same name and type.
func (s *Server) storeCommandLocked(c *discordgo.ApplicationCommand, guild string, old []*discordgo.ApplicationCommand) *discordgo.ApplicationCommand {
	cp := cloneCommand(c)
	cp.Type = cmdType(cp)
	cp.ApplicationID = s.cfg.AppID
	cp.GuildID = guild
	cp.Version = s.newIDLocked()
	cp.ID = ""
	for _, o := range old {
		if o.Name == cp.Name && cmdType(o) == cp.Type {
			cp.ID = o.ID
		}
	}
	if cp.ID == "" {
		cp.ID = s.newIDLocked()
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

func validateCommands(cmds []*discordgo.ApplicationCommand) *apiError {
	fe := newFormErrors()
	seen := map[string]bool{}
	chat := 0
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
			if n := runeLen(c.Name); n < 1 || n > 32 {
				fe.add(append(p, "name"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 32 in length.")
			}
			checkLocalizations(fe, append(p, "name_localizations"), names, checkMenuName)
			if c.Description != "" || len(descriptions) > 0 {
				fe.add(append(p, "description"), "APPLICATION_COMMAND_INVALID_DESCRIPTION", "Context menu commands cannot have a description.")
			}
			if len(c.Options) > 0 {
				fe.add(append(p, "options"), "APPLICATION_COMMAND_OPTIONS_INVALID", "Context menu commands cannot have options.")
			}
		default:
			fe.add(append(p, "type"), "BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3, 4}.")
		}
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

func checkMenuName(fe *formErrors, p []string, name string) {
	if n := runeLen(name); n < 1 || n > 32 {
		fe.add(p, "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 32 in length.")
	}
}

func checkChoiceName(fe *formErrors, p []string, name string) {
	if n := runeLen(name); n < 1 || n > 100 {
		fe.add(p, "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
	}
}

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

func checkDescription(fe *formErrors, p []string, d string) {
	if n := runeLen(d); n < 1 || n > 100 {
		fe.add(p, "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
	}
}

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

// Commands returns the commands of the last bulk overwrite (guildID "" for
// global) and the number of bulk overwrites since New or Reset.
func (s *Server) Commands() (guildID string, cmds []*discordgo.ApplicationCommand, puts int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.commands[s.cmdGuild] {
		cmds = append(cmds, cloneCommand(c))
	}
	return s.cmdGuild, cmds, s.puts
}

// CommandsIn returns the commands registered in a guild ("" = global).
func (s *Server) CommandsIn(guildID string) []*discordgo.ApplicationCommand {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*discordgo.ApplicationCommand
	for _, c := range s.commands[guildID] {
		out = append(out, cloneCommand(c))
	}
	return out
}

// ---- channels ----

// SetGuildLocale sets a server's primary language, Discord's
// preferred_locale: what GET /guilds/{id} answers, and the guild_locale of
// its interactions unless a spec gives another. Reset forgets it.
func (s *Server) SetGuildLocale(guildID, locale string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.guildLocales[guildID] = locale
}

// getGuild answers a server the bot is in: the default one, one that an
// interaction came from, or one with a locale set; else 10004 Unknown
// Guild, as for a server that removed the bot. The object carries what
// Discord's guild object must (discord-api-docs, resources/guild).
func (s *Server) getGuild(w http.ResponseWriter, r *http.Request, p params) {
	s.mu.Lock()
	defer s.mu.Unlock()
	id := p["guild"]
	_, known := s.guildLocales[id]
	for _, c := range s.channels {
		known = known || !c.dm && c.guildID == id
	}
	if !known && id != DefaultGuildID {
		e := &apiError{Status: http.StatusNotFound, Code: 10004, Message: "Unknown Guild"}
		s.recordLocked(r, e, nil)
		writeAPIError(w, e)
		return
	}
	locale := DefaultLocale
	if l, ok := s.guildLocales[id]; ok {
		locale = l
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

func (s *Server) getChannel(w http.ResponseWriter, r *http.Request, p params) {
	if !s.checkChannel(w, r, p["channel"], 0) {
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"id": p["channel"], "type": 0, "name": "channel-" + p["channel"], "position": 0,
		"permission_overwrites": []any{}, "nsfw": false, "last_message_id": nil,
	})
}

func (s *Server) postTyping(w http.ResponseWriter, r *http.Request, p params) {
	if !s.checkChannel(w, r, p["channel"], discordgo.PermissionSendMessages) {
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// channelMessageLocked finds a message visible through the channel routes.
func (s *Server) channelMessageLocked(channelID, id string) *Message {
	m := s.messages[id]
	if m == nil || m.Deleted || m.ChannelID != channelID || m.Ephemeral() {
		return nil
	}
	return m
}

func (s *Server) getChannelMessages(w http.ResponseWriter, r *http.Request, p params) {
	q := r.URL.Query()
	limit := 50
	if n, err := strconv.Atoi(q.Get("limit")); err == nil && n >= 1 && n <= 100 {
		limit = n
	}
	before, after := q.Get("before"), q.Get("after")
	if !s.checkChannel(w, r, p["channel"], 0) {
		return
	}
	s.mu.Lock()
	var out []wireMessage
	// Without READ_MESSAGE_HISTORY Discord returns no messages.
	if !s.hasChannelPermLocked(p["channel"], discordgo.PermissionReadMessageHistory) {
		limit = 0
	}
	for i := len(s.order) - 1; i >= 0 && len(out) < limit; i-- {
		m := s.channelMessageLocked(p["channel"], s.order[i])
		if m == nil || (before != "" && !idLess(m.ID, before)) || (after != "" && !idLess(after, m.ID)) {
			continue
		}
		out = append(out, s.wireLocked(m))
	}
	if out == nil {
		out = []wireMessage{}
	}
	b, _ := json.Marshal(out)
	s.mu.Unlock()
	writeRaw(w, http.StatusOK, b)
}

func idLess(a, b string) bool {
	x, _ := strconv.ParseUint(a, 10, 64)
	y, _ := strconv.ParseUint(b, 10, 64)
	return x < y
}

// postChannelMessage creates a message. With enforce_nonce and a nonce the
// bot used in the channel within the nonce window, it answers the existing
// message (200, same body) and creates none, as Discord does.
func (s *Server) postChannelMessage(w http.ResponseWriter, r *http.Request, p params) {
	channel := p["channel"]
	if !s.checkChannel(w, r, channel, discordgo.PermissionSendMessages) {
		return
	}
	obj, files, e := readPayload(w, r)
	if e == nil && obj == nil {
		e = &apiError{Status: http.StatusBadRequest, Code: 50006, Message: "Cannot send an empty message"}
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
		e = validateFields(f, flags, true)
	}
	if e != nil {
		s.fail(w, r, e, nil)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(files) > 0 {
		if e := s.channelAccessLocked(channel, discordgo.PermissionAttachFiles); e != nil {
			s.recordLocked(r, withDetail(e, "no ATTACH_FILES"), nil)
			writeAPIError(w, e)
			return
		}
	}
	if nonce.enforce && nonce.text != "" {
		if m := s.nonceMatchLocked(channel, nonce.text); m != nil {
			s.logf("channel %s: nonce %q is message %s's: no new message", channel, nonce.text, m.ID)
			b, _ := json.Marshal(s.wireLocked(m))
			writeRaw(w, http.StatusOK, b)
			return
		}
	}
	m := s.newMessageLocked(channel, "", f, flags, int(discordgo.MessageTypeDefault))
	if nonce.raw != nil {
		m.Nonce, m.nonceJSON = nonce.text, nonce.raw
		s.nonces[nonceKey(channel, m.AuthorID, nonce.text)] = m.ID
	}
	b, _ := json.Marshal(s.wireLocked(m))
	s.logf("channel %s: message %s posted", m.ChannelID, m.ID)
	s.broadcastLocked()
	writeRaw(w, http.StatusOK, b)
}

func (s *Server) getChannelMessage(w http.ResponseWriter, r *http.Request, p params) {
	if !s.checkChannel(w, r, p["channel"], 0) {
		return
	}
	s.mu.Lock()
	var e *apiError
	m := s.channelMessageLocked(p["channel"], p["message"])
	switch {
	case !s.hasChannelPermLocked(p["channel"], discordgo.PermissionReadMessageHistory):
		e = withDetail(errMissingAccess, "no READ_MESSAGE_HISTORY")
	case m == nil:
		e = errUnknownMessage
	}
	if e != nil {
		s.recordLocked(r, e, nil)
		s.mu.Unlock()
		writeAPIError(w, e)
		return
	}
	b, _ := json.Marshal(s.wireLocked(m))
	s.mu.Unlock()
	writeRaw(w, http.StatusOK, b)
}

func (s *Server) patchChannelMessage(w http.ResponseWriter, r *http.Request, p params) {
	if !s.checkChannel(w, r, p["channel"], 0) {
		return
	}
	obj, files, e := readPayload(w, r)
	var f *msgFields
	if e == nil {
		f, e = decodeMsgFields(obj, files)
	}
	if e != nil {
		s.fail(w, r, e, nil)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.channelMessageLocked(p["channel"], p["message"])
	switch {
	case m == nil:
		e = errUnknownMessage
	case m.AuthorID != s.cfg.AppID:
		e = errNotAuthor
	default:
		e = validateFields(f, m.Flags, false)
	}
	if e != nil {
		s.recordLocked(r, e, nil)
		writeAPIError(w, e)
		return
	}
	s.applyEditLocked(m, f)
	b, _ := json.Marshal(s.wireLocked(m))
	s.broadcastLocked()
	writeRaw(w, http.StatusOK, b)
}

func (s *Server) deleteChannelMessage(w http.ResponseWriter, r *http.Request, p params) {
	if !s.checkChannel(w, r, p["channel"], 0) {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.channelMessageLocked(p["channel"], p["message"])
	if m == nil {
		s.recordLocked(r, errUnknownMessage, nil)
		writeAPIError(w, errUnknownMessage)
		return
	}
	m.Deleted = true
	s.broadcastLocked()
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) serveAttachment(w http.ResponseWriter, r *http.Request) {
	// /attachments/{channel}/{id}/{filename}
	parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	if len(parts) != 4 || r.Method != http.MethodGet {
		http.NotFound(w, r)
		return
	}
	s.mu.Lock()
	var found *Attachment
	for _, m := range s.messages {
		for i := range m.Attachments {
			if a := &m.Attachments[i]; a.ID == parts[2] && m.ChannelID == parts[1] {
				found = a
			}
		}
	}
	var a Attachment
	if found != nil {
		a = *found
	}
	s.mu.Unlock()
	if found == nil || a.Filename != parts[3] {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", a.ContentType)
	w.Header().Set("Content-Length", strconv.Itoa(len(a.Data)))
	_, _ = w.Write(a.Data)
}

// ---- test-side access to messages ----

// Message returns a snapshot of the message with id (deleted ones too), or nil.
func (s *Server) Message(id string) *Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	if m := s.messages[id]; m != nil {
		return m.snapshot()
	}
	return nil
}

// ChannelMessages lists the messages in a channel, oldest first, including
// ephemeral ones (which the channel routes hide from the bot) and excluding
// deleted ones.
func (s *Server) ChannelMessages(channelID string) []*Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*Message
	for _, id := range s.order {
		if m := s.messages[id]; m.ChannelID == channelID && !m.Deleted {
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
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, id := range s.order {
		if m := s.messages[id]; m.ChannelID == channelID && m.created {
			n++
		}
	}
	return n
}

// WaitChannelMessage waits for a message in channelID for which pred holds
// (nil: any message that is not a loading deferred reply) and returns its
// snapshot. Messages already there count. pred runs with the Server locked:
// it must not call the Server.
func (s *Server) WaitChannelMessage(ctx context.Context, channelID string, pred func(*Message) bool) (*Message, error) {
	var found *Message
	err := s.waitFor(ctx, func() (bool, error) {
		for _, id := range s.order {
			m := s.messages[id]
			if m.ChannelID != channelID || m.Deleted {
				continue
			}
			snap := m.snapshot()
			if (pred == nil && !snap.Loading()) || (pred != nil && pred(snap)) {
				found = snap
				return true, nil
			}
		}
		return false, nil
	})
	return found, err
}

// PostChannelMessage plants a message as if a user had sent it, e.g. a
// non-maze message for a context-menu command. Empty ID, AuthorID and
// AuthorUsername are filled in; Components (or ComponentsJSON) are kept. It
// returns the stored message. No gateway event is sent.
func (s *Server) PostChannelMessage(channelID string, m Message) *Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	stored := m
	stored.ChannelID = channelID
	if stored.ID == "" {
		stored.ID = s.newIDLocked()
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
	stored.Components = nil
	stored.Embeds = cloneEmbeds(m.Embeds)
	stored.Attachments = nil
	for _, a := range m.Attachments {
		na := newAttachment(a.Filename, a.ContentType, a.Data)
		stored.Attachments = append(stored.Attachments, s.storeFilesLocked(&stored, []Attachment{na})...)
	}
	if _, dup := s.messages[stored.ID]; !dup {
		s.order = append(s.order, stored.ID)
	}
	s.messages[stored.ID] = &stored
	s.broadcastLocked()
	return stored.snapshot()
}
