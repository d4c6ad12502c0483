package main

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"mazebot/internal/fakediscord"
	"mazebot/mazecore"
	"mazebot/render"
)

// player drives one member's game through the fake Discord.
type player struct {
	t      testing.TB
	userID string
	maze   *mazecore.Maze
	path   []mazecore.Point
	msg    *fakediscord.Message // the game message, as last seen
	clicks int
}

// postMaze posts a maze with /maze and returns its message and maze.
func postMaze(t testing.TB, opts ...fakediscord.Option) (*fakediscord.Message, *mazecore.Maze) {
	t.Helper()
	msg := final(t, slash(t, "maze", opts...))
	m, err := mazecore.Generate(mazeIDIn(t, msg.Content))
	if err != nil {
		t.Fatal(err)
	}
	return msg, m
}

// startGame presses Play under a maze message.
func startGame(t testing.TB, mazeMsg *fakediscord.Message, m *mazecore.Maze, userID string) *player {
	t.Helper()
	ix, err := fake.ClickButton(testContext(t), fakediscord.ButtonSpec{CustomID: "play:" + m.ID().String(), Message: mazeMsg, UserID: userID})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := ix.Wait(testContext(t))
	if err != nil {
		t.Fatal(err)
	}
	if resp.Type != discordgo.InteractionResponseChannelMessageWithSource || !resp.Ephemeral() {
		t.Fatalf("Play answered type %d ephemeral %v, want a private new message (4, flag 64)", resp.Type, resp.Ephemeral())
	}
	return &player{t: t, userID: userID, maze: m, path: mazecore.Solve(m), msg: final(t, ix)}
}

// position finds the player emoji in the game message's grid.
func (p *player) position() mazecore.Point {
	p.t.Helper()
	lines := strings.Split(p.msg.Content, "\n")
	for y, line := range lines[1:] {
		x := 0
		for _, r := range line {
			if string(r) == render.DefaultTheme.Player {
				return mazecore.Point{X: x, Y: y}
			}
			x++
		}
	}
	p.t.Fatalf("no player in the game message:\n%s", p.msg.Content)
	return mazecore.Point{}
}

// moveButton returns the custom_id of the button for action (n/e/s/w/g).
func (p *player) moveButton(action byte) fakediscord.Button {
	p.t.Helper()
	for _, b := range p.msg.Buttons() {
		parts := strings.Split(b.CustomID, ":")
		if len(parts) == 5 && parts[0] == "mv" && parts[3] == string(action) {
			return b
		}
	}
	p.t.Fatalf("no %c button in %+v", action, p.msg.Buttons())
	return fakediscord.Button{}
}

// nextAction is the direction from the player's tile toward the goal.
func (p *player) nextAction() byte {
	p.t.Helper()
	pos := p.position()
	for i, q := range p.path[:len(p.path)-1] {
		if q == pos {
			next := p.path[i+1]
			switch {
			case next.X > pos.X:
				return 'e'
			case next.X < pos.X:
				return 'w'
			case next.Y > pos.Y:
				return 's'
			default:
				return 'n'
			}
		}
	}
	p.t.Fatalf("player at %v is off the solution path", pos)
	return 0
}

// click presses a button of the game message and checks the answer is an
// update of that message (type 7).
func (p *player) click(action byte) {
	p.t.Helper()
	b := p.moveButton(action)
	if b.Disabled {
		p.t.Fatalf("button %c is disabled at %v", action, p.position())
	}
	ix, err := fake.ClickButton(testContext(p.t), fakediscord.ButtonSpec{CustomID: b.CustomID, Message: p.msg, UserID: p.userID})
	if err != nil {
		p.t.Fatal(err)
	}
	resp, err := ix.Wait(testContext(p.t))
	if err != nil {
		p.t.Fatal(err)
	}
	if resp.Type != discordgo.InteractionResponseUpdateMessage {
		p.t.Fatalf("move answered with type %d (%q), want 7", resp.Type, resp.Content)
	}
	p.clicks++
	p.msg = final(p.t, ix)
}

func (p *player) won() bool { return strings.Contains(p.msg.Content, "🏁 Solved") }

func TestE2EPlayToGoal(t *testing.T) {
	startApp(t)
	mazeMsg, m := postMaze(t, opt("algorithm", "backtracking"), opt("size", 25), opt("seed", 2024))
	p := startGame(t, mazeMsg, m, fakediscord.DefaultUserID)
	if got := p.position(); got != m.Start() {
		t.Fatalf("the game starts at %v, want the start %v", got, m.Start())
	}
	cells := (len(p.path) + 1) / 2
	for !p.won() {
		before := p.position()
		p.click(p.nextAction())
		if p.won() {
			break
		}
		if after := p.position(); after == before {
			t.Fatalf("click %d did not move the player from %v", p.clicks, before)
		}
		if !strings.Contains(p.msg.Content, fmt.Sprintf("clicks %d", p.clicks)) {
			t.Fatalf("after %d clicks the header says %q", p.clicks, strings.SplitN(p.msg.Content, "\n", 2)[0])
		}
		if p.clicks > cells {
			t.Fatalf("%d clicks and not at the goal", p.clicks)
		}
	}
	want := fmt.Sprintf("🏁 Solved in %d clicks · %d tiles walked · ", p.clicks, len(p.path)-1)
	if !strings.Contains(p.msg.Content, want) || !strings.Contains(p.msg.Content, "efficiency 100 %") {
		t.Fatalf("final message lacks %q:\n%s", want, p.msg.Content)
	}
	if len(p.msg.Buttons()) != 0 {
		t.Fatalf("buttons %+v remain after the goal", p.msg.Buttons())
	}
	if p.clicks >= cells {
		t.Fatalf("%d clicks for %d solution cells: moves must run along corridors", p.clicks, cells)
	}
}

func TestE2EPlayForgedButton(t *testing.T) {
	app := startApp(t)
	mazeMsg, m := postMaze(t, opt("algorithm", "digging"), opt("size", 21), opt("seed", 3))
	p := startGame(t, mazeMsg, m, fakediscord.DefaultUserID)
	p.click(p.nextAction())
	real := p.moveButton(p.nextAction())
	parts := strings.Split(real.CustomID, ":")
	forge := func(i int, value string) string {
		q := append([]string(nil), parts...)
		q[i] = value
		return strings.Join(q, ":")
	}
	flip := func(s string) string {
		if s[len(s)-1] == 'a' {
			return s[:len(s)-1] + "b"
		}
		return s[:len(s)-1] + "a"
	}
	before := p.msg.Content
	for name, customID := range map[string]string{
		"mac":    forge(4, flip(parts[4])),
		"game":   forge(1, parts[1]+"0"),
		"seq":    forge(2, "0"),
		"action": forge(3, "g"),
	} {
		// A modified client can send any custom_id: the fake sends what
		// the (unstored) message it is given carries.
		forged := &fakediscord.Message{ID: "1500000000000000001", ChannelID: p.msg.ChannelID, GuildID: p.msg.GuildID,
			Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
				discordgo.Button{CustomID: customID, Label: "forged", Style: discordgo.PrimaryButton},
			}}}}
		ix, err := fake.ClickButton(testContext(t), fakediscord.ButtonSpec{CustomID: customID, Message: forged})
		if err != nil {
			t.Fatal(err)
		}
		resp, err := ix.Wait(testContext(t))
		if err != nil {
			t.Fatal(err)
		}
		if resp.Type != discordgo.InteractionResponseChannelMessageWithSource || !resp.Ephemeral() || !strings.Contains(resp.Content, "isn't valid") {
			t.Fatalf("forged %s: type %d ephemeral %v %q, want an ephemeral refusal", name, resp.Type, resp.Ephemeral(), resp.Content)
		}
	}
	if got := fake.Message(p.msg.ID); got.Content != before {
		t.Fatal("a forged click changed the game message")
	}
	games, err := app.db.Game(context.Background(), gameIDOf(t, real.CustomID))
	if err != nil {
		t.Fatal(err)
	}
	if games.Clicks != 1 || games.Seq != 1 {
		t.Fatalf("after forged clicks the game has clicks=%d seq=%d, want 1 and 1", games.Clicks, games.Seq)
	}
	// The real button still works.
	p.click(p.nextAction())
}

func gameIDOf(t *testing.T, customID string) int64 {
	t.Helper()
	var id int64
	if _, err := fmt.Sscanf(strings.Split(customID, ":")[1], "%d", &id); err != nil {
		t.Fatal(err)
	}
	return id
}

func TestE2EPlayFiftyPlayers(t *testing.T) {
	startApp(t)
	mazeMsg, m := postMaze(t, opt("algorithm", "backtracking"), opt("size", 21), opt("seed", 11))
	// Where a lone player stands after each click: the model to compare with.
	model := startGame(t, mazeMsg, m, "1400000000000000999")
	var stops []mazecore.Point
	for !model.won() {
		model.click(model.nextAction())
		if !model.won() {
			stops = append(stops, model.position())
		}
	}
	const players = 50
	var wg sync.WaitGroup
	errs := make(chan string, players)
	for i := 0; i < players; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			user := fmt.Sprintf("14000000000000%05d", i)
			moves := i%len(stops) + 1
			msg, pos, err := playMoves(mazeMsg, m, user, moves)
			if err != nil {
				errs <- fmt.Sprintf("player %d: %v", i, err)
				return
			}
			if pos != stops[moves-1] {
				errs <- fmt.Sprintf("player %d after %d moves is at %v, want %v (message %s)", i, moves, pos, stops[moves-1], msg.ID)
			}
			if !strings.Contains(msg.Content, fmt.Sprintf("clicks %d", moves)) {
				errs <- fmt.Sprintf("player %d: header %q, want clicks %d", i, strings.SplitN(msg.Content, "\n", 2)[0], moves)
			}
		}(i)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// playMoves is a goroutine-safe scripted player (no *testing.T calls):
// it starts a game and makes n moves along the solution.
func playMoves(mazeMsg *fakediscord.Message, m *mazecore.Maze, user string, n int) (*fakediscord.Message, mazecore.Point, error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ix, err := fake.ClickButton(ctx, fakediscord.ButtonSpec{CustomID: "play:" + m.ID().String(), Message: mazeMsg, UserID: user})
	if err != nil {
		return nil, mazecore.Point{}, err
	}
	msg, err := ix.WaitFinal(ctx, nil)
	if err != nil {
		return nil, mazecore.Point{}, err
	}
	path := mazecore.Solve(m)
	var pos mazecore.Point
	for k := 0; k < n; k++ {
		if pos, err = findPlayer(msg.Content); err != nil {
			return msg, pos, err
		}
		action, err := actionToward(path, pos)
		if err != nil {
			return msg, pos, err
		}
		var customID string
		for _, b := range msg.Buttons() {
			if parts := strings.Split(b.CustomID, ":"); len(parts) == 5 && parts[3] == string(action) {
				customID = b.CustomID
			}
		}
		if ix, err = fake.ClickButton(ctx, fakediscord.ButtonSpec{CustomID: customID, Message: msg, UserID: user}); err != nil {
			return msg, pos, err
		}
		resp, err := ix.Wait(ctx)
		if err != nil {
			return msg, pos, err
		}
		if resp.Type != discordgo.InteractionResponseUpdateMessage {
			return msg, pos, fmt.Errorf("move %d answered with type %d", k, resp.Type)
		}
		if msg, err = ix.WaitFinal(ctx, nil); err != nil {
			return msg, pos, err
		}
	}
	pos, err = findPlayer(msg.Content)
	return msg, pos, err
}

func findPlayer(content string) (mazecore.Point, error) {
	for y, line := range strings.Split(content, "\n")[1:] {
		x := 0
		for _, r := range line {
			if string(r) == render.DefaultTheme.Player {
				return mazecore.Point{X: x, Y: y}, nil
			}
			x++
		}
	}
	return mazecore.Point{}, fmt.Errorf("no player in %q", content)
}

func actionToward(path []mazecore.Point, pos mazecore.Point) (byte, error) {
	for i, q := range path[:len(path)-1] {
		if q != pos {
			continue
		}
		next := path[i+1]
		switch {
		case next.X > pos.X:
			return 'e', nil
		case next.X < pos.X:
			return 'w', nil
		case next.Y > pos.Y:
			return 's', nil
		}
		return 'n', nil
	}
	return 0, fmt.Errorf("%v is off the solution path", pos)
}

func TestE2EPlaySurvivesRestart(t *testing.T) {
	app := startApp(t)
	mazeMsg, m := postMaze(t, opt("algorithm", "backtracking"), opt("size", 21), opt("seed", 99))
	p := startGame(t, mazeMsg, m, fakediscord.DefaultUserID)
	p.click(p.nextAction())
	p.click(p.nextAction())
	where := p.position()

	app.stop()
	launchApp(t, app.dbPath)

	if got := p.position(); got != where {
		t.Fatalf("the message moved during the restart: %v → %v", where, got)
	}
	for !p.won() {
		p.click(p.nextAction())
	}
	if !strings.Contains(p.msg.Content, fmt.Sprintf("🏁 Solved in %d clicks", p.clicks)) {
		t.Fatalf("after the restart the game ended with:\n%s", p.msg.Content)
	}
}
