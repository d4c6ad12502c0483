package codec

import (
	"errors"
	"fmt"
	"time"

	"mazebot/play"
)

// Row is a pointer to one of the row structs: PR is *R.
type Row[R any] interface {
	*R
	Dest() []any
}

// Rows is what both drivers' result sets offer (*sql.Rows, pgx.Rows).
type Rows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
}

// One scans a query's single row into R and converts it. scan is the
// driver's Scan of that row; its noRows error becomes play.ErrNotFound
// (contest's too).
func One[T, R any, PR Row[R]](scan func(dest ...any) error, noRows error, conv func(R) (T, error)) (T, error) {
	var r R
	if err := scan(PR(&r).Dest()...); err != nil {
		var zero T
		if errors.Is(err, noRows) {
			err = play.ErrNotFound
		}
		return zero, err
	}
	return conv(r)
}

// All scans every row of rows into R and converts it. The caller closes
// rows.
func All[T, R any, PR Row[R]](rows Rows, conv func(R) (T, error)) ([]T, error) {
	var out []T
	for rows.Next() {
		var r R
		if err := rows.Scan(PR(&r).Dest()...); err != nil {
			return nil, err
		}
		v, err := conv(r)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// The ranking queries, in SQL that SQLite and PostgreSQL both speak, with
// ? placeholders (store/postgres numbers them). The ranking rule is one,
// so its text is one: the stores can't rank alike by accident only.
const (
	// BestRunsSQL picks each member's best run of one contest up to a
	// time: the finishes are all kept, rankings read the best. It selects
	// RunRow's columns.
	BestRunsSQL = `
		SELECT user_id, elapsed_ms, tiles, clicks, finished_at FROM (
			SELECT user_id, elapsed_ms, tiles, clicks, finished_at, id,
				row_number() OVER (PARTITION BY user_id ORDER BY elapsed_ms, tiles, finished_at, id) AS n
			FROM finishes
			WHERE context = ? AND finished_at <= ?
		) AS runs
		WHERE n = 1
		ORDER BY elapsed_ms, tiles, finished_at, id`

	// DailyTotalsSQL sums the best run of each day: daily keys sort by
	// date within a server (byte by byte), so a range of days is a range
	// of keys. It selects TotalRow's columns; PostgreSQL's sums are
	// numeric, hence the casts.
	DailyTotalsSQL = `
		WITH best AS (
			SELECT user_id, elapsed_ms, tiles, finished_at,
				row_number() OVER (PARTITION BY context, user_id ORDER BY elapsed_ms, tiles, finished_at, id) AS n
			FROM finishes WHERE context BETWEEN ? AND ?)
		SELECT user_id, count(*), CAST(sum(elapsed_ms) AS bigint), CAST(sum(tiles) AS bigint)
		FROM best WHERE n = 1
		GROUP BY user_id
		ORDER BY count(*) DESC, sum(elapsed_ms), sum(tiles), max(finished_at), user_id`

	// SolvedDatesSQL lists a member's days of one server, newest first:
	// its daily keys are a range of contexts. It selects a DailyKeyRow.
	SolvedDatesSQL = `
		SELECT DISTINCT context FROM finishes
		WHERE context BETWEEN ? AND ? AND user_id = ?
		ORDER BY 1 DESC`
)

// Secret is the stores' Secret over their own SQL: the value read under
// key; else generate's, offered to insertNew (which stores it unless a
// value is there: another process may have stored one meanwhile), then
// read back, so that racing processes all get whichever was stored first.
// read fails with noRows when there is no value.
func Secret(key string, read func() ([]byte, error), noRows error, insertNew func([]byte) error, generate func() ([]byte, error)) ([]byte, error) {
	v, err := read()
	if err == nil {
		return v, nil
	}
	if !errors.Is(err, noRows) {
		return nil, fmt.Errorf("setting %q: %w", key, err)
	}
	fresh, err := generate()
	if err != nil {
		return nil, fmt.Errorf("setting %q: generate: %w", key, err)
	}
	if len(fresh) == 0 {
		return nil, fmt.Errorf("setting %q: generated an empty value", key)
	}
	if err := insertNew(fresh); err != nil {
		return nil, fmt.Errorf("setting %q: %w", key, err)
	}
	if v, err = read(); err != nil {
		return nil, fmt.Errorf("setting %q: %w", key, err)
	}
	return v, nil
}

// ClaimIdentify is the stores' ClaimIdentify over their own SQL: claim
// runs ClaimIdentifySQL and reports whether it changed a row; last runs
// LastIdentifySQL.
func ClaimIdentify(bucket int, at time.Time, window time.Duration, claim func(bucket int, at, window int64) (bool, error), last func(bucket int) (int64, error)) (free time.Time, ok bool, err error) {
	if bucket < 0 {
		return time.Time{}, false, fmt.Errorf("claim identify: bucket %d is negative", bucket)
	}
	if ok, err = claim(bucket, Millis(at), window.Milliseconds()); err != nil {
		return time.Time{}, false, fmt.Errorf("claim identify of bucket %d: %w", bucket, err)
	}
	if ok {
		return at.Add(window), true, nil
	}
	ms, err := last(bucket)
	if err != nil {
		return time.Time{}, false, fmt.Errorf("claim identify of bucket %d: %w", bucket, err)
	}
	return Time(ms).Add(window), false, nil
}
