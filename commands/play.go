package commands

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base32"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"mazebot/mazecore"
	"mazebot/render"
	"mazebot/store"
)

// Games is the part of the store play mode needs.
type Games interface {
	CreateGame(ctx context.Context, g store.Game) (int64, error)
	Game(ctx context.Context, id int64) (store.Game, error)
	SaveMove(ctx context.Context, g store.Game, prevSeq int) error
	FinishGame(ctx context.Context, g store.Game, prevSeq int, f *store.Finish) error
	DeleteGamesBefore(ctx context.Context, t time.Time) (int64, error)
}

const (
	// MaxPlaySide is the largest maze side play mode accepts: a game's
	// trail (one bit a tile) is rewritten on every move, and a bigger maze
	// would take hundreds of clicks even with corridor runs.
	MaxPlaySide = 201
	// playWindow is the side of the emoji window shown around the player
	// on a maze too big to show whole.
	playWindow = 15
	// gameTTL is how long after its start a game takes moves.
	gameTTL = 24 * time.Hour
	// gameRetention is how long a game row is kept; well past gameTTL, so
	// a late click still finds its game and hears that it expired.
	gameRetention = 7 * 24 * time.Hour
	// gameCleanupEvery spaces the deletions: the ticker runs every few
	// seconds, old games need not go that fast.
	gameCleanupEvery = time.Hour
	// playReserve is the room kept beside the grid for the header, hint and
	// result lines. Deciding "whole or window" with a fixed reserve keeps
	// the view from switching mid-game as the counters grow.
	playReserve = 200
)

// Custom ID prefixes of play mode.
const (
	playPrefix = "play"
	movePrefix = "mv"
)

// A move button's custom_id is "mv:<game>:<seq>:<action>:<mac>", signed so
// that nobody can forge or replay a button into another game, another
// state or another member's hands.
const (
	actNorth  byte = 'n'
	actEast   byte = 'e'
	actSouth  byte = 's'
	actWest   byte = 'w'
	actGiveUp byte = 'g'
	actMap    byte = 'm'
)

const (
	// macLength characters of base32 carry 50 bits: guessing one takes
	// about 10^15 clicks, each a rate-limited Discord interaction.
	macLength = 10
)

var actionDirs = map[byte]mazecore.Dir{actNorth: mazecore.North, actEast: mazecore.East, actSouth: mazecore.South, actWest: mazecore.West}

var macEncoding = base32.StdEncoding.WithPadding(base32.NoPadding)

// buttonMAC signs one button for one member. Every field is part of the
// message, the user ID included, so a button works only for its owner.
func buttonMAC(secret []byte, game, seq, action, userID string) string {
	h := hmac.New(sha256.New, secret)
	fmt.Fprintf(h, "mv|%s|%s|%s|%s", game, seq, action, userID)
	return strings.ToLower(macEncoding.EncodeToString(h.Sum(nil)))[:macLength]
}

func moveCustomID(secret []byte, gameID int64, seq int, action byte, userID string) string {
	g, s, a := strconv.FormatInt(gameID, 10), strconv.Itoa(seq), string(action)
	return strings.Join([]string{movePrefix, g, s, a, buttonMAC(secret, g, s, a, userID)}, ":")
}

// moveButton is a verified move button.
type moveButton struct {
	game   int64
	seq    int
	action byte
}

// errInvalidButton covers every button that fails the checks: the member
// learns nothing about which field was wrong.
var errInvalidButton = userErrorf("That button isn't valid: it was changed, or it belongs to someone else's game. Press **Play** under a maze to start your own.")

// parseMoveID checks a move button's custom_id against the presser.
func parseMoveID(secret []byte, customID, userID string) (moveButton, error) {
	parts := strings.Split(customID, ":")
	if len(parts) != 5 || parts[0] != movePrefix || !canonicalNumber(parts[1]) || !canonicalNumber(parts[2]) ||
		len(parts[3]) != 1 || !strings.Contains("neswgm", parts[3]) || len(parts[4]) != macLength {
		return moveButton{}, errInvalidButton
	}
	want := buttonMAC(secret, parts[1], parts[2], parts[3], userID)
	if !hmac.Equal([]byte(parts[4]), []byte(want)) {
		return moveButton{}, errInvalidButton
	}
	game, err1 := strconv.ParseInt(parts[1], 10, 64)
	seq, err2 := strconv.Atoi(parts[2])
	if err1 != nil || err2 != nil || game <= 0 {
		return moveButton{}, errInvalidButton
	}
	return moveButton{game: game, seq: seq, action: parts[3][0]}, nil
}

// canonicalNumber accepts the decimal form strconv writes for a
// non-negative number, so each button has exactly one spelling.
func canonicalNumber(s string) bool {
	if s == "" || len(s) > 19 || (s[0] == '0' && len(s) > 1) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

var (
	errGameOver    = userErrorf("This game is over — press **Play** under the maze to start a new one.")
	errGameExpired = userErrorf("This game has expired (a game lasts %d hours) — press **Play** under the maze to start a new one.", int(gameTTL.Hours()))
)

// gameCleanup is the ticker that deletes games past gameRetention, at most
// once per gameCleanupEvery.
func gameCleanup(d *Deps) Ticker {
	var (
		mu   sync.Mutex
		last time.Time
	)
	return func(ctx context.Context, now time.Time) error {
		if d.Games == nil {
			return nil
		}
		mu.Lock()
		due := last.IsZero() || now.Sub(last) >= gameCleanupEvery
		if due {
			last = now
		}
		mu.Unlock()
		if !due {
			return nil
		}
		n, err := d.Games.DeleteGamesBefore(ctx, now.Add(-gameRetention))
		if err != nil {
			return err
		}
		if n > 0 {
			d.Logger.Info("deleted old games", "count", n)
		}
		return nil
	}
}

func playButton() Component  { return Component{Prefix: playPrefix, Handle: handlePlay} }
func moveButtons() Component { return Component{Prefix: movePrefix, Handle: handleMove} }

// playDeps returns the store and key play mode needs, or an internal error
// when the bot was wired without them: unsigned buttons would be forgeable.
func playDeps(in *Interaction) (Games, []byte, error) {
	if in.Deps.Games == nil || len(in.Deps.Secret) == 0 {
		return nil, nil, errors.New("play mode is not configured: Deps.Games or Deps.Secret is missing")
	}
	return in.Deps.Games, in.Deps.Secret, nil
}

// handlePlay starts a game for the member who pressed Play under a maze.
func handlePlay(ctx context.Context, in *Interaction) error {
	games, secret, err := playDeps(in)
	if err != nil {
		return err
	}
	_, text, _ := strings.Cut(in.MessageComponentData().CustomID, ":")
	id, err := mazecore.Parse(text)
	if err != nil {
		return userError(err, fmt.Sprintf("`%s` is not a maze ID, so I can't start a game on it.", sanitize(text)))
	}
	if id.Width > MaxPlaySide || id.Height > MaxPlaySide {
		return userErrorf("Play works on mazes up to %d×%d tiles; this one is %d×%d. Make a smaller one with /maze.", MaxPlaySide, MaxPlaySide, id.Width, id.Height)
	}
	m, err := mazecore.Generate(id)
	if err != nil {
		return fmt.Errorf("generate %v: %w", id, err)
	}
	competition, err := gameContext(ctx, in, id)
	if err != nil {
		return err
	}
	p := newPlay(m)
	now := in.Deps.Now()
	g := store.Game{
		UserID: in.UserID(), GuildID: in.GuildID, ChannelID: in.ChannelID, MazeID: id.String(), Context: competition,
		X: p.pos.X, Y: p.pos.Y, Trail: p.trail.bits, Status: store.GamePlaying, StartedAt: now, UpdatedAt: now,
	}
	if g.ID, err = games.CreateGame(ctx, g); err != nil {
		return fmt.Errorf("start game: %w", err)
	}
	reply := gameMessage(p, g, secret)
	reply.Ephemeral = true
	if err := in.Respond.Reply(ctx, reply); err != nil {
		return fmt.Errorf("reply: %w", err)
	}
	return nil
}

// handleMove handles every button of a game message.
func handleMove(ctx context.Context, in *Interaction) error {
	games, secret, err := playDeps(in)
	if err != nil {
		return err
	}
	btn, err := parseMoveID(secret, in.MessageComponentData().CustomID, in.UserID())
	if err != nil {
		return err
	}
	g, p, err := loadGame(ctx, in, games, btn.game)
	if err != nil {
		return err
	}
	if btn.action == actMap {
		return sendMap(ctx, in, p, g)
	}
	if btn.seq != g.Seq {
		// A double click, or another process moved first: show where
		// the game is instead of applying a move meant for another state.
		return update(ctx, in, gameMessage(p, g, secret))
	}
	now := in.Deps.Now()
	prevSeq := g.Seq
	if btn.action == actGiveUp {
		g.Status, g.UpdatedAt, g.FinishedAt = store.GameGaveUp, now, now
		if err := games.FinishGame(ctx, g, prevSeq, nil); err != nil {
			return lostRace(ctx, in, games, g.ID, err)
		}
		g.Seq++
		return finalMessage(ctx, in, p, g)
	}
	if !p.move(actionDirs[btn.action]) {
		// Only a hand-made interaction presses a disabled button: show
		// the game as it is.
		return update(ctx, in, gameMessage(p, g, secret))
	}
	g.X, g.Y, g.Clicks, g.Tiles, g.Trail, g.UpdatedAt = p.pos.X, p.pos.Y, p.clicks, p.tiles, p.trail.bits, now
	if !p.won() {
		if err := games.SaveMove(ctx, g, prevSeq); err != nil {
			return lostRace(ctx, in, games, g.ID, err)
		}
		g.Seq++
		return update(ctx, in, gameMessage(p, g, secret))
	}
	g.Status, g.FinishedAt = store.GameWon, now
	finish := &store.Finish{
		UserID: g.UserID, GuildID: g.GuildID, MazeID: g.MazeID, Clicks: g.Clicks, Tiles: g.Tiles,
		Elapsed: now.Sub(g.StartedAt), FinishedAt: now, Context: g.Context,
	}
	if err := games.FinishGame(ctx, g, prevSeq, finish); err != nil {
		return lostRace(ctx, in, games, g.ID, err)
	}
	g.Seq++
	return finalMessage(ctx, in, p, g, runFinishHooks(ctx, in, *finish)...)
}

// loadGame reads a game that still takes moves from this member, and
// rebuilds its maze.
func loadGame(ctx context.Context, in *Interaction, games Games, id int64) (store.Game, *play, error) {
	g, err := games.Game(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return g, nil, errGameOver
	}
	if err != nil {
		return g, nil, fmt.Errorf("load game: %w", err)
	}
	if g.UserID != in.UserID() {
		return g, nil, errInvalidButton // the MAC already ties the button to its owner; belt and braces
	}
	if g.Status != store.GamePlaying {
		return g, nil, errGameOver
	}
	if in.Deps.Now().Sub(g.StartedAt) > gameTTL {
		return g, nil, errGameExpired
	}
	mid, err := mazecore.Parse(g.MazeID)
	if err != nil {
		return g, nil, fmt.Errorf("game %d: stored maze ID: %w", g.ID, err)
	}
	m, err := mazecore.Generate(mid)
	if err != nil {
		return g, nil, fmt.Errorf("game %d: generate %v: %w", g.ID, mid, err)
	}
	p, err := restorePlay(m, mazecore.Point{X: g.X, Y: g.Y}, g.Trail, g.Clicks, g.Tiles)
	if err != nil {
		return g, nil, fmt.Errorf("game %d: %w", g.ID, err)
	}
	return g, p, nil
}

// lostRace handles a failed write: when another click changed the game
// first, the member sees the game as it now stands.
func lostRace(ctx context.Context, in *Interaction, games Games, id int64, err error) error {
	if !errors.Is(err, store.ErrConflict) {
		return fmt.Errorf("save game %d: %w", id, err)
	}
	g, p, err := loadGame(ctx, in, games, id)
	if err != nil {
		return err
	}
	return update(ctx, in, gameMessage(p, g, in.Deps.Secret))
}

func update(ctx context.Context, in *Interaction, reply Reply) error {
	if err := in.Respond.Update(ctx, reply); err != nil {
		return fmt.Errorf("update: %w", err)
	}
	return nil
}

// showsWhole tells whether the game shows the whole maze, or a window
// around the player.
func showsWhole(m *mazecore.Maze) bool {
	return m.Width() <= AutoEmojiMaxWidth && render.FitsEmoji(m, render.DefaultTheme, render.Window{}, MaxContent-playReserve)
}

// playView is the window a game message shows: the whole maze (the zero
// Window) or playWindow tiles square around the player.
func playView(p *play) render.Window {
	if showsWhole(p.maze) {
		return render.Window{}
	}
	return render.WindowAround(p.maze, p.pos, playWindow, playWindow)
}

func playHeader(p *play) string {
	id := p.maze.ID()
	return fmt.Sprintf("🎮 **%s** %d×%d · ID `%s` · clicks %d · tiles %d", id.Algorithm.Title(), id.Width, id.Height, id, p.clicks, p.tiles)
}

// positionHint places a windowed view in the maze.
func positionHint(p *play) string {
	m := p.maze
	return fmt.Sprintf("📍 column %d of %d, row %d of %d · goal %s", p.pos.X+1, m.Width(), p.pos.Y+1, m.Height(), compass(p.pos, m.Goal()))
}

// gameMessage shows a game in progress: header, grid (with a position hint
// when windowed) and the controls.
func gameMessage(p *play, g store.Game, secret []byte) Reply {
	pos := p.pos
	win := playView(p)
	grid := render.EmojiString(p.maze, render.DefaultTheme, render.Overlay{Trail: p.trail.points(), Player: &pos}, win)
	content := playHeader(p) + "\n" + grid
	if win != (render.Window{}) {
		content += "\n" + positionHint(p)
	}
	return Reply{Content: content, Components: gameButtons(p, g, secret, win != (render.Window{}))}
}

func gameButtons(p *play, g store.Game, secret []byte, windowed bool) []discordgo.MessageComponent {
	button := func(action byte, emoji, label string, style discordgo.ButtonStyle, disabled bool) discordgo.MessageComponent {
		return discordgo.Button{
			CustomID: moveCustomID(secret, g.ID, g.Seq, action, g.UserID),
			Label:    label, Style: style, Disabled: disabled,
			Emoji: &discordgo.ComponentEmoji{Name: emoji},
		}
	}
	arrow := func(action byte, emoji string) discordgo.MessageComponent {
		return button(action, emoji, "", discordgo.PrimaryButton, !p.canGo(actionDirs[action]))
	}
	extra := []discordgo.MessageComponent{}
	if windowed {
		extra = append(extra, button(actMap, "🗺️", "Map", discordgo.SecondaryButton, false))
	}
	extra = append(extra, button(actGiveUp, "🏳️", "Give up", discordgo.DangerButton, false))
	return []discordgo.MessageComponent{
		discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			arrow(actWest, "⬅️"), arrow(actNorth, "⬆️"), arrow(actSouth, "⬇️"), arrow(actEast, "➡️"),
		}},
		discordgo.ActionsRow{Components: extra},
	}
}

// finalMessage replaces the game message with its result and no buttons.
// A maze too big to show whole also gets the full picture as a PNG, in a
// message of its own so that the edit stays small and fast.
func finalMessage(ctx context.Context, in *Interaction, p *play, g store.Game, extra ...string) error {
	pos := p.pos
	ov := render.Overlay{Trail: p.trail.points(), Player: &pos}
	var result string
	if g.Status == store.GameWon {
		result = fmt.Sprintf("🏁 Solved in %d clicks · %d tiles walked · %s · efficiency %d %%",
			p.clicks, p.tiles, formatElapsed(g.FinishedAt.Sub(g.StartedAt)), efficiency(shortestTiles(p.maze), p.tiles))
	} else {
		result = fmt.Sprintf("🏳️ You gave up after %d clicks and %d tiles.", p.clicks, p.tiles)
		// Giving up must not reveal what /solve holds back: the maze of a
		// running daily or event would then be easy to finish again.
		var held *UserError
		switch err := solutionGuard(ctx, in, p.maze.ID()); {
		case errors.As(err, &held):
			result += " " + held.Message
		case err != nil:
			return err
		default:
			ov.Path = mazecore.Solve(p.maze)
			result += fmt.Sprintf(" The solution is %s, your trail %s.", render.DefaultTheme.Path, render.DefaultTheme.Trail)
		}
	}
	win := render.Window{}
	if !showsWhole(p.maze) {
		win = render.WindowAround(p.maze, p.pos, playWindow, playWindow)
	}
	for _, line := range extra {
		result += "\n" + line
	}
	content := playHeader(p) + "\n" + result + "\n" + render.EmojiString(p.maze, render.DefaultTheme, ov, win)
	if utf8.RuneCountInString(content) > MaxContent {
		return fmt.Errorf("game %d: final message of %d code points", g.ID, utf8.RuneCountInString(content))
	}
	if err := update(ctx, in, Reply{Content: content, Components: []discordgo.MessageComponent{}}); err != nil {
		return err
	}
	if win == (render.Window{}) {
		return nil
	}
	file, err := pngFile(p.maze, fmt.Sprintf("maze-%s-game-%d.png", g.MazeID, g.ID), ov)
	if err != nil {
		return err
	}
	if err := in.Respond.Followup(ctx, Reply{Content: "🗺️ The whole maze, with your trail.", Files: []File{file}, Ephemeral: true}); err != nil {
		return fmt.Errorf("followup: %w", err)
	}
	return nil
}

// sendMap answers the Map button with a new private message holding the
// whole maze, the trail and the player as a PNG. The game message stays.
func sendMap(ctx context.Context, in *Interaction, p *play, g store.Game) error {
	pos := p.pos
	file, err := pngFile(p.maze, fmt.Sprintf("maze-%s-game-%d-map.png", g.MazeID, g.ID), render.Overlay{Trail: p.trail.points(), Player: &pos})
	if err != nil {
		return err
	}
	reply := Reply{
		Content:   fmt.Sprintf("🗺️ Your game on `%s` after %d clicks: you are the blue dot, your trail light blue.", g.MazeID, p.clicks),
		Files:     []File{file},
		Ephemeral: true,
	}
	if err := in.Respond.Reply(ctx, reply); err != nil {
		return fmt.Errorf("reply: %w", err)
	}
	return nil
}
