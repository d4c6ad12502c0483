package fakediscord

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"sort"
	"strconv"
	"strings"
)

// restRoutes registers the REST API on mux, each route as a ServeMux
// pattern below /api/{version}, where version is v9 (discordgo's) or any
// other vN. bot routes want the bot's Authorization header (401 without
// it); the interaction routes are authorized by their token instead, as on
// Discord. A path no route has is 404, one with another method 405, both
// in Discord's JSON shape. Every request is logged (Requests) and may meet
// an injected fault (InjectFault).
func (s *Server) restRoutes(mux *http.ServeMux) {
	route := func(method, path string, bot bool, h http.HandlerFunc) {
		s.routes = append(s.routes, parseRoute(method, path))
		mux.Handle(method+" /api/{version}"+path, s.serveREST(method+" "+path, bot, h))
	}
	g, d, c, m, ix := s.gateway, s.guilds, s.commands, s.messages, s.interactions
	route("GET", "/gateway", false, g.getGateway)
	route("GET", "/gateway/bot", true, g.getGatewayBot)
	route("GET", "/users/{user}", false, s.getUser)
	route("POST", "/users/{user}/channels", true, d.postDM)
	route("GET", "/applications/@me", true, s.getApplication)
	for _, scope := range []string{"/applications/{app}/commands", "/applications/{app}/guilds/{guild}/commands"} {
		route("GET", scope, true, s.ownApp(c.get))
		route("PUT", scope, true, s.ownApp(c.put))
		route("POST", scope, true, s.ownApp(c.post))
	}
	route("POST", "/oauth2/token", false, s.activities.postToken)
	route("GET", "/applications/{app}/activity-instances/{instance}", true, s.ownApp(s.activities.getInstance))
	route("GET", "/guilds/{guild}", true, d.getGuild)
	route("PUT", "/guilds/{guild}/members/{user}/roles/{role}", true, d.memberRole(true))
	route("DELETE", "/guilds/{guild}/members/{user}/roles/{role}", true, d.memberRole(false))
	route("GET", "/channels/{channel}", true, d.getChannel)
	route("POST", "/channels/{channel}/typing", true, d.postTyping)
	route("GET", "/channels/{channel}/messages", true, m.list)
	route("POST", "/channels/{channel}/messages", true, m.post)
	route("GET", "/channels/{channel}/messages/{message}", true, m.get)
	route("PATCH", "/channels/{channel}/messages/{message}", true, m.patch)
	route("DELETE", "/channels/{channel}/messages/{message}", true, m.delete)
	route("POST", "/interactions/{interaction}/{token}/callback", false, ix.postCallback)
	route("POST", "/webhooks/{app}/{token}", false, ix.postFollowup)
	route("GET", "/webhooks/{app}/{token}/messages/{message}", false, ix.getMessage)
	route("PATCH", "/webhooks/{app}/{token}/messages/{message}", false, ix.patchMessage)
	route("DELETE", "/webhooks/{app}/{token}/messages/{message}", false, ix.deleteMessage)
	mux.Handle("/", s.serveREST("", false, s.noRoute))
}

// serveREST wraps a route's handler h: the request log, the injected
// fault, the API version and the bot's Authorization.
func (s *Server) serveREST(route string, bot bool, h http.HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		parts := apiParts(r.URL.Path)
		if parts == nil {
			route = "" // not below /api/vN: no route matched
		}
		var body json.RawMessage
		body, r.Body = captureJSON(r)
		req, fault := s.rest.begin(r, route, parts, body)
		sw := &statusWriter{ResponseWriter: w, answered: func(status int) { s.rest.end(req, status) }}
		serve := func(w http.ResponseWriter) {
			switch {
			case parts == nil:
				s.fail(w, r, errNotFound, nil)
			case bot && r.Header.Get("Authorization") != s.cfg.Token:
				s.fail(w, r, errUnauthorized, nil)
			default:
				h(w, r)
			}
		}
		if fault != nil {
			s.serveFault(sw, r, fault, serve)
		} else {
			serve(sw)
		}
		sw.answer(http.StatusOK) // net/http's implicit answer, if nothing was written
	})
}

// ownApp is h for a bot route below /applications/{app}, which Discord
// refuses (50001 Missing Access) for another application's id.
func (s *Server) ownApp(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.PathValue("app") != s.cfg.AppID {
			s.fail(w, r, errMissingAccess, nil)
			return
		}
		h(w, r)
	}
}

// noRoute answers a request that no route took: 405 when a route has its
// path with another method, else 404.
func (s *Server) noRoute(w http.ResponseWriter, r *http.Request) {
	if parts := apiParts(r.URL.Path); parts != nil {
		for _, rt := range s.routes {
			if rt.matchesPath(parts) {
				s.fail(w, r, errMethod, nil)
				return
			}
		}
	}
	s.fail(w, r, errNotFound, nil)
}

// apiParts splits a path below /api/vN (nil for other paths).
func apiParts(path string) []string {
	parts := strings.Split(strings.Trim(path, "/"), "/")
	if len(parts) < 3 || parts[0] != "api" || !strings.HasPrefix(parts[1], "v") {
		return nil
	}
	return parts[2:]
}

// fail records e for RESTErrors (and for ix's Rejections) and answers it.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, e *apiError, ix *Interaction) {
	s.reject(r.Method, r.URL.Path, e, ix)
	writeAPIError(w, e)
}

// reject records e, the answer to a request for method and path, for
// RESTErrors and for ix's Rejections (ix may be nil).
func (s *Server) reject(method, path string, e *apiError, ix *Interaction) {
	re := RESTError{Method: method, Path: path, Status: e.Status, Code: e.Code, Message: e.Message, Detail: e.Detail}
	s.rest.recordError(re)
	if ix != nil {
		ix.addRejection(re)
	}
	s.logf("REST %s %s -> %d %d %s %s", method, path, e.Status, e.Code, e.Message, e.Detail)
}

// captureJSON reads the JSON of a request (its payload_json when it is
// multipart, nothing for another body) for Request.Body, and returns a
// body to read it all again from. A body past the request limit is not
// read here: its handler refuses it as it streams.
func captureJSON(r *http.Request) (json.RawMessage, io.ReadCloser) {
	if r.Body == nil || r.Body == http.NoBody {
		return nil, r.Body
	}
	limit := int64(MaxRequestSize + 1<<20)
	head, err := io.ReadAll(io.LimitReader(r.Body, limit+1))
	rest := io.NopCloser(io.MultiReader(bytes.NewReader(head), r.Body))
	if err != nil || int64(len(head)) > limit {
		return nil, rest
	}
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "multipart/form-data" {
		if !json.Valid(head) {
			return nil, rest
		}
		return head, rest // an object, or a list (a command sync)
	}
	obj, _, e := parsePayload(r.Header.Get("Content-Type"), bytes.NewReader(head))
	if e != nil || obj == nil {
		return nil, rest
	}
	raw, err := json.Marshal(obj)
	if err != nil {
		return nil, rest
	}
	return raw, rest
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

// ---- users and the application ----

// getUser answers GET /users/{user} for the bot's token, and GET
// /users/@me for a member's OAuth2 bearer token.
func (s *Server) getUser(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("Authorization") != s.cfg.Token {
		if g := s.activities.bearer(r); g != nil && r.PathValue("user") == "@me" {
			s.activities.me(w, r, g)
			return
		}
		s.fail(w, r, errUnauthorized, nil)
		return
	}
	if id := r.PathValue("user"); id != "@me" && id != s.cfg.AppID {
		writeJSON(w, http.StatusOK, userObject(id, "user"+id))
		return
	}
	writeJSON(w, http.StatusOK, s.botUser())
}

func (s *Server) getApplication(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{
		"id": s.cfg.AppID, "name": s.cfg.BotUsername, "description": "", "bot_public": true,
		"bot": s.botUser(), "flags": 1 << 23, "verify_key": "",
	})
}

func userObject(id, name string) map[string]any {
	return map[string]any{
		"id": id, "username": name, "global_name": name, "discriminator": "0",
		"avatar": nil, "public_flags": 0,
	}
}

func (s *Server) botUser() map[string]any {
	return map[string]any{
		"id":            s.cfg.AppID,
		"username":      s.cfg.BotUsername,
		"global_name":   nil,
		"discriminator": "0",
		"avatar":        nil,
		"bot":           true,
		"verified":      true,
		"mfa_enabled":   false,
		"flags":         0,
		"public_flags":  0,
	}
}
