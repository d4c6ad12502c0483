package commands

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"mazebot/commands/lang"
	"mazebot/contest"
	"mazebot/mazecore"
	"mazebot/play"
)

// Daily is /daily (today, setup, off) and /leaderboard.
type Daily struct {
	dailies *contest.Dailies
	posts   PostLog
	render  *Renderer
	now     func() time.Time
}

// NewDaily serves the daily challenge run by dailies, drawing on render
// and recording the mazes it shows in posts.
func NewDaily(dailies *contest.Dailies, posts PostLog, render *Renderer, now func() time.Time) *Daily {
	return &Daily{dailies: dailies, posts: posts, render: render, now: now}
}

func (f *Daily) Commands() []Command {
	size := intOption("size", fmt.Sprintf("Width in tiles, odd, %d–%d (default %d)", mazecore.MinSize, contest.DailyMaxSize, defaultSize), mazecore.MinSize, contest.DailyMaxSize)
	return []Command{
		{Definition: &discordgo.ApplicationCommand{
			Name:        "daily",
			Description: "Today's maze challenge: the same maze for everyone in this server",
			Options: []*discordgo.ApplicationCommandOption{
				{Type: discordgo.ApplicationCommandOptionSubCommand, Name: "today", Description: "Show today's daily maze, with Play"},
				{Type: discordgo.ApplicationCommandOptionSubCommand, Name: "setup", Description: "Post the daily in a channel every day (Manage Server)", Options: []*discordgo.ApplicationCommandOption{
					channelOption("Where to post it", true),
					{Type: discordgo.ApplicationCommandOptionString, Name: "time", Description: "Local time of day, 24-hour HH:MM, e.g. 09:00", Required: true, MaxLength: 5},
					{Type: discordgo.ApplicationCommandOptionString, Name: "timezone", Description: "IANA time zone, e.g. Asia/Seoul, America/Los_Angeles, UTC", Required: true, MaxLength: 64},
					algorithmOption("How to carve it (default: backtracking)", false),
					size,
					difficultyOption("Among mazes like it: easy, medium or hard (default any)"),
					loopsOption("Share of dead ends opened into loops, 0–100 (default 0: no loops)"),
				}},
				{Type: discordgo.ApplicationCommandOptionSubCommand, Name: "off", Description: "Stop posting the daily automatically (Manage Server)"},
			},
		}, Handle: f.handleDaily},
		leaderboardCommand(f),
	}
}

func (f *Daily) Components() []Component { return nil }

func (f *Daily) handleDaily(ctx context.Context, in *Interaction) error {
	if in.GuildID == "" || in.Member == nil {
		return userErrorf("The daily challenge belongs to a server: use /daily in a server channel, not in DMs.")
	}
	name, opts := subcommand(in)
	switch name {
	case "today":
		return f.today(ctx, in)
	case "setup":
		return f.setup(ctx, in, opts)
	case "off":
		return f.off(ctx, in)
	}
	return userErrorf("Use /daily today, /daily setup or /daily off.")
}

// dailyHeader is the line above a daily maze.
func dailyHeader(day contest.Daily) string {
	return fmt.Sprintf("📅 **Daily challenge #%d** · %s · the same maze for everyone today · solutions open <t:%d:R>",
		day.Number(), day.Date, day.SolutionsOpen().Unix())
}

// dailyMessage is the daily's public message: header, maze and buttons.
func dailyMessage(day contest.Daily) (Reply, error) {
	m, err := generate(day.MazeID)
	if err != nil {
		return Reply{}, err
	}
	reply, err := showMaze(m, renderAuto, dailyHeader(day)+"\n"+mazeHeader(m), true)
	reply.Components = mazeButtons(day.MazeID)
	return reply, err
}

func (f *Daily) today(ctx context.Context, in *Interaction) error {
	day, err := f.dailies.Show(ctx, in.GuildID)
	if err != nil {
		return err
	}
	build := func() (Reply, error) { return dailyMessage(day) }
	var reply Reply
	if pictured(day.MazeID, renderAuto) {
		reply, err = f.render.reply(ctx, in, picture{}, build)
	} else {
		reply, err = build()
	}
	if err != nil {
		return err
	}
	if err := recordPost(ctx, f.posts, in.GuildID, in.ChannelID, "", day.MazeID, f.now()); err != nil {
		return err
	}
	return answer(ctx, in, reply)
}

const dailyManagerHint = "Ask a server admin; anyone can play today's maze with /daily today."

func (f *Daily) setup(ctx context.Context, in *Interaction, opts options) error {
	if err := requireManager(in, "set up the daily challenge", dailyManagerHint); err != nil {
		return err
	}
	s, err := f.dailies.Settings(ctx, in.GuildID)
	if err != nil {
		return err
	}
	if s.ChannelID, err = guildChannel(in, opts, ""); err != nil {
		return err
	}
	if s.ChannelID == "" {
		return userErrorf("Pick the channel to post the daily in.")
	}
	var ok bool
	if s.PostAt, ok = contest.ParseTimeOfDay(strings.TrimSpace(opts.string("time", ""))); !ok {
		return userErrorf("`%s` is not a time of day. Use 24-hour HH:MM, from 00:00 to 23:59, e.g. 09:00 or 18:30.", sanitize(opts.string("time", "")))
	}
	tz := strings.TrimSpace(opts.string("timezone", ""))
	// "" and "Local" load too, but mean UTC and the bot host's zone.
	if s.Zone, err = time.LoadLocation(tz); err != nil || tz == "" || tz == "Local" {
		return userError(err, fmt.Sprintf("`%s` is not a time zone I know. Use an IANA name such as Asia/Seoul, America/Los_Angeles, Europe/Berlin or UTC.", sanitize(tz)))
	}
	if s.Algorithm, err = opts.algorithm(s.Algorithm); err != nil {
		return err
	}
	var notice string
	if s.Size, notice, err = opts.size("size", s.Size, contest.DailyMaxSize, ", so that it stays playable as an emoji grid"); err != nil {
		return err
	}
	if s.Difficulty, s.Loops, err = opts.levelAndLoops(s.Difficulty, s.Loops); err != nil {
		return err
	}
	next, err := f.dailies.Setup(ctx, s)
	if err != nil {
		return err
	}
	content := fmt.Sprintf("✅ The daily challenge will be posted in <#%s> every day at %s %s (%s, %d×%d%s). Next post: <t:%d:F> (<t:%d:R>). Turn it off with /daily off.",
		s.ChannelID, s.PostAt, s.Zone, s.Algorithm.Title(), s.Size, s.Size, shape(s.Difficulty, s.Loops), next.Unix(), next.Unix())
	if notice != "" {
		content += "\nℹ️ " + notice
	}
	return answer(ctx, in, Reply{Content: content, Ephemeral: true})
}

func (f *Daily) off(ctx context.Context, in *Interaction) error {
	if err := requireManager(in, "turn off the daily challenge", dailyManagerHint); err != nil {
		return err
	}
	if err := f.dailies.TurnOff(ctx, in.GuildID); errors.Is(err, contest.ErrNotEnabled) {
		return userError(err, "The daily challenge isn't being posted in this server, so there is nothing to turn off. /daily setup starts it.")
	} else if err != nil {
		return err
	}
	return answer(ctx, in, Reply{Content: "✅ The daily challenge is no longer posted automatically. /daily today still shows today's maze; /daily setup turns the posts back on.", Ephemeral: true})
}

// dailyAwardLines are the share lines and the day's rank of a daily win
// on a maze of the given rating and par.
func dailyAwardLines(a *contest.DailyAward, r play.Result, rating, par int) []string {
	share := dailyShare{number: a.Number, rating: rating, elapsed: r.Elapsed, clicks: r.Clicks, par: par, streak: a.Streak}
	lines := []string{"📋 Share it: `" + share.line() + "`", "Share (text only): `" + share.text() + "`"}
	if a.Standing.UserID == "" {
		return lines
	}
	line := fmt.Sprintf("🏆 Daily #%d: you're #%d of %d today", a.Number, a.Standing.Rank, a.Of)
	if best := a.Standing; best.Elapsed != r.Elapsed.Truncate(time.Millisecond) || best.Tiles != r.Tiles {
		line += fmt.Sprintf(" with your best run (%s · %d tiles)", formatDuration(best.Elapsed, false), best.Tiles)
	}
	return append(lines, line+". /leaderboard shows everyone.")
}

// dailyShare is what the share lines tell of a daily run: nothing that
// spoils the maze.
type dailyShare struct {
	number, rating int
	elapsed        time.Duration
	clicks, par    int
	streak         int
}

// line is the share line: "mazebot daily #334 · ★★★ · 1:42 · par +2 · 🔥4".
func (s dailyShare) line() string {
	out := fmt.Sprintf("mazebot daily #%d · %s · %s · par %s", s.number, strings.Repeat("★", s.rating), formatDuration(s.elapsed, false), overPar(s.clicks, s.par))
	if s.streak > 0 {
		out += fmt.Sprintf(" · 🔥%d", s.streak)
	}
	return out
}

// text is the share line in words alone, for a screen reader and for
// wherever stars and emoji don't come through: "mazebot daily 334,
// difficulty 3 of 5, time 1 minute 42 seconds, 2 clicks over par, streak
// 4 days".
func (s dailyShare) text() string {
	en := lang.English
	parts := []string{
		fmt.Sprintf("mazebot daily %d", s.number),
		fmt.Sprintf("difficulty %d of %d", s.rating, maxRating),
		"time " + en.Duration(s.elapsed.Truncate(time.Second)),
	}
	switch d := s.clicks - s.par; {
	case d > 0:
		parts = append(parts, en.T("count.clicks", lang.Args{"Count": d})+" over par")
	case d < 0:
		parts = append(parts, en.T("count.clicks", lang.Args{"Count": -d})+" under par")
	default:
		parts = append(parts, "at par")
	}
	if s.streak > 0 {
		parts = append(parts, "streak "+en.T("unit.day", lang.Args{"Count": s.streak}))
	}
	return strings.Join(parts, ", ")
}
