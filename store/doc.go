// Package store is the home of mazebot's storage adapters. Each one, in a
// package of its own named after what it wraps, implements the store
// interfaces that the domain packages declare: play.Store,
// contest.DailyStore, contest.EventStore and contest.Posts, and the bot's
// ReplayGuard, which remembers the interactions already handled.
//
//   - store/sqlite: embedded SQLite (modernc.org/sqlite, pure Go), the
//     default that needs nothing.
//
// store/storetest holds the contract suite that every adapter's tests run
// (storetest.Run), so all of them behave alike; it is imported by tests
// only.
//
// The domain never imports an adapter; only main wires one in.
package store
