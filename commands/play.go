package commands

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base32"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"mazebot/commands/lang"
	"mazebot/contest"
	"mazebot/mazecore"
	"mazebot/play"
	"mazebot/render"
)

const (
	// playWindow is the side of the emoji window shown around the player
	// on a maze too big to show whole.
	playWindow = 15
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

// macLength characters of base32 carry 50 bits: guessing one takes about
// 10^15 clicks, each a rate-limited Discord interaction.
const macLength = 10

var actionDirs = map[byte]mazecore.Dir{actNorth: mazecore.North, actEast: mazecore.East, actSouth: mazecore.South, actWest: mazecore.West}

var macEncoding = base32.StdEncoding.WithPadding(base32.NoPadding)

// Contests is what play asks of the competitions: which one a new game
// counts for, what a win earns, and whether a solution is held back.
type Contests interface {
	For(ctx context.Context, guildID, channelID string, maze mazecore.ID) (contest.Key, error)
	Finish(ctx context.Context, r play.Result) (contest.Award, error)
	Embargo
}

// Play is the Play button under a maze and the buttons of a game.
type Play struct {
	games    *play.Service
	contests Contests
	// secret signs the buttons; every process sharing the store must use
	// the same one.
	secret []byte
	render *Renderer
	log    *slog.Logger
}

// NewPlay runs games in games, counting them for contests, with buttons
// signed by secret and maps drawn on render. An empty secret would make
// buttons forgeable: it is refused.
func NewPlay(games *play.Service, contests Contests, secret []byte, render *Renderer, log *slog.Logger) (*Play, error) {
	if len(secret) == 0 {
		return nil, errors.New("play: no secret to sign buttons with")
	}
	return &Play{games: games, contests: contests, secret: secret, render: render, log: log}, nil
}

func (f *Play) Commands() []Command { return nil }

func (f *Play) Components() []Component {
	return []Component{{Prefix: playPrefix, Handle: f.handlePlay}, {Prefix: movePrefix, Handle: f.handleMove}}
}

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
var errInvalidButton = refuse("error.invalid_button")

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
	errGameOver    = refuse("error.game_over")
	errGameExpired = refuse("error.game_expired", lang.Args{"Lasts": durationIn(play.TTL)})
)

// gameError turns play's refusals into what the member reads.
func gameError(err error) error {
	switch {
	case errors.Is(err, play.ErrOver):
		return errGameOver
	case errors.Is(err, play.ErrExpired):
		return errGameExpired
	case errors.Is(err, play.ErrNotYours):
		return errInvalidButton // the MAC already ties the button to its owner; belt and braces
	}
	return err
}

// handlePlay starts a game for the member who pressed Play under a maze.
func (f *Play) handlePlay(ctx context.Context, in *Interaction) error {
	_, text, _ := strings.Cut(in.MessageComponentData().CustomID, ":")
	id, err := mazecore.Parse(text)
	if err != nil {
		return refuseWith(err, "error.play_bad_id", lang.Args{"Text": sanitize(text)})
	}
	if !playable(id) {
		return refuse("error.play_too_big", lang.Args{"Max": lang.M("format.size", lang.Args{"Width": play.MaxSide, "Height": play.MaxSide}), "Size": sizeOf(id)})
	}
	m, err := generate(id)
	if err != nil {
		return err
	}
	key, err := f.contests.For(ctx, in.GuildID, in.ChannelID, id)
	if err != nil {
		return err
	}
	g, err := f.games.Start(ctx, m, play.Record{UserID: in.UserID(), GuildID: in.GuildID, ChannelID: in.ChannelID, Contest: key.String()})
	if err != nil {
		return err
	}
	reply := gameMessage(in.Lang(), g, f.secret)
	reply.Ephemeral = true
	return answer(ctx, in, reply)
}

// handleMove handles every button of a game message.
func (f *Play) handleMove(ctx context.Context, in *Interaction) error {
	btn, err := parseMoveID(f.secret, in.MessageComponentData().CustomID, in.UserID())
	if err != nil {
		return err
	}
	if btn.action == actMap {
		g, err := f.games.Load(ctx, btn.game, in.UserID())
		if err != nil {
			return gameError(err)
		}
		return f.sendMap(ctx, in, g)
	}
	action := play.Action{Kind: play.Move, Dir: actionDirs[btn.action], Seq: btn.seq}
	if btn.action == actGiveUp {
		action.Kind = play.GiveUp
	}
	g, out, err := f.games.Press(ctx, btn.game, in.UserID(), action)
	if err != nil {
		return gameError(err)
	}
	switch out {
	case play.Abandoned:
		return f.finalMessage(ctx, in, g, 0)
	case play.Finished:
		par := play.Par(g.Maze()) // once, for the result and the share lines
		return f.finalMessage(ctx, in, g, par, f.awardLines(ctx, in.Lang(), g, par)...)
	}
	// Moved; or Stale (a double click, another process moved first) and
	// Blocked (only a hand-made interaction presses a disabled button):
	// show the game as it now is.
	return update(ctx, in, gameMessage(in.Lang(), g, f.secret))
}

// showsWhole tells whether the game shows the whole maze, or a window
// around the player.
func showsWhole(m *mazecore.Maze) bool {
	return m.Width() <= AutoEmojiMaxWidth && render.FitsEmoji(m, render.DefaultTheme, render.Window{}, MaxContent-playReserve)
}

// playView is the window a game message shows: the whole maze (the zero
// Window) or playWindow tiles square around the player.
func playView(g *play.Game) render.Window {
	if showsWhole(g.Maze()) {
		return render.Window{}
	}
	return render.WindowAround(g.Maze(), g.Pos, playWindow, playWindow)
}

func playHeader(l *lang.Lang, g *play.Game) string {
	id := g.MazeID
	return l.T("play.header", lang.Args{"Algorithm": algorithmTitle(id.Algorithm), "Size": sizeOf(id), "ID": idTag(id), "Clicks": g.Clicks, "Tiles": g.Tiles})
}

// positionHint places a windowed view in the maze.
func positionHint(l *lang.Lang, g *play.Game) string {
	m := g.Maze()
	return l.T("play.position", lang.Args{"Column": g.Pos.X + 1, "Width": m.Width(), "Row": g.Pos.Y + 1, "Height": m.Height(), "Goal": compass(l, g.Pos, m.Goal())})
}

// playOverlay draws the trail and the player.
func playOverlay(g *play.Game) render.Overlay {
	pos := g.Pos
	return render.Overlay{Trail: g.Walked(), Player: &pos}
}

// gameMessage shows a game in progress: header, grid (with a position hint
// when windowed) and the controls.
func gameMessage(l *lang.Lang, g *play.Game, secret []byte) Reply {
	win := playView(g)
	grid := render.EmojiString(g.Maze(), render.DefaultTheme, playOverlay(g), win)
	content := playHeader(l, g) + "\n" + grid
	if win != (render.Window{}) {
		content += "\n" + positionHint(l, g)
	}
	return Reply{Content: content, Components: gameButtons(l, g, secret, win != (render.Window{}))}
}

func gameButtons(l *lang.Lang, g *play.Game, secret []byte, windowed bool) []discordgo.MessageComponent {
	button := func(action byte, emoji, label string, style discordgo.ButtonStyle, disabled bool) discordgo.MessageComponent {
		return discordgo.Button{
			CustomID: moveCustomID(secret, g.ID, g.Seq, action, g.UserID),
			Label:    label, Style: style, Disabled: disabled,
			Emoji: &discordgo.ComponentEmoji{Name: emoji},
		}
	}
	arrow := func(action byte, emoji string) discordgo.MessageComponent {
		return button(action, emoji, "", discordgo.PrimaryButton, !g.CanGo(actionDirs[action]))
	}
	extra := []discordgo.MessageComponent{}
	if windowed {
		extra = append(extra, button(actMap, "🗺️", l.T("button.map"), discordgo.SecondaryButton, false))
	}
	extra = append(extra, button(actGiveUp, "🏳️", l.T("button.give_up"), discordgo.DangerButton, false))
	return []discordgo.MessageComponent{
		discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			arrow(actWest, "⬅️"), arrow(actNorth, "⬆️"), arrow(actSouth, "⬇️"), arrow(actEast, "➡️"),
		}},
		discordgo.ActionsRow{Components: extra},
	}
}

// awardLines records a stored win in its contest and says what it earned:
// the share lines and the day's rank, or the event rank. Errors are
// logged; they never undo the win.
func (f *Play) awardLines(ctx context.Context, l *lang.Lang, g *play.Game, par int) []string {
	r := g.Result()
	award, err := f.contests.Finish(ctx, r)
	if err != nil {
		f.log.Error("contest finish", "maze", r.MazeID.String(), "user", r.UserID, "err", err)
		return nil
	}
	switch {
	case award.Daily != nil:
		return dailyAwardLines(l, award.Daily, r, mazecore.Rate(g.Maze()).Rating, par)
	case award.Event != nil:
		return eventAwardLines(l, award.Event)
	}
	return nil
}

// finalMessage replaces the game message with its result and no buttons:
// a won game's clicks against par (the maze's, given), a given-up game's
// solution unless it is held back. A maze too big to show whole also gets
// the full picture as a PNG, in a message of its own so that the edit
// stays small and fast.
func (f *Play) finalMessage(ctx context.Context, in *Interaction, g *play.Game, par int, extra ...string) error {
	l := in.Lang()
	ov := playOverlay(g)
	var result string
	if g.Status == play.Won {
		result = wonLine(l, g, par)
	} else {
		result = l.T("play.gave_up", lang.Args{"Clicks": lang.M("count.clicks", lang.Args{"Count": g.Clicks}), "Tiles": lang.M("count.tiles", lang.Args{"Count": g.Tiles})})
		// Giving up must not reveal what /solve holds back: the maze of a
		// running daily or event would then be easy to finish again.
		hold, err := f.contests.Held(ctx, g.MazeID, in.GuildID)
		if err != nil {
			return err
		}
		if hold.Held() {
			result += " " + heldMessage(hold, g.MazeID, in.GuildID).In(l)
		} else {
			ov.Path = mazecore.Solve(g.Maze())
			result += " " + l.T("play.legend", lang.Args{"Path": render.DefaultTheme.Path, "Trail": render.DefaultTheme.Trail})
		}
	}
	win := playView(g)
	for _, line := range extra {
		result += "\n" + line
	}
	content := playHeader(l, g) + "\n" + result + "\n" + render.EmojiString(g.Maze(), render.DefaultTheme, ov, win)
	if n := utf8.RuneCountInString(content); n > MaxContent {
		return fmt.Errorf("game %d: final message of %d code points", g.ID, n)
	}
	if err := update(ctx, in, Reply{Content: content, Components: []discordgo.MessageComponent{}}); err != nil {
		return err
	}
	if win == (render.Window{}) {
		return nil
	}
	whole, err := f.render.draw(ctx, "", func() (Reply, error) {
		file, err := pngFile(g.Maze(), fmt.Sprintf("maze-%s-game-%d.png", g.MazeID, g.ID), ov)
		return Reply{Content: l.T("play.whole_maze"), Files: []File{file}, Ephemeral: true}, err
	})
	if err != nil {
		return err
	}
	if err := in.Respond.Followup(ctx, whole); err != nil {
		return fmt.Errorf("followup: %w", err)
	}
	return nil
}

// wonLine is a won game's result: "🏁 Solved in 11 clicks (par 9, +2) ·
// 57 tiles walked · 1:42 · efficiency 100 %".
func wonLine(l *lang.Lang, g *play.Game, par int) string {
	return l.T("play.won", lang.Args{
		"Clicks":     lang.M("count.clicks", lang.Args{"Count": g.Clicks}),
		"Par":        par,
		"OverPar":    overPar(g.Clicks, par),
		"Tiles":      lang.M("count.tiles", lang.Args{"Count": g.Tiles}),
		"Time":       l.Clock(g.FinishedAt.Sub(g.StartedAt)),
		"Efficiency": play.Efficiency(play.ShortestTiles(g.Maze()), g.Tiles),
	})
}

// sendMap answers the Map button with a new private message holding the
// whole maze, the trail and the player as a PNG. The game message stays.
func (f *Play) sendMap(ctx context.Context, in *Interaction, g *play.Game) error {
	l := in.Lang()
	return f.render.answer(ctx, in, picture{ephemeral: true}, func() (Reply, error) {
		file, err := pngFile(g.Maze(), fmt.Sprintf("maze-%s-game-%d-map.png", g.MazeID, g.ID), playOverlay(g))
		return Reply{
			Content: l.T("play.map", lang.Args{"ID": g.MazeID.String(), "Clicks": lang.M("count.clicks", lang.Args{"Count": g.Clicks})}),
			Files:   []File{file},
		}, err
	})
}

// compass is the arrow from p towards q, or the word for "here".
func compass(l *lang.Lang, p, q mazecore.Point) string {
	sign := func(v int) int {
		switch {
		case v < 0:
			return 0
		case v == 0:
			return 1
		}
		return 2
	}
	arrows := [3][3]string{ // [dy][dx]
		{"↖", "↑", "↗"},
		{"←", "", "→"},
		{"↙", "↓", "↘"},
	}
	if arrow := arrows[sign(q.Y-p.Y)][sign(q.X-p.X)]; arrow != "" {
		return arrow
	}
	return l.T("play.here")
}
