package commands

import (
	"context"
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"mazebot/bot"
	"mazebot/commands/customid"
	"mazebot/commands/views"
	"mazebot/contest"
	"mazebot/lang"
	"mazebot/mazecore"
)

const (
	// maxEventName is the longest event name, in code points.
	maxEventName  = 80
	eventSubStart = "start"
	eventSubEnd   = "end"
)

// Events is /event start and /event end.
type Events struct {
	events *contest.Events
	seed   func() uint64
	// shapes reads a start's grid, shape, text and image as /maze does
	// (shapes.go), the picture kept in the store.
	shapes *Mazes
}

// NewEvents serves the events run by events, with random mazes from seed.
func NewEvents(events *contest.Events, seed func() uint64) *Events {
	return &Events{events: events, seed: seed}
}

func (f *Events) Components() []bot.Component { return nil }

func (f *Events) Commands() []bot.Command {
	perms := int64(discordgo.PermissionManageGuild)
	size := sizeOption("size", contest.EventMaxSide)
	size.Required = true
	return []bot.Command{{
		Definition: serverOnly(&discordgo.ApplicationCommand{
			Name: "event",
			// Discord hides the command from members without Manage
			// Server; the handler checks again, as overrides can change it.
			DefaultMemberPermissions: &perms,
			Options: []*discordgo.ApplicationCommandOption{
				subcommand(eventSubStart, append([]*discordgo.ApplicationCommandOption{
					algorithmOption(true),
					size,
					stringOption("duration", 20, true),
					channelOption(false),
					stringOption("name", maxEventName, false),
					difficultyOption(),
					loopsOption(),
					languageOption(),
				}, shapeOptions()...)...),
				subcommand(eventSubEnd, channelOption(false)),
			},
		}),
		Handle: bot.Subcommands(map[string]bot.Handler{eventSubStart: f.start, eventSubEnd: f.end}, "error.event_usage"),
		Use:    []bot.Middleware{bot.GuildOnly("error.event_dm"), bot.ManagersOnly("error.event_manager")},
	}}
}

// eventOptions are /event's options as typed, for both subcommands.
type eventOptions struct {
	Algorithm  *string `option:"algorithm"`
	Size       *int64  `option:"size"`
	Duration   string  `option:"duration"`
	Channel    string  `option:"channel"`
	Name       string  `option:"name"`
	Difficulty string  `option:"difficulty"`
	Loops      *int64  `option:"loops"`
	Language   string  `option:"language"`
	Grid       string  `option:"grid"`
	Shape      string  `option:"shape"`
	Text       string  `option:"text"`
	Image      string  `option:"image"` // an attachment's id
}

// shape is the start's options as /maze reads a maze on another grid or
// in a shape.
func (o eventOptions) shape() mazeOptions {
	m := mazeOptions{Size: o.Size, Difficulty: o.Difficulty, Loops: o.Loops, Grid: o.Grid, Shape: o.Shape, Text: o.Text, Image: o.Image}
	if o.Algorithm != nil {
		m.Algorithm = *o.Algorithm
	}
	return m
}

// eventRequest is a validated /event start.
type eventRequest struct {
	event    contest.Event
	level    mazecore.Level  // for the confirmation: the ID does not keep it
	image    *mazecore.Image // the picture of a maze in an image's shape
	duration time.Duration
	notice   lang.Msg
}

func (f *Events) parseEventRequest(ctx context.Context, in *bot.Interaction, o eventOptions) (eventRequest, error) {
	var req eventRequest
	if o.Algorithm == nil {
		return req, bot.Refuse("error.event_no_algorithm", lang.Args{"Choices": views.AlgorithmChoices()})
	}
	algo, err := algorithm(*o.Algorithm, 0)
	if err != nil {
		return req, err
	}
	tiles := 0
	if !o.shape().shaped() {
		var notice lang.Msg
		if tiles, notice, err = side("size", o.Size, 0, contest.EventMaxSide, "size.why.event"); err != nil {
			return req, err
		}
		req.notice = notice
	}
	if tiles == 0 && !o.shape().shaped() {
		return req, bot.Refuse("error.event_no_size", lang.Args{"Min": mazecore.MinSize, "Max": contest.EventMaxSide})
	}
	if req.duration, err = parseEventDuration(o.Duration); err != nil {
		return req, err
	}
	channelID, err := eventChannel(in, o.Channel)
	if err != nil {
		return req, err
	}
	language, err := language(o.Language, in.GuildLang().Code())
	if err != nil {
		return req, err
	}
	// The default name is in the language of the posts that show it.
	name, err := eventName(o.Name, lang.ByCode(language).T("event.default_name"))
	if err != nil {
		return req, err
	}
	level, loops, err := levelAndLoops(o.Difficulty, o.Loops, mazecore.AnyLevel, 0)
	if err != nil {
		return req, err
	}
	// The maze of the level is chosen once the reply is deferred: at
	// EventMaxSide that makes and rates Candidates mazes.
	req.level = level
	req.event = contest.Event{GuildID: in.GuildID, ChannelID: channelID, Name: name, CreatorID: in.UserID(),
		MazeID: mazecore.ID{Algorithm: algo, Width: tiles, Height: tiles, Seed: f.seed() & maxSeed, Loops: loops}, Language: language}
	if o.shape().shaped() {
		return f.shapedEvent(ctx, in, o, req)
	}
	return req, nil
}

// shapedEvent is the maze of an event on another grid or in a shape, read
// as /maze reads one; at most an event's size a side, since everyone
// plays it.
func (f *Events) shapedEvent(ctx context.Context, in *bot.Interaction, o eventOptions, req eventRequest) (eventRequest, error) {
	if o.Size == nil {
		return req, bot.Refuse("error.event_no_size", lang.Args{"Min": mazecore.MinSize, "Max": contest.EventMaxSide})
	}
	shaped, err := f.shapes.parseShapedRequest(ctx, in, o.shape())
	if err != nil {
		return req, err
	}
	if id := shaped.id; id.Width > contest.EventMaxSide || id.Height > contest.EventMaxSide {
		return req, bot.Refuse("error.shape_size_range", lang.Args{"Grid": lang.M("choice.grid." + id.GridKind.String()), "Min": mazecore.MinSize, "Max": contest.EventMaxSide, "Asked": max(id.Width, id.Height)})
	}
	req.event.MazeID, req.level, req.image = shaped.id, shaped.level, shaped.image
	return req, nil
}

var daysPrefix = regexp.MustCompile(`^([0-9]{1,3})d`)

// parseEventDuration reads "30m", "2h", "1h30m", "1d", "1d12h" and any Go
// duration, within the bounds of an event.
func parseEventDuration(text string) (time.Duration, error) {
	s := strings.ToLower(strings.Join(strings.Fields(text), ""))
	bounds := lang.Args{"Min": lang.Span(contest.MinEventDuration), "Max": lang.Span(contest.MaxEventDuration)}
	bad := bot.Refuse("error.bad_duration", bounds, lang.Args{"Text": sanitize(text)})
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
		// A sum past time.Duration's range would wrap around and be worded
		// as a short (or negative) span.
		if err != nil || rest < 0 || rest > math.MaxInt64-d {
			return 0, bad
		}
		d += rest
	}
	if d < contest.MinEventDuration || d > contest.MaxEventDuration {
		return 0, bot.Refuse("error.duration_range", bounds, lang.Args{"Text": sanitize(text), "Duration": lang.Span(d)})
	}
	return d, nil
}

// eventChannel is the channel option, or the channel the command was used
// in. A channel of another server (only a forged interaction names one)
// is refused.
func eventChannel(in *bot.Interaction, id string) (string, error) {
	if id == "" {
		return in.ChannelID, nil
	}
	if !customid.IsDecimal(id) {
		return "", bot.Refuse("error.bad_channel")
	}
	return guildChannel(in, id, in.ChannelID)
}

// eventName trims the name, or takes fallback for none, and makes it safe
// to post (postableName).
func eventName(text, fallback string) (string, error) {
	name := strings.Join(strings.Fields(stripControls(text)), " ")
	if name == "" {
		return fallback, nil
	}
	if n := utf8.RuneCountInString(name); n > maxEventName {
		return "", bot.Refuse("error.event_name_long", lang.Args{"Max": lang.Number(maxEventName), "Length": lang.Number(n)})
	}
	return postableName(name)
}

func (f *Events) start(ctx context.Context, in *bot.Interaction) error {
	var o eventOptions
	bot.Options(in, &o)
	req, err := f.parseEventRequest(ctx, in, o)
	if err != nil {
		return err
	}
	// Choosing the maze and posting it (maybe a PNG) and the board take a
	// while.
	if err := deferReply(ctx, in, true); err != nil {
		return err
	}
	if req.event.MazeID, err = chooseGridLevel(req.event.MazeID, req.level, req.image); err != nil {
		return err
	}
	e, err := f.events.Start(ctx, req.event, req.duration)
	switch {
	case errors.Is(err, contest.ErrConflict) && e.ID != 0:
		return bot.RefuseWith(err, "error.event_running", lang.Args{"Channel": e.ChannelID, "Name": e.Name, "Ends": e.EndsAt.Unix()})
	case errors.Is(err, contest.ErrConflict):
		// It ended between the two reads: say so without its details.
		return bot.RefuseWith(err, "error.event_just_ran", lang.Args{"Channel": req.event.ChannelID})
	case errors.Is(err, contest.ErrNotPosted):
		return bot.RefuseWith(err, "error.event_not_posted", lang.Args{"Channel": req.event.ChannelID})
	case err != nil:
		return err
	}
	l := in.Lang()
	content := views.EventStarted(l, e, req.level)
	if !req.notice.IsZero() {
		content += "\n" + views.Notice(l, req.notice)
	}
	return answer(ctx, in, bot.Reply{Content: content, Ephemeral: true})
}

func (f *Events) end(ctx context.Context, in *bot.Interaction) error {
	var o eventOptions
	bot.Options(in, &o)
	channelID, err := eventChannel(in, o.Channel)
	if err != nil {
		return err
	}
	e, err := f.events.RunningIn(ctx, in.GuildID, channelID)
	if errors.Is(err, contest.ErrNotFound) {
		return bot.RefuseWith(err, "error.no_event", lang.Args{"Channel": channelID})
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
		return bot.RefuseWith(err, "error.event_ended_itself", args)
	case errors.Is(err, contest.ErrPostsPending) && errors.Is(err, contest.ErrRefused):
		// It ended: say so, and what is wrong with the channel.
		done = "event.ended_refused"
	case errors.Is(err, contest.ErrPostsPending):
		done = "event.ended_pending"
	case err != nil:
		return err
	}
	return answer(ctx, in, bot.Reply{Content: in.Lang().T(done, args), Ephemeral: true})
}
