// Package metrics is what mazebot's parts report about themselves:
// interactions handled, shards connected, the render queue, store errors.
// Each part takes the small interface it reports into (Interactions,
// Render, Store), so it can be handed Nop, a test recorder, or the
// Prometheus implementation in metrics/prom, which main wires in when
// METRICS_ADDR is set.
//
// It imports only the standard library, so any package may depend on it:
// commands and bot report here without importing Prometheus.
package metrics
