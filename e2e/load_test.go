//go:build load

package e2e

// A load test of the HTTP interactions endpoint (issue 9, row 2), run on
// demand, not in CI:
//
//	go test -tags load -run TestLoadHTTPEndpoint -v -count=1 ./e2e/
//
// It runs the real binary with HTTP_ADDR against the fake Discord, sets
// LOAD_CLIENTS (300) slow clients on it for LOAD_SECONDS (8) per kind of
// attack, each sending headers that announce a body and then trickling it
// (16 KiB every 100 ms, reconnecting when refused), and meanwhile has the
// fake deliver a signed /maze every 250 ms. It prints the bot process's
// peak RSS for each attack and the latency of the signed interactions.

import (
	"bufio"
	"crypto/ed25519"
	"encoding/hex"
	"fmt"
	"net"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"mazebot/internal/fakediscord/member"
)

func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}

// rssKiB reads a field (VmRSS, VmHWM) of /proc/PID/status in KiB.
func rssKiB(pid int, field string) int {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(b)) {
		if rest, ok := strings.CutPrefix(line, field+":"); ok {
			n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
			return n
		}
	}
	return 0
}

// attack is one kind of slow client.
type attack struct {
	name    string
	headers func() string // signature headers
	length  int           // the Content-Length announced
}

func TestLoadHTTPEndpoint(t *testing.T) {
	// Not parallel: it measures the bot process's memory and latency under
	// attack, which other tests running beside it would change; so it runs
	// alone, before the parallel tests.
	fake := newDiscord(t)
	clients, seconds := envInt("LOAD_CLIENTS", 300), envInt("LOAD_SECONDS", 8)
	pub, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	p := fake.startProcess(t, t.TempDir(), "HTTP_ADDR=127.0.0.1:0", "DISCORD_PUBLIC_KEY="+hex.EncodeToString(pub), "LOG_LEVEL=info")
	addr := p.endpointAddr(t)
	waitFor(t, "command sync", func() bool { return fake.CommandPuts() > 0 })
	fake.UseHTTPEndpoint("http://"+addr+"/interactions", priv)
	u, _ := url.Parse("http://" + addr + "/interactions")
	pid := p.cmd.Process.Pid

	wrongSig := func() string {
		return "X-Signature-Ed25519: " + strings.Repeat("ab", ed25519.SignatureSize) + "\r\nX-Signature-Timestamp: " + strconv.FormatInt(time.Now().Unix(), 10) + "\r\n"
	}
	attacks := []attack{
		{"unsigned, 1 MiB", func() string { return "" }, 1 << 20},
		{"wrong signature, 1 MiB", wrongSig, 1 << 20},
		{"wrong signature, 512 KiB", wrongSig, 512 << 10},
		{"wrong signature, 32 KiB", wrongSig, 32 << 10},
	}
	fmt.Printf("baseline: RSS %d KiB\n", rssKiB(pid, "VmRSS"))
	fmt.Printf("%-26s %8s %14s %9s %9s %9s %9s\n", "attack", "clients", "peak RSS MiB", "signed", "p50 ms", "p99 ms", "max ms")
	failed := false
	for _, a := range attacks {
		stop := make(chan struct{})
		var wg sync.WaitGroup
		var conns atomic.Int64
		for range clients {
			wg.Go(func() { slowClient(u, a, stop, &conns) })
		}
		// Sample RSS while signed interactions go on being delivered.
		peak := 0
		sampled := make(chan struct{})
		go func() {
			defer close(sampled)
			tick := time.NewTicker(20 * time.Millisecond)
			defer tick.Stop()
			for {
				select {
				case <-stop:
					return
				case <-tick.C:
					peak = max(peak, rssKiB(pid, "VmRSS"))
				}
			}
		}()
		var latencies []time.Duration
		lost := 0
		end := time.Now().Add(time.Duration(seconds) * time.Second)
		for time.Now().Before(end) {
			ix, err := fake.SlashCommand(testContext(t), member.SlashSpec{Name: "maze", Options: []member.Option{opt("size", 11)}})
			if err != nil {
				t.Fatal(err)
			}
			resp, err := ix.Wait(testContext(t))
			if err != nil {
				lost++
			} else {
				latencies = append(latencies, resp.Elapsed)
			}
			time.Sleep(250 * time.Millisecond)
		}
		close(stop)
		wg.Wait()
		<-sampled
		slices.Sort(latencies)
		q := func(f float64) float64 {
			if len(latencies) == 0 {
				return 0
			}
			return float64(latencies[min(len(latencies)-1, int(f*float64(len(latencies))))].Microseconds()) / 1000
		}
		fmt.Printf("%-26s %8d %14.1f %6d/%-2d %9.1f %9.1f %9.1f   (%d connections)\n", a.name, clients, float64(peak)/1024,
			len(latencies), len(latencies)+lost, q(0.5), q(0.99), q(1), conns.Load())
		if peak > 150<<10 || lost > 0 || q(1) > 3000 {
			failed = true
		}
	}
	fmt.Printf("process peak (VmHWM) over the run: %.1f MiB\n", float64(rssKiB(pid, "VmHWM"))/1024)
	if failed {
		t.Fatal("a target was missed: peak RSS under 150 MiB and every signed interaction answered within 3 s")
	}
}

// slowClient connects, announces a body of a.length bytes and trickles it
// at 16 KiB per 100 ms until the server answers or hangs up, then connects
// again, until stop.
func slowClient(u *url.URL, a attack, stop <-chan struct{}, conns *atomic.Int64) {
	chunk := make([]byte, 16<<10)
	for i := range chunk {
		chunk[i] = 'x'
	}
	for {
		select {
		case <-stop:
			return
		default:
		}
		conn, err := net.DialTimeout("tcp", u.Host, time.Second)
		if err != nil {
			time.Sleep(100 * time.Millisecond)
			continue
		}
		conns.Add(1)
		answered := make(chan struct{})
		go func() {
			defer close(answered)
			_, _ = bufio.NewReader(conn).ReadByte() // any answer, or the hang-up
		}()
		head := fmt.Sprintf("POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n%s\r\n", u.RequestURI(), u.Host, a.length, a.headers())
		_, err = conn.Write([]byte(head))
		for sent := 0; err == nil && sent < a.length; sent += len(chunk) {
			select {
			case <-stop:
				err = net.ErrClosed
				continue
			case <-answered:
				err = net.ErrClosed
				continue
			case <-time.After(100 * time.Millisecond):
			}
			_, err = conn.Write(chunk[:min(len(chunk), a.length-sent)])
		}
		conn.Close()
		<-answered
		time.Sleep(100 * time.Millisecond)
	}
}
