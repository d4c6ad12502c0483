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
					languageOption("The language of the posts (default: the server's language)"),
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
		return refuse("error.daily_dm")
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
	return refuse("error.daily_usage")
}

// dateOf writes a daily's date in l.
func dateOf(l *lang.Lang, d contest.Date) string { return l.Date(d.Noon(time.UTC)) }

// dailyHeader is the line above a daily maze.
func dailyHeader(l *lang.Lang, day contest.Daily) string {
	return l.T("daily.header", lang.Args{"Number": day.Number(), "Date": dateOf(l, day.Date), "Opens": day.SolutionsOpen().Unix()})
}

// dailyMessage is the daily's message in l: header, maze and buttons.
// /daily today is in the member's language, the automatic post in the
// server's.
func dailyMessage(l *lang.Lang, day contest.Daily) (Reply, error) {
	m, err := generate(day.MazeID)
	if err != nil {
		return Reply{}, err
	}
	reply, err := showMaze(l, m, renderAuto, dailyHeader(l, day)+"\n"+mazeHeader(l, m), true)
	reply.Components = mazeButtons(l, day.MazeID)
	return reply, err
}

func (f *Daily) today(ctx context.Context, in *Interaction) error {
	day, err := f.dailies.Show(ctx, in.GuildID)
	if err != nil {
		return err
	}
	build := func() (Reply, error) { return dailyMessage(in.Lang(), day) }
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

func (f *Daily) setup(ctx context.Context, in *Interaction, opts options) error {
	if err := requireManager(in, "error.daily_setup_manager"); err != nil {
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
		return refuse("error.daily_no_channel")
	}
	var ok bool
	if s.PostAt, ok = contest.ParseTimeOfDay(strings.TrimSpace(opts.string("time", ""))); !ok {
		return refuse("error.bad_time", lang.Args{"Text": sanitize(opts.string("time", ""))})
	}
	tz := strings.TrimSpace(opts.string("timezone", ""))
	// "" and "Local" load too, but mean UTC and the bot host's zone.
	if s.Zone, err = time.LoadLocation(tz); err != nil || tz == "" || tz == "Local" {
		return refuseWith(err, "error.bad_zone", lang.Args{"Text": sanitize(tz)})
	}
	if s.Algorithm, err = opts.algorithm(s.Algorithm); err != nil {
		return err
	}
	var notice lang.Msg
	if s.Size, notice, err = opts.size("size", s.Size, contest.DailyMaxSize, "size.why.daily"); err != nil {
		return err
	}
	if s.Difficulty, s.Loops, err = opts.levelAndLoops(s.Difficulty, s.Loops); err != nil {
		return err
	}
	// The server's language as Discord has it now, unless a manager
	// chose one, now or at an earlier setup: a setup that leaves an option
	// out keeps the server's setting.
	fallback := s.Language
	if fallback == "" {
		fallback = in.GuildLang().Code()
	}
	if s.Language, err = opts.language(fallback); err != nil {
		return err
	}
	next, err := f.dailies.Setup(ctx, s)
	if err != nil {
		return err
	}
	l := in.Lang()
	content := l.T("daily.setup_done", lang.Args{
		"Channel": s.ChannelID, "At": s.PostAt.String(), "Zone": s.Zone.String(),
		"Maze":     shape(s.Algorithm, s.Size, s.Difficulty, s.Loops),
		"Language": lang.ByCode(s.Language).Name(),
		"Next":     next.Unix(),
	})
	if !notice.IsZero() {
		content += "\nℹ️ " + notice.In(l)
	}
	return answer(ctx, in, Reply{Content: content, Ephemeral: true})
}

func (f *Daily) off(ctx context.Context, in *Interaction) error {
	if err := requireManager(in, "error.daily_off_manager"); err != nil {
		return err
	}
	if err := f.dailies.TurnOff(ctx, in.GuildID); errors.Is(err, contest.ErrNotEnabled) {
		return refuseWith(err, "error.daily_not_on")
	} else if err != nil {
		return err
	}
	return answer(ctx, in, Reply{Content: in.Lang().T("daily.off_done"), Ephemeral: true})
}

// dailyAwardLines are the share lines and the day's rank of a daily win
// on a maze of the given rating and par.
func dailyAwardLines(l *lang.Lang, a *contest.DailyAward, r play.Result, rating, par int) []string {
	share := dailyShare{number: a.Number, rating: rating, elapsed: r.Elapsed, clicks: r.Clicks, par: par, streak: a.Streak}
	lines := []string{l.T("daily.share", lang.Args{"Line": share.line(l)}), l.T("daily.share_text", lang.Args{"Line": share.text(l)})}
	if a.Standing.UserID == "" {
		return lines
	}
	args := lang.Args{"Number": a.Number, "Rank": a.Standing.Rank, "Of": a.Of}
	rank := "daily.rank"
	if best := a.Standing; best.Elapsed != r.Elapsed.Truncate(time.Millisecond) || best.Tiles != r.Tiles {
		rank = "daily.rank_best"
		args["Time"], args["Tiles"] = l.Clock(best.Elapsed), lang.M("count.tiles", lang.Args{"Count": best.Tiles})
	}
	return append(lines, l.T(rank, args))
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
func (s dailyShare) line(l *lang.Lang) string {
	out := l.T("share.line", lang.Args{"Number": s.number, "Stars": strings.Repeat("★", s.rating), "Time": l.Clock(s.elapsed), "OverPar": overPar(s.clicks, s.par)})
	if s.streak > 0 {
		out += fmt.Sprintf(" · 🔥%d", s.streak)
	}
	return out
}

// text is the share line in words alone, for a screen reader and for
// wherever stars and emoji don't come through: "mazebot daily 334,
// difficulty 3 of 5, time 1 minute 42 seconds, 2 clicks over par, streak
// 4 days".
func (s dailyShare) text(l *lang.Lang) string {
	var par lang.Msg
	switch d := s.clicks - s.par; {
	case d > 0:
		par = lang.M("share.over_par", lang.Args{"Count": d})
	case d < 0:
		par = lang.M("share.under_par", lang.Args{"Count": -d})
	default:
		par = lang.M("share.at_par")
	}
	id := "share.text"
	if s.streak > 0 {
		id = "share.text_streak"
	}
	return l.T(id, lang.Args{
		"Number": s.number, "Rating": s.rating, "Of": maxRating,
		"Time": l.Duration(s.elapsed.Truncate(time.Second)), "Par": par,
		"Streak": lang.M("unit.day", lang.Args{"Count": s.streak}),
	})
}
