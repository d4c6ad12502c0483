package views

import (
	"strings"
	"time"

	"mazebot/bot"
	"mazebot/contest"
	"mazebot/lang"
	"mazebot/mazecore"
	"mazebot/play"
)

// Date writes a daily's date in l.
func Date(l *lang.Lang, d contest.Date) string { return l.Date(d.Noon(time.UTC)) }

// DailyHeader is the line above a daily maze.
func DailyHeader(l *lang.Lang, day contest.Daily) string {
	return l.T("daily.header", lang.Args{"Number": day.Number(), "Date": Date(l, day.Date), "Opens": day.SolutionsOpen().Unix()})
}

// DailyMazeHeader is what stands above the daily's maze: the day, and the
// maze's own header.
func DailyMazeHeader(l *lang.Lang, day contest.Daily, m Maze) string {
	return DailyHeader(l, day) + "\n" + Header(l, m)
}

// Daily is the daily's message in l: header, maze and buttons. /daily
// today is in the member's language, the automatic post in the server's.
func Daily(l *lang.Lang, day contest.Daily, m Maze) bot.Reply {
	return Show(DailyMazeHeader(l, day, m), m, Row(l, m, OnDaily))
}

// DailyToday is /daily today's private answer: the day's maze with Play
// (its Solve could only refuse all day), where the day's post is when it
// has been made (link "" for none), and the member's streak.
func DailyToday(l *lang.Lang, day contest.Daily, m Maze, link string, streak contest.StreakState) bot.Reply {
	header := DailyMazeHeader(l, day, m)
	if link != "" {
		header += "\n" + l.T("daily.today_posted", lang.Args{"Link": link})
	}
	if line := StreakLine(l, streak.Days, streak.Freezes); line != "" {
		header += "\n" + line
	}
	reply := Show(header, m, Row(l, m, OnDailyToday))
	reply.Ephemeral = true
	return reply
}

// MessageLink is the address of a message in a server's channel.
func MessageLink(guildID, channelID, messageID string) string {
	return "https://discord.com/channels/" + guildID + "/" + channelID + "/" + messageID
}

// DailyAwardLines is what a daily win r earned, in one line: the day's
// rank (the share lines wait behind the Share button), or that the day is
// over.
func DailyAwardLines(l *lang.Lang, a *contest.DailyAward, r play.Result) []string {
	if a.Late {
		return []string{l.T("daily.award_late", lang.Args{"Number": a.Number, "Date": Date(l, a.Date)})}
	}
	if a.Standing.UserID == "" {
		return []string{l.T("daily.counted", lang.Args{"Number": a.Number})}
	}
	args := lang.Args{"Number": a.Number, "Rank": lang.Number(a.Standing.Rank), "Of": lang.Number(a.Of)}
	rank := "daily.rank"
	if best := a.Standing; best.Elapsed != r.Elapsed.Truncate(time.Millisecond) || best.Tiles != r.Tiles {
		rank = "daily.rank_best"
		args["Time"], args["Tiles"] = l.Clock(best.Elapsed), lang.M("count.tiles", lang.Args{"Count": best.Tiles})
	}
	lines := []string{l.T(rank, args)}
	if line := StreakLine(l, a.Streak, a.Freezes); line != "" {
		lines = append(lines, line)
	}
	return lines
}

// StreakLine is a member's streak and the freezes that guard it
// ("🔥 Streak: 8 days · 🧊 1 freeze …"), "" for no streak.
func StreakLine(l *lang.Lang, days, freezes int) string {
	if days == 0 {
		return ""
	}
	args := lang.Args{"Days": lang.M("unit.day", lang.Args{"Count": days}), "Freezes": lang.M("count.freezes", lang.Args{"Count": freezes})}
	if freezes == 0 {
		return l.T("daily.streak", args)
	}
	return l.T("daily.streak_freezes", args)
}

// ShareReply answers Share on a won game, privately, with lines ready to
// copy: a daily's share lines (nothing that spoils the maze), or for any
// other maze one that names it, so others can play it too.
func ShareReply(l *lang.Lang, g *play.Game, daily *contest.DailyAward, rating, par int) bot.Reply {
	r := g.Result()
	if daily != nil {
		share := Share{Number: daily.Number, Rating: rating, Elapsed: r.Elapsed, Clicks: r.Clicks, Par: par, Streak: daily.Streak}
		return bot.Reply{Ephemeral: true, Content: l.T("daily.share", lang.Args{"Line": share.Line(l)}) + "\n" + l.T("daily.share_text", lang.Args{"Line": share.Text(l)})}
	}
	line := l.T("share.maze", lang.Args{"Algorithm": AlgorithmTitle(g.MazeID.Algorithm), "Size": Size(g.MazeID), "Time": l.Clock(r.Elapsed), "OverPar": OverPar(r.Clicks, par), "ID": g.MazeID.String()})
	return bot.Reply{Ephemeral: true, Content: l.T("daily.share", lang.Args{"Line": line})}
}

// Share is what the share lines tell of a daily run: nothing that spoils
// the maze.
type Share struct {
	Number, Rating int
	Elapsed        time.Duration
	Clicks, Par    int
	Streak         int
}

// Line is the share line: "mazebot daily #334 · ★★★ · 1:42 · par +2 · 🔥4".
func (s Share) Line(l *lang.Lang) string {
	out := l.T("share.line", lang.Args{"Number": s.Number, "Stars": strings.Repeat("★", s.Rating), "Time": l.Clock(s.Elapsed), "OverPar": OverPar(s.Clicks, s.Par)})
	if s.Streak > 0 {
		out += " · 🔥" + l.Int(int64(s.Streak))
	}
	return out
}

// Text is the share line in words alone, for a screen reader and for
// wherever stars and emoji don't come through: "mazebot daily 334,
// difficulty 3 of 5, time 1 minute 42 seconds, 2 clicks over par, streak
// 4 days".
func (s Share) Text(l *lang.Lang) string {
	var par lang.Msg
	switch d := s.Clicks - s.Par; {
	case d > 0:
		par = lang.M("share.over_par", lang.Args{"Count": d})
	case d < 0:
		par = lang.M("share.under_par", lang.Args{"Count": -d})
	default:
		par = lang.M("share.at_par")
	}
	id := "share.text"
	if s.Streak > 0 {
		id = "share.text_streak"
	}
	return l.T(id, lang.Args{
		"Number": s.Number, "Rating": s.Rating, "Of": MaxRating,
		"Time": l.Duration(s.Elapsed.Truncate(time.Second)), "Par": par,
		"Streak": lang.M("unit.day", lang.Args{"Count": s.Streak}),
	})
}

// AwardLines say what a win earned in its contest: the day's rank, the
// event rank, or an archive day solved; nothing outside a contest.
func AwardLines(l *lang.Lang, a contest.Award, r play.Result) []string {
	switch {
	case a.Daily != nil:
		return DailyAwardLines(l, a.Daily, r)
	case a.Event != nil:
		return EventAwardLines(l, a.Event)
	case a.Archive != nil:
		return ArchiveAwardLines(l, a.Archive)
	}
	return nil
}

// Held explains why a maze's solution is held back, and when it opens,
// asked in guildID.
func Held(h contest.Hold, guildID string) lang.Msg {
	switch {
	case h.Daily != nil:
		which := "held.daily_today"
		if h.Daily.GuildID != guildID {
			which = "held.daily_elsewhere"
		}
		return lang.M(which, lang.Args{"Opens": h.Until().Unix(), "Zone": h.Daily.Zone.String()})
	case h.Closing:
		return lang.M("held.event_closing", lang.Args{"ID": h.Event.MazeID.String(), "Name": h.Event.Name, "Channel": h.Event.ChannelID})
	}
	return lang.M("held.event_running", lang.Args{"ID": h.Event.MazeID.String(), "Name": h.Event.Name, "Opens": h.Until().Unix(), "Channel": h.Event.ChannelID})
}

// SetupDone confirms /daily setup.
func SetupDone(l *lang.Lang, s contest.DailySettings, next time.Time) string {
	done := l.T("daily.setup_done", lang.Args{
		"Channel": s.ChannelID, "At": s.PostAt.String(), "Zone": s.Zone.String(),
		"Maze":     dailyShape(s),
		"Language": lang.ByCode(s.Language).Name(),
		"Next":     next.Unix(),
	})
	if s.ZonePending(s.UpdatedAt) { // as saved: UpdatedAt is the setup's time
		done += "\n" + l.T("daily.zone_pending", lang.Args{"Old": s.PrevZone.String(), "Zone": s.Zone.String(), "From": s.ZoneFrom.Unix()})
	}
	return done
}

// dailyShape describes the settings' maze: "Recursive backtracking,
// 25×25, hard", or on another grid or in a shape "Wilson's algorithm,
// hexagonal, 15×15 cells", or "…, the calendar of shapes".
func dailyShape(s contest.DailySettings) lang.List {
	if s.Grid == mazecore.Square && s.Shape == "" {
		return Shape(s.Algorithm, s.Size, s.Difficulty, s.Loops)
	}
	var what lang.Localizable = lang.M("daily.calendar")
	if s.Shape != contest.ShapeCalendar {
		id, _ := s.BaseMaze(contest.Date{}) // checked by the setup
		what = ShapeWords(id)
	}
	parts := lang.List{AlgorithmTitle(s.Algorithm), what}
	if s.Loops > 0 {
		parts = append(parts, lang.M("maze.loops", lang.Args{"Loops": lang.Percent(s.Loops)}))
	}
	return parts
}

// Notice is a private note after a reply (a size rounded up, say).
func Notice(l *lang.Lang, m lang.Msg) string { return "ℹ️ " + m.In(l) }
