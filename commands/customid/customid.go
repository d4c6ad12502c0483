package customid

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base32"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"mazebot/mazecore"
	"mazebot/play"
)

// Prefixes of the custom IDs: the router routes a button by its prefix.
const (
	PlayPrefix  = "play"
	SolvePrefix = "solve"
	MovePrefix  = "mv"
	NewPrefix   = "new"
	SharePrefix = "share"
	HelpPrefix  = "help"
	RacePrefix  = "race"
	PrintPrefix = "print"
	// ArchivePrefix is the buttons of the daily's archive: Play on a past
	// day, Next unsolved.
	ArchivePrefix = "archive"
)

// The examples /help's buttons try, as Help(example) names them.
const (
	ExampleMaze  = "maze"
	ExamplePlay  = "play"
	ExampleDaily = "daily"
)

// Help is the custom ID of the button that tries one of /help's examples.
func Help(example string) string { return HelpPrefix + ":" + example }

// Play is the custom ID of the Play button of maze id.
func Play(id mazecore.ID) string { return PlayPrefix + ":" + id.String() }

// PlayFor is the custom ID of the Play button of a server's daily maze
// id sent outside the server (a reminder by DM): the game counts for that
// server's daily as Play in the server would.
func PlayFor(id mazecore.ID, guildID string) string { return Play(id) + ":" + guildID }

// ParsePlay splits what follows a Play button's prefix (Rest) into the
// maze ID's text, to be parsed by the caller, and the server a PlayFor
// button names ("" for none, or for one that is not a snowflake).
func ParsePlay(rest string) (maze, guildID string) {
	maze, guildID, _ = strings.Cut(rest, ":")
	if !IsDecimal(guildID) {
		guildID = ""
	}
	return maze, guildID
}

// The archive's buttons, after ArchivePrefix: p plays a past day, n
// shows the member's next unsolved day after one ("" for from the
// first).
const (
	archivePlay = "p"
	archiveNext = "n"
)

// ArchivePlay is the custom ID of Play on a server's past daily of date
// (YYYY-MM-DD): an unranked game of the server the button is pressed in.
func ArchivePlay(date string) string { return ArchivePrefix + ":" + archivePlay + ":" + date }

// ArchiveNext is the custom ID of Next unsolved after date ("" for the
// first unsolved day).
func ArchiveNext(after string) string { return ArchivePrefix + ":" + archiveNext + ":" + after }

// ParseArchive reads an archive button: next tells Next unsolved from
// Play, date its date's text ("" for Next from the first), to be parsed
// by the caller; ok is false for anything else.
func ParseArchive(customID string) (date string, next, ok bool) {
	parts := strings.Split(customID, ":")
	if len(parts) != 3 || parts[0] != ArchivePrefix || (parts[1] != archivePlay && parts[1] != archiveNext) {
		return "", false, false
	}
	next = parts[1] == archiveNext
	if parts[2] == "" && !next {
		return "", false, false
	}
	return parts[2], next, true
}

// Race is the custom ID of the Race button of maze id: it launches Maze
// Arena on that maze.
func Race(id mazecore.ID) string { return RacePrefix + ":" + id.String() }

// Print is the custom ID of the Print button of maze id: its PDF.
func Print(id mazecore.ID) string { return PrintPrefix + ":" + id.String() }

// Solve is the custom ID of the Solve button of maze id.
func Solve(id mazecore.ID) string { return SolvePrefix + ":" + id.String() }

// NewMaze is the custom ID of a button that starts a game on a new maze
// like id: its algorithm, size and loops, and a seed of its own.
func NewMaze(id mazecore.ID) string {
	id.Seed = 0
	return NewPrefix + ":" + id.String()
}

// Share is the custom ID of the Share button of a won game.
func Share(game int64) string { return SharePrefix + ":" + strconv.FormatInt(game, 10) }

// ParseShare reads the game of a Share button.
func ParseShare(customID string) (int64, bool) {
	text, ok := strings.CutPrefix(customID, SharePrefix+":")
	if !ok || !IsDecimal(text) {
		return 0, false
	}
	n, err := strconv.ParseInt(text, 10, 64)
	return n, err == nil && n > 0
}

// Rest is what follows a custom ID's prefix: the maze ID's text of a Play
// or Solve button, to be parsed (and refused) by the caller.
func Rest(customID string) string {
	_, rest, _ := strings.Cut(customID, ":")
	return rest
}

// SolveMaze reads the maze of a Solve button, as found on a message.
func SolveMaze(customID string) (mazecore.ID, bool) {
	text, ok := strings.CutPrefix(customID, SolvePrefix+":")
	if !ok {
		return mazecore.ID{}, false
	}
	id, err := mazecore.Parse(text)
	return id, err == nil
}

// Action is what a move button does.
type Action byte

// The actions of a game's buttons.
const (
	North  Action = 'n'
	East   Action = 'e'
	South  Action = 's'
	West   Action = 'w'
	GiveUp Action = 'g'
	Map    Action = 'm'
	// The other ways of a hex cell (north and south are North's and
	// South's) and a polar one's (play.Way).
	NorthEast     Action = 'u'
	SouthEast     Action = 'j'
	SouthWest     Action = 'h'
	NorthWest     Action = 'y'
	In            Action = 'i'
	Out           Action = 'o'
	OutClockwise  Action = 'p'
	Clockwise     Action = 'c'
	Anticlockwise Action = 'a'
)

// actions lists them, for parsing.
const actions = "neswgmujhyiopca"

// Dirs are the moves' directions on the whole square grid.
var Dirs = map[Action]mazecore.Dir{North: mazecore.North, East: mazecore.East, South: mazecore.South, West: mazecore.West}

// Ways are the moves' ways on any other grid (play.Way).
var Ways = map[Action]play.Way{
	North: play.WayNorth, East: play.WayEast, South: play.WaySouth, West: play.WayWest,
	NorthEast: play.WayNorthEast, SouthEast: play.WaySouthEast, SouthWest: play.WaySouthWest, NorthWest: play.WayNorthWest,
	In: play.WayIn, Out: play.WayOut, OutClockwise: play.WayOutClockwise, Clockwise: play.WayClockwise, Anticlockwise: play.WayAnticlockwise,
}

// WayAction is the action of a button that moves way w.
func WayAction(w play.Way) Action {
	for a, v := range Ways {
		if v == w {
			return a
		}
	}
	return 0
}

// macLength characters of base32 carry 50 bits: guessing one takes about
// 10^15 clicks, each a rate-limited Discord interaction.
const macLength = 10

var macEncoding = base32.StdEncoding.WithPadding(base32.NoPadding)

// ErrInvalid covers every move button that fails the checks: the member
// learns nothing about which field was wrong.
var ErrInvalid = errors.New("invalid button")

// Signer signs and checks move buttons under one secret, which every
// process sharing the store must use.
type Signer struct{ secret []byte }

// NewSigner signs with secret; an empty one would make buttons forgeable
// and is refused.
func NewSigner(secret []byte) (Signer, error) {
	if len(secret) == 0 {
		return Signer{}, errors.New("customid: no secret to sign buttons with")
	}
	return Signer{secret: secret}, nil
}

// mac signs one button for one member. Every field is part of the
// message, the user ID included, so a button works only for its owner.
func (s Signer) mac(game, seq, action, userID string) string {
	h := hmac.New(sha256.New, s.secret)
	fmt.Fprintf(h, "mv|%s|%s|%s|%s", game, seq, action, userID)
	return strings.ToLower(macEncoding.EncodeToString(h.Sum(nil)))[:macLength]
}

// Move is the custom ID of a game's button: action on game at seq, for
// userID.
func (s Signer) Move(game int64, seq int, action Action, userID string) string {
	g, q, a := strconv.FormatInt(game, 10), strconv.Itoa(seq), string(action)
	return strings.Join([]string{MovePrefix, g, q, a, s.mac(g, q, a, userID)}, ":")
}

// MoveButton is a verified move button.
type MoveButton struct {
	Game   int64
	Seq    int
	Action Action
}

// ParseMove checks a move button's custom ID against the member who
// pressed it: ErrInvalid unless it is a button signed for them.
func (s Signer) ParseMove(customID, userID string) (MoveButton, error) {
	parts := strings.Split(customID, ":")
	if len(parts) != 5 || parts[0] != MovePrefix || !IsDecimal(parts[1]) || !IsDecimal(parts[2]) ||
		len(parts[3]) != 1 || !strings.Contains(actions, parts[3]) || len(parts[4]) != macLength {
		return MoveButton{}, ErrInvalid
	}
	want := s.mac(parts[1], parts[2], parts[3], userID)
	if !hmac.Equal([]byte(parts[4]), []byte(want)) {
		return MoveButton{}, ErrInvalid
	}
	game, err1 := strconv.ParseInt(parts[1], 10, 64)
	seq, err2 := strconv.Atoi(parts[2])
	if err1 != nil || err2 != nil || game <= 0 {
		return MoveButton{}, ErrInvalid
	}
	return MoveButton{Game: game, Seq: seq, Action: Action(parts[3][0])}, nil
}

// IsDecimal accepts the decimal form strconv writes for a non-negative
// number (a game, a sequence number, a Discord ID), so each has exactly
// one spelling.
func IsDecimal(s string) bool {
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
