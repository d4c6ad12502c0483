package e2e

import (
	"fmt"
	"strings"
	"testing"

	"mazebot/internal/pgtest"
)

// TestE2EPostgres runs the bot on PostgreSQL (MAZEBOT_DB a postgres://
// URL): a game survives a restart, its buttons signed with the key kept in
// the database, and the log names the store without the URL's password.
func TestE2EPostgres(t *testing.T) {
	t.Parallel()
	fake := newDiscord(t)
	dsn := pgtest.Schema(t)
	app := fake.testPlaySurvivesRestart(t, dsn)
	logs := app.logs.String()
	if want := fmt.Sprintf("store=postgres db=%q", redactDSN(dsn)); !strings.Contains(logs, want) {
		t.Fatalf("logs lack %q:\n%s", want, logs)
	}
}
