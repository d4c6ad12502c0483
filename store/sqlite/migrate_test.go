package sqlite_test

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"mazebot/contest"
	"mazebot/mazecore"
	"mazebot/store/sqlite"
)

// TestDailyDifficultyMigration: a server set up before dailies had a
// difficulty and loops reads back as any and 0 after the upgrade, so its
// dailies stay the mazes they were; new settings round-trip.
func TestDailyDifficultyMigration(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "mazebot.db")
	db, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	// Back to the schema before 0007, with a row its bot wrote.
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`ALTER TABLE daily_configs DROP COLUMN difficulty`,
		`ALTER TABLE daily_configs DROP COLUMN loops`,
		`DELETE FROM migrations WHERE name = '0007_daily_difficulty.sql'`,
		`INSERT INTO daily_configs (guild_id, channel_id, post_at, time_zone, algorithm, size, enabled, updated_at)
			VALUES ('g1', 'ch1', '09:00', 'Asia/Seoul', 'sidewinder', 31, 1, 1000)`,
	} {
		if _, err := raw.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	raw.Close()

	db, err = sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	old, err := db.DailySettings(ctx, "g1")
	if err != nil {
		t.Fatal(err)
	}
	if old.Difficulty != mazecore.AnyLevel || old.Loops != 0 || old.Algorithm != mazecore.Sidewinder || old.Size != 31 || !old.Enabled {
		t.Fatalf("upgraded settings %+v, want sidewinder 31, any, loops 0, enabled", old)
	}

	s := contest.DailySettings{GuildID: "g2", ChannelID: "ch2", PostAt: 18 * 60, Zone: time.UTC, Algorithm: mazecore.Digging, Size: 41,
		Difficulty: mazecore.Hard, Loops: 30, Enabled: true, UpdatedAt: time.UnixMilli(2000).UTC()}
	if err := db.SaveDailySettings(ctx, s); err != nil {
		t.Fatal(err)
	}
	enabled, err := db.EnabledDailies(ctx)
	if err != nil || len(enabled) != 2 {
		t.Fatalf("EnabledDailies=%+v, %v; want g1 and g2", enabled, err)
	}
	if got := enabled[1]; got.Difficulty != mazecore.Hard || got.Loops != 30 || got.Algorithm != mazecore.Digging || got.Zone.String() != "UTC" {
		t.Fatalf("read back %+v, want %+v", got, s)
	}

	s.Loops = mazecore.MaxLoops + 1
	if err := db.SaveDailySettings(ctx, s); !errors.Is(err, mazecore.ErrLoopsOutOfRange) {
		t.Fatalf("loops %d saved: %v, want ErrLoopsOutOfRange", s.Loops, err)
	}
}
