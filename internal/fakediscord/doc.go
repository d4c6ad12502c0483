// Package fakediscord is Discord's side of a fake Discord (REST API and
// gateway), as Discord documents it, for end-to-end tests of mazebot: the
// protocol and its state. It is used only by tests. Its sub-package member
// is the test's side: it acts as Discord's members (runs commands, clicks
// buttons, submits modals) and waits for what they see.
//
// A Server runs an httptest server on 127.0.0.1 that speaks enough of Discord's
// API v9 for a real github.com/bwmarrin/discordgo v0.29.0 session to connect,
// receive interactions and answer them over real HTTP and websockets:
//
//   - the gateway (HELLO, IDENTIFY/READY, heartbeats, RESUME/RESUMED with replay
//     of missed dispatches, INVALID_SESSION, RECONNECT) at ws://HOST/gateway,
//     with one session per connection and sharding;
//   - REST under /api/v9, routed by http.ServeMux patterns such as
//     "POST /api/{version}/interactions/{interaction}/{token}/callback":
//     gateway discovery, /users/@me, bulk overwrite of application
//     commands, interaction callbacks, followups and edits of interaction
//     messages (webhook routes), channel messages, and DM channels (POST
//     /users/@me/channels; CloseDMs makes a user's DMs answer 403 code
//     50007, as Discord does for a member who takes none from the bot);
//   - uploaded files (multipart payload_json + files[N]) are kept byte for byte
//     and served back at their attachment URL.
//
// Interact turns a member's action (an Action, which package member builds)
// into the INTERACTION_CREATE Discord sends, with what Discord adds to what
// a client sends: the member or user object, permissions as strings, the
// locales, the registered command's id, data.resolved, the message a
// component is on; and delivers it over the gateway or to the HTTP
// endpoint. The returned *Interaction records what the bot answered:
// Response, Original, Followups, Rejections.
//
// A channel option comes with its resolved partial channel
// (data.resolved.channels) when the channel is one of the invoking server's:
// a channel the fake saw in another server or a DM is not resolved, as
// Discord resolves only what the member can pick there.
//
// It enforces the rules a bot most often gets wrong, the way Discord does: the
// Authorization header on bot routes (401), the first-response deadline (404
// code 10062), a second acknowledgement (400 code 40060), message limits
// (content in code points, embeds, action rows, buttons, custom_id; 400 code
// 50035), the loading state of a deferred reply, and the rule that an edit keeps
// the old attachments unless an attachments list is sent.
//
// ChannelMessages and Message show what the bot posted; MessageChanged,
// ChannelChanged and Interaction.Changed tell a waiter when to look again
// (package member's waits use them). Sent lists every version of every
// message the bot sent (replies, updates, followups, posts and their edits,
// ephemeral ones too), and Message.Texts the texts a reader sees in one:
// content, embeds, button labels.
//
// A command sync is checked as Discord checks it, name_localizations and
// description_localizations included: known locales, names lowercase and
// 1–32 letters, digits, - or _, descriptions and choices 1–100, and no
// description on a context-menu command.
//
// discordgo builds every URL on https://discord.com, from package-level
// variables computed once at init: give a session Server.HTTPClient (or a
// client on Server.Transport), which sends those requests to this Server,
// rather than re-pointing the variables, which are process-wide. Each test
// can then have a Server of its own.
//
// # Faults
//
// InjectFault makes the next n requests of a route ("POST
// /channels/{id}/messages") fail the way Discord and the network do: a 5xx
// before or after the request is processed (after: the message exists but
// the client saw 502, which discordgo retries), a 429 with Discord's
// rate-limit headers and body, a held request or answer, or a dropped
// connection. Requests and WaitRequests list every REST request with its
// arrival time and the status answered, so a test can count retries.
//
// # Permissions
//
// SetChannelPermissions makes the channel routes answer 403 (50001 Missing
// Access, 50013 Missing Permissions) as Discord does for a bot without
// VIEW_CHANNEL, SEND_MESSAGES or ATTACH_FILES.
//
// # Roles
//
// SetRoles gives a server roles (position, permissions, managed) and the
// bot some of them; AddMembers and SetMemberRoles its members. PUT and
// DELETE /guilds/{guild}/members/{user}/roles/{role} then answer as
// Discord does: 204, or 403 code 50013 when the bot lacks MANAGE_ROLES or
// the role is not below its highest role (or is managed), 404 code 10011
// for a role the server lacks and 10007 for a member it lacks.
// MemberRoles shows the outcome. A role option resolves to the server's
// role (data.resolved.roles).
//
// # Nonces
//
// A channel message create may carry a nonce (an integer or a string of at
// most 25 characters; longer is 400 code 50035) and enforce_nonce. With
// enforce_nonce, a create whose nonce the bot already used in the channel
// within the nonce window (Config.NonceWindow, 5 minutes by default) answers
// the existing message and creates none; without it the nonce is only kept
// and echoed. Message.Nonce and MessagesCreated show the outcome.
//
// # Sharding
//
// GET /gateway/bot recommends Config.Sharding's shard count and
// max_concurrency (1 and 1 by default). Every gateway connection that
// IDENTIFYs starts its own session with its own shard [id, num_shards] ([0,
// 1] when IDENTIFY has no shard), so several bot processes can each run some
// shards against one Server. An interaction goes to the ready session whose
// shard owns its guild, (guild_id >> 22) % num_shards, and a DM to shard 0;
// while no such session is connected it waits, up to the caller's context,
// and its response deadline starts when it is sent (Interaction.Shard tells
// where it went). As Discord does, IDENTIFY is closed with 4010 for an
// invalid shard and 4011 for fewer shards than Sharding.RequiredShards; one
// within 5 s of another in its rate-limit bucket (shard_id %
// max_concurrency) is recorded (IdentifyViolations) and, with
// Sharding.EnforceIdentifyLimit, refused with op 9; a connection sending more
// than 120 payloads a minute (heartbeats aside) is closed with 4008.
//
// WaitReady, Connected, DropGateway, RequestReconnect and InvalidateSession
// act on every shard the bot runs (one without sharding, as before);
// Identifies and Resumes count all shards; SessionID is shard 0's. Shard,
// Sessions, WaitShardReady, DropShard and InvalidateShard look at or act on
// one shard, IdentifyLog lists every IDENTIFY.
//
// # Raw frames
//
// SendDispatch sends a dispatch with any data (null, wrong-typed fields) on
// a shard's session, in sequence and replayed on RESUME; SendRawFrame sends
// any bytes. Both test a client's robustness.
//
// # HTTP interactions endpoint
//
// UseHTTPEndpoint delivers interactions by signed POSTs instead of the
// gateway. ReplayHTTP sends a delivered interaction again, with its original
// or a fresh signature, as an attacker would; PostEndpoint sends a request
// shaped byte by byte (no or malformed signature, a lying Content-Length);
// HTTPEndpoint gives a test the URL and key to craft its own.
//
// # Activities
//
// EnableActivities gives the app an Activity, as the developer portal
// does: the default Entry Point command ("launch", type 4, handler 2)
// among the global commands, which a global bulk overwrite must then keep
// (400 code 50240 otherwise; its handler, 1 or 2, is read and sent back
// raw), and LAUNCH_ACTIVITY (callback type 12, no data) for commands,
// buttons and modals, which opens an instance in the interaction's channel
// or puts the member in the one running there (Response.Instance).
// JoinActivity and LeaveActivity are members joining and closing it;
// GET /applications/{app}/activity-instances/{id} (bot token) describes a
// running instance, 404 once its last member left. Authorize is a member
// authorizing the app (the SDK's AUTHORIZE): it returns a code that POST
// /oauth2/token exchanges once, with the app's id and
// Config.ClientSecret (401 invalid_client otherwise), for a bearer token
// that GET /users/@me reads.
//
// # Secrets
//
// InteractionTokens lists every interaction token the fake issued, across
// Reset, so a test can check that none reached a log; OAuthSecrets the
// client secret and every OAuth2 code and token.
//
// # Not modelled
//
// Rate limits other than injected 429s and the gateway's send limit (normal
// answers carry no rate-limit headers), guilds, channels, members and roles
// beyond the ids a test supplies (READY lists no guilds), MESSAGE_* gateway
// events, voice, compression, zombie connections (missed heartbeats are not
// detected), session expiry (a session stays resumable until invalidated).
//
// # State and locks
//
// The Server's state lives in parts that each guard their own: the gateway
// (connections, sessions, sharding, the identify log), the directory of
// guilds and channels, the application commands, the messages, the
// interactions (and how they are delivered), and the log of REST requests
// with the faults to inject. A stored Message never changes (an edit
// stores a new version), so snapshots are cheap. Locks are taken in one
// order: an Interaction's, then the messages' or the gateway's, then any
// of the others, which are leaves and take no other lock.
//
// This package must not import any mazebot package: it fakes Discord, not the
// bot.
package fakediscord
