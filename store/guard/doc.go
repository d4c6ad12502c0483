// Package guard wraps a mazebot store so that a database that stops
// answering cannot hold up the bot: every call gets a deadline (Timeout,
// well inside an interaction's 15 s for a deferred reply, so the member
// still hears an apology), and every failure that is not one of the
// contract's answers (not found, conflict) is reported to a
// metrics.Store.
//
// It works on any adapter (store/sqlite, or another with the same
// methods) through the domain's store interfaces; it imports the domain
// and metrics, never an adapter, Discord or Prometheus.
package guard
