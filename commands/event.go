package commands

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"mazebot/commands/lang"
	"mazebot/contest"
	"mazebot/mazecore"
)

const (
	// boardTop is how many members the board lists.
	boardTop = 10
	// maxEventName is the longest event name, in code points.
	maxEventName  = 80
	eventSubStart = "start"
	eventSubEnd   = "end"
)

// Events is /event start and /event end.
type Events struct {
	events *contest.Events
	seed   func() uint64
}

// NewEvents serves the events run by events, with random mazes from seed.
func NewEvents(events *contest.Events, seed func() uint64) *Events {
	return &Events{events: events, seed: seed}
}

func (f *Events) Components() []Component { return nil }

func (f *Events) Commands() []Command {
	perms := int64(discordgo.PermissionManageGuild)
	size := intOption("size", fmt.Sprintf("Width and height in tiles, odd, %d–%d", mazecore.MinSize, contest.EventMaxSide), mazecore.MinSize, contest.EventMaxSide)
	size.Required = true
	return []Command{{
		Definition: &discordgo.ApplicationCommand{
			Name:        "event",
			Description: "Community maze events (Manage Server)",
			// Discord hides the command from members without Manage
			// Server; the handler checks again, as overrides can change it.
			DefaultMemberPermissions: &perms,
			Contexts:                 &[]discordgo.InteractionContextType{discordgo.InteractionContextGuild},
			Options: []*discordgo.ApplicationCommandOption{
				{
					Type: discordgo.ApplicationCommandOptionSubCommand, Name: eventSubStart, Description: "Start an event: everyone plays one maze, with a live leaderboard",
					Options: []*discordgo.ApplicationCommandOption{
						algorithmOption("How to carve the maze", true),
						size,
						{Type: discordgo.ApplicationCommandOptionString, Name: "duration", Description: "How long it runs: 30m, 2h, 1h30m, 1d (5 minutes to 7 days)", Required: true, MaxLength: 20},
						channelOption("Where to run it (default: here)", false),
						{Type: discordgo.ApplicationCommandOptionString, Name: "name", Description: "The event's name", MaxLength: maxEventName},
						difficultyOption("Among mazes like it: easy, medium or hard (default any)"),
						loopsOption("Share of dead ends opened into loops, 0–100 (default 0: no loops)"),
						languageOption("The language of its posts (default: the server's language)"),
					},
				},
				{
					Type: discordgo.ApplicationCommandOptionSubCommand, Name: eventSubEnd, Description: "End the running event now and post the results",
					Options: []*discordgo.ApplicationCommandOption{channelOption("The event's channel (default: here)", false)},
				},
			},
		},
		Handle: f.handleEvent,
	}}
}

func (f *Events) handleEvent(ctx context.Context, in *Interaction) error {
	if in.GuildID == "" || in.Member == nil {
		return refuse("error.event_dm")
	}
	if err := requireManager(in, "error.event_manager"); err != nil {
		return err
	}
	sub, opts := subcommand(in)
	switch sub {
	case eventSubStart:
		return f.start(ctx, in, opts)
	case eventSubEnd:
		return f.end(ctx, in, opts)
	}
	return refuse("error.event_usage")
}

// eventRequest is a validated /event start.
type eventRequest struct {
	event    contest.Event
	level    mazecore.Level // for the confirmation: the ID does not keep it
	duration time.Duration
	notice   lang.Msg
}

func (f *Events) parseEventRequest(in *Interaction, opts options) (eventRequest, error) {
	var req eventRequest
	if _, ok := opts["algorithm"]; !ok {
		return req, refuse("error.event_no_algorithm", lang.Args{"Choices": algorithmChoices()})
	}
	algo, err := opts.algorithm(0)
	if err != nil {
		return req, err
	}
	side, notice, err := opts.size("size", 0, contest.EventMaxSide, "size.why.event")
	if err != nil {
		return req, err
	}
	if side == 0 {
		return req, refuse("error.event_no_size", lang.Args{"Min": mazecore.MinSize, "Max": contest.EventMaxSide})
	}
	req.notice = notice
	if req.duration, err = parseEventDuration(opts.string("duration", "")); err != nil {
		return req, err
	}
	channelID, err := eventChannel(in, opts)
	if err != nil {
		return req, err
	}
	language, err := opts.language(in.GuildLang().Code())
	if err != nil {
		return req, err
	}
	// The default name is in the language of the posts that show it.
	name, err := eventName(opts.string("name", ""), lang.ByCode(language).T("event.default_name"))
	if err != nil {
		return req, err
	}
	level, loops, err := opts.levelAndLoops(mazecore.AnyLevel, 0)
	if err != nil {
		return req, err
	}
	// Event mazes stay within DifficultyMaxSide: choosing costs at most
	// ~10 ms at EventMaxSide.
	maze, err := chooseLevel(mazecore.ID{Algorithm: algo, Width: side, Height: side, Seed: f.seed() & maxSeed, Loops: loops}, level)
	if err != nil {
		return req, err
	}
	req.level = level
	req.event = contest.Event{GuildID: in.GuildID, ChannelID: channelID, Name: name, CreatorID: in.UserID(), MazeID: maze, Language: language}
	return req, nil
}

var daysPrefix = regexp.MustCompile(`^([0-9]{1,3})d`)

// parseEventDuration reads "30m", "2h", "1h30m", "1d", "1d12h" and any Go
// duration, within the bounds of an event.
func parseEventDuration(text string) (time.Duration, error) {
	s := strings.ToLower(strings.Join(strings.Fields(text), ""))
	bounds := lang.Args{"Min": durationIn(contest.MinEventDuration), "Max": durationIn(contest.MaxEventDuration)}
	bad := refuse("error.bad_duration", bounds, lang.Args{"Text": sanitize(text)})
	if s == "" {
		return 0, bad
	}
	var d time.Duration
	if m := daysPrefix.FindStringSubmatch(s); m != nil {
		days, _ := strconv.Atoi(m[1]) // at most three digits
		d = time.Duration(days) * 24 * time.Hour
		s = s[len(m[0]):]
	}
	if s != "" {
		rest, err := time.ParseDuration(s)
		if err != nil || rest < 0 {
			return 0, bad
		}
		d += rest
	}
	if d < contest.MinEventDuration || d > contest.MaxEventDuration {
		return 0, refuse("error.duration_range", bounds, lang.Args{"Text": sanitize(text), "Duration": durationIn(d)})
	}
	return d, nil
}

// durationIn writes d in the reader's language: "7 days", "7일".
func durationIn(d time.Duration) lang.Func {
	return func(l *lang.Lang) string { return l.Duration(d) }
}

// eventChannel is the channel option, or the channel the command was used
// in. A channel of another server (only a forged interaction names one)
// is refused.
func eventChannel(in *Interaction, opts options) (string, error) {
	id := opts.string("channel", "")
	if id == "" {
		return in.ChannelID, nil
	}
	if !canonicalNumber(id) {
		return "", refuse("error.bad_channel")
	}
	return guildChannel(in, opts, in.ChannelID)
}

// eventName trims the name, or takes fallback for none, and makes it safe
// to post (postableName).
func eventName(text, fallback string) (string, error) {
	name := strings.Join(strings.Fields(stripControls(text)), " ")
	if name == "" {
		return fallback, nil
	}
	if n := utf8.RuneCountInString(name); n > maxEventName {
		return "", refuse("error.event_name_long", lang.Args{"Max": maxEventName, "Length": n})
	}
	return postableName(name)
}

func (f *Events) start(ctx context.Context, in *Interaction, opts options) error {
	req, err := f.parseEventRequest(in, opts)
	if err != nil {
		return err
	}
	// Posting the maze (maybe a PNG) and the board takes a few calls.
	if err := deferReply(ctx, in, true); err != nil {
		return err
	}
	e, err := f.events.Start(ctx, req.event, req.duration)
	switch {
	case errors.Is(err, contest.ErrConflict) && e.ID != 0:
		return refuseWith(err, "error.event_running", lang.Args{"Channel": e.ChannelID, "Name": e.Name, "Ends": e.EndsAt.Unix()})
	case errors.Is(err, contest.ErrConflict):
		// It ended between the two reads: say so without its details.
		return refuseWith(err, "error.event_just_ran", lang.Args{"Channel": req.event.ChannelID})
	case errors.Is(err, contest.ErrNotPosted):
		return refuseWith(err, "error.event_not_posted", lang.Args{"Channel": req.event.ChannelID})
	case err != nil:
		return err
	}
	l := in.Lang()
	content := l.T("event.started", lang.Args{
		"Name": e.Name, "Channel": e.ChannelID, "Ends": e.EndsAt.Unix(),
		"Maze":     lang.M("maze.kind", lang.Args{"Size": sizeOf(e.MazeID), "Algorithm": algorithmName(e.MazeID.Algorithm)}),
		"Shape":    eventShape(req.level, e.MazeID.Loops),
		"Language": lang.ByCode(e.Language).Name(),
	})
	if !req.notice.IsZero() {
		content += "\nℹ️ " + req.notice.In(l)
	}
	return answer(ctx, in, Reply{Content: content, Ephemeral: true})
}

// eventShape says what a difficulty and loops add to an event's maze:
// " (hard, loops 30 %)", or nothing.
func eventShape(level mazecore.Level, loops int) lang.Localizable {
	var parts lang.List
	if level != mazecore.AnyLevel {
		parts = append(parts, lang.M("choice.difficulty."+level.String()))
	}
	if loops > 0 {
		parts = append(parts, lang.M("maze.loops", lang.Args{"Loops": loops}))
	}
	if len(parts) == 0 {
		return lang.Func(func(*lang.Lang) string { return "" })
	}
	return lang.M("format.aside", lang.Args{"Text": parts})
}

func (f *Events) end(ctx context.Context, in *Interaction, opts options) error {
	channelID, err := eventChannel(in, opts)
	if err != nil {
		return err
	}
	e, err := f.events.RunningIn(ctx, channelID)
	if err == nil && e.GuildID != in.GuildID {
		err = contest.ErrNotFound // another server's: as if there were none
	}
	if errors.Is(err, contest.ErrNotFound) {
		return refuseWith(err, "error.no_event", lang.Args{"Channel": channelID})
	}
	if err != nil {
		return fmt.Errorf("running event in %s: %w", channelID, err)
	}
	if err := deferReply(ctx, in, true); err != nil {
		return err
	}
	args := lang.Args{"Name": e.Name, "Channel": channelID}
	done := "event.ended"
	switch err := f.events.End(ctx, e); {
	case errors.Is(err, contest.ErrConflict):
		return refuseWith(err, "error.event_ended_itself", args)
	case errors.Is(err, contest.ErrPostsPending) && errors.Is(err, contest.ErrRefused):
		// It ended: say so, and what is wrong with the channel.
		done = "event.ended_refused"
	case errors.Is(err, contest.ErrPostsPending):
		done = "event.ended_pending"
	case err != nil:
		return err
	}
	return answer(ctx, in, Reply{Content: in.Lang().T(done, args), Ephemeral: true})
}

// eventMazeMessage is the event's maze: emoji or PNG as for /maze, with
// Play only while it runs (no Solve), and both once it has ended. With
// withFile false a PNG maze leaves its file out, for an edit that keeps
// the attachment. It is in the event's language, as every post of it.
func eventMazeMessage(e contest.Event, withFile bool) (Reply, error) {
	l := lang.ByCode(e.Language)
	m, err := generate(e.MazeID)
	if err != nil {
		return Reply{}, err
	}
	args := lang.Args{"Name": e.Name, "Ends": e.EndsAt.Unix()}
	header := l.T("event.maze_running", args)
	if e.Status == contest.Ended {
		header = l.T("event.maze_ended", args)
	}
	reply, err := showMaze(l, m, renderAuto, header+"\n"+mazeHeader(l, m), withFile)
	if err != nil {
		return Reply{}, err
	}
	reply.Components = mazeButtons(l, e.MazeID)
	if e.Status != contest.Ended {
		reply.Components = []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{playButtonFor(l, e.MazeID)}}}
	}
	return reply, nil
}

// finishers counts the members on a board.
func finishers(n int) lang.Msg { return lang.M("count.finishers", lang.Args{"Count": n}) }

// boardMessage is the live board, or the final one once e has ended.
func boardMessage(e contest.Event, standings []contest.Standing) Reply {
	l := lang.ByCode(e.Language)
	args := lang.Args{"Name": e.Name, "Ends": e.EndsAt.Unix(), "Finishers": finishers(len(standings))}
	var b strings.Builder
	switch {
	case e.Status == contest.Ended:
		b.WriteString(l.T("event.board_final", args))
	case len(standings) == 0:
		b.WriteString(l.T("event.board_empty", args))
	default:
		b.WriteString(l.T("event.board_live", args))
	}
	writeStandings(l, &b, standings)
	return Reply{Content: b.String(), Components: []discordgo.MessageComponent{}}
}

// resultsMessage is the post that announces the end.
func resultsMessage(e contest.Event, standings []contest.Standing) Reply {
	l := lang.ByCode(e.Language)
	var b strings.Builder
	if len(standings) == 0 {
		b.WriteString(l.T("event.results_none", lang.Args{"Name": e.Name}))
	} else {
		b.WriteString(l.T("event.results", lang.Args{"Name": e.Name, "Finishers": finishers(len(standings))}))
	}
	writeStandings(l, &b, standings)
	return Reply{Content: b.String()}
}

// writeStandings lists the top of a ranking, one member a line.
func writeStandings(l *lang.Lang, b *strings.Builder, standings []contest.Standing) {
	for i, r := range standings {
		if i == boardTop {
			b.WriteString("\n" + l.T("event.more", lang.Args{"Count": len(standings) - boardTop}))
			break
		}
		fmt.Fprintf(b, "\n%s <@%s> · %s", rankBadge(r.Rank), r.UserID, l.T("event.line", lang.Args{
			"Time":   l.RunTime(r.Elapsed),
			"Tiles":  lang.M("count.tiles", lang.Args{"Count": r.Tiles}),
			"Clicks": lang.M("count.clicks", lang.Args{"Count": r.Clicks}),
		}))
	}
}

// eventAwardLines tell a member where a won event game put them.
func eventAwardLines(l *lang.Lang, a *contest.EventAward) []string {
	if a.Late {
		return []string{l.T("event.award_late", lang.Args{"Name": a.Event.Name})}
	}
	if a.Standing.UserID == "" {
		return nil
	}
	return []string{l.T("event.award", lang.Args{"Rank": a.Standing.Rank, "Of": a.Of, "Name": a.Event.Name, "Ends": a.Event.EndsAt.Unix()})}
}
