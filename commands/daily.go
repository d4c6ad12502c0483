package commands

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"mazebot/bot"
	"mazebot/commands/pictures"
	"mazebot/commands/views"
	"mazebot/commands/zones"
	"mazebot/contest"
	"mazebot/lang"
	"mazebot/mazecore"
)

// Daily is /daily (today, setup, off) and /leaderboard.
type Daily struct {
	dailies  *contest.Dailies
	posts    PostLog
	pictures *pictures.Queue
	now      func() time.Time
	cards    views.Setup // what the buttons of the day's maze depend on
	// reminders are /daily remind's.
	reminders *contest.Reminders
	// archive answers /daily archive; New sets it, with the games it
	// plays.
	archive *Archive
	// champions keeps the champion roles (New sets it).
	champions *contest.Champions
}

// NewDaily serves the daily challenge run by dailies and the streak
// reminders, drawing on the queue and recording the mazes it shows in
// posts; setup is what the day's maze's buttons depend on.
func NewDaily(dailies *contest.Dailies, reminders *contest.Reminders, posts PostLog, q *pictures.Queue, now func() time.Time, setup views.Setup) *Daily {
	return &Daily{dailies: dailies, reminders: reminders, posts: posts, pictures: q, now: now, cards: setup}
}

func (f *Daily) Commands() []bot.Command {
	return []bot.Command{
		{
			Definition: serverOnly(&discordgo.ApplicationCommand{
				Name: "daily",
				Options: []*discordgo.ApplicationCommandOption{
					subcommand("today"),
					subcommand("setup",
						channelOption(true),
						stringOption("time", 5, true),
						zoneOption(),
						algorithmOption(false),
						sizeOption("size", contest.DailyMaxSize),
						difficultyOption(),
						loopsOption(),
						languageOption(),
						boolOption("recap"),
						boolOption("recap-pings"),
						roleOption("champion-role"),
						boolOption("champion-role-off"),
						choicesOption("grid", mazecore.GridNames()),
						choicesOption("shape", dailyShapes()),
					),
					subcommand("off"),
					subcommand("remind", stringOption("time", 5, true)),
					subcommand("archive", stringOption("date", 10, false)),
				},
			}),
			Handle: bot.Subcommands(map[string]bot.Handler{
				"today":   f.today,
				"setup":   bot.Stack(f.setup, bot.ManagersOnly("error.daily_setup_manager")),
				"off":     bot.Stack(f.off, bot.ManagersOnly("error.daily_off_manager")),
				"remind":  f.remind,
				"archive": func(ctx context.Context, in *bot.Interaction) error { return f.archive.command(ctx, in) },
			}, "error.daily_usage"),
			Autocomplete: f.completeZone,
			Use:          []bot.Middleware{bot.GuildOnly("error.daily_dm")},
		},
		leaderboardCommand(f),
	}
}

func (f *Daily) Components() []bot.Component { return nil }

// today answers /daily today privately: the day's maze belongs in one
// post, which the answer links to once it is made, not in a new public
// message each time a member asks (issue 16 row 6).
func (f *Daily) today(ctx context.Context, in *bot.Interaction) error {
	day, err := f.dailies.Show(ctx, in.GuildID)
	if err != nil {
		return err
	}
	post, posted, err := f.dailies.Posted(ctx, in.GuildID, day.Date)
	if err != nil {
		return err
	}
	link := ""
	if posted {
		link = views.MessageLink(post.GuildID, post.ChannelID, post.MessageID)
	}
	streak, err := f.dailies.StreakOf(ctx, in.GuildID, in.UserID(), day.Date)
	if err != nil {
		return err
	}
	l := in.Lang()
	reply, err := showReply(ctx, f.pictures, in, day.MazeID, renderAuto, pictures.Request{Ephemeral: true}, func() (bot.Reply, error) {
		v, err := dailyMaze(l, day, true, f.cards)
		return views.DailyToday(l, day, v, link, streak), err
	})
	if err != nil {
		return err
	}
	return answer(ctx, in, reply)
}

// dailyMaze is the daily's maze as its message in l shows it.
func dailyMaze(l *lang.Lang, day contest.Daily, withFile bool, setup views.Setup) (views.Maze, error) {
	if !day.MazeID.Plain() {
		return dailyGridMaze(l, day, withFile, setup)
	}
	m, err := generate(day.MazeID)
	if err != nil {
		return views.Maze{}, err
	}
	v := describe(m)
	v.Setup = setup
	err = picture(l, &v, m, pictureOptions{header: views.DailyMazeHeader(l, day, v), extra: 1, keepFile: !withFile})
	return v, err
}

// zoneOption is the time zone of /daily setup, completed as it is typed:
// Discord lets an option have 25 choices, and there are hundreds of zones.
func zoneOption() *discordgo.ApplicationCommandOption {
	o := stringOption("timezone", 64, true)
	o.Autocomplete = true
	return o
}

// completeZone offers the zones that match what the member has typed of
// the time zone, by city, country or offset, in their language where the
// zone's city has a name in it.
func (f *Daily) completeZone(ctx context.Context, in *bot.Interaction) error {
	var choices []*discordgo.ApplicationCommandOptionChoice
	if name, typed := bot.Focused(in); name == "timezone" {
		for _, m := range zones.Search(typed, in.Lang().Code(), f.now(), maxChoices) {
			choices = append(choices, &discordgo.ApplicationCommandOptionChoice{Name: m.Label, Value: m.Zone})
		}
	}
	return in.Respond.Choices(ctx, choices)
}

// setupOptions are /daily setup's options as typed.
type setupOptions struct {
	Channel    string `option:"channel"`
	Time       string `option:"time"`
	Timezone   string `option:"timezone"`
	Algorithm  string `option:"algorithm"`
	Size       *int64 `option:"size"`
	Difficulty string `option:"difficulty"`
	Loops      *int64 `option:"loops"`
	Language   string `option:"language"`
	Recap      *bool  `option:"recap"`
	RecapPings *bool  `option:"recap-pings"`
	// ChampionRole is a role's id (champion.go).
	ChampionRole    string `option:"champion-role"`
	ChampionRoleOff *bool  `option:"champion-role-off"`
	Grid            string `option:"grid"`
	Shape           string `option:"shape"` // a preset's name or contest.ShapeCalendar
}

func (f *Daily) setup(ctx context.Context, in *bot.Interaction) error {
	var o setupOptions
	bot.Options(in, &o)
	s, err := f.dailies.Settings(ctx, in.GuildID)
	if err != nil {
		return err
	}
	if s.ChannelID, err = guildChannel(in, o.Channel, ""); err != nil {
		return err
	}
	if s.ChannelID == "" {
		return bot.Refuse("error.daily_no_channel")
	}
	var ok bool
	if s.PostAt, ok = contest.ParseTimeOfDay(strings.TrimSpace(o.Time)); !ok {
		return bot.Refuse("error.bad_time", lang.Args{"Text": sanitize(o.Time)})
	}
	tz := strings.TrimSpace(o.Timezone)
	// "" and "Local" load too, but mean UTC and the bot host's zone.
	if s.Zone, err = time.LoadLocation(tz); err != nil || tz == "" || tz == "Local" {
		return bot.RefuseWith(err, "error.bad_zone", lang.Args{"Text": sanitize(tz)})
	}
	if s.Algorithm, err = algorithm(o.Algorithm, s.Algorithm); err != nil {
		return err
	}
	var notice lang.Msg
	if s.Size, notice, err = side("size", o.Size, s.Size, contest.DailyMaxSize, "size.why.daily"); err != nil {
		return err
	}
	if s.Difficulty, s.Loops, err = levelAndLoops(o.Difficulty, o.Loops, s.Difficulty, s.Loops); err != nil {
		return err
	}
	if err := setupShape(&s, o); err != nil {
		return err
	}
	// The server's language as Discord has it now, unless a manager
	// chose one, now or at an earlier setup: a setup that leaves an option
	// out keeps the server's setting.
	fallback := s.Language
	if fallback == "" {
		fallback = in.GuildLang().Code()
	}
	if s.Language, err = language(o.Language, fallback); err != nil {
		return err
	}
	roleID, roleOff, err := championRole(in, o)
	if err != nil {
		return err
	}
	saved, next, err := f.dailies.Setup(ctx, s)
	if err != nil {
		return err
	}
	l := in.Lang()
	content := views.SetupDone(l, saved, next)
	if o.Recap != nil || o.RecapPings != nil {
		// Only what was given changes: a setup that leaves them out
		// keeps the server's choice.
		r, err := f.dailies.RecapSettings(ctx, in.GuildID)
		if err != nil {
			return err
		}
		if o.Recap != nil {
			r.Off = !*o.Recap
		}
		if o.RecapPings != nil {
			r.Pings = *o.RecapPings
		}
		if err := f.dailies.SaveRecapSettings(ctx, r); err != nil {
			return err
		}
		content += "\n" + views.RecapSetup(l, r)
	}
	if said, err := f.setChampionRole(ctx, in, roleID, roleOff); err != nil {
		return err
	} else if said != "" {
		content += "\n" + said
	}
	if !notice.IsZero() {
		content += "\n" + views.Notice(l, notice)
	}
	return answer(ctx, in, bot.Reply{Content: content, Ephemeral: true})
}

func (f *Daily) off(ctx context.Context, in *bot.Interaction) error {
	if err := f.dailies.TurnOff(ctx, in.GuildID); errors.Is(err, contest.ErrNotEnabled) {
		return bot.RefuseWith(err, "error.daily_not_on")
	} else if err != nil {
		return err
	}
	return answer(ctx, in, bot.Reply{Content: in.Lang().T("daily.off_done"), Ephemeral: true})
}
