package codec

import "iter"

// TableReader reads a database's tables, all in one snapshot: what
// `mazebot store copy` copies from.
type TableReader interface {
	// Rows yields the rows of table, each with its values in the order
	// of columns: int64 (or a narrower integer), string, []byte or bool.
	Rows(table string, columns []string) iter.Seq2[[]any, error]
}

// TableWriter changes a database's tables, all in one transaction that
// keeps other writers out: what `mazebot store copy` copies into.
type TableWriter interface {
	// Count counts the rows of table.
	Count(table string) (int64, error)
	// Replace deletes every row of table and inserts those of rows, each
	// with its values in the order of columns, and reports how many it
	// inserted. Keys are kept as they come; the next key made after is
	// past them all.
	Replace(table string, columns []string, rows iter.Seq2[[]any, error]) (int64, error)
}
