// Package bottest is for testing Discord features without Discord, as
// net/http/httptest is for handlers: a Recorder in place of the REST
// responder keeps every answer a handler gives, Guard is a replay guard in
// memory, and the checks of the command definitions (Validate,
// CheckEnglish, CheckMentions, CheckOptionMentions, CheckDefinitions for
// all four, CheckLocales) hold the real definitions to Discord's rules and
// to the catalogs.
//
// It is imported only by tests (of bot, commands, e2e and what builds on
// them), never by the binary (arch_test.go's TestBinaryLinksNoTestHelper);
// it imports bot, lang and discordgo's types, nothing of the wiring.
package bottest
