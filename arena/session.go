package arena

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
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

// sealer keeps a launch's interaction token unreadable on its way to the
// process that posts the race's card: it crosses the bus (on PostgreSQL,
// a table row for a minute) and rooms' syncs sealed with a key every
// process of the bot derives alike, and is opened only to post.
type sealer struct{ aead cipher.AEAD }

func newSealer(cfg Config) sealer {
	mac := hmac.New(sha256.New, sessionKey(cfg))
	mac.Write([]byte("mazebot arena followup token"))
	block, err := aes.NewCipher(mac.Sum(nil))
	if err != nil {
		panic(err) // a 32-byte key: AES-256 takes it
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		panic(err)
	}
	return sealer{aead}
}

// seal encrypts token: base64url(nonce ‖ ciphertext); "" stays "".
func (s sealer) seal(token string) string {
	if token == "" {
		return ""
	}
	nonce := make([]byte, s.aead.NonceSize(), s.aead.NonceSize()+len(token)+s.aead.Overhead())
	_, _ = rand.Read(nonce)
	return base64.RawURLEncoding.EncodeToString(s.aead.Seal(nonce, nonce, []byte(token), nil))
}

// errSealed refuses a sealed token this key did not seal, or one changed.
var errSealed = errors.New("a sealed followup token that does not open")

// open decrypts what seal made.
func (s sealer) open(sealed string) (string, error) {
	b, err := base64.RawURLEncoding.DecodeString(sealed)
	if err != nil || len(b) < s.aead.NonceSize() {
		return "", errSealed
	}
	token, err := s.aead.Open(nil, b[:s.aead.NonceSize()], b[s.aead.NonceSize():], nil)
	if err != nil {
		return "", errSealed
	}
	return string(token), nil
}
