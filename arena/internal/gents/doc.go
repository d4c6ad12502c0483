// Command gents generates arena/web/src/protocol.ts, the Maze Arena
// client's types of the WebSocket's messages, from the Go types of
// arena/protocol.go.
package main
