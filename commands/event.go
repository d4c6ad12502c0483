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

	"mazebot/contest"
	"mazebot/mazecore"
)

const (
	// boardTop is how many members the board lists.
	boardTop = 10
	// maxEventName is the longest event name, in code points.
	maxEventName       = 80
	defaultEventName   = "Maze event"
	eventSubStart      = "start"
	eventSubEnd        = "end"
	eventDurationUsage = "Use minutes, hours or days, like 30m, 2h, 1h30m or 1d: from 5 minutes to 7 days."
	eventManagerHint   = "Ask a moderator, or join the running event with **Play** under its maze."
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
		return userErrorf("Events run in a server channel: use /event there.")
	}
	if err := requireManager(in, "start or end events", eventManagerHint); err != nil {
		return err
	}
	sub, opts := subcommand(in)
	switch sub {
	case eventSubStart:
		return f.start(ctx, in, opts)
	case eventSubEnd:
		return f.end(ctx, in, opts)
	}
	return userErrorf("Use /event start or /event end.")
}

// eventRequest is a validated /event start.
type eventRequest struct {
	event    contest.Event
	level    mazecore.Level // for the confirmation: the ID does not keep it
	duration time.Duration
	notice   string
}

func (f *Events) parseEventRequest(in *Interaction, opts options) (eventRequest, error) {
	var req eventRequest
	if _, ok := opts["algorithm"]; !ok {
		return req, userErrorf("Pick an algorithm: %s.", algorithmList())
	}
	algo, err := opts.algorithm(0)
	if err != nil {
		return req, err
	}
	side, notice, err := opts.size("size", 0, contest.EventMaxSide, ", so everyone can play it")
	if err != nil {
		return req, err
	}
	if side == 0 {
		return req, userErrorf("Give the maze size: an odd number of tiles from %d to %d.", mazecore.MinSize, contest.EventMaxSide)
	}
	req.notice = notice
	if req.duration, err = parseEventDuration(opts.string("duration", "")); err != nil {
		return req, err
	}
	channelID, err := eventChannel(in, opts)
	if err != nil {
		return req, err
	}
	name, err := eventName(opts.string("name", ""))
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
	req.event = contest.Event{GuildID: in.GuildID, ChannelID: channelID, Name: name, CreatorID: in.UserID(), MazeID: maze}
	return req, nil
}

var daysPrefix = regexp.MustCompile(`^([0-9]{1,3})d`)

// parseEventDuration reads "30m", "2h", "1h30m", "1d", "1d12h" and any Go
// duration, within the bounds of an event.
func parseEventDuration(text string) (time.Duration, error) {
	s := strings.ToLower(strings.Join(strings.Fields(text), ""))
	bad := userErrorf("`%s` is not a duration I understand. %s", sanitize(text), eventDurationUsage)
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
		return 0, userErrorf("An event lasts from 5 minutes to 7 days; `%s` is %s. %s", sanitize(text), d, eventDurationUsage)
	}
	return d, nil
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
		return "", userErrorf("That is not a channel I can use: pick one from the list.")
	}
	return guildChannel(in, opts, in.ChannelID)
}

// eventName trims and defaults the name, and makes it safe to post
// (postableName).
func eventName(text string) (string, error) {
	name := strings.Join(strings.Fields(stripControls(text)), " ")
	if name == "" {
		return defaultEventName, nil
	}
	if n := utf8.RuneCountInString(name); n > maxEventName {
		return "", userErrorf("An event name is at most %d characters; yours has %d.", maxEventName, n)
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
		return userError(err, fmt.Sprintf("<#%s> already has a running event, **%s**, ending <t:%d:R>. One event runs per channel: end it with /event end, or pick another channel.",
			e.ChannelID, e.Name, e.EndsAt.Unix()))
	case errors.Is(err, contest.ErrConflict):
		// It ended between the two reads: say so without its details.
		return userError(err, fmt.Sprintf("<#%s> had a running event a moment ago. Try again.", req.event.ChannelID))
	case errors.Is(err, contest.ErrNotPosted):
		return userError(err, fmt.Sprintf("I couldn't post the event in <#%s>. Check that I can see that channel and send messages and files there.", req.event.ChannelID))
	case err != nil:
		return err
	}
	id := e.MazeID
	content := fmt.Sprintf("🏆 Event started: **%s** in <#%s>, a %d×%d %s maze%s. It ends <t:%d:f> (<t:%d:R>); the leaderboard there updates as results arrive. /event end closes it early.",
		e.Name, e.ChannelID, id.Width, id.Height, id.Algorithm.Title(), shape(req.level, id.Loops), e.EndsAt.Unix(), e.EndsAt.Unix())
	if req.notice != "" {
		content += "\nℹ️ " + req.notice
	}
	return answer(ctx, in, Reply{Content: content, Ephemeral: true})
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
		return userError(err, fmt.Sprintf("There is no running event in <#%s>. Start one with /event start.", channelID))
	}
	if err != nil {
		return fmt.Errorf("running event in %s: %w", channelID, err)
	}
	if err := deferReply(ctx, in, true); err != nil {
		return err
	}
	content := fmt.Sprintf("🏁 **%s** ended. The final ranking and the solution are posted in <#%s>.", e.Name, channelID)
	switch err := f.events.End(ctx, e); {
	case errors.Is(err, contest.ErrConflict):
		return userError(err, fmt.Sprintf("**%s** has just ended on its own; the results are in <#%s>.", e.Name, channelID))
	case errors.Is(err, contest.ErrPostsPending) && errors.Is(err, contest.ErrRefused):
		// It ended: say so, and what is wrong with the channel.
		content = fmt.Sprintf("🏁 **%s** ended, but I can't post in <#%s>: check that I can see it and send messages and files there. I'll try again for a while.", e.Name, channelID)
	case errors.Is(err, contest.ErrPostsPending):
		content = fmt.Sprintf("🏁 **%s** ended. Discord didn't take all of its closing posts yet; I'll post the final ranking and the solution in <#%s> within a minute.", e.Name, channelID)
	case err != nil:
		return err
	}
	return answer(ctx, in, Reply{Content: content, Ephemeral: true})
}

// eventMazeMessage is the event's maze: emoji or PNG as for /maze, with
// Play only while it runs (no Solve), and both once it has ended. With
// withFile false a PNG maze leaves its file out, for an edit that keeps
// the attachment.
func eventMazeMessage(e contest.Event, withFile bool) (Reply, error) {
	m, err := generate(e.MazeID)
	if err != nil {
		return Reply{}, err
	}
	var header string
	if e.Status == contest.Ended {
		header = fmt.Sprintf("🏆 **%s** · ended <t:%d:f> · results below", e.Name, e.EndsAt.Unix())
	} else {
		header = fmt.Sprintf("🏆 **%s** · ends <t:%d:R> · press **Play**, fastest run wins", e.Name, e.EndsAt.Unix())
	}
	reply, err := showMaze(m, renderAuto, header+"\n"+mazeHeader(m), withFile)
	if err != nil {
		return Reply{}, err
	}
	reply.Components = mazeButtons(e.MazeID)
	if e.Status != contest.Ended {
		reply.Components = []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{playButtonFor(e.MazeID)}}}
	}
	return reply, nil
}

// boardMessage is the live board, or the final one once e has ended.
func boardMessage(e contest.Event, standings []contest.Standing) Reply {
	var b strings.Builder
	switch {
	case e.Status == contest.Ended:
		fmt.Fprintf(&b, "🏁 **Final results** — %s\n🏆 **%s** · ended <t:%d:f>", finishers(len(standings)), e.Name, e.EndsAt.Unix())
	case len(standings) == 0:
		fmt.Fprintf(&b, "📊 **Live leaderboard** — no finishers yet\n🏆 **%s** · ends <t:%d:R>", e.Name, e.EndsAt.Unix())
	default:
		fmt.Fprintf(&b, "📊 **Live leaderboard** — %s\n🏆 **%s** · ends <t:%d:R>", finishers(len(standings)), e.Name, e.EndsAt.Unix())
	}
	writeStandings(&b, standings)
	return Reply{Content: b.String(), Components: []discordgo.MessageComponent{}}
}

// resultsMessage is the post that announces the end.
func resultsMessage(e contest.Event, standings []contest.Standing) Reply {
	var b strings.Builder
	if len(standings) == 0 {
		fmt.Fprintf(&b, "🏁 **%s** is over. Nobody reached the goal this time; the solution follows.", e.Name)
	} else {
		fmt.Fprintf(&b, "🏁 **%s** is over! Final ranking, %s:", e.Name, finishers(len(standings)))
	}
	writeStandings(&b, standings)
	return Reply{Content: b.String()}
}

func finishers(n int) string {
	if n == 1 {
		return "1 finisher"
	}
	return fmt.Sprintf("%d finishers", n)
}

// writeStandings lists the top of a ranking, one member a line.
func writeStandings(b *strings.Builder, standings []contest.Standing) {
	for i, r := range standings {
		if i == boardTop {
			fmt.Fprintf(b, "\n… and %d more", len(standings)-boardTop)
			break
		}
		fmt.Fprintf(b, "\n%s <@%s> · %s · %d tiles · %d clicks", rankBadge(r.Rank), r.UserID, formatDuration(r.Elapsed, true), r.Tiles, r.Clicks)
	}
}

// eventAwardLines tell a member where a won event game put them.
func eventAwardLines(a *contest.EventAward) []string {
	if a.Late {
		return []string{fmt.Sprintf("🏆 **%s** had already ended, so this run doesn't count for it.", a.Event.Name)}
	}
	if a.Standing.UserID == "" {
		return nil
	}
	return []string{fmt.Sprintf("🏆 Your best run is **#%d** of %d in **%s** (ends <t:%d:R>).", a.Standing.Rank, a.Of, a.Event.Name, a.Event.EndsAt.Unix())}
}
