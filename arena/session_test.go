package arena

import (
	"strings"
	"testing"
	"time"
)

// TestSessionTokens: a token verifies under the key that signed it, until
// it expires; another key, an altered payload or signature, or a made-up
// token do not.
func TestSessionTokens(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	key := sessionKey(Config{SessionSecret: []byte("s3cret")})
	se := session{User: "u1", Name: "ada", Instance: "i1", Channel: "c1", Expires: now.Add(sessionTTL).Unix()}
	token := mint(key, se)
	if got, err := verify(key, token, now); err != nil || got != se {
		t.Fatalf("the token as minted: %+v, %v", got, err)
	}
	if _, err := verify(key, token, now.Add(sessionTTL)); err == nil {
		t.Error("a token past its time verified")
	}
	other := sessionKey(Config{SessionSecret: []byte("other")})
	if _, err := verify(other, token, now); err == nil {
		t.Error("a token verified under another key")
	}
	payload, sig, _ := strings.Cut(token, ".")
	forged := mint(other, session{User: "u2", Instance: "i1", Channel: "c1", Expires: se.Expires})
	forgedPayload, _, _ := strings.Cut(forged, ".")
	for name, bad := range map[string]string{
		"another's payload with this signature": forgedPayload + "." + sig,
		"a signature altered":                   payload + "." + strings.Repeat("A", len(sig)),
		"made up":                               "made-up-token",
		"empty":                                 "",
		"huge":                                  strings.Repeat("a", 2000) + "." + sig,
	} {
		if _, err := verify(key, bad, now); err == nil {
			t.Errorf("%s: verified", name)
		}
	}
	// Without a configured secret the key comes from the client secret and
	// the bot token: two processes of one bot agree, another bot does not.
	a := sessionKey(Config{ClientSecret: "cs", BotToken: "Bot t"})
	b := sessionKey(Config{ClientSecret: "cs", BotToken: "Bot t"})
	c := sessionKey(Config{ClientSecret: "cs", BotToken: "Bot u"})
	if string(a) != string(b) || string(a) == string(c) {
		t.Error("the derived keys do not follow the configuration")
	}
}

// TestSealedFollowup: a sealed token does not show the token, opens
// under a sealer of the same configuration (another process of the bot),
// and not under another's, nor changed.
func TestSealedFollowup(t *testing.T) {
	here := newSealer(Config{ClientSecret: "cs", BotToken: "Bot t"})
	there := newSealer(Config{ClientSecret: "cs", BotToken: "Bot t"})
	other := newSealer(Config{ClientSecret: "cs", BotToken: "Bot u"})
	const token = "aW50ZXJhY3Rpb246MTIzNDU2Nzg5OnNlY3JldA"
	sealed := here.seal(token)
	if strings.Contains(sealed, token) || sealed == here.seal(token) {
		t.Fatalf("sealed %q: shows the token, or seals it alike twice", sealed)
	}
	if got, err := there.open(sealed); err != nil || got != token {
		t.Fatalf("another process opened %q, %v", got, err)
	}
	last := sealed[len(sealed)-1:]
	changed := sealed[:len(sealed)-1] + map[bool]string{true: "B", false: "A"}[last == "A"]
	for name, bad := range map[string]string{"another bot's": other.seal(token), "changed": changed, "plain": token, "empty": ""} {
		if got, err := there.open(bad); err == nil {
			t.Errorf("%s opened: %q", name, got)
		}
	}
	if here.seal("") != "" {
		t.Error("no token sealed into one")
	}
}
