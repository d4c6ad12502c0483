package e2e

// What the end-to-end tests use of the bot's insides besides app: its
// Discord features (test-only commands, and the width past which a maze
// is pictured), its database (store, and the tables' SQL), and its
// languages (lang). Every such use is here, so a change of those
// packages' names is adapted in this file alone.

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"mazebot/app"
	"mazebot/bot"
	"mazebot/bot/bottest"
	"mazebot/commands/customid"
	"mazebot/commands/views"
	"mazebot/contest"
	"mazebot/lang"
	"mazebot/mazecore"
	"mazebot/play"
	"mazebot/store"
	"mazebot/store/storetest"
)

// ---- test-only commands ----

// testCommand is a slash command registered for one test only.
type testCommand = bot.Command

// withCommands adds cmds to the wiring's options, as one feature.
func withCommands(opts app.Options, cmds []testCommand) app.Options {
	if len(cmds) > 0 {
		opts.Extra = append(opts.Extra, testFeature(cmds))
	}
	return opts
}

// testFeature is a feature of test-only commands.
type testFeature []bot.Command

func (c testFeature) Commands() []bot.Command   { return c }
func (testFeature) Components() []bot.Component { return nil }

// panickingCommand is /name, whose handler panics: a real runtime panic,
// an index out of range.
func panickingCommand(name string) testCommand {
	return bot.Command{
		Definition: &discordgo.ApplicationCommand{Name: name, Description: "always panics"},
		Handle: func(context.Context, *bot.Interaction) error {
			var grid []int
			_ = grid[3] // index out of range: a real runtime panic
			return nil
		},
	}
}

// slowCommand is /name, which replies content after sleeping d.
func slowCommand(name string, d time.Duration, content string) testCommand {
	return bot.Command{
		Definition: &discordgo.ApplicationCommand{Name: name, Description: "takes " + d.String()},
		Handle: func(ctx context.Context, in *bot.Interaction) error {
			time.Sleep(d)
			return in.Respond.Reply(ctx, bot.Reply{Content: content})
		},
	}
}

// slowRefusal is /name, which fails after sleeping d with the error a
// member may read: "No maze has been posted in this channel yet".
func slowRefusal(name string, d time.Duration) testCommand {
	return bot.Command{
		Definition: &discordgo.ApplicationCommand{Name: name, Description: "fails after " + d.String()},
		Handle: func(ctx context.Context, in *bot.Interaction) error {
			time.Sleep(d)
			return &bot.UserError{Msg: lang.M("error.no_maze_in_channel")}
		},
	}
}

// hastyCallback is /name, which replies with a deadline of d.
func hastyCallback(name string, d time.Duration) testCommand {
	return bot.Command{
		Definition: &discordgo.ApplicationCommand{Name: name, Description: "replies with a short deadline"},
		Handle: func(ctx context.Context, in *bot.Interaction) error {
			c, cancel := context.WithTimeout(ctx, d)
			defer cancel()
			return in.Respond.Reply(c, bot.Reply{Content: "hasty"})
		},
	}
}

// hastyEdit is /name, which defers, then edits its reply with a deadline
// of d.
func hastyEdit(name string, d time.Duration) testCommand {
	return bot.Command{
		Definition: &discordgo.ApplicationCommand{Name: name, Description: "edits with a short deadline"},
		Handle: func(ctx context.Context, in *bot.Interaction) error {
			if err := in.Respond.Defer(ctx, false); err != nil {
				return err
			}
			c, cancel := context.WithTimeout(ctx, d)
			defer cancel()
			return in.Respond.Reply(c, bot.Reply{Content: "hasty"})
		},
	}
}

// heldCommand is /name, which says it started, then replies content once
// release is closed.
func heldCommand(name string, started chan<- struct{}, release <-chan struct{}, content string) testCommand {
	return bot.Command{
		Definition: &discordgo.ApplicationCommand{Name: name, Description: "holds until released"},
		Handle: func(ctx context.Context, in *bot.Interaction) error {
			started <- struct{}{}
			<-release
			return in.Respond.Reply(ctx, bot.Reply{Content: content})
		},
	}
}

// autoEmojiMaxWidth is the widest maze that posts as emoji unless a
// member asks for a picture; wider ones are pictured.
const autoEmojiMaxWidth = views.AutoEmojiMaxWidth

// renderChoices is how many choices /maze's render option has: auto and
// render's table's formats offered in Discord, so a new format is not
// counted again here.
var renderChoices = len(views.RenderModes)

// ---- the database ----

// botDB is what the tests read, and in a few tests write, of what a bot
// keeps in its database.
type botDB struct{ db store.DB }

// dbOf is the database of a running app.
func dbOf(a *testApp) botDB { return botDB{a.Store()} }

// newDBFile is the path of a new SQLite file for a bot, migrated: a copy
// of the image every test binary makes once (storetest.SQLiteFile), where
// migrating each bot's database took some 200 ms under -race.
func newDBFile(tb testing.TB) string { return storetest.SQLiteFile(tb) }

// openDB opens the database dsn names, as a bot process does (closed at
// the end of t).
func openDB(ctx context.Context, dsn string) (botDB, error) {
	db, err := store.Open(ctx, dsn)
	return botDB{db}, err
}

func (b botDB) Close() error { return b.db.Close() }

// game is a stored game.
func (b botDB) game(ctx context.Context, id int64) (play.Record, error) { return b.db.Game(ctx, id) }

// runningEvent is the event running in channel.
func (b botDB) runningEvent(ctx context.Context, channel string) (contest.Event, error) {
	return b.db.RunningEvent(ctx, channel)
}

func (b botDB) event(ctx context.Context, id int64) (contest.Event, error) {
	return b.db.Event(ctx, id)
}

func (b botDB) dailySettings(ctx context.Context, guild string) (contest.DailySettings, error) {
	return b.db.DailySettings(ctx, guild)
}

func (b botDB) saveDailySettings(ctx context.Context, s contest.DailySettings) error {
	return b.db.SaveDailySettings(ctx, s)
}

func (b botDB) dailyPost(ctx context.Context, guild string, date contest.Date) (contest.DailyPost, error) {
	return b.db.DailyPost(ctx, guild, date)
}

// lastPost tells whether the bot recorded a maze posted in channel.
func (b botDB) lastPost(ctx context.Context, channel string) error {
	_, err := b.db.LastPost(ctx, channel)
	return err
}

// claimIdentify takes bucket's identify turn at at, as a process whose
// clock says at would.
func (b botDB) claimIdentify(ctx context.Context, bucket int, at time.Time, window time.Duration) error {
	_, _, err := b.db.ClaimIdentify(ctx, bucket, at, window)
	return err
}

// commandGuilds lists the servers the bot recorded giving commands of
// their own.
func (b botDB) commandGuilds(ctx context.Context) ([]string, error) { return b.db.CommandGuilds(ctx) }

// redactDSN is a database URL as the logs may show it, the password out.
func redactDSN(dsn string) string { return store.Redact(dsn) }

// The database's own tables, read and written with SQL where no store
// method does what a test needs: the SQLite file a bot process uses.

// sqliteFile opens the SQLite file at path beside the bot using it.
func sqliteFile(path string) (*sql.DB, error) {
	return sql.Open("sqlite", path+"?_pragma=busy_timeout(10000)")
}

// finish is a result as the finishes table keeps it.
type finish struct {
	user          string
	clicks, tiles int
}

// finishesOf lists every result of a maze outside a contest: no store
// method does.
func finishesOf(ctx context.Context, path, mazeID string) ([]finish, error) {
	raw, err := sqliteFile(path)
	if err != nil {
		return nil, err
	}
	defer raw.Close()
	rows, err := raw.QueryContext(ctx, `SELECT user_id, clicks, tiles FROM finishes WHERE maze_id = ?`, mazeID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []finish
	for rows.Next() {
		var f finish
		if err := rows.Scan(&f.user, &f.clicks, &f.tiles); err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, rows.Err()
}

// postsOf counts the records of a maze's posts.
func postsOf(ctx context.Context, path, mazeID string) (int, error) {
	raw, err := sqliteFile(path)
	if err != nil {
		return 0, err
	}
	defer raw.Close()
	var n int
	err = raw.QueryRowContext(ctx, `SELECT count(*) FROM posts WHERE maze_id = ?`, mazeID).Scan(&n)
	return n, err
}

// forgetDailyLanguages leaves every daily's settings without a language,
// as the language migration left the rows older than it, and says how
// many it changed.
func forgetDailyLanguages(ctx context.Context, path string) (int64, error) {
	raw, err := sqliteFile(path)
	if err != nil {
		return 0, err
	}
	defer raw.Close()
	res, err := raw.ExecContext(ctx, `UPDATE daily_configs SET language = ''`)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// ---- languages ----

// validateLocalizations checks synced commands' localizations against
// Discord's rules.
func validateLocalizations(cmds []*discordgo.ApplicationCommand) error { return bottest.Validate(cmds) }

// hasHangul tells whether s holds Korean letters.
func hasHangul(s string) bool { return lang.HasHangul(s) }

// englishLanguageName is English's name for itself.
func englishLanguageName() string { return lang.English.Name() }

// allLanguages are the bot's languages: each one's main Discord locale,
// its code and its name for itself.
func allLanguages() (out []struct{ locale, code, name string }) {
	for _, l := range lang.Languages() {
		out = append(out, struct{ locale, code, name string }{l.Locales()[0], l.Code(), l.Name()})
	}
	return out
}

// messageIDs are the ids of every message in the catalogs.
func messageIDs() []string { return lang.IDs() }

// languageCode is the code of the bot's language for a Discord locale.
func languageCode(locale string) string { return lang.For(locale).Code() }

// message is catalog message id as locale words it, without arguments.
func message(locale, id string) string { return lang.For(locale).T(id) }

// seedFinish records a won daily game of user on guild's daily of date,
// on maze, as if played through Play: what a streak counts.
func (b botDB) seedFinish(ctx context.Context, guild, user string, date contest.Date, maze mazecore.ID, at time.Time) error {
	g := play.Record{UserID: user, GuildID: guild, ChannelID: dailyChannel, MazeID: maze, Contest: contest.DailyKey(guild, date).String(),
		Pos: mazecore.Point{X: 1, Y: 1}, Trail: []byte{0x02, 0, 0x80}, Status: play.Playing, StartedAt: at, UpdatedAt: at}
	id, err := b.db.CreateGame(ctx, g)
	if err != nil {
		return err
	}
	g.ID = id
	g.Pos, g.Clicks, g.Tiles, g.Seq, g.Status = mazecore.Point{X: maze.Width - 2, Y: maze.Height - 2}, 9, 20, 1, play.Won
	g.UpdatedAt = at.Add(time.Minute)
	g.FinishedAt = g.UpdatedAt
	return b.db.SaveGame(ctx, g)
}

// optIn opts user in to streak reminders at at in guild, as /daily remind
// does.
func (b botDB) optIn(ctx context.Context, guild, user string, at contest.TimeOfDay) error {
	return b.db.SaveReminder(ctx, contest.Reminder{GuildID: guild, UserID: user, At: at, Language: "en"})
}

// fixDailyMaze fixes guild's daily of date to maze, as its first show
// does.
func (b botDB) fixDailyMaze(ctx context.Context, guild string, date contest.Date, maze mazecore.ID) error {
	_, err := b.db.FixDailyMaze(ctx, contest.DailyMaze{GuildID: guild, Date: date, MazeID: maze})
	return err
}

// giveUpAction is the action letter of a game's Give up button.
func giveUpAction() string { return string(customid.GiveUp) }

// wayAction is the action letter of the button that moves way w.
func wayAction(w play.Way) string { return string(customid.WayAction(w)) }
