package views

import "mazebot/play"

// Limits of what the bot shows in Discord.
const (
	// MaxText is Discord's limit on the text displays of a Components V2
	// message, all of them together, in code points: what an emoji grid,
	// its header and its lines share.
	MaxText = 4000
	// PhoneRow is the most emoji a row of a card holds on a phone without
	// wrapping, and a wrapped grid is unreadable. Discord draws an emoji
	// in text at 1.375 em (22 px at its 16 px text) with 0.15 em of
	// margins: 24.4 px a tile. On a 360 dp phone in portrait, the
	// narrowest common one, the message column starts 72 dp in (avatar
	// and gutters) and ends 16 dp from the edge, and a card's padding
	// takes 2 × 16 dp: 240 dp, room for 9 tiles (an odd side) with 20 dp
	// to spare. A 390 dp phone would fit 11.
	PhoneRow = 9
	// AutoEmojiMaxWidth is the widest maze render:auto shows as emoji;
	// wider ones are a picture.
	AutoEmojiMaxWidth = PhoneRow
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
	// DifficultyMaxCells bounds the cells of a maze on another grid or in
	// a shape that a difficulty is chosen for: the cells of the largest
	// square one (100×100), for about the same cost.
	DifficultyMaxCells = (DifficultyMaxSide / 2) * (DifficultyMaxSide / 2)
)
