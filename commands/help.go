package commands

import (
	"context"
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"

	"mazebot/mazecore"
)

// Help is /help.
type Help struct{}

func (Help) Commands() []Command {
	return []Command{{
		Definition: &discordgo.ApplicationCommand{Name: "help", Description: "How to use mazebot"},
		Handle:     handleHelp,
	}}
}

func (Help) Components() []Component { return nil }

func handleHelp(ctx context.Context, in *Interaction) error {
	var algos []string
	for _, a := range mazecore.Algorithms {
		algos = append(algos, "`"+a.String()+"`")
	}
	lines := helpEnglish
	if in.Locale == discordgo.Korean {
		lines = helpKorean
	}
	description := fmt.Sprintf(strings.Join(lines, "\n"), strings.Join(algos, ", "), mazecore.MinSize, PNGMaxSide, AutoEmojiMaxWidth)
	return in.Respond.Reply(ctx, Reply{Ephemeral: true, Embeds: []*discordgo.MessageEmbed{{
		Title:       "mazebot",
		Description: description,
		Color:       0x2b9348,
	}}})
}

// The help text; its %-verbs take, in order: the algorithms, the smallest and
// largest size, and render:auto's widest emoji maze.
var (
	helpEnglish = []string{
		"**/maze** `[algorithm] [size] [height] [render] [seed] [difficulty] [loops]` — a fresh maze. Every option is optional: `/maze` alone gives a 21×21 backtracking maze.",
		"• algorithms: %s",
		"• size: odd, %d to %d tiles (even sizes are rounded up); emoji grids up to 43, `render:auto` uses emoji up to %d wide and a PNG beyond; `render:gif` animates the carving.",
		"• `difficulty:easy|medium|hard` picks among 32 mazes like it (up to 201×201); `loops:0–100` opens that share of dead ends into loops. The header rates the maze ★☆☆☆☆ to ★★★★★ and gives its par: the clicks a perfect run takes.",
		"• every maze has an ID: the same ID always gives the same maze.",
		"**/solve** `[id]` — the shortest path as a spoiler; without an ID, the last maze in this channel.",
		"**Solve this maze** — right-click (or long-press) a maze message → Apps: its solution, just for you.",
		"Buttons under a maze: **Play** opens your own game (arrows run along corridors to the next junction; big mazes show a window and a **Map**); **Solve** shows you its solution privately.",
		"**/daily today** — today's maze for this server, the same for everyone; finish it with **Play** for the leaderboard, a streak and a share line. Its solution opens at midnight. **/daily setup** `channel time timezone [algorithm] [size] [difficulty] [loops]` (Manage Server) posts it every day; **/daily off** stops that.",
		"**/leaderboard** `[daily|week|all]` — the daily challenge's top 10 and your rank.",
		"**/event start** `algorithm size duration [channel] [name] [difficulty] [loops]` (Manage Server) — everyone plays one maze with **Play**, on a live leaderboard; when it ends (or on **/event end**) the bot posts the ranking and the solution.",
	}
	helpKorean = []string{
		"**/maze** `[algorithm] [size] [height] [render] [seed] [difficulty] [loops]` — 새 미로. 옵션은 모두 선택 사항이라 `/maze`만 입력하면 21×21 백트래킹 미로가 나옵니다.",
		"• 알고리즘: %s",
		"• 크기: 홀수, %d–%d 타일 (짝수는 하나 큰 홀수로 올립니다). 이모지는 43까지, `render:auto`는 가로 %d까지 이모지, 그보다 크면 PNG, `render:gif`는 만드는 과정을 애니메이션으로 보여 줍니다.",
		"• `difficulty:easy|medium|hard`는 비슷한 미로 32개 가운데서 고릅니다(201×201까지). `loops:0–100`은 그 비율만큼 막다른 길을 열어 고리를 만듭니다. 머리글에는 난이도(★☆☆☆☆–★★★★★)와 파(완벽한 풀이의 클릭 수)가 나옵니다.",
		"• 미로마다 ID가 있고, 같은 ID는 언제나 같은 미로입니다.",
		"**/solve** `[id]` — 최단 경로를 스포일러로. ID가 없으면 이 채널의 마지막 미로.",
		"**이 미로 풀기** — 미로 메시지를 우클릭(길게 누르기) → 앱: 나에게만 보이는 풀이.",
		"미로 아래 버튼: **Play**는 나만의 게임(화살표는 다음 갈림길까지 통로를 따라 달립니다. 큰 미로는 주변 창과 **Map**), **Solve**는 나에게만 풀이를 보여 줍니다.",
		"**/daily today** — 이 서버 모두에게 같은 오늘의 미로. **Play**로 완주하면 순위표, 연속 기록, 공유 문구가 생깁니다. 풀이는 자정에 열립니다. **/daily setup** `channel time timezone [algorithm] [size] [difficulty] [loops]`(서버 관리 권한)은 매일 자동으로 올리고, **/daily off**는 멈춥니다.",
		"**/leaderboard** `[daily|week|all]` — 데일리 챌린지 상위 10명과 내 순위.",
		"**/event start** `algorithm size duration [channel] [name] [difficulty] [loops]`(서버 관리 권한) — 모두가 **Play**로 같은 미로를 풀고 순위표가 실시간으로 바뀝니다. 끝나면(또는 **/event end**) 순위와 풀이를 올립니다.",
	}
)
