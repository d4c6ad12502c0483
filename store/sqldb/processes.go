package sqldb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// What the bot processes sharing a database agree on: the key that signs
// play buttons, the interactions already handled, the turns to identify.

// Secret returns the value stored under key in settings, creating it with
// generate the first time. Processes racing to create it all end up with
// the value of whichever inserted first: the insert stores nothing when a
// value is there (ON CONFLICT waits for a racing insert to commit), and
// the value is read back after it.
func (s *Store) Secret(ctx context.Context, key string, generate func() ([]byte, error)) ([]byte, error) {
	return call(s, ctx, "Secret", fmt.Sprintf("setting %q", key), writes, func(q q) ([]byte, error) {
		read := func() (v []byte, err error) {
			return v, q.row(`SELECT value FROM settings WHERE key = ?`, key).Scan(&v)
		}
		v, err := read()
		if !errors.Is(err, sql.ErrNoRows) {
			return v, err
		}
		fresh, err := generate()
		if err != nil {
			return nil, fmt.Errorf("generate: %w", err)
		}
		if len(fresh) == 0 {
			return nil, errors.New("generated an empty value")
		}
		if _, err := q.exec(`INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING`, key, fresh); err != nil {
			return nil, err
		}
		return read()
	})
}

// FirstSeen records that the interaction id arrived at, and reports whether
// it is new: true for exactly one caller per id, in whichever process,
// until ForgetSeen removes it. One statement, so racing callers cannot both
// win.
func (s *Store) FirstSeen(ctx context.Context, id string, at time.Time) (bool, error) {
	return call(s, ctx, "FirstSeen", "first seen "+id, writes, func(q q) (bool, error) {
		if id == "" {
			return false, errors.New("empty interaction id")
		}
		n, err := q.changed(`INSERT INTO seen_interactions (id, seen_at) VALUES (?, ?) ON CONFLICT (id) DO NOTHING`, id, millis(at))
		return n == 1, err
	})
}

// forgetSeenSQL deletes the interactions seen before a time; a constant
// so the tests can check its plan.
const forgetSeenSQL = `DELETE FROM seen_interactions WHERE seen_at < ?`

// ForgetSeen deletes the interactions seen before before and returns how
// many it deleted.
func (s *Store) ForgetSeen(ctx context.Context, before time.Time) (int64, error) {
	return call(s, ctx, "ForgetSeen", fmt.Sprintf("forget interactions seen before %v", before), writes, func(q q) (int64, error) {
		return q.changed(forgetSeenSQL, millis(before))
	})
}

// ClaimIdentify gives the caller bucket's turn to identify at at, when the
// bucket's last turn was window or more before, or is more than window
// ahead of at (written by a process whose clock runs ahead: waiting for it
// would cost the whole skew, at every start); otherwise it reports when
// that turn's window ends. The claim is one statement, which writes the
// time unless the bucket's last turn lies within the window either side,
// so of processes racing for a turn exactly one gets it.
func (s *Store) ClaimIdentify(ctx context.Context, bucket int, at time.Time, window time.Duration) (time.Time, bool, error) {
	type turn struct {
		free time.Time
		ok   bool
	}
	t, err := call(s, ctx, "ClaimIdentify", fmt.Sprintf("claim identify of bucket %d", bucket), writes, func(q q) (turn, error) {
		if bucket < 0 {
			return turn{}, errors.New("the bucket is negative")
		}
		n, err := q.changed(`
			INSERT INTO identify_turns (bucket, identified_at) VALUES (?, ?)
			ON CONFLICT (bucket) DO UPDATE SET identified_at = excluded.identified_at
			WHERE identify_turns.identified_at <= excluded.identified_at - ?
				OR identify_turns.identified_at > excluded.identified_at + ?`,
			bucket, millis(at), window.Milliseconds(), window.Milliseconds())
		if err != nil || n == 1 {
			return turn{at.Add(window), n == 1}, err
		}
		var last int64
		err = q.row(`SELECT identified_at FROM identify_turns WHERE bucket = ?`, bucket).Scan(&last)
		return turn{timeOf(last).Add(window), false}, err
	})
	return t.free, t.ok, err
}

// CommandGuilds lists the servers given mazebot's commands of their own.
func (s *Store) CommandGuilds(ctx context.Context) ([]string, error) {
	return call(s, ctx, "CommandGuilds", "command guilds", reads, func(q q) ([]string, error) {
		return all(q, func(r guildIDRow) (string, error) { return r.GuildID, nil }, `SELECT guild_id FROM command_guilds ORDER BY guild_id`)
	})
}

// AddCommandGuild records that a server was given mazebot's commands of
// its own at at.
func (s *Store) AddCommandGuild(ctx context.Context, guildID string, at time.Time) error {
	return do(s, ctx, "AddCommandGuild", "add command guild "+guildID, writes, func(q q) error {
		_, err := q.exec(`INSERT INTO command_guilds (guild_id, synced_at) VALUES (?, ?)
			ON CONFLICT (guild_id) DO UPDATE SET synced_at = excluded.synced_at`, guildID, millis(at))
		return err
	})
}

// RemoveCommandGuild forgets a server's own commands, once removed.
func (s *Store) RemoveCommandGuild(ctx context.Context, guildID string) error {
	return do(s, ctx, "RemoveCommandGuild", "remove command guild "+guildID, writes, func(q q) error {
		_, err := q.exec(`DELETE FROM command_guilds WHERE guild_id = ?`, guildID)
		return err
	})
}
