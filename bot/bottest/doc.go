// Package bottest is for testing Discord features without Discord, as
// net/http/httptest is for handlers: a Recorder in place of the REST
// responder keeps every answer a handler gives.
//
// It is imported only by tests (of bot, commands and what builds on
// them); it imports bot and discordgo's types, nothing of the wiring.
package bottest
