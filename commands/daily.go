package commands

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"mazebot/mazecore"
	"mazebot/store"
)

// This file is the daily challenge: /daily, its scheduled post, the game
// context that makes Play count for the day, the share line on finish,
// and the check that keeps /solve off a running daily.

// DailyStore is the part of the store the daily challenge needs.
type DailyStore interface {
	DailyConfig(ctx context.Context, guildID string) (store.DailyConfig, error)
	SetDailyConfig(ctx context.Context, c store.DailyConfig) error
	EnabledDailyConfigs(ctx context.Context) ([]store.DailyConfig, error)
	DailyPost(ctx context.Context, guildID, date string) (store.DailyPost, error)
	ClaimDailyPost(ctx context.Context, p store.DailyPost, retryBefore time.Time, maxAttempts int) (bool, error)
	MarkDailyPosted(ctx context.Context, guildID, date, messageID string) error
	MarkDailyFailed(ctx context.Context, guildID, date string) error
	DailyBests(ctx context.Context, guildID, date string) ([]store.DailyResult, error)
	DailyTotals(ctx context.Context, guildID, from, to string) ([]store.DailyTotal, error)
	DailyDates(ctx context.Context, guildID, userID, upTo string) ([]string, error)
	GuildsWithMaze(ctx context.Context, mazeID string, limit int) ([]string, error)
}

const (
	dailyDefaultTimeZone = "UTC"
	// dailyMaxSize keeps the daily a quick game for everyone: Play on a
	// 41×41 maze takes a few dozen clicks.
	dailyMaxSize = 41
	// dailyRetryAfter: a claim older than this whose post never completed
	// (a crash, a Discord error) may be claimed again.
	dailyRetryAfter = 5 * time.Minute
	// dailyMaxAttempts bounds the retries of one day's post, so a channel
	// the bot can't write to doesn't get tried every 15 s all day.
	dailyMaxAttempts = 3
	dateLayout       = "2006-01-02"
)

// dailyEpoch is the day of daily #1. Numbers count calendar days in the
// server's zone from there, so every server's #N falls on the same date.
var dailyEpoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func registerDaily(r *Router) {
	r.AddCommand(dailyCommand())
	r.AddCommand(leaderboardCommand())
	r.AddTicker(dailyTicker(r.deps))
	r.AddGameContext(dailyGameContext)
	r.AddFinishHook(dailyFinishHook)
}

func dailyCommand() Command {
	choices := algorithmChoices()
	size := intOption("size", fmt.Sprintf("Width in tiles, odd, %d–%d (default %d)", mazecore.MinSize, dailyMaxSize, defaultSize), mazecore.MinSize, dailyMaxSize)
	return Command{
		Definition: &discordgo.ApplicationCommand{
			Name:        "daily",
			Description: "Today's maze challenge: the same maze for everyone in this server",
			Options: []*discordgo.ApplicationCommandOption{
				{Type: discordgo.ApplicationCommandOptionSubCommand, Name: "today", Description: "Show today's daily maze, with Play"},
				{Type: discordgo.ApplicationCommandOptionSubCommand, Name: "setup", Description: "Post the daily in a channel every day (Manage Server)", Options: []*discordgo.ApplicationCommandOption{
					{Type: discordgo.ApplicationCommandOptionChannel, Name: "channel", Description: "Where to post it", Required: true,
						ChannelTypes: []discordgo.ChannelType{discordgo.ChannelTypeGuildText, discordgo.ChannelTypeGuildNews}},
					{Type: discordgo.ApplicationCommandOptionString, Name: "time", Description: "Local time of day, 24-hour HH:MM, e.g. 09:00", Required: true, MaxLength: 5},
					{Type: discordgo.ApplicationCommandOptionString, Name: "timezone", Description: "IANA time zone, e.g. Asia/Seoul, America/Los_Angeles, UTC", Required: true, MaxLength: 64},
					{Type: discordgo.ApplicationCommandOptionString, Name: "algorithm", Description: "How to carve it (default: backtracking)", Choices: choices},
					size,
				}},
				{Type: discordgo.ApplicationCommandOptionSubCommand, Name: "off", Description: "Stop posting the daily automatically (Manage Server)"},
			},
		},
		Handle: handleDaily,
	}
}

func handleDaily(ctx context.Context, in *Interaction) error {
	if in.Deps.Daily == nil {
		return errors.New("daily challenge is not configured: Deps.Daily is missing")
	}
	if in.GuildID == "" || in.Member == nil {
		return userErrorf("The daily challenge belongs to a server: use /daily in a server channel, not in DMs.")
	}
	name, opts := subcommand(in)
	switch name {
	case "today":
		return dailyToday(ctx, in)
	case "setup":
		return dailySetup(ctx, in, opts)
	case "off":
		return dailyOff(ctx, in)
	}
	return userErrorf("Use /daily today, /daily setup or /daily off.")
}

// dailyDay is one server's daily of one local date.
type dailyDay struct {
	guildID string
	date    string
	loc     *time.Location
	id      mazecore.ID
}

func (d dailyDay) number() int { return dailyNumber(d.date) }

// dailySettings returns a server's settings and zone: the defaults (UTC,
// backtracking 21×21, off) when it never ran /daily setup.
func dailySettings(ctx context.Context, ds DailyStore, guildID string) (store.DailyConfig, *time.Location, error) {
	c, err := ds.DailyConfig(ctx, guildID)
	if errors.Is(err, store.ErrNotFound) {
		c = store.DailyConfig{GuildID: guildID, TimeZone: dailyDefaultTimeZone, Algorithm: defaultAlgorithm.String(), Size: defaultSize}
	} else if err != nil {
		return c, nil, err
	}
	loc, err := time.LoadLocation(c.TimeZone)
	if err != nil {
		return c, nil, fmt.Errorf("daily config of %s: zone %q: %w", guildID, c.TimeZone, err)
	}
	return c, loc, nil
}

// todayDaily is the daily running now in a server. Once the day's post is
// claimed its maze is fixed, so a settings change later that day doesn't
// move the maze under the members playing it.
func todayDaily(ctx context.Context, deps *Deps, guildID string, now time.Time) (dailyDay, error) {
	c, loc, err := dailySettings(ctx, deps.Daily, guildID)
	if err != nil {
		return dailyDay{}, err
	}
	day := dailyDay{guildID: guildID, date: localDate(now, loc), loc: loc}
	post, err := deps.Daily.DailyPost(ctx, guildID, day.date)
	switch {
	case err == nil:
		if day.id, err = mazecore.Parse(post.MazeID); err != nil {
			return dailyDay{}, fmt.Errorf("daily post %s/%s: maze ID: %w", guildID, day.date, err)
		}
		return day, nil
	case !errors.Is(err, store.ErrNotFound):
		return dailyDay{}, err
	}
	day.id, err = dailyMazeID(guildID, day.date, c)
	return day, err
}

// dailyMazeID is the maze of a server's day: the configured algorithm and
// size, and a seed from a hash of the server and the date, so it is the
// same for everyone, on every machine, forever. 32 bits keep the ID short.
func dailyMazeID(guildID, date string, c store.DailyConfig) (mazecore.ID, error) {
	algo, err := mazecore.ParseAlgorithm(c.Algorithm)
	if err != nil {
		return mazecore.ID{}, fmt.Errorf("daily config of %s: %w", guildID, err)
	}
	sum := sha256.Sum256([]byte("mazebot daily|" + guildID + "|" + date))
	return mazecore.ID{Algorithm: algo, Width: c.Size, Height: c.Size, Seed: uint64(binary.BigEndian.Uint32(sum[:4]))}, nil
}

// localDate is the calendar date at t in loc.
func localDate(t time.Time, loc *time.Location) string { return t.In(loc).Format(dateLayout) }

// nextMidnight is when the local day containing t ends: 23 or 25 hours
// after it began on a daylight-saving change.
func nextMidnight(t time.Time, loc *time.Location) time.Time {
	y, m, d := t.In(loc).Date()
	return time.Date(y, m, d+1, 0, 0, 0, 0, loc)
}

// addDays moves a "YYYY-MM-DD" date by n calendar days. Dates are civil,
// so the arithmetic runs in UTC where every day has 24 hours.
func addDays(date string, n int) string {
	t, err := time.Parse(dateLayout, date)
	if err != nil {
		return date
	}
	return t.AddDate(0, 0, n).Format(dateLayout)
}

// dailyNumber is the daily's number on a date: #1 on 2026-01-01.
func dailyNumber(date string) int {
	t, err := time.Parse(dateLayout, date)
	if err != nil {
		return 0
	}
	return int(t.Sub(dailyEpoch)/(24*time.Hour)) + 1
}

// dailyStreak counts consecutive days solved, from dates (newest first,
// none after today). It ends today, or yesterday while today is not
// solved yet: a streak isn't broken before the day is over.
func dailyStreak(dates []string, today string) int {
	if len(dates) == 0 {
		return 0
	}
	want := today
	if dates[0] != today {
		want = addDays(today, -1)
	}
	n := 0
	for _, d := range dates {
		if d != want {
			break
		}
		n++
		want = addDays(want, -1)
	}
	return n
}

func memberStreak(ctx context.Context, ds DailyStore, guildID, userID, today string) (int, error) {
	dates, err := ds.DailyDates(ctx, guildID, userID, today)
	if err != nil {
		return 0, err
	}
	return dailyStreak(dates, today), nil
}

// postAtMinutes parses "HH:MM" into minutes after midnight.
func postAtMinutes(s string) (int, bool) {
	m := postAtPattern.FindStringSubmatch(s)
	if m == nil {
		return 0, false
	}
	// The pattern guarantees digits. (fmt.Sscan would read "09" as octal.)
	h, _ := strconv.Atoi(m[1])
	mm, _ := strconv.Atoi(m[2])
	return h*60 + mm, true
}

var postAtPattern = regexp.MustCompile(`^([01]?[0-9]|2[0-3]):([0-5][0-9])$`)

func clockMinutes(t time.Time) int { return t.Hour()*60 + t.Minute() }

// dailyDue tells whether a server's post of the local day at now is due.
// It reads the local wall clock, so on a spring-forward day a post time in
// the skipped hour is due at 03:00, and on a fall-back day the first pass
// through the time posts (the day's row keeps the second from posting). A
// setup made after the day's post time starts with tomorrow's post.
func dailyDue(c store.DailyConfig, now time.Time, loc *time.Location) (string, bool) {
	at, ok := postAtMinutes(c.PostAt)
	if !ok {
		return "", false
	}
	local := now.In(loc)
	date := local.Format(dateLayout)
	if clockMinutes(local) < at {
		return date, false
	}
	if set := c.UpdatedAt.In(loc); set.Format(dateLayout) == date && clockMinutes(set) > at {
		return date, false
	}
	return date, true
}

// dailyHeader is the line above a daily maze.
func dailyHeader(day dailyDay) string {
	return fmt.Sprintf("📅 **Daily challenge #%d** · %s · the same maze for everyone today · solutions open <t:%d:R>",
		day.number(), day.date, nextMidnight(dayNoon(day), day.loc).Unix())
}

// dayNoon is noon of the day's date in its zone: inside the day whatever
// the daylight-saving rules.
func dayNoon(day dailyDay) time.Time {
	t, _ := time.Parse(dateLayout, day.date)
	return time.Date(t.Year(), t.Month(), t.Day(), 12, 0, 0, 0, day.loc)
}

// dailyMessage is the daily's public message: header, maze and buttons.
func dailyMessage(day dailyDay) (Reply, error) {
	m, err := mazecore.Generate(day.id)
	if err != nil {
		return Reply{}, fmt.Errorf("generate %v: %w", day.id, err)
	}
	reply, err := showMaze(m, renderAuto, dailyHeader(day)+"\n"+mazeHeader(day.id), true)
	reply.Components = mazeButtons(day.id)
	return reply, err
}

func dailyToday(ctx context.Context, in *Interaction) error {
	day, err := todayDaily(ctx, in.Deps, in.GuildID, in.Deps.Now())
	if err != nil {
		return err
	}
	reply, err := dailyMessage(day)
	if err != nil {
		return err
	}
	if err := recordPost(ctx, in, day.id); err != nil {
		return err
	}
	if err := in.Respond.Reply(ctx, reply); err != nil {
		return fmt.Errorf("reply: %w", err)
	}
	return nil
}

// canManageServer tells whether the member may configure the bot here:
// Manage Server or Administrator, as Discord computed for this channel.
func canManageServer(in *Interaction) bool {
	return in.Member != nil && in.Member.Permissions&(discordgo.PermissionManageGuild|discordgo.PermissionAdministrator) != 0
}

// requireManager refuses members without Manage Server (or Administrator).
func requireManager(in *Interaction, what string) error {
	if !canManageServer(in) {
		return userErrorf("Only members with the **Manage Server** permission can %s. Ask a server admin; anyone can play today's maze with /daily today.", what)
	}
	return nil
}

func dailySetup(ctx context.Context, in *Interaction, opts options) error {
	if err := requireManager(in, "set up the daily challenge"); err != nil {
		return err
	}
	old, _, err := dailySettings(ctx, in.Deps.Daily, in.GuildID)
	if err != nil {
		return err
	}
	c := store.DailyConfig{GuildID: in.GuildID, Algorithm: old.Algorithm, Size: old.Size, Enabled: true, UpdatedAt: in.Deps.Now()}
	if c.ChannelID = opts.string("channel", ""); c.ChannelID == "" {
		return userErrorf("Pick the channel to post the daily in.")
	}
	at, ok := postAtMinutes(strings.TrimSpace(opts.string("time", "")))
	if !ok {
		return userErrorf("`%s` is not a time of day. Use 24-hour HH:MM, from 00:00 to 23:59, e.g. 09:00 or 18:30.", sanitize(opts.string("time", "")))
	}
	c.PostAt = fmt.Sprintf("%02d:%02d", at/60, at%60)
	tz := strings.TrimSpace(opts.string("timezone", ""))
	loc, err := time.LoadLocation(tz)
	// "" and "Local" load too, but mean UTC and the bot host's zone.
	if err != nil || tz == "" || tz == "Local" {
		return userError(err, fmt.Sprintf("`%s` is not a time zone I know. Use an IANA name such as Asia/Seoul, America/Los_Angeles, Europe/Berlin or UTC.", sanitize(tz)))
	}
	c.TimeZone = loc.String()
	if a := opts.string("algorithm", ""); a != "" {
		algo, err := mazecore.ParseAlgorithm(a)
		if err != nil {
			return userError(err, err.Error()+".")
		}
		c.Algorithm = algo.String()
	}
	var notice string
	if raw, ok := opts.int("size"); ok {
		if raw > dailyMaxSize+1 || raw < -1 {
			raw = dailyMaxSize + 2 // out of range either way; keep the int conversion safe
		}
		side, rounded, err := mazecore.NormalizeSize(int(raw), dailyMaxSize)
		if err != nil {
			return userError(err, fmt.Sprintf("The daily's size must be an odd number of tiles from %d to %d, so that it stays playable as an emoji grid.", mazecore.MinSize, dailyMaxSize))
		}
		if rounded {
			notice = fmt.Sprintf("\nℹ️ Maze sides are odd, so size %d was rounded up to %d.", raw, side)
		}
		c.Size = side
	}
	if err := in.Deps.Daily.SetDailyConfig(ctx, c); err != nil {
		return err
	}
	next, err := nextDailyPost(ctx, in.Deps, c, loc, in.Deps.Now())
	if err != nil {
		return err
	}
	algo, _ := mazecore.ParseAlgorithm(c.Algorithm)
	content := fmt.Sprintf("✅ The daily challenge will be posted in <#%s> every day at %s %s (%s, %d×%d). Next post: <t:%d:F> (<t:%d:R>). Turn it off with /daily off.%s",
		c.ChannelID, c.PostAt, c.TimeZone, algo.Title(), c.Size, c.Size, next.Unix(), next.Unix(), notice)
	if err := in.Respond.Reply(ctx, Reply{Content: content, Ephemeral: true}); err != nil {
		return fmt.Errorf("reply: %w", err)
	}
	return nil
}

// nextDailyPost is when the scheduler will next post c: today at the post
// time if that is still due (see dailyDue), else tomorrow.
func nextDailyPost(ctx context.Context, deps *Deps, c store.DailyConfig, loc *time.Location, now time.Time) (time.Time, error) {
	at, _ := postAtMinutes(c.PostAt)
	local := now.In(loc)
	day := local
	_, err := deps.Daily.DailyPost(ctx, c.GuildID, local.Format(dateLayout))
	switch {
	case err == nil || clockMinutes(local) > at:
		day = local.AddDate(0, 0, 1)
	case !errors.Is(err, store.ErrNotFound):
		return time.Time{}, err
	}
	y, m, d := day.Date()
	return time.Date(y, m, d, at/60, at%60, 0, 0, loc), nil
}

func dailyOff(ctx context.Context, in *Interaction) error {
	if err := requireManager(in, "turn off the daily challenge"); err != nil {
		return err
	}
	c, err := in.Deps.Daily.DailyConfig(ctx, in.GuildID)
	if errors.Is(err, store.ErrNotFound) || (err == nil && !c.Enabled) {
		return userErrorf("The daily challenge isn't being posted in this server, so there is nothing to turn off. /daily setup starts it.")
	}
	if err != nil {
		return err
	}
	c.Enabled, c.UpdatedAt = false, in.Deps.Now()
	if err := in.Deps.Daily.SetDailyConfig(ctx, c); err != nil {
		return err
	}
	if err := in.Respond.Reply(ctx, Reply{Content: "✅ The daily challenge is no longer posted automatically. /daily today still shows today's maze; /daily setup turns the posts back on.", Ephemeral: true}); err != nil {
		return fmt.Errorf("reply: %w", err)
	}
	return nil
}

// dailyTicker posts each enabled server's daily once its local post time
// has come. It runs at start, so a day missed while the bot was down is
// posted on its return, as long as that day is still running.
func dailyTicker(deps *Deps) Ticker {
	return func(ctx context.Context, now time.Time) error {
		if deps.Daily == nil || deps.Poster == nil {
			return nil
		}
		configs, err := deps.Daily.EnabledDailyConfigs(ctx)
		if err != nil {
			return err
		}
		var errs []error
		for _, c := range configs {
			if err := postDaily(ctx, deps, c, now); err != nil {
				errs = append(errs, fmt.Errorf("daily of %s: %w", c.GuildID, err))
			}
		}
		return errors.Join(errs...)
	}
}

func postDaily(ctx context.Context, deps *Deps, c store.DailyConfig, now time.Time) error {
	loc, err := time.LoadLocation(c.TimeZone)
	if err != nil {
		return fmt.Errorf("zone %q: %w", c.TimeZone, err)
	}
	date, due := dailyDue(c, now, loc)
	if !due {
		return nil
	}
	// A read first: once the day is posted every tick ends here, without
	// taking the write lock.
	retryBefore := now.Add(-dailyRetryAfter)
	switch p, err := deps.Daily.DailyPost(ctx, c.GuildID, date); {
	case err == nil && (p.Status == store.DailyPosted || !p.ClaimedAt.Before(retryBefore) || p.Attempts >= dailyMaxAttempts):
		return nil
	case err != nil && !errors.Is(err, store.ErrNotFound):
		return err
	}
	id, err := dailyMazeID(c.GuildID, date, c)
	if err != nil {
		return err
	}
	claim := store.DailyPost{GuildID: c.GuildID, Date: date, ChannelID: c.ChannelID, MazeID: id.String(), ClaimedAt: now}
	claimed, err := deps.Daily.ClaimDailyPost(ctx, claim, retryBefore, dailyMaxAttempts)
	if err != nil || !claimed {
		return err
	}
	// The claim may be a retry of a crashed claim with other settings: the
	// stored row is what the day's maze is now.
	if post, err := deps.Daily.DailyPost(ctx, c.GuildID, date); err == nil {
		if id, err = mazecore.Parse(post.MazeID); err != nil {
			return fmt.Errorf("daily post %s: maze ID: %w", date, err)
		}
	}
	reply, err := dailyMessage(dailyDay{guildID: c.GuildID, date: date, loc: loc, id: id})
	if err == nil {
		var messageID string
		if messageID, err = deps.Poster.Post(ctx, c.ChannelID, reply); err == nil {
			if err := deps.Daily.MarkDailyPosted(ctx, c.GuildID, date, messageID); err != nil {
				return err
			}
			deps.Logger.Info("daily posted", "guild", c.GuildID, "date", date, "channel", c.ChannelID, "maze", id.String())
			post := store.Post{MazeID: id.String(), GuildID: c.GuildID, ChannelID: c.ChannelID, MessageID: messageID, PostedAt: now}
			if deps.Posts != nil {
				if err := deps.Posts.AddPost(ctx, post); err != nil {
					return fmt.Errorf("record daily post: %w", err)
				}
			}
			return nil
		}
	}
	if ferr := deps.Daily.MarkDailyFailed(ctx, c.GuildID, date); ferr != nil {
		err = errors.Join(err, ferr)
	}
	return fmt.Errorf("post daily %s in %s: %w", date, c.ChannelID, err)
}

// dailyGameContext makes a Play on today's daily count for the day.
func dailyGameContext(ctx context.Context, in *Interaction, id mazecore.ID) (string, error) {
	if in.GuildID == "" || in.Deps.Daily == nil {
		return "", nil
	}
	day, err := todayDaily(ctx, in.Deps, in.GuildID, in.Deps.Now())
	if err != nil || day.id != id {
		return "", err
	}
	return store.DailyContext(in.GuildID, day.date), nil
}

// parseDailyContext splits "daily:<guild>:<date>".
func parseDailyContext(c string) (guildID, date string, ok bool) {
	rest, ok := strings.CutPrefix(c, "daily:")
	if !ok {
		return "", "", false
	}
	guildID, date, ok = strings.Cut(rest, ":")
	return guildID, date, ok && guildID != ""
}

// dailyFinishHook adds the share line and the day's rank to a daily win.
func dailyFinishHook(ctx context.Context, in *Interaction, f store.Finish) ([]string, error) {
	guildID, date, ok := parseDailyContext(f.Context)
	if !ok || in.Deps.Daily == nil {
		return nil, nil
	}
	streak, err := memberStreak(ctx, in.Deps.Daily, guildID, f.UserID, date)
	if err != nil {
		return nil, err
	}
	lines := []string{"📋 Share it: `" + shareLine(dailyNumber(date), f.Elapsed, f.Tiles, streak) + "`"}
	bests, err := in.Deps.Daily.DailyBests(ctx, guildID, date)
	if err != nil {
		return lines, err
	}
	entries := dailyDayEntries(bests)
	for i, e := range entries {
		if e.userID != f.UserID {
			continue
		}
		line := fmt.Sprintf("🏆 Daily #%d: you're #%d of %d today", dailyNumber(date), e.rank, len(entries))
		if b := bests[i]; b.Elapsed != f.Elapsed.Truncate(time.Millisecond) || b.Tiles != f.Tiles {
			line += fmt.Sprintf(" with your best run (%s · %d tiles)", formatElapsed(b.Elapsed), b.Tiles)
		}
		lines = append(lines, line+". /leaderboard shows everyone.")
	}
	return lines, nil
}

// shareLine sums up a daily run without spoiling the maze.
func shareLine(number int, elapsed time.Duration, tiles, streak int) string {
	s := fmt.Sprintf("mazebot daily #%d · %s · %d tiles", number, formatElapsed(elapsed), tiles)
	if streak > 0 {
		s += fmt.Sprintf(" · 🔥%d", streak)
	}
	return s
}

// refuseRunningDaily keeps the solution of a running daily hidden until
// its day ends in its server: asked in that server, or in a DM or another
// server by someone who copied the ID from a post.
func refuseRunningDaily(ctx context.Context, in *Interaction, id mazecore.ID) error {
	if in.Deps.Daily == nil {
		return nil
	}
	guilds, err := in.Deps.Daily.GuildsWithMaze(ctx, id.String(), dailyGuildsChecked)
	if err != nil {
		return err
	}
	if in.GuildID != "" {
		guilds = append([]string{in.GuildID}, guilds...)
	}
	now := in.Deps.Now()
	for _, g := range guilds {
		day, err := todayDaily(ctx, in.Deps, g, now)
		if err != nil {
			return err
		}
		if day.id != id {
			continue
		}
		what := "today's daily challenge"
		if g != in.GuildID {
			what = "a server's running daily challenge"
		}
		return userErrorf("That's %s, so its solution stays hidden while the day runs: solutions open <t:%d:R> (at midnight, %s). Try it with **Play**!",
			what, nextMidnight(now, day.loc).Unix(), day.loc)
	}
	return nil
}

// dailyGuildsChecked bounds the servers /solve checks for a maze ID that
// was posted in many: a daily's ID is shown in its own server.
const dailyGuildsChecked = 5
