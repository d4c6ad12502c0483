package commands

import (
	"fmt"

	"github.com/bwmarrin/discordgo"
)

// Korean for the command picker: Discord shows a command's localized name
// and descriptions to members whose client speaks that language. Keys are
// command and option paths ("maze.size"); choices are keyed by their value.
var koreanDescriptions = map[string]string{
	"maze":                   "새 미로를 만듭니다",
	"maze.algorithm":         "미로를 파는 방법 (기본: 재귀적 백트래킹)",
	"maze.size":              "가로 크기(타일), 홀수, 5–1001 (기본 21)",
	"maze.height":            "세로 크기(타일), 가로와 다를 때",
	"maze.render":            "auto: 작으면 이모지, 크면 PNG · gif: 만드는 과정을 애니메이션으로",
	"maze.seed":              "같은 미로를 다시 만드는 시드 (기본: 무작위)",
	"maze.difficulty":        "비슷한 미로 가운데 쉬움, 보통, 어려움 (기본: 상관없음, 201×201까지)",
	"maze.loops":             "막다른 길을 열어 고리로 만드는 비율, 0–100 (기본 0: 고리 없음)",
	"solve":                  "미로의 최단 경로를 스포일러로 보여 줍니다",
	"solve.id":               "미로 ID (기본: 이 채널의 마지막 미로)",
	"help":                   "mazebot 사용법",
	"event":                  "커뮤니티 미로 이벤트 (서버 관리 권한)",
	"event.start":            "이벤트 시작: 모두가 같은 미로를 풀고 순위표가 실시간으로 바뀝니다",
	"event.start.algorithm":  "미로를 파는 방법",
	"event.start.size":       "가로·세로 크기(타일), 홀수, 5–101",
	"event.start.duration":   "진행 시간: 30m, 2h, 1h30m, 1d (5분–7일)",
	"event.start.channel":    "진행할 채널 (기본: 이 채널)",
	"event.start.name":       "이벤트 이름",
	"event.start.difficulty": "비슷한 미로 가운데 쉬움, 보통, 어려움 (기본: 상관없음)",
	"event.start.loops":      "막다른 길을 열어 고리로 만드는 비율, 0–100 (기본 0: 고리 없음)",
	"event.end":              "진행 중인 이벤트를 지금 끝내고 결과를 올립니다",
	"event.end.channel":      "이벤트 채널 (기본: 이 채널)",
	"daily":                  "오늘의 미로 챌린지: 이 서버의 모두에게 같은 미로",
	"daily.today":            "오늘의 미로를 Play 버튼과 함께 보여 줍니다",
	"daily.setup":            "매일 정한 시각에 채널에 데일리를 올립니다 (서버 관리 권한)",
	"daily.setup.channel":    "올릴 채널",
	"daily.setup.time":       "현지 시각, 24시간제 HH:MM (예: 09:00)",
	"daily.setup.timezone":   "IANA 시간대 (예: Asia/Seoul, America/Los_Angeles, UTC)",
	"daily.setup.algorithm":  "미로를 파는 방법 (기본: 재귀적 백트래킹)",
	"daily.setup.size":       "가로 크기(타일), 홀수, 5–41 (기본 21)",
	"daily.setup.difficulty": "비슷한 미로 가운데 쉬움, 보통, 어려움 (기본: 상관없음)",
	"daily.setup.loops":      "막다른 길을 열어 고리로 만드는 비율, 0–100 (기본 0: 고리 없음)",
	"daily.off":              "데일리 자동 게시를 멈춥니다 (서버 관리 권한)",
	"leaderboard":            "이 서버의 데일리 챌린지 순위표",
	"leaderboard.period":     "오늘(기본), 최근 7일, 전체 기간",
}

var koreanChoices = map[string]string{
	"binary-tree": "이진 트리", "sidewinder": "사이드와인더", "backtracking": "재귀적 백트래킹", "digging": "구멍 파기",
	renderAuto: "자동", renderEmoji: "이모지", renderPNG: "PNG", renderGIF: "GIF (만드는 과정 애니메이션)",
	periodDaily: "오늘", periodWeek: "이번 주 (최근 7일)", periodAll: "전체 기간",
	"easy": "쉬움", "medium": "보통", "hard": "어려움", "any": "상관없음",
}

// koreanNames localizes the names of context-menu commands, which Discord
// shows as they are named.
var koreanNames = map[string]string{
	solveMessageCommandName: "이 미로 풀기",
}

// localize adds the Korean texts to a command definition.
func localize(def *discordgo.ApplicationCommand) {
	if name, ok := koreanNames[def.Name]; ok {
		def.NameLocalizations = &map[discordgo.Locale]string{discordgo.Korean: name}
	}
	if text, ok := koreanDescriptions[def.Name]; ok {
		def.DescriptionLocalizations = &map[discordgo.Locale]string{discordgo.Korean: text}
	}
	localizeOptions(def.Name, def.Options)
}

func localizeOptions(prefix string, opts []*discordgo.ApplicationCommandOption) {
	for _, o := range opts {
		path := prefix + "." + o.Name
		if text, ok := koreanDescriptions[path]; ok {
			o.DescriptionLocalizations = map[discordgo.Locale]string{discordgo.Korean: text}
		}
		for _, c := range o.Choices {
			if name, ok := koreanChoices[fmt.Sprint(c.Value)]; ok {
				c.NameLocalizations = map[discordgo.Locale]string{discordgo.Korean: name}
			}
		}
		localizeOptions(path, o.Options)
	}
}
