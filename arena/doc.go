// Package arena is Maze Arena: a Discord Activity in which everyone in a
// channel races the same maze live. It serves the Activity on its own
// address: the web client (built from arena/web with npm and esbuild,
// committed, embedded), the OAuth2 code exchange (POST /api/token: the
// client secret stays here), the client's words from package lang's
// catalogs (GET /api/words), and the rooms (GET /api/room, a WebSocket).
//
// Everything an outsider can send without an account is bounded before it
// becomes a Discord call (Discord bans an IP after 10,000 invalid requests
// in 10 minutes, the bot's own included): the code exchanges by the door
// (places at Discord, per client, a bucket of failures, and a breaker for
// a client secret Discord refuses), instance checks per member; session
// tokens are checked here, never at Discord; and connections by the wiring's cap
// (MaxConnections, which a WebSocket leaves at its upgrade), the sockets
// by MaxSockets and the hello cap, messages by the refusals that drop
// a connection.
//
// Identity comes from Discord, once: POST /api/token trades the code for
// an access token, which GET /users/@me turns into a user, and names its
// instance, which GET /applications/{app}/activity-instances/{id} (bot
// token) must show that user in; it then mints a session token (session.go:
// the user, the instance and its location, 30 minutes, HMAC-signed with a
// key derived from the bot's secret), and a WebSocket's hello carries only
// that, checked here with no call to Discord. The instance's location is
// the room's channel. The messages are the Go types of protocol.go, with
// a version a cached client must match (web/src/protocol.ts is generated
// from them). One room per
// instance, owned by one goroutine (its loop, room.run): the inputs (a
// join, a leave, Start, a pick, a move naming only its direction) come in
// the Bus's order, a pure apply (apply.go) computes the next state and the
// effects, and the loop does them. Moves are played in memory by the play
// rules (walls, a finished game, another's game refused); what is stored
// is a game's start and its finish, through package contest's Games, so a
// race on a daily's or an event's maze counts as Play does. Rooms are
// replicated over the Bus: every process that has a member of the room
// connected applies the same inputs alike (in memory for one process;
// store/pgbus on PostgreSQL for several). Every goroutine the rooms start
// is tracked, and Close waits for them.
//
// A launch finds its maze by its channel: Pend records the maze a Race
// button or the Entry Point command launched in a channel (fanned out over
// the Bus), and the room an instance in that channel opens takes it.
//
// It imports mazecore, play, contest, lang and metrics, the standard
// library and gorilla/websocket; never bot, commands, store (the
// PostgreSQL bus is store/pgbus), pgx or discordgo: the wiring hands it
// what it needs (Games, a Poster, the Bus, the bot's REST client, the
// transport for the OAuth2 requests) as interfaces. Every request with the
// bot's token goes through the bot's one client (BotAPI), so that the
// token has one rate limiter and one record of a 429; only the OAuth2
// requests, which the bot's token does not authorise, go out here.
package arena
