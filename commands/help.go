package commands

import (
	"context"
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"

	"mazebot/mazecore"
)

func helpCommand() Command {
	return Command{
		Definition: &discordgo.ApplicationCommand{Name: "help", Description: "How to use mazebot"},
		Handle:     handleHelp,
	}
}

func handleHelp(ctx context.Context, in *Interaction) error {
	var algos []string
	for _, a := range mazecore.Algorithms {
		algos = append(algos, "`"+a.String()+"`")
	}
	description := strings.Join([]string{
		"**/maze** `[algorithm] [size] [height] [render] [seed]` — a fresh maze. Every option is optional: `/maze` alone gives a 21×21 backtracking maze.",
		fmt.Sprintf("• algorithms: %s", strings.Join(algos, ", ")),
		fmt.Sprintf("• size: odd, %d to %d tiles (even sizes are rounded up); emoji grids up to 43, `render:auto` uses emoji up to %d wide and a PNG beyond.", mazecore.MinSize, PNGMaxSide, AutoEmojiMaxWidth),
		"• every maze has an ID: the same ID always gives the same maze.",
		"**/solve** `[id]` — the shortest path as a spoiler; without an ID, the last maze in this channel.",
		"**Solve this maze** — right-click (or long-press) a maze message → Apps: its solution, just for you.",
		"Buttons under a maze: **Play** opens your own game (arrows run along corridors to the next junction; big mazes show a window and a **Map**); **Solve** shows you its solution privately.",
		"**/daily today** — today's maze for this server, the same for everyone; finish it with **Play** for the leaderboard, a streak and a share line. Its solution opens at midnight. **/daily setup** `channel time timezone` (Manage Server) posts it every day; **/daily off** stops that.",
		"**/leaderboard** `[daily|week|all]` — the daily challenge's top 10 and your rank.",
		"**/event start** `algorithm size duration [channel] [name]` (Manage Server) — everyone plays one maze with **Play**, on a live leaderboard; when it ends (or on **/event end**) the bot posts the ranking and the solution.",
	}, "\n")
	return in.Respond.Reply(ctx, Reply{Ephemeral: true, Embeds: []*discordgo.MessageEmbed{{
		Title:       "mazebot",
		Description: description,
		Color:       0x2b9348,
	}}})
}
