package arena

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"time"
)

// sessionTTL is how long a session token admits its member: a page
// reconnecting within it asks Discord nothing. Past it the client signs in
// again (the SDK's authorize, without a prompt). A member who left the
// instance may still connect until their session ends: the price of
// asking Discord once, not at every connection.
const sessionTTL = 30 * time.Minute

// session is what POST /api/token learned from Discord once: who the
// member is and the instance that has them. Its token, signed with the
// server's key, is all a WebSocket brings.
type session struct {
	User     string `json:"u"`
	Name     string `json:"n"`
	Instance string `json:"i"`
	Guild    string `json:"g,omitempty"`
	Channel  string `json:"c"`
	Expires  int64  `json:"e"` // Unix s
}

// errBadSession refuses a session token that is not one this server
// signed, or one past its time; it is refused here, with no word to
// Discord.
var errBadSession = errors.New("not a valid session token")

// sessionKey is the key the session tokens are signed with, derived from
// the configured secret (or, without one, the client secret and the bot
// token, which every process of the bot has), so that another process
// admits a token this one minted. It is never logged.
func sessionKey(cfg Config) []byte {
	mac := hmac.New(sha256.New, cfg.SessionSecret)
	if len(cfg.SessionSecret) == 0 {
		mac = hmac.New(sha256.New, []byte(cfg.ClientSecret+"\x00"+cfg.BotToken))
	}
	mac.Write([]byte("mazebot arena session token"))
	return mac.Sum(nil)
}

// mint signs se: base64url(JSON) "." base64url(HMAC-SHA256).
func mint(key []byte, se session) string {
	body, _ := json.Marshal(se)
	payload := base64.RawURLEncoding.EncodeToString(body)
	return payload + "." + base64.RawURLEncoding.EncodeToString(sign(key, payload))
}

func sign(key []byte, payload string) []byte {
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(payload))
	return mac.Sum(nil)
}

// verify reads a session token at now: errBadSession unless this key
// signed it and it has not expired.
func verify(key []byte, token string, now time.Time) (session, error) {
	payload, sig, ok := strings.Cut(token, ".")
	if !ok || len(token) > 1024 {
		return session{}, errBadSession
	}
	got, err := base64.RawURLEncoding.DecodeString(sig)
	if err != nil || !hmac.Equal(got, sign(key, payload)) {
		return session{}, errBadSession
	}
	body, err := base64.RawURLEncoding.DecodeString(payload)
	if err != nil {
		return session{}, errBadSession
	}
	var se session
	if err := json.Unmarshal(body, &se); err != nil || se.User == "" || se.Instance == "" || se.Channel == "" {
		return session{}, errBadSession
	}
	if now.Unix() >= se.Expires {
		return session{}, errBadSession
	}
	return se, nil
}
