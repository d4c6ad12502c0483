package contest

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"time"
)

// The posts no member asked for (a server's daily, an event's maze, board,
// results and solution) are made exactly once, whatever fails, by one
// protocol:
//
//   - A claim in the store says which attempt makes a post, and since
//     when. A claim older than its retry delay may be taken over, by this
//     process or another: after a crash, an error, or a post that hangs.
//   - Every attempt, from any process, sends the same nonce, derived from
//     what is posted. Discord answers a create whose nonce it saw in the
//     channel a few minutes before with the message it already made, so a
//     retry of a post that did land (a 5xx after Discord processed it, a
//     crash before the answer was recorded) makes no second message, and
//     two processes racing on one post make one.
//   - The store records each post once made; what is recorded is never
//     made again.
//
// Discord keeps a nonce for a few minutes only, so retries come quickly:
// RetryAfter after a failure or a crash, doubling up to RetryMax.

// ErrRefused: the channel refuses the bot (it cannot see it, or may not
// post there, or the channel is gone). Trying again soon won't help; an
// Announcer wraps it in such errors.
var ErrRefused = errors.New("the channel refuses the bot's posts")

// ErrPostsPending: an event ended, but some of its closing posts could
// not be made yet; a later tick makes them.
var ErrPostsPending = errors.New("some posts are not made yet")

// The retry policy of those posts.
const (
	// RetryAfter is how long a claim holds after its first attempt: a
	// failed or interrupted post is tried again after it, at the next tick.
	// Shorter than Discord's nonce window, so the retry of a post that
	// landed is recognised.
	RetryAfter = 15 * time.Second
	// RetryMax bounds the doubling of the delay between attempts.
	RetryMax = 10 * time.Minute
	// RefusedRetryAfter is the delay once a channel has refused the bot:
	// a human has to fix its permissions first.
	RefusedRetryAfter = 5 * time.Minute
	// MaxAttempts bounds the attempts of one post through transient
	// failures (about two and a half hours of them), and MaxRefusals the
	// attempts a channel refuses: a channel the bot cannot post to is not
	// tried all day.
	MaxAttempts = 20
	MaxRefusals = 3
)

// retryDelay is how long the claim of attempt number attempts holds.
func retryDelay(attempts, refused int) time.Duration {
	if refused > 0 {
		return RefusedRetryAfter
	}
	d := RetryAfter
	for i := 1; i < attempts && d < RetryMax; i++ {
		d *= 2
	}
	return min(d, RetryMax)
}

// exhausted tells whether a post has used up its attempts.
func exhausted(attempts, refused int) bool {
	return attempts >= MaxAttempts || refused >= MaxRefusals
}

// mayRetry tells whether a post claimed attempts times, refused times
// by its channel, may be claimed again at now.
func mayRetry(attempts, refused int, claimedAt, now time.Time) bool {
	return !exhausted(attempts, refused) && now.Sub(claimedAt) >= retryDelay(attempts, refused)
}

// nonce is the message nonce of the post named key. Discord takes at most
// 25 characters, so the key is hashed: 96 bits in 24 hex digits.
func nonce(key string) string {
	sum := sha256.Sum256([]byte("mazebot post|" + key))
	return hex.EncodeToString(sum[:12])
}
