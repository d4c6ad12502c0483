package commands

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"mazebot/bot"
	"mazebot/commands/customid"
	"mazebot/commands/pictures"
	"mazebot/commands/views"
	"mazebot/contest"
	"mazebot/lang"
	"mazebot/mazecore"
	"mazebot/play"
	"mazebot/render"
)

// Poster sends and edits channel messages outside any interaction. The
// bot implements it over the REST API; tests use a fake Discord or a
// recorder.
type Poster interface {
	// Post sends r to a channel. A nonce ("" for none) is sent with
	// enforce_nonce: Discord then answers a repeat within a few minutes
	// with the message it made before, instead of making another. Errors
	// wrap the *discordgo.RESTError of a refused request.
	Post(ctx context.Context, channelID, nonce string, r bot.Reply) (messageID string, err error)
	Edit(ctx context.Context, channelID, messageID string, r bot.Reply) error
	// Recent lists a channel's newest messages, at most limit, newest
	// first.
	Recent(ctx context.Context, channelID string, limit int) ([]*discordgo.Message, error)
	// DMChannel opens the DM channel with a user, or finds it open.
	DMChannel(ctx context.Context, userID string) (channelID string, err error)
}

// Guilds tells what Discord knows of a server.
type Guilds interface {
	// GuildLocale is the server's primary language as its admins set it in
	// Discord (preferred_locale), such as "ko".
	GuildLocale(ctx context.Context, guildID string) (string, error)
}

// Announcer makes contest's posts on Discord: it draws them as the
// commands do (pictures on the renderer's pool), in the language stored
// with the daily or the event (the server's, as /daily setup and /event
// start recorded it), sends them through a Poster with the nonces contest
// gives, and records the mazes it shows for a bare /solve.
//
// Dailies and events set up before languages have none stored: theirs is
// the server's primary language, asked of Discord once per server and
// process.
type Announcer struct {
	poster   Poster
	guilds   Guilds
	posts    PostLog
	pictures *pictures.Queue
	now      func() time.Time
	cards    views.Setup // what the buttons of posted mazes depend on
	images   Images      // the pictures of mazes in an image's shape

	mu      sync.Mutex
	locales map[string]string // server → language code, for those with none stored
}

// NewAnnouncer posts through poster, asking guilds the language of servers
// with none stored, drawing on the queue, and records shown mazes in posts;
// setup is what posted mazes' buttons depend on.
func NewAnnouncer(poster Poster, guilds Guilds, posts PostLog, q *pictures.Queue, now func() time.Time, setup views.Setup) *Announcer {
	return &Announcer{poster: poster, guilds: guilds, posts: posts, pictures: q, now: now, cards: setup, locales: map[string]string{}}
}

// language is the code of the language a server's posts are in: stored,
// else the server's primary language in Discord. When Discord cannot say
// (the server is gone, the request failed) it is English, as it always
// was, and it is asked again next time.
func (a *Announcer) language(ctx context.Context, guildID, stored string) string {
	if stored != "" {
		return stored
	}
	a.mu.Lock()
	code, ok := a.locales[guildID]
	a.mu.Unlock()
	if ok {
		return code
	}
	locale, err := a.guilds.GuildLocale(ctx, guildID)
	if err != nil {
		return lang.English.Code()
	}
	code = lang.For(discordgo.Locale(locale)).Code()
	a.mu.Lock()
	a.locales[guildID] = code
	a.mu.Unlock()
	return code
}

// refusal marks the errors of a channel that refuses the bot, as contest
// needs to tell them from passing failures: 403 (no access, no
// permission) and 404 (the channel is gone).
func refusal(err error) error {
	var re *discordgo.RESTError
	if errors.As(err, &re) && re.Response != nil &&
		(re.Response.StatusCode == http.StatusForbidden || re.Response.StatusCode == http.StatusNotFound) {
		return fmt.Errorf("%w: %w", contest.ErrRefused, err)
	}
	return err
}

// post sends r with nonce, telling refusals apart.
func (a *Announcer) post(ctx context.Context, channelID, nonce string, r bot.Reply) (string, error) {
	id, err := a.poster.Post(ctx, channelID, nonce, r)
	return id, refusal(err)
}

var _ contest.Announcer = (*Announcer)(nil)

// PostDaily posts a server's daily, in its language, which becomes the
// channel's latest maze. A failure to record that after the post still
// returns the message.
func (a *Announcer) PostDaily(ctx context.Context, d contest.Daily, channelID, nonce string) (string, error) {
	d.Language = a.language(ctx, d.GuildID, d.Language)
	reply, err := showPost(ctx, a.pictures, d.MazeID, "", func() (bot.Reply, error) {
		l := lang.ByCode(d.Language)
		v, err := dailyMaze(l, d, true, a.cards)
		if err != nil {
			return bot.Reply{}, err
		}
		recap, err := recapView(l, d.Recap)
		if err != nil {
			return bot.Reply{}, err
		}
		return views.DailyPost(l, d, v, recap), nil
	})
	if err != nil {
		return "", err
	}
	messageID, err := a.post(ctx, channelID, nonce, reply)
	if err != nil {
		return "", err
	}
	return messageID, recordPost(ctx, a.posts, d.GuildID, channelID, messageID, d.MazeID, a.now())
}

// recapView is yesterday's recap as the post shows it: its par and, when
// anyone finished, its solution as a spoilered picture (a picture
// whatever the maze's size: a spoilered emoji grid would be a wall of
// tags in the post). Nil for no recap.
func recapView(l *lang.Lang, r *contest.Recap) (*views.Recap, error) {
	if r == nil {
		return nil, nil
	}
	if !r.MazeID.Plain() {
		return gridRecap(l, r)
	}
	m, err := generate(r.MazeID)
	if err != nil {
		return nil, err
	}
	v := &views.Recap{Recap: r, Par: play.Par(m)}
	if r.Finished > 0 {
		file, err := pngFile(m, "SPOILER_maze-"+r.MazeID.String()+"-solution.png", views.Alt(l, r.MazeID, views.ShowsSolution, mazecore.Point{}),
			render.Overlay{Path: mazecore.Solve(m)}, look{})
		if err != nil {
			return nil, err
		}
		v.Solution = &file
	}
	return v, nil
}

// recentLooked is how many of a channel's newest messages FindDaily reads:
// a daily post older than that has had a day's traffic after it, and is
// posted again rather than searched for.
const recentLooked = 50

// FindDaily looks for the day's post among the channel's recent messages:
// a message of the bot's with the day's Play button.
func (a *Announcer) FindDaily(ctx context.Context, d contest.Daily, channelID string) (string, error) {
	msgs, err := a.poster.Recent(ctx, channelID, recentLooked)
	if err != nil {
		return "", err
	}
	want := customid.Play(d.MazeID)
	for _, m := range msgs {
		if m.Author == nil || !m.Author.Bot {
			continue
		}
		for _, b := range bot.Buttons(m.Components) {
			if b.CustomID == want {
				return m.ID, nil
			}
		}
	}
	return "", nil
}

// PostEvent posts the event's maze and its board. The event maze becomes
// the channel's latest, so a bare /solve there meets the embargo rather
// than revealing an older maze.
func (a *Announcer) PostEvent(ctx context.Context, e contest.Event, mazeNonce, boardNonce string) (mazeMsg, boardMsg string, err error) {
	e.Language = a.language(ctx, e.GuildID, e.Language)
	reply, err := showPost(ctx, a.pictures, e.MazeID, "", func() (bot.Reply, error) { return a.eventMazeMessage(ctx, e, true) })
	if err != nil {
		return "", "", err
	}
	if mazeMsg, err = a.post(ctx, e.ChannelID, mazeNonce, reply); err != nil {
		return "", "", err
	}
	if boardMsg, err = a.post(ctx, e.ChannelID, boardNonce, views.Board(e, nil, "")); err != nil {
		return "", "", err
	}
	return mazeMsg, boardMsg, recordPost(ctx, a.posts, e.GuildID, e.ChannelID, mazeMsg, e.MazeID, a.now())
}

// EditBoard shows standings on the event's board; an ended event's
// board points to its results post.
func (a *Announcer) EditBoard(ctx context.Context, e contest.Event, standings []contest.Standing) error {
	e.Language = a.language(ctx, e.GuildID, e.Language)
	return refusal(a.poster.Edit(ctx, e.ChannelID, e.BoardMessageID, views.Board(e, standings, messageLink(e.GuildID, e.ChannelID, e.ResultsMessageID))))
}

// messageLink is the link to a message, "" for an unknown one.
func messageLink(guildID, channelID, messageID string) string {
	if messageID == "" {
		return ""
	}
	return "https://discord.com/channels/" + guildID + "/" + channelID + "/" + messageID
}

// PostResults announces an ended event in one post: its ranking and
// numbers, and its maze's solution, spoilered.
func (a *Announcer) PostResults(ctx context.Context, e contest.Event, standings []contest.Standing, nonce string) (string, error) {
	e.Language = a.language(ctx, e.GuildID, e.Language)
	l := lang.ByCode(e.Language)
	reply, err := showPost(ctx, a.pictures, e.MazeID, "", func() (bot.Reply, error) {
		if !e.MazeID.Plain() {
			return a.gridResults(ctx, l, e, standings)
		}
		m, err := generate(e.MazeID)
		if err != nil {
			return bot.Reply{}, err
		}
		path := mazecore.Solve(m)
		top := views.ResultsText(l, e, standings, play.Par(m), play.ShortestTiles(m))
		header := views.SolutionHeader(l, e.MazeID, len(path))
		v := views.Maze{ID: e.MazeID}
		// The grid shares the card's text with the ranking above it.
		if err := picture(l, &v, m, pictureOptions{header: top + "\n" + header, extra: views.SpoilerExtra + 1, solution: path}); err != nil {
			return bot.Reply{}, err
		}
		return views.Results(l, top, header, v), nil
	})
	if err != nil {
		return "", err
	}
	return a.post(ctx, e.ChannelID, nonce, reply)
}

// PostSolution posts an ended event's solution, spoilered, in the event's
// language: the same message /solve gives once the event is over, so they
// share the cache. Only a closing begun by a release whose results post
// held no solution asks for it.
func (a *Announcer) PostSolution(ctx context.Context, e contest.Event, nonce string) error {
	e.Language = a.language(ctx, e.GuildID, e.Language)
	l := lang.ByCode(e.Language)
	reply, err := showPost(ctx, a.pictures, e.MazeID, solutionKey(l, e.MazeID), func() (bot.Reply, error) {
		if !e.MazeID.Plain() {
			return a.gridSolution(ctx, l, e.MazeID)
		}
		m, err := generate(e.MazeID)
		if err != nil {
			return bot.Reply{}, err
		}
		return solution(l, m, false)
	})
	if err != nil {
		return err
	}
	_, err = a.post(ctx, e.ChannelID, nonce, reply)
	return err
}

// RevealMaze gives the ended event's maze message its Solve button back.
func (a *Announcer) RevealMaze(ctx context.Context, e contest.Event) error {
	e.Language = a.language(ctx, e.GuildID, e.Language)
	reply, err := a.eventMazeMessage(ctx, e, false) // no picture: the edit keeps the attachment
	if err != nil {
		return err
	}
	return refusal(a.poster.Edit(ctx, e.ChannelID, e.MazeMessageID, reply))
}

// eventMazeMessage is the event's maze in its language (see
// views.EventMaze); withFile false leaves a PNG out, for an edit that
// keeps the attachment.
func (a *Announcer) eventMazeMessage(ctx context.Context, e contest.Event, withFile bool) (bot.Reply, error) {
	l := lang.ByCode(e.Language)
	if !e.MazeID.Plain() {
		v, err := a.gridCard(ctx, l, e.MazeID, withFile)
		if err != nil {
			return bot.Reply{}, err
		}
		return views.EventMaze(e, v), nil
	}
	m, err := generate(e.MazeID)
	if err != nil {
		return bot.Reply{}, err
	}
	v := describe(m)
	v.Setup = a.cards
	if err := picture(l, &v, m, pictureOptions{header: views.EventMazeHeader(l, e, v), extra: 1, keepFile: !withFile}); err != nil {
		return bot.Reply{}, err
	}
	return views.EventMaze(e, v), nil
}
