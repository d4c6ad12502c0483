// Package throttle bounds heavy work: a pool of workers whose queue stops
// short of a deadline, a cache of results bounded by bytes, and a per-key
// cooldown. It knows nothing of what the work is; package commands uses it
// for the pictures of big mazes.
//
// It imports the standard library only.
package throttle
