package postgres

import "github.com/jackc/pgx/v5/pgxpool"

// Hooks for the external tests: the pool for catalog checks, and the
// SQLSTATE mapping.

func Pool(db *DB) *pgxpool.Pool { return db.pool }

var IsUnique = isUnique
