package views

import "mazebot/play"

// Limits of what the bot shows in Discord.
const (
	// MaxText is Discord's limit on the text displays of a Components V2
	// message, all of them together, in code points: what an emoji grid,
	// its header and its lines share.
	MaxText = 4000
	// AutoEmojiMaxWidth is the widest maze render:auto shows as emoji. A
	// phone in portrait fits about 25 emoji on a line before wrapping, and a
	// wrapped grid is unreadable, so wider mazes become a PNG.
	AutoEmojiMaxWidth = 25
	// MaxEmojiSide is the largest side an emoji grid can show in one
	// message (61×61 with newlines is 3,781 code points, room left for its
	// header).
	MaxEmojiSide = 61
	// PNGMaxSide is the largest side drawn as a PNG; 1001 tiles at the
	// automatic scale stays far below the 10 MiB upload limit.
	PNGMaxSide = 1001
	// DifficultyMaxSide is the largest side a difficulty is chosen for.
	// Choosing makes and rates mazecore.Candidates mazes: about 40 ms at
	// 201×201, growing with the area to about a second at 1001×1001,
	// which would be a second of CPU for anyone's /maze. 201 is also the
	// largest maze Play takes, and difficulty is about playing.
	DifficultyMaxSide = play.MaxSide
)
