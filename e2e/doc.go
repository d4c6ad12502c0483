// Package e2e holds mazebot's end-to-end tests: black-box tests of the
// whole bot (app.Build's wiring: store, commands, bot, discordgo) and of
// the real binary, each against a fake Discord of its own
// (internal/fakediscord, driven as members with fakediscord/member) over
// real HTTP and websockets, in parallel. caddy's caddytest/integration
// and WTF Dial's cmd/wtfd/main_test.go are the models.
//
// The package has no code besides this file: only tests. Each test starts
// its own fake Discord (newDiscord), its apps (startApp, launch) or
// processes (startProcess) on a fresh database, and its own clock
// (useClock), so none shares state with another. What the tests use of the
// bot's insides besides app — test-only commands, the store, the
// languages — is in internal_test.go alone.
//
// It may import app, the domain (mazecore, play, contest), render for
// picture sizes, internal/fakediscord, internal/testkit and internal/pgtest;
// commands (commands/lang too), store and bot only from internal_test.go
// (TestInsidesOnlyInInternal holds it). Nothing imports it.
package e2e
