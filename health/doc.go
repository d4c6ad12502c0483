// Package health serves a process's liveness and readiness for load
// balancers and orchestrators: GET /healthz answers 200 while the process
// runs; GET /readyz answers 200 when every gateway shard the process runs
// is connected and the database answers, else 503 with the reasons.
//
// It imports metrics (for ShardState) and the standard library only; the
// shards and the database come in as functions.
package health
