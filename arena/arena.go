package arena

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"image/color"
	"io/fs"
	"log/slog"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"mazebot/contest"
	"mazebot/lang"
	"mazebot/mazecore"
	"mazebot/metrics"
	"mazebot/play"
)

// Games starts the races' games and records their finishes on the
// contests' terms: *contest.Games. A race's moves are played in memory;
// a finish is its one write.
type Games interface {
	Start(ctx context.Context, m *mazecore.Maze, who play.Record) (*play.Game, error)
	StartOnGrid(ctx context.Context, m *mazecore.GridMaze, who play.Record) (*play.Game, error)
	Finish(ctx context.Context, g *play.Game) (contest.Turn, error)
}

// Poster posts a room's result card to its channel once (a repeat of
// nonce makes no second post); the wiring backs it with the bot's poster,
// and draws the card's picture (arena imports no renderer).
type Poster interface {
	Post(ctx context.Context, channelID, nonce string, card Card) error
	// Follow posts card as a followup of the application's interaction
	// whose token it is.
	Follow(ctx context.Context, appID, token string, card Card) error
}

// Card is a race's result card: its words, in the channel's language, and
// what its picture is drawn from.
type Card struct {
	// Text is the podium: a line a finisher the card names, with their
	// colour, place, time, and clicks against par.
	Text string
	Alt  string // the picture's alt text
	// Maze is the room's maze on its grid (the whole square grid's as its
	// Graph); Walks are the cells each finisher the card names walked, in
	// their colour, first place first. No Walks, no picture.
	Maze  *mazecore.GridMaze
	Walks []Walk
}

// Walk is the cells a racer walked, in any order, and their colour.
type Walk struct {
	Cells  []int
	Colour color.RGBA
}

// Config is what the Activity's server is built with.
type Config struct {
	// AppID is the application's id, the OAuth2 client id; "" asks
	// Discord which the bot token's is.
	AppID string
	// ClientSecret is the OAuth2 client secret: it goes to Discord's
	// /oauth2/token and nowhere else.
	ClientSecret string
	BotToken     string // "Bot …": a session key's makings when SessionSecret is nil
	// Bot asks Discord with the bot's token (the application's id, the
	// instance checks): the Discord wing's one client, so that the
	// Arena's requests share the bot's rate limiter and 429 state.
	Bot BotAPI
	// SessionSecret is what the session tokens' key is derived from: the
	// same on every process (the wiring passes the bot's MAZEBOT_SECRET
	// or the key kept in the database); nil derives it from the client
	// secret and the bot token.
	SessionSecret []byte
	// Transport carries the OAuth2 requests to Discord
	// (https://discord.com/api: the code exchange, /users/@me with a
	// member's token), rebased to DISCORD_API_BASE; nil is
	// http.DefaultTransport.
	Transport http.RoundTripper
	Games     Games
	// Runs keeps the runs finished on a daily, which later racers of the
	// day race as ghosts; nil keeps none and shows none.
	Runs play.RunStore
	// Grids builds the maze of an image's shape, whose picture the store
	// keeps (the wiring's play.Grids); nil races none.
	Grids play.Grids
	// Poster posts the result card of a race on a maze that no contest
	// counts; nil posts none.
	Poster Poster
	// Language is the code of the language a server's posts are in (its
	// daily's, else its primary language in Discord): the result card's.
	// Nil, or "" (a DM has no server), speaks the launcher's language.
	Language func(ctx context.Context, guildID string) string
	Bus      Bus // nil: a MemoryBus (one process)
	Log      *slog.Logger
	Now      func() time.Time // nil: the real clock
	Seed     func() uint64    // the seeds of picked mazes
	// Countdown is the time from Start to the race (zero: 3 s).
	Countdown time.Duration
	// Linger is how long a room left by all its members waits for one to
	// come back before it ends (zero: 5 s).
	Linger time.Duration
	// BeatEvery is how often a process on a shared bus tells the others it
	// is alive while it holds a room, and DeadAfter how long a process may
	// be silent before the others take its members offline (zero: 2 s and
	// 6 s, so a killed process's members are gone within 10 s). The
	// processes' clocks must agree within DeadAfter − BeatEvery.
	BeatEvery, DeadAfter time.Duration
	// MoveRate and MoveBurst bound a member's moves, over all their
	// connections: a second's rate, and how many may come at once (zero:
	// 12 and 12).
	MoveRate  float64
	MoveBurst int
	// Metrics is told about the rooms' moves, refusals, bus and loops;
	// nil tells nothing.
	Metrics metrics.Arena
	// ObserveMove, if set, is told how long each move took here, from its
	// message to its broadcast by the room's loop.
	ObserveMove func(time.Duration)
	// ObserveBroadcast, if set, is told for each racer in a room's MovesMsg
	// how long the oldest of their moves in it waited, from its input's
	// time (its process's clock at its receipt) to that message.
	ObserveBroadcast func(time.Duration)
	// ObserveBusLag, if set, is told for each move another process put on
	// the bus how long it took from its input's time there to its delivery
	// here: the bus's share of ObserveBroadcast's wait.
	ObserveBusLag func(time.Duration)
	// MaxSockets caps the room WebSockets open here (zero: MaxSockets).
	MaxSockets int
}

// MaxConnections caps the plain HTTP connections the Activity's address
// holds open (the wiring's listener cap): as the interactions endpoint's,
// an idle one makes way for a new one, so that a flood of connections that
// send nothing or half a request can neither take the process's
// descriptors nor keep members out. A room's WebSocket leaves it at its
// upgrade, and counts against MaxSockets instead.
const MaxConnections = 1024

// MaxSockets caps the room WebSockets one process holds open
// (Config.MaxSockets): the members' connections, a few each, and at most
// maxAwaitingHello of them not yet signed in. Past it, an upgrade is
// answered 503 with Retry-After, which the client retries. With
// MaxConnections, it bounds the descriptors the Activity takes: 5,120,
// which the process's limit must leave room for (Go raises the soft limit
// to the hard one at start; systemd's and Docker's hard limits are far
// above it). 2,000 racers on one process hold some 2,000.
const MaxSockets = 4096

// Server is the Activity's HTTP server: the client, the token exchange,
// the words, and the rooms.
type Server struct {
	cfg     Config
	log     *slog.Logger
	discord *discord
	door    *door // admits the code exchanges
	hub     *hub
	mux     *http.ServeMux
	index   []byte

	mu sync.Mutex
	// checks are the members' buckets for asking Discord about their
	// instance at sign-in, by user id.
	checks memberBuckets
	// sessionKey signs the session tokens (session.go).
	sessionKey []byte
	// awaiting are the connections not yet heard from, by when they came.
	awaiting map[*conn]time.Time
	// sockets counts the room WebSockets open here (MaxSockets).
	sockets atomic.Int32
}

// New builds the server.
func New(cfg Config) (*Server, error) {
	switch {
	case cfg.ClientSecret == "" || cfg.BotToken == "":
		return nil, errors.New("arena: the client secret and the bot token are both needed")
	case cfg.Games == nil:
		return nil, errors.New("arena: no Games")
	case cfg.Bot == nil:
		return nil, errors.New("arena: no Bot (the client for the bot's token)")
	}
	if cfg.Bus == nil {
		cfg.Bus = &MemoryBus{}
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Metrics == nil {
		cfg.Metrics = metrics.Nop{}
	}
	if cfg.Seed == nil {
		cfg.Seed = func() uint64 { return uint64(time.Now().UnixNano()) }
	}
	if cfg.Countdown == 0 {
		cfg.Countdown = 3 * time.Second
	}
	if cfg.MoveRate == 0 {
		cfg.MoveRate = 12
	}
	if cfg.MoveBurst == 0 {
		cfg.MoveBurst = 12
	}
	if cfg.MaxSockets == 0 {
		cfg.MaxSockets = MaxSockets
	}
	files := clientFiles()
	index, err := fs.ReadFile(files, "index.html")
	if err != nil {
		return nil, fmt.Errorf("arena: the web client is not built: %w", err)
	}
	s := &Server{cfg: cfg, log: cfg.Log, discord: newDiscord(cfg.Transport, cfg.AppID, cfg.ClientSecret, cfg.Bot, cfg.Log),
		checks: newMemberBuckets(checkRate, checkBurst), sessionKey: sessionKey(cfg), awaiting: map[*conn]time.Time{}}
	s.index = withAlgorithms(index)
	s.door = newDoor(cfg.Now, cfg.Log)
	s.hub = newHub(cfg)
	s.hub.application = s.discord.application
	s.mux = http.NewServeMux()
	s.mux.Handle("GET /", s.static(http.FileServerFS(files)))
	s.mux.HandleFunc("POST /api/token", s.serveToken)
	s.mux.HandleFunc("GET /api/words", serveWords)
	s.mux.HandleFunc("GET /api/room", s.serveRoom)
	return s, nil
}

// Handler serves the Activity. Discord's proxy may put /.proxy before
// every path; it is the same.
func (s *Server) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if rest, ok := strings.CutPrefix(r.URL.Path, "/.proxy/"); ok {
			r2 := r.Clone(r.Context())
			r2.URL.Path, r2.URL.RawPath = "/"+rest, ""
			r = r2
		}
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		s.mux.ServeHTTP(w, r)
	})
}

// static serves the client's files, and the page with the app's id in it.
func (s *Server) static(files http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Discord frames the Activity; only it (and the page itself) may.
		w.Header().Set("Content-Security-Policy", "frame-ancestors 'self' https://discord.com https://*.discord.com https://*.discordsays.com")
		if r.URL.Path == "/" || r.URL.Path == "/index.html" {
			appID, err := s.discord.application(r.Context())
			if err != nil {
				s.log.Error("arena: the application's id", "err", err)
				http.Error(w, "Maze Arena cannot start just now; try again in a moment.", http.StatusServiceUnavailable)
				return
			}
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Header().Set("Cache-Control", "no-cache")
			_, _ = w.Write([]byte(strings.ReplaceAll(string(s.index), "%CLIENT_ID%", appID)))
			return
		}
		files.ServeHTTP(w, r)
	})
}

// Pend records that a member launched the Activity in a channel on maze,
// so that the room its instance opens races it; every process learns it.
// card says whether the bot may post the race's result card there (not
// in a group DM, nor a server only the member's own install reaches);
// where it may not, followup is the launch's interaction token, whose
// followup the card is if the race ends within Discord's 15 minutes ("":
// no card).
func (s *Server) Pend(_ context.Context, guildID, channelID, userID string, maze mazecore.ID, card bool, followup string) error {
	if channelID == "" {
		return errors.New("arena: a launch needs a channel")
	}
	s.hub.pend(channelID, userID, maze, card, followup)
	return nil
}

// Rooms is how many rooms this process holds.
func (s *Server) Rooms() int { return s.hub.count() }

// State is what the rooms hold here now, for the metrics.
func (s *Server) State() metrics.ArenaState {
	rooms := s.hub.held()
	st := metrics.ArenaState{Rooms: len(rooms)}
	for _, r := range rooms {
		r.mu.Lock()
		st.Connections += len(r.conns)
		for c := range r.conns {
			if r.racers[c.user] {
				st.Racers++
			} else {
				st.Spectators++
			}
		}
		r.mu.Unlock()
	}
	return st
}

// Close ends every connection here, telling the other processes that
// its member left (their clients reconnect, to another process behind a
// load balancer), and stops the bus.
func (s *Server) Close() error {
	s.hub.shutdown()
	return s.cfg.Bus.Close()
}

// serveToken is POST /api/token: the sign-in, once. {"code": …,
// "instance": …} in; the code is traded at Discord's /oauth2/token (as the
// door admits it), Discord is asked once who the member is and whether the
// instance has them, and {"access_token": …, "session": …} comes out: the
// access token for the SDK's authenticate, and a session token (session.go)
// that is all the room's WebSocket takes. The client tries again after a
// 503's Retry-After.
func (s *Server) serveToken(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Code     string `json:"code"`
		Instance string `json:"instance"`
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 4<<10)).Decode(&in); err != nil || in.Code == "" || len(in.Code) > 512 ||
		in.Instance == "" || len(in.Instance) > 128 {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "send {\"code\": …, \"instance\": …} from the SDK's authorize and instanceId"})
		return
	}
	busy := func(wait time.Duration) {
		w.Header().Set("Retry-After", strconv.Itoa(max(1, int(math.Ceil(wait.Seconds())))))
		writeJSON(w, http.StatusServiceUnavailable, map[string]string{"error": "too many sign-ins just now: try again in a moment"})
	}
	client := clientOf(r.RemoteAddr)
	if !s.door.enter(client) {
		busy(time.Second)
		return
	}
	defer s.door.leave(client)
	probe, wait, err := s.door.pass()
	switch {
	case errors.Is(err, errSignInBroken):
		writeJSON(w, http.StatusBadGateway, map[string]string{"error": "the sign-in failed"})
		return
	case err != nil:
		busy(wait)
		return
	}
	if err := s.door.place(r.Context()); err != nil {
		if probe {
			s.door.unprobe() // not sent: the next request probes
		}
		busy(time.Second)
		return
	}
	token, err := s.discord.exchange(r.Context(), in.Code)
	s.door.free()
	s.door.done(probe, err)
	switch {
	case errors.Is(err, errBadCode):
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "Discord refused the code"})
		return
	case errors.Is(err, errRateLimited):
		busy(s.discord.stoppedFor(exchangeRoute, time.Now()))
		return
	case err != nil:
		writeJSON(w, http.StatusBadGateway, map[string]string{"error": "the sign-in failed"})
		return
	}
	se, err := s.signIn(r.Context(), token, in.Instance)
	switch {
	case errors.Is(err, errTooFast), errors.Is(err, errRateLimited):
		busy(5 * time.Second)
		return
	case err != nil:
		s.log.Info("arena: sign-in refused", "instance", in.Instance, "reason", err.Error())
		writeJSON(w, http.StatusForbidden, map[string]string{"error": "not in this Activity"})
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, map[string]string{"access_token": token, "session": mint(s.sessionKey, se)})
}

// signIn asks Discord, once, who the access token's member is and whether
// the instance has them, and makes their session.
func (s *Server) signIn(ctx context.Context, token, instanceID string) (session, error) {
	u, err := s.discord.me(ctx, token)
	if err != nil {
		return session{}, err
	}
	if !s.allowCheck(u.ID, time.Now()) {
		return session{}, errTooFast
	}
	in, err := s.discord.instance(ctx, instanceID)
	if err != nil {
		return session{}, err
	}
	if !slices.Contains(in.Users, u.ID) {
		return session{}, errors.New("the user is not in the instance")
	}
	name := []rune(u.Name())
	if len(name) > 32 {
		name = name[:32]
	}
	return session{User: u.ID, Name: string(name), Instance: in.ID, Guild: in.Location.GuildID, Channel: in.Location.ChannelID,
		Expires: s.cfg.Now().Add(sessionTTL).Unix()}, nil
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v) // the client went away: nothing to do
}

// wordsPrefix starts the catalog messages of the client.
const wordsPrefix = "arena."

// serveWords is GET /api/words?locale=…: the client's words in the
// member's language, message ID → template ({{.Name}} placeholders), and
// "language", the language's code. A message with plural forms (a
// {{.Count}}) is its templates by CLDR category instead ({"one": …,
// "other": …}), for the client to pick by Intl.PluralRules in that
// language: sending one form made every count read as that form.
func serveWords(w http.ResponseWriter, r *http.Request) {
	l := lang.For(r.URL.Query().Get("locale"))
	out := map[string]any{"language": l.Code()}
	for _, id := range lang.IDs() {
		if !strings.HasPrefix(id, wordsPrefix) {
			continue
		}
		forms := l.Forms(id)
		if forms == nil {
			forms = lang.English.Forms(id)
		}
		key := strings.TrimPrefix(id, wordsPrefix)
		switch {
		case len(forms) == 0:
		case len(forms) == 1 && forms["other"] != "" && !pluralMessage(id):
			out[key] = forms["other"]
		default:
			out[key] = forms
		}
	}
	w.Header().Set("Cache-Control", "max-age=300")
	writeJSON(w, http.StatusOK, out)
}

// pluralMessage: English has plural forms of the message, so every
// language's is sent as a table of forms, even where the language needs
// only "other" (Korean): the client then reads it one way.
func pluralMessage(id string) bool { return len(lang.English.Forms(id)) > 1 }

// cardTop is how many finishers a result card names, and draws.
const cardTop = 5

// racerColours are the racers' colours by their place in the room's list,
// as the client draws their dots (web/src/main.ts's colours, which
// TestRacerColoursMatchClient holds to these), and colourMarks the square
// emoji nearest each, which stand for the colour in the card's text.
var (
	racerColours = []color.RGBA{
		{0xE6, 0x9F, 0x00, 0xff}, {0x56, 0xB4, 0xE9, 0xff}, {0x00, 0x9E, 0x73, 0xff}, {0xF0, 0xE4, 0x42, 0xff},
		{0x00, 0x72, 0xB2, 0xff}, {0xD5, 0x5E, 0x00, 0xff}, {0xCC, 0x79, 0xA7, 0xff}, {0xFF, 0xFF, 0xFF, 0xff},
	}
	colourMarks = []string{"🟧", "🟦", "🟩", "🟨", "🟦", "🟥", "🟪", "⬜"}
)

// card posts the result of a race no contest counted, once (the nonce is
// the instance's), when its room ends: the podium with each finisher's
// time and clicks against par, and a picture of the maze (m or g, the
// room's) with each named finisher's walk in their colour.
func (h *hub) card(ctx context.Context, st roomState, m *mazecore.Maze, g *mazecore.GridMaze) {
	poster := h.cfg.Poster
	if poster == nil || st.Contest || st.NoCard && (st.Followup == "" || h.now().UnixMilli() > st.FollowupBy) {
		return
	}
	type finisher struct {
		*player
		colour int // the player's place in the room's list
	}
	var done []finisher
	for i, p := range st.Players {
		if p.Done {
			done = append(done, finisher{p, i % len(racerColours)})
		}
	}
	if len(done) == 0 {
		return
	}
	slices.SortFunc(done, func(a, b finisher) int { return cmp.Compare(a.Place, b.Place) })
	// Long enough for the post to wait out a 429 or two (the wiring's
	// Poster tries again after its retry_after).
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	l := h.cardLanguage(ctx, st)
	c := Card{Alt: l.T("alt.race", lang.Args{"Maze": st.Maze})}
	if g != nil {
		c.Maze = g
	} else if m != nil {
		c.Maze = m.Graph()
	}
	var results []string
	for i, p := range done {
		if i == cardTop {
			break
		}
		line := colourMarks[p.colour] + " " + l.T("arena.card_place", lang.Args{"Place": lang.Number(p.Place), "User": p.ID, "Time": l.RunTime(time.Duration(p.Ms) * time.Millisecond)})
		if game := cardGame(m, g, p.Rec); game != nil {
			line += " · " + l.T("arena.clicks_par", lang.Args{"Clicks": lang.Number(p.Clicks), "Par": lang.Number(game.Par())})
			if c.Maze != nil {
				c.Walks = append(c.Walks, Walk{Cells: walkedCells(game, c.Maze.Grid()), Colour: racerColours[p.colour]})
			}
		}
		results = append(results, line)
	}
	c.Text = l.T("arena.card", lang.Args{"Maze": st.Maze, "Results": "\n" + strings.Join(results, "\n")})
	key := st.Instance // the first race's, as before rematches
	if st.Round > 0 {
		key = fmt.Sprintf("%s/%d", st.Instance, st.Round)
	}
	sum := sha256.Sum256([]byte(key))
	nonce := fmt.Sprintf("arena%x", sum[:10])
	post := func() error { return poster.Post(ctx, st.Channel, nonce, c) }
	if st.NoCard {
		// One process posts a race's card (effCard), so the followup,
		// which takes no nonce, is made once.
		post = func() error {
			appID, err := h.application(ctx)
			if err != nil {
				return err
			}
			token, err := h.sealer.open(st.Followup)
			if err != nil {
				return err
			}
			return poster.Follow(ctx, appID, token, c)
		}
	}
	if err := post(); err != nil {
		h.log.Warn("arena: post the result card", "channel", st.Channel, "err", err)
	}
}

// cardGame is a finisher's game as the snapshot carries it, nil when it
// cannot be had (no maze here, no record).
func cardGame(m *mazecore.Maze, g *mazecore.GridMaze, rec *play.Record) *play.Game {
	if rec == nil || (m == nil && g == nil) {
		return nil
	}
	game, err := resumeGame(m, g, *rec)
	if err != nil {
		return nil
	}
	return game
}

// walkedCells are the cells a game walked on grid: on any grid its own;
// on the whole square grid the cells of the tiles walked, a cell (col,
// row) being the tile (2·col+1, 2·row+1) and the tiles between cells none.
func walkedCells(game *play.Game, grid *mazecore.Grid) []int {
	if game.Grid() != nil {
		return game.WalkedCells()
	}
	var out []int
	for _, p := range game.Walked() {
		if p.X%2 == 1 && p.Y%2 == 1 {
			if c := grid.At(p.Y/2, p.X/2); c >= 0 {
				out = append(out, c)
			}
		}
	}
	return out
}

// cardLanguage is the language of a room's result card: the channel's
// readers', so the server's (Config.Language), not whoever launched it;
// where there is no server (a DM), or it cannot be told, the launcher's.
func (h *hub) cardLanguage(ctx context.Context, st roomState) *lang.Lang {
	if st.Guild != "" && h.cfg.Language != nil {
		var code string
		_ = h.protect("the server's language", func() error { code = h.cfg.Language(ctx, st.Guild); return nil })
		if l, ok := lang.Lookup(code); ok {
			return l
		}
	}
	for _, p := range st.Players {
		if p.ID == st.Launcher || st.Launcher == "" {
			return lang.For(p.Locale)
		}
	}
	return lang.English
}
