package commands

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"

	"mazebot/store"
)

// Periods of /leaderboard.
const (
	periodDaily = "daily"
	periodWeek  = "week"
	periodAll   = "all"
)

// leaderboardTop is how many members the embed lists.
const leaderboardTop = 10

func leaderboardCommand() Command {
	return Command{
		Definition: &discordgo.ApplicationCommand{
			Name:        "leaderboard",
			Description: "The daily challenge leaderboard of this server",
			Options: []*discordgo.ApplicationCommandOption{
				{Type: discordgo.ApplicationCommandOptionString, Name: "period", Description: "Today (default), the last 7 days, or all time", Choices: []*discordgo.ApplicationCommandOptionChoice{
					{Name: "today", Value: periodDaily}, {Name: "this week (last 7 days)", Value: periodWeek}, {Name: "all time", Value: periodAll},
				}},
			},
		},
		Handle: handleLeaderboard,
	}
}

// boardEntry is one member's line: the sort key (compared whole for shared
// ranks) and what the line says.
type boardEntry struct {
	userID string
	key    [3]int64
	text   string
	rank   int
}

// rankEntries gives equal keys the same rank, "1, 1, 3" style. entries
// must be sorted.
func rankEntries(entries []boardEntry) []boardEntry {
	for i := range entries {
		if i > 0 && entries[i].key == entries[i-1].key {
			entries[i].rank = entries[i-1].rank
		} else {
			entries[i].rank = i + 1
		}
	}
	return entries
}

// dailyDayEntries ranks one day's bests by time, then tiles; the store's
// order (then earlier finish) orders members who share a rank.
func dailyDayEntries(bests []store.DailyResult) []boardEntry {
	entries := make([]boardEntry, len(bests))
	for i, b := range bests {
		entries[i] = boardEntry{userID: b.UserID, key: [3]int64{b.Elapsed.Milliseconds(), int64(b.Tiles)},
			text: fmt.Sprintf("%s · %d tiles", formatElapsed(b.Elapsed), b.Tiles)}
	}
	return rankEntries(entries)
}

// dailyTotalEntries ranks totals by days solved, then total time, then
// total tiles.
func dailyTotalEntries(totals []store.DailyTotal) []boardEntry {
	entries := make([]boardEntry, len(totals))
	for i, t := range totals {
		days := "days"
		if t.Days == 1 {
			days = "day"
		}
		entries[i] = boardEntry{userID: t.UserID, key: [3]int64{-int64(t.Days), t.Elapsed.Milliseconds(), int64(t.Tiles)},
			text: fmt.Sprintf("%d %s · %s total", t.Days, days, formatElapsed(t.Elapsed))}
	}
	return rankEntries(entries)
}

func rankBadge(rank int) string {
	switch rank {
	case 1:
		return "🥇"
	case 2:
		return "🥈"
	case 3:
		return "🥉"
	}
	return fmt.Sprintf("`#%d`", rank)
}

func handleLeaderboard(ctx context.Context, in *Interaction) error {
	ds := in.Deps.Daily
	if ds == nil {
		return errors.New("leaderboard is not configured: Deps.Daily is missing")
	}
	if in.GuildID == "" {
		return userErrorf("Leaderboards belong to a server: use /leaderboard in a server channel, not in DMs.")
	}
	_, loc, err := dailySettings(ctx, ds, in.GuildID)
	if err != nil {
		return err
	}
	today := localDate(in.Deps.Now(), loc)
	period := commandOptions(in).string("period", periodDaily)
	var (
		entries []boardEntry
		title   string
		empty   string
	)
	switch period {
	case periodDaily:
		bests, err := ds.DailyBests(ctx, in.GuildID, today)
		if err != nil {
			return err
		}
		entries = dailyDayEntries(bests)
		title = fmt.Sprintf("🏆 Daily #%d leaderboard · %s", dailyNumber(today), today)
		empty = "Nobody has solved today's daily yet. Be the first: /daily today, then **Play**."
	case periodWeek, periodAll:
		from := ""
		title = "🏆 Daily leaderboard · all time"
		if period == periodWeek {
			from = addDays(today, -6)
			title = fmt.Sprintf("🏆 Daily leaderboard · %s to %s", from, today)
		}
		totals, err := ds.DailyTotals(ctx, in.GuildID, from, today)
		if err != nil {
			return err
		}
		entries = dailyTotalEntries(totals)
		empty = "No daily results yet. Start with /daily today, then **Play**."
	default:
		return userErrorf("Unknown period %q: use daily, week or all.", sanitize(period))
	}

	var lines []string
	for _, e := range entries[:min(len(entries), leaderboardTop)] {
		line := fmt.Sprintf("%s <@%s> · %s", rankBadge(e.rank), e.userID, e.text)
		streak, err := memberStreak(ctx, ds, in.GuildID, e.userID, today)
		if err != nil {
			return err
		}
		if streak > 0 {
			line += fmt.Sprintf(" · 🔥%d", streak)
		}
		lines = append(lines, line)
	}
	description := empty
	if len(lines) > 0 {
		description = strings.Join(lines, "\n")
	}
	embed := &discordgo.MessageEmbed{
		Title:       title,
		Description: description,
		Color:       0xF1C40F,
		Footer:      &discordgo.MessageEmbedFooter{Text: ownRank(entries, in.UserID(), period)},
	}
	if err := in.Respond.Reply(ctx, Reply{Embeds: []*discordgo.MessageEmbed{embed}}); err != nil {
		return fmt.Errorf("reply: %w", err)
	}
	return nil
}

// ownRank is the caller's line, also when outside the top.
func ownRank(entries []boardEntry, userID, period string) string {
	for _, e := range entries {
		if e.userID == userID {
			return fmt.Sprintf("Your rank: #%d of %d · %s", e.rank, len(entries), e.text)
		}
	}
	if period == periodDaily {
		return "Your rank: no result yet today. Play with /daily today."
	}
	return "Your rank: no result yet in this period. Play with /daily today."
}
