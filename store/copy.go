package store

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"mazebot/store/sqldb"
	"mazebot/store/sqlite"
)

// ErrNotEmpty is Copy's refusal to overwrite a target that holds rows.
var ErrNotEmpty = errors.New("the target database is not empty")

// tables is the table access Copy moves rows through (sqldb.Store's).
type tables interface {
	// Tables lists every table but the migrations bookkeeping, each with
	// its columns in order.
	Tables(ctx context.Context) (map[string][]string, error)
	ReadTables(ctx context.Context, fn func(sqldb.TableReader) error) error
	WriteTables(ctx context.Context, fn func(sqldb.TableWriter) error) error
}

// TableCount is how many rows Copy copied into a table.
type TableCount struct {
	Table string
	Rows  int64
}

// Copy copies every table of the database at from into the one at to
// (each a DSN as Open takes), so that a server moving from SQLite to
// PostgreSQL keeps its games, results, streaks, dailies, events and its
// button key. Rows keep their keys; the migrations bookkeeping is each
// database's own. Both databases are opened, and so migrated, first; a
// SQLite file must already be there to copy from.
//
// The target is written in one transaction that keeps other writers out,
// from one snapshot of the source: a failed copy leaves the target as it
// was. A target with rows in any table is refused with ErrNotEmpty unless
// force, which replaces every row: copying again gives the same target.
// It reports the rows copied into each table, in name order.
func Copy(ctx context.Context, to, from string, force bool) ([]TableCount, error) {
	if sameDatabase(to, from) {
		return nil, errors.New("copy a database onto itself: the source and the target are one")
	}
	if Kind(from) == SQLite && from != sqlite.Memory {
		if _, err := os.Stat(from); err != nil {
			return nil, fmt.Errorf("copy from %s: %w", Redact(from), err) // not created empty by opening it
		}
	}
	src, err := open(ctx, from)
	if err != nil {
		return nil, err
	}
	defer src.Close()
	dst, err := open(ctx, to)
	if err != nil {
		return nil, err
	}
	defer dst.Close()

	names, columns, err := sameTables(ctx, src, dst)
	if err != nil {
		return nil, err
	}
	var counts []TableCount
	err = dst.WriteTables(ctx, func(w sqldb.TableWriter) error {
		if !force {
			if err := empty(w, names); err != nil {
				return err
			}
		}
		return src.ReadTables(ctx, func(r sqldb.TableReader) error {
			for _, t := range names {
				n, err := w.Replace(t, columns[t], r.Rows(t, columns[t]))
				if err != nil {
					return err
				}
				counts = append(counts, TableCount{Table: t, Rows: n})
			}
			return nil
		})
	})
	if err != nil {
		return nil, scrub(scrub(fmt.Errorf("copy %s to %s: %w", Redact(from), Redact(to), err), from), to)
	}
	return counts, nil
}

// sameDatabase tells whether two DSNs name one database: the same text, or
// one SQLite file by two paths.
func sameDatabase(a, b string) bool {
	if a == b {
		return true
	}
	if Kind(a) != SQLite || Kind(b) != SQLite {
		return false
	}
	absA, errA := filepath.Abs(a)
	absB, errB := filepath.Abs(b)
	return errA == nil && errB == nil && absA == absB
}

// sameTables returns the tables of src and dst, in name order, with src's
// columns, if the two have the same tables and columns: databases of two
// mazebot versions whose migrations differ can't be copied across.
func sameTables(ctx context.Context, src, dst tables) ([]string, map[string][]string, error) {
	from, err := src.Tables(ctx)
	if err != nil {
		return nil, nil, err
	}
	to, err := dst.Tables(ctx)
	if err != nil {
		return nil, nil, err
	}
	var diffs []string
	for t, cols := range from {
		if _, ok := to[t]; !ok {
			diffs = append(diffs, "table "+t+" only in the source")
			continue
		}
		for _, c := range cols {
			if !slices.Contains(to[t], c) {
				diffs = append(diffs, "column "+t+"."+c+" only in the source")
			}
		}
		for _, c := range to[t] {
			if !slices.Contains(cols, c) {
				diffs = append(diffs, "column "+t+"."+c+" only in the target")
			}
		}
	}
	for t := range to {
		if _, ok := from[t]; !ok {
			diffs = append(diffs, "table "+t+" only in the target")
		}
	}
	if len(diffs) > 0 {
		slices.Sort(diffs)
		return nil, nil, fmt.Errorf("the databases' schemas differ (%s): run the same mazebot version on both", strings.Join(diffs, "; "))
	}
	return slices.Sorted(maps.Keys(from)), from, nil
}

// empty fails with ErrNotEmpty, naming the tables that hold rows, unless
// none does.
func empty(w sqldb.TableWriter, names []string) error {
	var full []string
	for _, t := range names {
		n, err := w.Count(t)
		if err != nil {
			return err
		}
		if n > 0 {
			full = append(full, fmt.Sprintf("%s: %d rows", t, n))
		}
	}
	if len(full) > 0 {
		return fmt.Errorf("%w (%s)", ErrNotEmpty, strings.Join(full, ", "))
	}
	return nil
}
