// Package prom implements the metrics interfaces with
// github.com/prometheus/client_golang, on a registry of its own, and
// serves them in the Prometheus text format. main wires it in when
// METRICS_ADDR is set.
//
// It imports metrics and Prometheus; nothing of mazebot's imports it but
// main.
package prom
