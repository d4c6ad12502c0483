// Package pgbus is Maze Arena's bus for a bot of several processes on
// PostgreSQL: the rooms' inputs in one total order for every process
// (LISTEN/NOTIFY announcing rows of one table, so that a lost
// notification is read again and a message is not bound by NOTIFY's
// payload). It implements arena.Bus without importing it: the storage
// wing holds the database connections, and arena imports no pgx.
package pgbus
