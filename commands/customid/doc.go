// Package customid is where mazebot's button custom IDs are spelled and
// read, and the move buttons signed: "play:<maze ID>", "solve:<maze ID>",
// and "mv:<game>:<seq>:<action>:<mac>", whose HMAC ties a move button to
// its game, its state and its member, so nobody can forge or replay one.
// A custom ID is 1–100 characters (Discord's limit); every one made here
// is well within it.
//
// It imports mazecore and the standard library only.
package customid
