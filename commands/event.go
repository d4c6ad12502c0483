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

	"mazebot/mazecore"
	"mazebot/store"
)

// EventStore is the part of the store community events need.
type EventStore interface {
	// CreateEvent fails with store.ErrConflict when the channel already
	// has a running event.
	CreateEvent(ctx context.Context, e store.Event) (int64, error)
	SetEventMessages(ctx context.Context, id int64, mazeMessageID, boardMessageID string) error
	DeleteEvent(ctx context.Context, id int64) error
	Event(ctx context.Context, id int64) (store.Event, error)
	RunningEvent(ctx context.Context, channelID string) (store.Event, error)
	RunningEventOnMaze(ctx context.Context, mazeID string) (store.Event, error)
	DueEvents(ctx context.Context, now time.Time) ([]store.Event, error)
	DirtyEvents(ctx context.Context) ([]store.Event, error)
	// EndEvent fails with store.ErrConflict when the event is not running:
	// only the caller that ends it posts the results.
	EndEvent(ctx context.Context, id int64, now time.Time) error
	MarkBoardDirty(ctx context.Context, id int64) error
	ClaimBoardEdit(ctx context.Context, id int64, now time.Time, minGap time.Duration) (bool, error)
	SetBoardEdited(ctx context.Context, id int64, at time.Time) error
	EventRanking(ctx context.Context, e store.Event) ([]store.EventEntry, error)
}

const (
	// EventMaxSide is the largest event maze: everyone plays it, so it
	// must stay comfortable in play mode, and the board is the point.
	EventMaxSide = 101
	// MinEventDuration and MaxEventDuration bound /event start duration.
	MinEventDuration = 5 * time.Minute
	MaxEventDuration = 7 * 24 * time.Hour
	// BoardEditInterval is the least time between two live edits of one
	// event's board. Discord allows about 5 edits per 5 s in a channel;
	// one per 10 s leaves room for everything else the bot does there.
	BoardEditInterval = 10 * time.Second
	// boardTop is how many members the board lists.
	boardTop = 10
	// maxEventName is the longest event name, in code points.
	maxEventName       = 80
	defaultEventName   = "Maze event"
	eventCommandName   = "event"
	eventSubStart      = "start"
	eventSubEnd        = "end"
	eventDurationUsage = "Use minutes, hours or days, like 30m, 2h, 1h30m or 1d: from 5 minutes to 7 days."
)

// registerEvents adds the /event command and the hooks that give events
// their games, live board, end and /solve guard.
func registerEvents(r *Router) {
	r.AddCommand(eventCommand())
	r.AddGameContext(eventGameContext)
	r.AddFinishHook(eventFinishHook)
	r.AddTicker(eventTicker(r.deps))
}

func eventCommand() Command {
	choices := algorithmChoices()
	perms := int64(discordgo.PermissionManageGuild)
	channelTypes := []discordgo.ChannelType{discordgo.ChannelTypeGuildText, discordgo.ChannelTypeGuildNews}
	channel := func(description string) *discordgo.ApplicationCommandOption {
		return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionChannel, Name: "channel", Description: description, ChannelTypes: channelTypes}
	}
	size := intOption("size", fmt.Sprintf("Width and height in tiles, odd, %d–%d", mazecore.MinSize, EventMaxSide), mazecore.MinSize, EventMaxSide)
	size.Required = true
	return Command{
		Definition: &discordgo.ApplicationCommand{
			Name:        eventCommandName,
			Description: "Community maze events (Manage Server)",
			// Discord hides the command from members without Manage
			// Server; the handler checks again, as overrides can change it.
			DefaultMemberPermissions: &perms,
			Contexts:                 &[]discordgo.InteractionContextType{discordgo.InteractionContextGuild},
			Options: []*discordgo.ApplicationCommandOption{
				{
					Type: discordgo.ApplicationCommandOptionSubCommand, Name: eventSubStart, Description: "Start an event: everyone plays one maze, with a live leaderboard",
					Options: []*discordgo.ApplicationCommandOption{
						{Type: discordgo.ApplicationCommandOptionString, Name: "algorithm", Description: "How to carve the maze", Choices: choices, Required: true},
						size,
						{Type: discordgo.ApplicationCommandOptionString, Name: "duration", Description: "How long it runs: 30m, 2h, 1h30m, 1d (5 minutes to 7 days)", Required: true, MaxLength: 20},
						channel("Where to run it (default: here)"),
						{Type: discordgo.ApplicationCommandOptionString, Name: "name", Description: "The event's name", MaxLength: maxEventName},
					},
				},
				{
					Type: discordgo.ApplicationCommandOptionSubCommand, Name: eventSubEnd, Description: "End the running event now and post the results",
					Options: []*discordgo.ApplicationCommandOption{channel("The event's channel (default: here)")},
				},
			},
		},
		Handle: handleEvent,
	}
}

func handleEvent(ctx context.Context, in *Interaction) error {
	if err := requireManageServer(in); err != nil {
		return err
	}
	if in.Deps.Events == nil || in.Deps.Poster == nil {
		return errors.New("events are not configured: Deps.Events or Deps.Poster is missing")
	}
	sub, opts := subcommand(in)
	switch sub {
	case eventSubStart:
		return startEvent(ctx, in, opts)
	case eventSubEnd:
		return endEventCommand(ctx, in, opts)
	}
	return userErrorf("Use /event start or /event end.")
}

// requireManageServer refuses DMs and members without Manage Server (or
// Administrator, which implies it).
func requireManageServer(in *Interaction) error {
	if in.GuildID == "" || in.Member == nil {
		return userErrorf("Events run in a server channel: use /event there.")
	}
	if !canManageServer(in) {
		return userErrorf("Only members with the **Manage Server** permission can start or end events. Ask a moderator, or join the running event with **Play** under its maze.")
	}
	return nil
}

// eventRequest is a validated /event start.
type eventRequest struct {
	id        mazecore.ID
	duration  time.Duration
	channelID string
	name      string
	notices   []string
}

func parseEventRequest(in *Interaction, opts options) (eventRequest, error) {
	var req eventRequest
	algo, err := mazecore.ParseAlgorithm(opts.string("algorithm", ""))
	if err != nil {
		return req, userError(err, err.Error()+".")
	}
	raw, ok := opts.int("size")
	if !ok {
		return req, userErrorf("Give the maze size: an odd number of tiles from %d to %d.", mazecore.MinSize, EventMaxSide)
	}
	clamped := raw
	if clamped > int64(mazecore.MaxSize) || clamped < -1 {
		clamped = mazecore.MaxSize + 1 // out of range either way; keeps the int conversion safe
	}
	side, rounded, err := mazecore.NormalizeSize(int(clamped), EventMaxSide)
	if err != nil {
		return req, userError(err, fmt.Sprintf("An event maze is an odd number of tiles from %d to %d a side, so everyone can play it. You asked for %d.", mazecore.MinSize, EventMaxSide, raw))
	}
	if rounded {
		req.notices = append(req.notices, fmt.Sprintf("Maze sides are odd (walls sit on even tiles), so size %d was rounded up to %d.", raw, side))
	}
	if req.duration, err = parseEventDuration(opts.string("duration", "")); err != nil {
		return req, err
	}
	if req.channelID, err = eventChannel(in, opts); err != nil {
		return req, err
	}
	if req.name, err = eventName(opts.string("name", "")); err != nil {
		return req, err
	}
	req.id = mazecore.ID{Algorithm: algo, Width: side, Height: side, Seed: in.Deps.Seed() & maxSeed}
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
	if d < MinEventDuration || d > MaxEventDuration {
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
	if res := in.ApplicationCommandData().Resolved; res != nil {
		if ch, ok := res.Channels[id]; ok && ch.GuildID != "" && ch.GuildID != in.GuildID {
			return "", userErrorf("Pick a channel of this server.")
		}
	}
	return id, nil
}

var nameMarkup = strings.NewReplacer("@", "＠", "\n", " ", "\r", " ", "`", "'", "*", `\*`, "_", `\_`, "~", `\~`, "|", `\|`)

// eventName trims and defaults the name, and defuses mentions and markup
// so a name can't ping anyone or break the messages it appears in.
func eventName(text string) (string, error) {
	name := strings.Join(strings.Fields(text), " ")
	if name == "" {
		return defaultEventName, nil
	}
	if n := utf8.RuneCountInString(name); n > maxEventName {
		return "", userErrorf("An event name is at most %d characters; yours has %d.", maxEventName, n)
	}
	return nameMarkup.Replace(name), nil
}

func startEvent(ctx context.Context, in *Interaction, opts options) error {
	req, err := parseEventRequest(in, opts)
	if err != nil {
		return err
	}
	// Posting the maze (maybe a PNG) and the board takes a few calls.
	if err := in.Respond.Defer(ctx, true); err != nil {
		return fmt.Errorf("defer: %w", err)
	}
	m, err := mazecore.Generate(req.id)
	if err != nil {
		return fmt.Errorf("generate %v: %w", req.id, err)
	}
	events := in.Deps.Events
	now := in.Deps.Now()
	e := store.Event{
		GuildID: in.GuildID, ChannelID: req.channelID, Name: req.name, MazeID: req.id.String(), CreatorID: in.UserID(),
		StartedAt: now, EndsAt: now.Add(req.duration), Status: store.EventRunning,
	}
	// The row is claimed before anything is posted, so a second /event
	// start (here or in another bot process) is refused without a post.
	if e.ID, err = events.CreateEvent(ctx, e); errors.Is(err, store.ErrConflict) {
		return alreadyRunning(ctx, events, req.channelID, err)
	} else if err != nil {
		return fmt.Errorf("create event: %w", err)
	}
	e.MazeMessageID, e.BoardMessageID, err = postEvent(ctx, in.Deps, e, m)
	if err != nil {
		if derr := events.DeleteEvent(ctx, e.ID); derr != nil {
			in.Deps.Logger.Error("delete unposted event", "event", e.ID, "err", derr)
		}
		return userError(err, fmt.Sprintf("I couldn't post the event in <#%s>. Check that I can see that channel and send messages and files there.", e.ChannelID))
	}
	if err := events.SetEventMessages(ctx, e.ID, e.MazeMessageID, e.BoardMessageID); err != nil {
		return fmt.Errorf("event %d: %w", e.ID, err)
	}
	// The event maze becomes the channel's latest, so a bare /solve there
	// meets the event guard rather than revealing an older maze.
	if in.Deps.Posts != nil {
		post := store.Post{MazeID: e.MazeID, GuildID: e.GuildID, ChannelID: e.ChannelID, MessageID: e.MazeMessageID, AuthorID: e.CreatorID, PostedAt: now}
		if err := in.Deps.Posts.AddPost(ctx, post); err != nil {
			return fmt.Errorf("record post: %w", err)
		}
	}
	content := fmt.Sprintf("🏆 Event started: **%s** in <#%s>, a %d×%d %s maze. It ends <t:%d:f> (<t:%d:R>); the leaderboard there updates as results arrive. /event end closes it early.",
		e.Name, e.ChannelID, req.id.Width, req.id.Height, req.id.Algorithm.Title(), e.EndsAt.Unix(), e.EndsAt.Unix())
	for _, notice := range req.notices {
		content += "\nℹ️ " + notice
	}
	if err := in.Respond.Reply(ctx, Reply{Content: content, Ephemeral: true}); err != nil {
		return fmt.Errorf("reply: %w", err)
	}
	return nil
}

// alreadyRunning explains a refused start.
func alreadyRunning(ctx context.Context, events EventStore, channelID string, cause error) error {
	e, err := events.RunningEvent(ctx, channelID)
	if err != nil {
		// It ended between the two reads: say so without its details.
		return userError(cause, fmt.Sprintf("<#%s> had a running event a moment ago. Try again.", channelID))
	}
	return userError(cause, fmt.Sprintf("<#%s> already has a running event, **%s**, ending <t:%d:R>. One event runs per channel: end it with /event end, or pick another channel.",
		channelID, e.Name, e.EndsAt.Unix()))
}

// postEvent posts the event maze and its board.
func postEvent(ctx context.Context, d *Deps, e store.Event, m *mazecore.Maze) (mazeMsg, boardMsg string, err error) {
	reply, err := eventMazeMessage(m, e, true)
	if err != nil {
		return "", "", err
	}
	if mazeMsg, err = d.Poster.Post(ctx, e.ChannelID, reply); err != nil {
		return "", "", err
	}
	if boardMsg, err = d.Poster.Post(ctx, e.ChannelID, boardMessage(e, nil)); err != nil {
		return "", "", err
	}
	return mazeMsg, boardMsg, nil
}

// eventMazeMessage is the event's maze: emoji or PNG as for /maze, with
// Play only while it runs (no Solve), and both once it has ended. With
// withFile false a PNG maze leaves its file out, for an edit that keeps
// the attachment.
func eventMazeMessage(m *mazecore.Maze, e store.Event, withFile bool) (Reply, error) {
	id := m.ID()
	var header string
	if e.Status == store.EventEnded {
		header = fmt.Sprintf("🏆 **%s** · ended <t:%d:f> · results below", e.Name, e.EndsAt.Unix())
	} else {
		header = fmt.Sprintf("🏆 **%s** · ends <t:%d:R> · press **Play**, fastest run wins", e.Name, e.EndsAt.Unix())
	}
	header += "\n" + mazeHeader(id)
	reply, err := showMaze(m, renderAuto, header, withFile)
	if err != nil {
		return Reply{}, err
	}
	reply.Components = mazeButtons(id)
	if e.Status != store.EventEnded {
		reply.Components = []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{playButtonFor(id)}}}
	}
	return reply, nil
}

// boardMessage is the live board, or the final one once e has ended.
func boardMessage(e store.Event, ranking []store.EventEntry) Reply {
	var b strings.Builder
	switch {
	case e.Status == store.EventEnded:
		fmt.Fprintf(&b, "🏁 **Final results** — %s\n🏆 **%s** · ended <t:%d:f>", finishers(len(ranking)), e.Name, e.EndsAt.Unix())
	case len(ranking) == 0:
		fmt.Fprintf(&b, "📊 **Live leaderboard** — no finishers yet\n🏆 **%s** · ends <t:%d:R>", e.Name, e.EndsAt.Unix())
	default:
		fmt.Fprintf(&b, "📊 **Live leaderboard** — %s\n🏆 **%s** · ends <t:%d:R>", finishers(len(ranking)), e.Name, e.EndsAt.Unix())
	}
	writeRanking(&b, ranking)
	return Reply{Content: b.String(), Components: []discordgo.MessageComponent{}}
}

// resultsMessage is the post that announces the end.
func resultsMessage(e store.Event, ranking []store.EventEntry) Reply {
	var b strings.Builder
	if len(ranking) == 0 {
		fmt.Fprintf(&b, "🏁 **%s** is over. Nobody reached the goal this time; the solution follows.", e.Name)
	} else {
		fmt.Fprintf(&b, "🏁 **%s** is over! Final ranking, %s:", e.Name, finishers(len(ranking)))
	}
	writeRanking(&b, ranking)
	return Reply{Content: b.String()}
}

func finishers(n int) string {
	if n == 1 {
		return "1 finisher"
	}
	return fmt.Sprintf("%d finishers", n)
}

// writeRanking lists the top of a ranking, one member a line.
func writeRanking(b *strings.Builder, ranking []store.EventEntry) {
	for i, r := range ranking {
		if i == boardTop {
			fmt.Fprintf(b, "\n… and %d more", len(ranking)-boardTop)
			break
		}
		fmt.Fprintf(b, "\n%s <@%s> · %s · %d tiles · %d clicks", rankBadge(r.Rank), r.UserID, formatRunTime(r.Elapsed), r.Tiles, r.Clicks)
	}
}

// formatRunTime shows tenths of a second: on a board, runs a fraction of a
// second apart should not look tied.
func formatRunTime(d time.Duration) string {
	tenths := int64(max(d, 0) / (100 * time.Millisecond))
	s, t := tenths/10, tenths%10
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d.%d", s/3600, s/60%60, s%60, t)
	}
	return fmt.Sprintf("%d:%02d.%d", s/60, s%60, t)
}

func endEventCommand(ctx context.Context, in *Interaction, opts options) error {
	channelID, err := eventChannel(in, opts)
	if err != nil {
		return err
	}
	events := in.Deps.Events
	e, err := events.RunningEvent(ctx, channelID)
	if errors.Is(err, store.ErrNotFound) {
		return userError(err, fmt.Sprintf("There is no running event in <#%s>. Start one with /event start.", channelID))
	}
	if err != nil {
		return fmt.Errorf("running event in %s: %w", channelID, err)
	}
	if err := in.Respond.Defer(ctx, true); err != nil {
		return fmt.Errorf("defer: %w", err)
	}
	if err := closeEvent(ctx, in.Deps, e, in.Deps.Now()); errors.Is(err, store.ErrConflict) {
		return userError(err, fmt.Sprintf("**%s** has just ended on its own; the results are in <#%s>.", e.Name, channelID))
	} else if err != nil {
		return err
	}
	content := fmt.Sprintf("🏁 **%s** ended. The final ranking and the solution are posted in <#%s>.", e.Name, channelID)
	if err := in.Respond.Reply(ctx, Reply{Content: content, Ephemeral: true}); err != nil {
		return fmt.Errorf("reply: %w", err)
	}
	return nil
}

// closeEvent ends e at now and posts the results. The store is marked
// first, conditionally, so of two closers (a tick and /event end, or two
// processes) exactly one posts; the other gets store.ErrConflict. A post
// that fails after that is not retried: the results are at most once.
func closeEvent(ctx context.Context, d *Deps, e store.Event, now time.Time) error {
	if err := d.Events.EndEvent(ctx, e.ID, now); err != nil {
		return err
	}
	if now.Before(e.EndsAt) {
		e.EndsAt = now // as the store did: runs after an early end don't count
	}
	e.Status = store.EventEnded
	ranking, err := d.Events.EventRanking(ctx, e)
	if err != nil {
		return err
	}
	id, err := mazecore.Parse(e.MazeID)
	if err != nil {
		return fmt.Errorf("event %d: stored maze ID: %w", e.ID, err)
	}
	m, err := mazecore.Generate(id)
	if err != nil {
		return fmt.Errorf("event %d: generate %v: %w", e.ID, id, err)
	}
	var errs []error
	if _, err := d.Poster.Post(ctx, e.ChannelID, resultsMessage(e, ranking)); err != nil {
		errs = append(errs, fmt.Errorf("post results: %w", err))
	}
	if solution, err := solutionMessage(m, false); err != nil {
		errs = append(errs, err)
	} else if _, err := d.Poster.Post(ctx, e.ChannelID, solution); err != nil {
		errs = append(errs, fmt.Errorf("post solution: %w", err))
	}
	if err := editFinalBoard(ctx, d, e, ranking); err != nil {
		errs = append(errs, err)
	}
	if e.MazeMessageID != "" {
		// The maze gets its Solve button back, now that solutions are open.
		if reply, err := eventMazeMessage(m, e, false); err != nil {
			errs = append(errs, err)
		} else if err := d.Poster.Edit(ctx, e.ChannelID, e.MazeMessageID, reply); err != nil {
			errs = append(errs, fmt.Errorf("edit maze message: %w", err))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("close event %d: %w", e.ID, err)
	}
	return nil
}

func editFinalBoard(ctx context.Context, d *Deps, e store.Event, ranking []store.EventEntry) error {
	if e.BoardMessageID == "" {
		return nil
	}
	if err := d.Poster.Edit(ctx, e.ChannelID, e.BoardMessageID, boardMessage(e, ranking)); err != nil {
		return fmt.Errorf("edit final board: %w", err)
	}
	if err := d.Events.SetBoardEdited(ctx, e.ID, d.Now()); err != nil {
		return err
	}
	return nil
}

// refreshBoard edits a running event's board if it is dirty and the last
// edit is at least BoardEditInterval old; otherwise a later tick does.
// It returns the ranking it read, or nil when it didn't claim the edit.
func refreshBoard(ctx context.Context, d *Deps, e store.Event, now time.Time) ([]store.EventEntry, error) {
	claimed, err := d.Events.ClaimBoardEdit(ctx, e.ID, now, BoardEditInterval)
	if err != nil || !claimed {
		return nil, err
	}
	// Read after the claim: a run stored later marks the board dirty
	// again, so no result is ever left off for good.
	ranking, err := d.Events.EventRanking(ctx, e)
	if err != nil {
		return nil, errors.Join(err, d.Events.MarkBoardDirty(ctx, e.ID))
	}
	if err := d.Poster.Edit(ctx, e.ChannelID, e.BoardMessageID, boardMessage(e, ranking)); err != nil {
		return nil, errors.Join(fmt.Errorf("edit board of event %d: %w", e.ID, err), d.Events.MarkBoardDirty(ctx, e.ID))
	}
	// Had the event ended while this edit was on its way, the live board
	// may have landed over the final one: put the final one back.
	if cur, err := d.Events.Event(ctx, e.ID); err == nil && cur.Status == store.EventEnded {
		final, err := d.Events.EventRanking(ctx, cur)
		if err != nil {
			return nil, err
		}
		return ranking, editFinalBoard(ctx, d, cur, final)
	}
	return ranking, nil
}

// eventTicker ends the events that are due (also those that ended while
// the bot was down) and flushes the dirty boards.
func eventTicker(d *Deps) Ticker {
	return func(ctx context.Context, now time.Time) error {
		if d.Events == nil || d.Poster == nil {
			return nil
		}
		var errs []error
		due, err := d.Events.DueEvents(ctx, now)
		if err != nil {
			return err
		}
		for _, e := range due {
			if err := closeEvent(ctx, d, e, now); err != nil && !errors.Is(err, store.ErrConflict) {
				errs = append(errs, err)
			}
		}
		dirty, err := d.Events.DirtyEvents(ctx)
		if err != nil {
			return errors.Join(append(errs, err)...)
		}
		for _, e := range dirty {
			if _, err := refreshBoard(ctx, d, e, now); err != nil {
				errs = append(errs, err)
			}
		}
		return errors.Join(errs...)
	}
}

// eventGameContext makes a Play press on a running event's maze, in its
// channel, an event game.
func eventGameContext(ctx context.Context, in *Interaction, id mazecore.ID) (string, error) {
	if in.Deps.Events == nil || in.ChannelID == "" {
		return "", nil
	}
	e, err := in.Deps.Events.RunningEvent(ctx, in.ChannelID)
	if errors.Is(err, store.ErrNotFound) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("running event in %s: %w", in.ChannelID, err)
	}
	if e.MazeID != id.String() {
		return "", nil
	}
	return e.Context(), nil
}

// eventFinishHook puts a won event game on the board and tells the
// member their rank.
func eventFinishHook(ctx context.Context, in *Interaction, f store.Finish) ([]string, error) {
	d := in.Deps
	id, ok := store.ParseEventContext(f.Context)
	if !ok || d.Events == nil {
		return nil, nil
	}
	e, err := d.Events.Event(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("event %d: %w", id, err)
	}
	if e.Status != store.EventRunning || f.FinishedAt.After(e.EndsAt) {
		return []string{fmt.Sprintf("🏆 **%s** had already ended, so this run doesn't count for it.", e.Name)}, nil
	}
	if err := d.Events.MarkBoardDirty(ctx, e.ID); err != nil {
		return nil, err
	}
	var ranking []store.EventEntry
	if d.Poster != nil {
		ranking, err = refreshBoard(ctx, d, e, d.Now())
		if err != nil {
			// The board catches up at a later tick; the rank line still shows.
			d.Logger.Error("refresh event board", "event", e.ID, "err", err)
		}
	}
	if ranking == nil {
		if ranking, err = d.Events.EventRanking(ctx, e); err != nil {
			return nil, err
		}
	}
	for _, r := range ranking {
		if r.UserID == f.UserID {
			return []string{fmt.Sprintf("🏆 Your best run is **#%d** of %d in **%s** (ends <t:%d:R>).", r.Rank, len(ranking), e.Name, e.EndsAt.Unix())}, nil
		}
	}
	return nil, nil
}

// eventSolveGuard refuses /solve, the Solve button and "Solve this maze"
// on the maze of a running event.
func eventSolveGuard(ctx context.Context, in *Interaction, id mazecore.ID) error {
	if in.Deps.Events == nil {
		return nil
	}
	e, err := in.Deps.Events.RunningEventOnMaze(ctx, id.String())
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("running event on maze %s: %w", id, err)
	}
	if !in.Deps.Now().Before(e.EndsAt) {
		return userErrorf("Maze `%s` is the maze of the event **%s**, which is closing: its solution is posted in <#%s> in a moment.", id, e.Name, e.ChannelID)
	}
	return userErrorf("Maze `%s` is the maze of the running event **%s**. Solutions open when the event ends <t:%d:R>; the bot posts it in <#%s> then.", id, e.Name, e.EndsAt.Unix(), e.ChannelID)
}
