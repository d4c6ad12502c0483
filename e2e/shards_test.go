package e2e

// End-to-end tests of sharding, metrics and health: one App running every
// shard against the fake's identify rate limit, and three processes of
// the real binary splitting six shards over one database.

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"mazebot/app"
	"mazebot/internal/fakediscord"
	"mazebot/internal/fakediscord/member"
	"mazebot/internal/pgtest"
	"mazebot/internal/testkit"
	"mazebot/mazecore"
)

// sharedDatabase is the MAZEBOT_DB that the processes of a test share:
// a fresh PostgreSQL schema when MAZEBOT_TEST_POSTGRES names a server (as
// under .ci/run; pgtest fails the test under CI without one), reached
// through a proxy whose link the test can cut; else a SQLite file, which
// WAL lets several processes on one machine use, and no proxy.
func sharedDatabase(t *testing.T) (string, *testkit.Proxy) {
	if os.Getenv(pgtest.Env) == "" && os.Getenv("CI") != "true" {
		t.Logf("%s is not set: the processes share a SQLite file instead of PostgreSQL", pgtest.Env)
		return filepath.Join(t.TempDir(), "shared.db"), nil
	}
	return proxiedPostgres(t)
}

// guildOnShard is a guild id that Discord routes to shard among count:
// (guild_id >> 22) % count == shard.
func guildOnShard(t testing.TB, shard, count int) string {
	t.Helper()
	base, err := strconv.ParseUint(fakediscord.DefaultGuildID, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	high := base >> 22
	high += uint64((shard - int(high%uint64(count)) + count) % count)
	id := strconv.FormatUint(high<<22|1, 10)
	if got := fakediscord.ShardOf(id, count); got != shard {
		t.Fatalf("guild %s is on shard %d, want %d", id, got, shard)
	}
	return id
}

// waitReadyz polls /readyz until it is 200, for at most within.
func waitReadyz(t testing.TB, base string, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		code, body := fetch(t, base+"/readyz")
		if code == http.StatusOK {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("/readyz still %d %q after %v", code, body, within)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitSample waits until the metrics at base have series at want: the
// router counts an interaction once its handler has returned, which may be
// just after the reply reached the fake. It fails the test with the last
// value after 10 s.
func waitSample(t testing.TB, base, series string, want float64) {
	t.Helper()
	var got float64
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		_, metrics := fetch(t, base+"/metrics")
		if got, _ = sample(metrics, series); got == want {
			return
		}
	}
	t.Errorf("%s = %v, want %v", series, got, want)
}

var shardsConnectedLine = regexp.MustCompile(`(?m)^mazebot_shards_connected\{shard="(\d+)"\} (\S+)$`)

// shardsConnected sums mazebot_shards_connected and lists its shards.
func shardsConnected(metrics string) (sum float64, shards []int) {
	for _, m := range shardsConnectedLine.FindAllStringSubmatch(metrics, -1) {
		id, _ := strconv.Atoi(m[1])
		v, _ := strconv.ParseFloat(m[2], 64)
		sum += v
		shards = append(shards, id)
	}
	slices.Sort(shards)
	return sum, shards
}

// checkOps checks what a process running shards serves: /healthz and
// /readyz 200, and /metrics with every shard connected.
func checkOps(t testing.TB, base string, shards []int) {
	t.Helper()
	waitReadyz(t, base, 20*time.Second)
	if code, _ := fetch(t, base+"/healthz"); code != http.StatusOK {
		t.Fatalf("/healthz = %d", code)
	}
	code, metrics := fetch(t, base+"/metrics")
	if code != http.StatusOK {
		t.Fatalf("/metrics = %d", code)
	}
	sum, ids := shardsConnected(metrics)
	if sum != float64(len(shards)) || !slices.Equal(ids, shards) {
		t.Fatalf("mazebot_shards_connected sums to %v over shards %v, want %d over %v", sum, ids, len(shards), shards)
	}
	if n, _ := sample(metrics, "mazebot_shards"); n != float64(len(shards)) {
		t.Fatalf("mazebot_shards = %v, want %d", n, len(shards))
	}
	for _, name := range []string{"mazebot_render_queue_depth", "go_goroutines", "process_resident_memory_bytes"} {
		if _, ok := sample(metrics, name); !ok {
			t.Fatalf("/metrics lacks %s", name)
		}
	}
}

// mazeOnEveryShard sends /maze in a guild of each shard, and checks that
// it came in on that shard and was answered. It returns the interactions
// by shard.
func (d *discord) mazeOnEveryShard(t testing.TB, count int) []*member.Interaction {
	t.Helper()
	var out []*member.Interaction
	for shard := range count {
		ix, err := d.SlashCommand(testContext(t), member.SlashSpec{Name: "maze", GuildID: guildOnShard(t, shard, count), Options: []member.Option{opt("size", 5)}})
		if err != nil {
			t.Fatal(err)
		}
		if msg := final(t, ix); ix.Shard != shard || !strings.Contains(msg.Text(), "5×5") {
			t.Fatalf("/maze in a guild of shard %d came in on shard %d and answered %q", shard, ix.Shard, msg.Text())
		}
		out = append(out, ix)
	}
	return out
}

// commandWrites counts the requests that wrote application commands.
func (d *discord) commandWrites() int {
	n := 0
	for _, r := range d.Requests("") {
		if r.Method != http.MethodGet && strings.Contains(r.Path, "/commands") {
			n++
		}
	}
	return n
}

// waitIdentifyWindow waits until every rate-limit bucket is free again: an
// earlier start's IDENTIFY less than interval ago would get a restarted
// process's refused.
func (d *discord) waitIdentifyWindow(interval time.Duration) {
	log := d.IdentifyLog()
	for i := len(log) - 1; i >= 0; i-- {
		if log[i].SessionID != "" {
			time.Sleep(time.Until(log[i].Time.Add(interval + 50*time.Millisecond)))
			return
		}
	}
}

// identifyInterval is the identify rate limit's window the tests of
// in-process shards give the fake and the bot, below Discord's 5 s so that
// they run in a few seconds.
const identifyInterval = 1250 * time.Millisecond

// TestE2EShards: an App running all four shards that GET /gateway/bot
// recommends, with max_concurrency 2, identifies them in two rounds the
// interval apart, which the fake enforces; every shard's guilds are
// answered, DMs come in on shard 0; the commands are written once; the
// metrics and health endpoints say so.
func TestE2EShards(t *testing.T) {
	testkit.SkipShort(t, "a shard test")
	t.Parallel()
	fake := newDiscord(t)
	// The interval is the shortest for which the bot's identify turns
	// keep their full margin of 250 ms (a fifth of the interval below
	// that, bot/discord/shards.go): under -race on a loaded machine, the time
	// from a turn to its IDENTIFY reaching Discord varies by more than a
	// fifth of a shorter one, and the fake, enforcing the limit, would
	// refuse an IDENTIFY the bot timed right.
	const count, interval = 4, identifyInterval
	fake.SetSharding(fakediscord.Sharding{Shards: count, MaxConcurrency: 2, IdentifyInterval: interval, EnforceIdentifyLimit: true})
	cfg := fake.config(newDBFile(t))
	cfg.MetricsAddr = "127.0.0.1:0"
	app := fake.launchOptions(t, cfg, app.Options{IdentifyInterval: interval})

	identified := map[int]time.Time{}
	for _, r := range fake.IdentifyLog() {
		if r.SessionID == "" || r.TooSoon || r.Count != count {
			t.Fatalf("IDENTIFY %+v: want every shard of %d accepted at its first try", r, count)
		}
		identified[r.Shard] = r.Time
	}
	if len(identified) != count {
		t.Fatalf("shards identified: %v, want 0 to %d", identified, count-1)
	}
	// Buckets 0 and 1: shards 0 and 1 together, then 2 and 3.
	if gap := identified[2].Sub(identified[0]); gap < interval {
		t.Fatalf("shard 2 identified %v after shard 0, in the same bucket: want at least %v", gap, interval)
	}
	if gap := identified[3].Sub(identified[1]); gap < interval {
		t.Fatalf("shard 3 identified %v after shard 1, in the same bucket: want at least %v", gap, interval)
	}
	for _, first := range []int{0, 1} {
		for _, second := range []int{2, 3} {
			if !identified[first].Before(identified[second]) {
				t.Fatalf("identified at %v: want shards 0 and 1 (the first round) before 2 and 3", identified)
			}
		}
	}

	ctx := testContext(t)
	fake.mazeOnEveryShard(t, count)
	dm, err := fake.SlashCommand(ctx, member.SlashSpec{Name: "help", DM: true})
	if err != nil {
		t.Fatal(err)
	}
	if msg := final(t, dm); dm.Shard != 0 || !strings.Contains(msg.Text(), "Start here") {
		t.Fatalf("/help in a DM came in on shard %d and answered %q", dm.Shard, msg.Text())
	}
	if n := fake.commandWrites(); n != 1 {
		t.Fatalf("%d command writes, want 1", n)
	}

	checkOps(t, "http://"+app.MetricsAddr(), []int{0, 1, 2, 3})
	for series, want := range map[string]float64{
		`mazebot_interactions_total{kind="command",name="maze",outcome="ok"}`:    count,
		`mazebot_interactions_total{kind="command",name="help",outcome="ok"}`:    1,
		`mazebot_interaction_duration_seconds_count{kind="command",name="maze"}`: count,
	} {
		waitSample(t, "http://"+app.MetricsAddr(), series, want)
	}

	// A dropped shard makes the process unready until it resumes.
	fake.DropShard(3)
	deadline := time.Now().Add(10 * time.Second)
	for {
		if code, body := fetch(t, "http://"+app.MetricsAddr()+"/readyz"); code == http.StatusServiceUnavailable {
			if !strings.Contains(body, "(3)") {
				t.Fatalf("/readyz %q does not name shard 3", body)
			}
			break
		} else if time.Now().After(deadline) {
			// discordgo may have resumed before a probe saw the gap: only
			// a resume proves the drop happened.
			if fake.Shard(3).Resumes == 0 {
				t.Fatal("/readyz stayed 200 and shard 3 never resumed")
			}
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := fake.WaitShardReady(ctx, 3); err != nil {
		t.Fatal(err)
	}
	waitReadyz(t, "http://"+app.MetricsAddr(), 20*time.Second)
}

// recapMaze is the maze of the day before the processes' dailies.
var recapMaze = mazecore.ID{Algorithm: mazecore.Backtracking, Width: 21, Height: 21, Seed: 7}

// dailyZone is a time zone in which it is now between 01:00 and 23:00,
// so that a daily set for 00:00 is due, and stays on today's date while
// the test runs.
func dailyZone() string {
	if h := time.Now().UTC().Hour(); h >= 1 && h < 23 {
		return "UTC"
	}
	return "Etc/GMT-2" // UTC+2: 23:xx and 00:xx UTC are 01:xx and 02:xx
}

// TestProcessShards: three processes of the real binary hold shards 0-1,
// 2-3 and 4-5 of six and share one database. The commands are written
// once; each guild's commands are answered by the process that runs its
// shard; a game goes on after its process is killed and restarted (which
// identifies afresh); dailies due in three guilds are posted once each
// while all three processes tick; /readyz and /metrics answer for each.
func TestProcessShards(t *testing.T) {
	t.Parallel()
	fake := newDiscord(t)
	const count = 6
	// max_concurrency 6 puts every shard in a bucket of its own, so the
	// three processes identify at once without breaking the limit the
	// fake enforces; the limit's 1 s keeps the restart below short.
	const interval = time.Second
	fake.SetSharding(fakediscord.Sharding{Shards: count, MaxConcurrency: count, IdentifyInterval: interval, EnforceIdentifyLimit: true, RejectMixedShardCounts: true})

	db, link := sharedDatabase(t)
	lists := []string{"0-1", "2-3", "4-5"}
	owner := func(shard int) string { return lists[shard/2] }
	start := func(list string) *botProcess {
		return fake.startProcess(t, t.TempDir(), "MAZEBOT_DB="+db, "DISCORD_SHARD_COUNT=6", "DISCORD_SHARD_IDS="+list, "METRICS_ADDR=127.0.0.1:0")
	}
	procs := map[string]*botProcess{}
	for _, list := range lists { // all at once: they race to migrate the database too
		procs[list] = start(list)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	if err := fake.WaitReady(ctx); err != nil {
		t.Fatal(err)
	}
	for _, r := range fake.IdentifyLog() {
		if r.SessionID == "" || r.TooSoon || r.Count != count {
			t.Fatalf("IDENTIFY %+v: want each shard of %d accepted at its first try", r, count)
		}
	}
	waitFor(t, "the command sync", func() bool { return fake.commandWrites() > 0 })

	// Every shard's guilds, and DMs, reach the process that runs the shard.
	answeredBy := func(ix *member.Interaction, list string) {
		t.Helper()
		waitFor(t, "the handler's log line", func() bool { return strings.Contains(procs[list].logs.String(), "interaction="+ix.ID) })
		for _, other := range lists {
			if other != list && strings.Contains(procs[other].logs.String(), "interaction="+ix.ID) {
				t.Fatalf("interaction %s on shard %d was handled by the process of %s too", ix.ID, ix.Shard, other)
			}
		}
	}
	for shard, ix := range fake.mazeOnEveryShard(t, count) {
		answeredBy(ix, owner(shard))
	}
	dm, err := fake.SlashCommand(ctx, member.SlashSpec{Name: "maze", DM: true, Options: []member.Option{opt("size", 5)}})
	if err != nil {
		t.Fatal(err)
	}
	if final(t, dm); dm.Shard != 0 {
		t.Fatalf("a DM came in on shard %d, want 0", dm.Shard)
	}
	answeredBy(dm, "0-1")

	for list, want := range map[string]float64{"0-1": 3, "2-3": 2, "4-5": 2} {
		first, _ := strconv.Atoi(list[:1])
		base := procs[list].metricsBase(t)
		checkOps(t, base, []int{first, first + 1})
		waitSample(t, base, `mazebot_interactions_total{kind="command",name="maze",outcome="ok"}`, want)
	}

	// A game in a guild of shard 2 goes on across a kill -9 of its process.
	gameGuild := guildOnShard(t, 2, count)
	mazeIx, err := fake.SlashCommand(ctx, member.SlashSpec{Name: "maze", GuildID: gameGuild, Options: []member.Option{opt("algorithm", "backtracking"), opt("size", 11), opt("seed", 9)}})
	if err != nil {
		t.Fatal(err)
	}
	mazeMsg := final(t, mazeIx)
	m, err := mazecore.Generate(mazeIDIn(t, mazeMsg.Text()))
	if err != nil {
		t.Fatal(err)
	}
	p := fake.startGame(t, mazeMsg, m, fakediscord.DefaultUserID)
	p.click(p.next())
	procs["2-3"].kill(t)
	// Until the fake sees the connections go, shard 2 looks ready still.
	waitFor(t, "shards 2 and 3 disconnected", func() bool { return !fake.Shard(2).Connected && !fake.Shard(3).Connected })
	identifiesBefore, resumesBefore := fake.Shard(2).Identifies, fake.Shard(2).Resumes
	// As a supervisor's restart delay would: discordgo answers a refused
	// IDENTIFY (op 9) at once, again and again, so a restart inside the
	// window would only test that.
	fake.waitIdentifyWindow(interval)
	procs["2-3"] = start("2-3")
	if err := fake.WaitShardReady(ctx, 2); err != nil {
		t.Fatal(err)
	}
	if err := fake.WaitShardReady(ctx, 3); err != nil {
		t.Fatal(err)
	}
	if s := fake.Shard(2); s.Identifies != identifiesBefore+1 || s.Resumes != resumesBefore {
		t.Fatalf("shard 2 after the restart: %d identifies and %d resumes, want a fresh IDENTIFY (%d, %d)", s.Identifies, s.Resumes, identifiesBefore+1, resumesBefore)
	}
	checkOps(t, procs["2-3"].metricsBase(t), []int{2, 3})
	p.walk()
	if !p.won() {
		t.Fatalf("the game did not finish after the restart:\n%s", p.msg.Text())
	}
	// The process logs a click once it has answered it, so the line may
	// reach the pipe just after the answer reached the fake.
	waitFor(t, "the restarted process to log the clicks", func() bool { return strings.Contains(procs["2-3"].logs.String(), "name=mv") })

	// Dailies in guilds of each process, due since 00:00 today: the next
	// ticks (every 15 s; those of 0-1 and 4-5, started together, nearly
	// in step) race to post them.
	store, err := openDB(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	zone := dailyZone()
	dailies := map[string]string{} // channel -> guild
	for _, shard := range []int{1, 3, 5} {
		guild, channel := guildOnShard(t, shard, count), fmt.Sprintf("13000000000000007%02d", shard)
		setup := member.Option{Name: "setup", Options: []member.Option{opt("channel", channel), opt("time", "00:00"), opt("timezone", zone)}}
		ix, err := fake.SlashCommand(ctx, member.SlashSpec{Name: "daily", GuildID: guild, Options: []member.Option{setup}, Permissions: managerPerms})
		if err != nil {
			t.Fatal(err)
		}
		if msg := final(t, ix); !strings.Contains(msg.Text(), "<#"+channel+">") {
			t.Fatalf("/daily setup in shard %d's guild answered %q", shard, msg.Text())
		}
		dailies[channel] = guild
		// A setup made after today's post time starts tomorrow: make it
		// yesterday's, through the database the processes share.
		s, err := store.dailySettings(ctx, guild)
		if err != nil || s.ChannelID != channel {
			t.Fatalf("guild %s's settings in the shared database: %+v, %v", guild, s, err)
		}
		// Yesterday's daily was played: today's post, whichever process
		// makes it, carries its recap once.
		today, _ := s.DayAt(time.Now())
		yesterday := today.AddDays(-1)
		if err := store.fixDailyMaze(ctx, guild, yesterday, recapMaze); err != nil {
			t.Fatal(err)
		}
		if err := store.seedFinish(ctx, guild, recapPlayers[0], yesterday, recapMaze, yesterday.Noon(s.Zone)); err != nil {
			t.Fatal(err)
		}
		s.UpdatedAt = s.UpdatedAt.Add(-24 * time.Hour)
		if err := store.saveDailySettings(ctx, s); err != nil {
			t.Fatal(err)
		}
	}

	// Each daily is posted, once; then every process ticks at least once
	// more (every 15 s, and the restarted one at its start) without
	// posting it again.
	var lastPost time.Time
	for channel, guild := range dailies {
		post, err := fake.WaitChannelMessage(ctx, channel, func(m *fakediscord.Message) bool { return strings.Contains(m.Text(), "Daily challenge") })
		if err != nil {
			t.Fatalf("the daily of guild %s never came: %v", guild, err)
		}
		if post.Timestamp.After(lastPost) {
			lastPost = post.Timestamp
		}
	}
	time.Sleep(time.Until(lastPost.Add(16 * time.Second)))
	for channel, guild := range dailies {
		msgs := fake.ChannelMessages(channel)
		if n := len(msgs); n != 1 {
			t.Errorf("guild %s's daily was posted %d times, want once", guild, n)
			continue
		}
		if text := msgs[0].Text(); strings.Count(text, "Yesterday's daily") != 1 || !strings.Contains(text, "🥇 <@"+recapPlayers[0]+">") {
			t.Errorf("guild %s's daily lacks yesterday's recap, once:\n%s", guild, text)
		}
	}

	// Only the process of shard 0 writes commands: once per start.
	if n := fake.commandWrites(); n != 1 {
		t.Fatalf("%d command writes with a restart of another process, want 1", n)
	}
	first := procs["0-1"]
	if err := first.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	<-first.exited
	if first.exitErr != nil {
		t.Fatalf("the process of shards 0-1 exited with %v after SIGTERM", first.exitErr)
	}
	fake.waitIdentifyWindow(interval)
	procs["0-1"] = start("0-1")
	waitFor(t, "the restarted shard 0's command sync", func() bool { return fake.commandWrites() == 2 })
	checkOps(t, procs["0-1"].metricsBase(t), []int{0, 1})
	dm, err = fake.SlashCommand(ctx, member.SlashSpec{Name: "help", DM: true})
	if err != nil {
		t.Fatal(err)
	}
	final(t, dm)
	answeredBy(dm, "0-1")
	for _, r := range fake.IdentifyLog() {
		if r.TooSoon || r.SessionID == "" {
			t.Fatalf("IDENTIFY %+v broke the rate limit or was refused", r)
		}
	}
	if link != nil {
		fake.databaseOutage(t, link, procs, lists, count)
	}
}

// databaseOutage cuts the processes off PostgreSQL for a few seconds:
// every /readyz turns 503 within 10 s while /healthz stays 200; a command
// that needs the database gets a private apology in time; no process
// exits; within 30 s of the return every /readyz is 200 again and the
// command works.
func (d *discord) databaseOutage(t *testing.T, link *testkit.Proxy, procs map[string]*botProcess, lists []string, count int) {
	t.Helper()
	link.Cut()
	cut := time.Now()
	for _, list := range lists {
		base := procs[list].metricsBase(t)
		waitFor(t, "shards "+list+" unready without the database", func() bool {
			code, body := fetch(t, base+"/readyz")
			return code == 503 && strings.Contains(body, "database")
		})
		if code, _ := fetch(t, base+"/healthz"); code != 200 {
			t.Fatalf("shards %s: /healthz %d during the outage, want 200", list, code)
		}
	}
	if waited := time.Since(cut); waited > 10*time.Second {
		t.Fatalf("/readyz took %v to notice the outage, want within 10 s", waited)
	}
	ctx := testContext(t)
	for shard := range count {
		ix, err := d.SlashCommand(ctx, member.SlashSpec{Name: "maze", GuildID: guildOnShard(t, shard, count), Options: []member.Option{opt("size", 9)}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ix.Wait(ctx); err != nil {
			t.Fatalf("shard %d: /maze during the outage was not acknowledged: %v", shard, err)
		}
		msg, err := ix.WaitFinal(ctx, func(m *fakediscord.Message) bool { return m.Ephemeral() && !m.Loading() })
		if err != nil {
			t.Fatalf("shard %d: no private apology during the outage: %v", shard, err)
		}
		if !strings.Contains(msg.Text(), "Sorry") || time.Since(ix.Dispatched) > 15*time.Second {
			t.Fatalf("shard %d: %q after %v, want an apology within 15 s", shard, msg.Text(), time.Since(ix.Dispatched))
		}
	}
	for _, list := range lists {
		select {
		case <-procs[list].exited:
			t.Fatalf("shards %s: the process exited during the outage: %v", list, procs[list].exitErr)
		default:
		}
	}
	time.Sleep(time.Until(cut.Add(5 * time.Second)))
	if err := link.Restore(); err != nil {
		t.Fatal(err)
	}
	for _, list := range lists {
		waitReadyz(t, procs[list].metricsBase(t), 30*time.Second)
	}
	for shard := range count {
		msg := final(t, d.slashIn(t, guildOnShard(t, shard, count), opt("size", 9)))
		if msg.Ephemeral() || !strings.Contains(msg.Text(), "9×9") {
			t.Fatalf("shard %d: /maze after the outage gave %q", shard, msg.Text())
		}
	}
}

// slashIn sends /maze in a guild.
func (d *discord) slashIn(t *testing.T, guildID string, opts ...member.Option) *member.Interaction {
	t.Helper()
	ix, err := d.SlashCommand(testContext(t), member.SlashSpec{Name: "maze", GuildID: guildID, Options: opts})
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

// TestE2EIdentifyTurns: two processes (two Apps here) sharing a database
// start at once, as a deploy restarts them, with shards 0 and 1 of two in
// one rate-limit bucket (max_concurrency 1). The database gives the
// bucket's turn to one at a time, so the fake Discord, which enforces the
// limit, refuses no IDENTIFY; both are connected.
func TestE2EIdentifyTurns(t *testing.T) {
	testkit.SkipShort(t, "a shard test")
	t.Parallel()
	fake := newDiscord(t)
	const count, interval = 2, identifyInterval // as in TestE2EShards
	fake.SetSharding(fakediscord.Sharding{Shards: count, MaxConcurrency: 1, IdentifyInterval: interval, EnforceIdentifyLimit: true})
	dbPath := newDBFile(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, count)
	var apps []*app.App
	var logs []*testkit.LogBuffer
	t.Cleanup(func() {
		cancel()
		for range apps {
			if err := <-done; err != nil {
				t.Errorf("Run: %v", err)
			}
		}
		for i, a := range apps {
			if err := a.Close(); err != nil {
				t.Errorf("Close: %v", err)
			}
			if t.Failed() {
				t.Logf("logs of the process with shard %d:\n%s", i, logs[i])
			}
		}
	})
	for id := range count {
		buf := &testkit.LogBuffer{}
		cfg := fake.config(dbPath)
		cfg.ShardCount, cfg.ShardIDs = count, []int{id}
		a, err := app.Build(ctx, cfg, slog.New(slog.NewTextHandler(buf, &slog.HandlerOptions{Level: slog.LevelDebug})), app.Options{IdentifyInterval: interval})
		if err != nil {
			t.Fatal(err)
		}
		apps, logs = append(apps, a), append(logs, buf)
	}
	for _, a := range apps {
		go func() { done <- a.Run(ctx) }()
	}
	wait := testContext(t)
	for id := range count {
		if err := fake.WaitShardReady(wait, id); err != nil {
			t.Fatalf("shard %d: %v (%+v, identifies %+v)", id, err, fake.Shard(id), fake.IdentifyLog())
		}
	}
	var accepted []fakediscord.IdentifyRecord
	for _, r := range fake.IdentifyLog() {
		if r.TooSoon || r.SessionID == "" {
			t.Fatalf("IDENTIFY %+v: want each accepted at its first try", r)
		}
		accepted = append(accepted, r)
	}
	if len(accepted) != count {
		t.Fatalf("%d IDENTIFYs accepted, want %d", len(accepted), count)
	}
	if gap := accepted[1].Time.Sub(accepted[0].Time); gap < interval {
		t.Fatalf("the second IDENTIFY came %v after the first, in the same bucket: want at least %v", gap, interval)
	}
	for i := range logs {
		if strings.Contains(logs[i].String(), "waiting for its turn") {
			return
		}
	}
	t.Fatal("neither process logged that it waited for the other's turn")
}
