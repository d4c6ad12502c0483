package arena

import (
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"mazebot/lang"
)

// TestProtocolTypeScriptIsCurrent: the client's types (web/src/protocol.ts)
// are what the Go messages make: a message changed in Go and not
// regenerated fails here, and tsc --noEmit in CI then checks the client
// against the file.
func TestProtocolTypeScriptIsCurrent(t *testing.T) {
	have, err := os.ReadFile("web/src/protocol.ts")
	if err != nil {
		t.Fatal(err)
	}
	if string(have) != TypeScript() {
		t.Fatal("web/src/protocol.ts is stale: run go generate ./arena and commit it")
	}
}

// TestTypeScriptFollowsTheGoTypes: the generator writes each JSON field
// of every message under its JSON name with the TypeScript type of its Go
// type, so a Go message and its TS type cannot disagree; a field added to
// a Go message appears in the TypeScript.
func TestTypeScriptFollowsTheGoTypes(t *testing.T) {
	ts := TypeScript()
	for _, want := range []string{
		"export const PROTOCOL_VERSION = " + itoa(ProtocolVersion) + ";",
		"export interface MoveMsg {\n  t: \"move\";\n  dir: Direction;\n}",
		"  start: [number, number];\n",
		"  players: PlayerView[];\n",
		"  maze: MazeGrid;\n",
		"  start_at?: number;\n",
		"export type Refusal = \"wall\" | ",
	} {
		if !strings.Contains(ts, want) {
			t.Errorf("the TypeScript lacks %q", want)
		}
	}
	for _, list := range [][]Message{ClientMessages, ServerMessages} {
		for _, m := range list {
			typ := reflect.TypeOf(m.Value)
			for f := range typ.Fields() {
				name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
				if !strings.Contains(ts, "\n  "+name+":") && !strings.Contains(ts, "\n  "+name+"?:") {
					t.Errorf("%s.%s (%s) is not in the TypeScript", typ.Name(), f.Name, name)
				}
			}
			if !strings.Contains(ts, "  t: \""+m.T+"\";") {
				t.Errorf("%s is not told apart by t: %q", typ.Name(), m.T)
			}
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestRefusalsHaveWords: every refusal the client can be told has its
// catalog message, in English and in Korean, through the Refusals table
// (never a key built from the code).
func TestRefusalsHaveWords(t *testing.T) {
	for _, name := range refusalNames() {
		id, ok := Refusals[Refusal(name)]
		if !ok {
			t.Errorf("refusal %q has no catalog message in Refusals", name)
			continue
		}
		for _, l := range []*lang.Lang{lang.English, lang.Korean} {
			if !l.Has(id) {
				t.Errorf("refusal %q: %s is not in the %s catalog", name, id, l.Code())
			}
		}
	}
	if len(Refusals) != len(refusalNames()) {
		t.Errorf("Refusals has %d entries, the protocol %d refusals", len(Refusals), len(refusalNames()))
	}
}

// TestDecodeClient: each client message decodes into its type; a field
// its type lacks (a position, another's id), an unknown "t" or trailing
// data is refused.
func TestDecodeClient(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want any
	}{
		{`{"t":"move","dir":"n"}`, &MoveMsg{T: "move", Dir: North}},
		{`{"t":"move","dir":"out_cw"}`, &MoveMsg{T: "move", Dir: OutClockwise}},
		{`{"t":"move","dir":"up"}`, &MoveMsg{T: "move", Dir: "up"}}, // refused as bad by the ways
		{`{"t":"move","dir":"n\u0065"}`, &MoveMsg{T: "move", Dir: "ne"}},
		{`{ "t":"move","dir":"n"}`, &MoveMsg{T: "move", Dir: North}},
		{`{"t":"hello","v":2,"token":"x","instance":"i"}`, &HelloMsg{T: "hello", V: 2, Token: "x", Instance: "i"}},
		{`{"t":"ping","c":12.5}`, &PingMsg{T: "ping", Client: 12.5}},
		{`{"t":"start"}`, &StartMsg{T: "start"}},
		{`{"t":"watch","on":true}`, &WatchMsg{T: "watch", On: true}},
		{`{"t":"rematch"}`, &RematchMsg{T: "rematch"}},
		{`{"t":"pick","algorithm":"sidewinder","size":21}`, &PickMsg{T: "pick", Algorithm: "sidewinder", Size: 21}},
	} {
		got, err := decodeClient([]byte(tc.in))
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %#v, %v; want %#v", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{
		`{"t":"move","dir":"n","x":3}`, `{"t":"move","dir":"n","id":"u2"}`, `{"t":"teleport"}`,
		`{"t":"start"}{"t":"start"}`, `{"t":"start","size":5}`, `{"t":"rematch","maze":"x"}`, `[]`, ``,
		`{"t":"move","dir":"n"}{"t":"move","dir":"n"}`, `{"t":"move","dir":"n","x":"1"}`, `{"t":"move","dir":"n"}}`,
	} {
		if got, err := decodeClient([]byte(bad)); err == nil {
			t.Errorf("%s decoded to %#v", bad, got)
		}
	}
}
