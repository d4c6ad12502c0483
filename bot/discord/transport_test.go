package discord

import (
	"go/ast"
	"go/parser"
	"go/token"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// TestEndpointsAreOnDiscordHost reads discordgo's endpoints.go and checks
// that every string endpoint of the API is on discord.com, the host Rebase
// moves, so a discordgo upgrade cannot silently send a call past it. The
// status page and CDN are other hosts, not the API, and stay as they are.
func TestEndpointsAreOnDiscordHost(t *testing.T) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/bwmarrin/discordgo").Output()
	if err != nil {
		t.Fatalf("locate discordgo source: %v", err)
	}
	file := filepath.Join(strings.TrimSpace(string(out)), "endpoints.go")
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	funcs := map[string]bool{}
	var strs []string
	for _, decl := range f.Decls {
		gd, ok := decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.VAR {
			continue
		}
		for _, spec := range gd.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, name := range vs.Names {
				if !strings.HasPrefix(name.Name, "Endpoint") || i >= len(vs.Values) {
					continue
				}
				switch v := vs.Values[i].(type) {
				case *ast.FuncLit:
					funcs[name.Name] = true
				case *ast.Ident:
					if funcs[v.Name] {
						funcs[name.Name] = true
					} else {
						strs = append(strs, name.Name)
					}
				default:
					strs = append(strs, name.Name)
				}
			}
		}
	}
	const root = "https://" + discordHost + "/"
	vars := apiEndpointStrings()
	for _, name := range strs {
		if strings.HasPrefix(name, "EndpointCDN") || strings.HasPrefix(name, "EndpointSm") || name == "EndpointStatus" {
			continue
		}
		v, ok := vars[name]
		if !ok {
			t.Errorf("discordgo.%s is a string endpoint this test does not know: is it on %s?", name, discordHost)
			continue
		}
		if !strings.HasPrefix(v, root) {
			t.Errorf("discordgo.%s = %q, want prefix %q", name, v, root)
		}
	}
	for name, got := range map[string]string{
		"EndpointInteractionResponse":      discordgo.EndpointInteractionResponse("1", "tok"),
		"EndpointFollowupMessage":          discordgo.EndpointFollowupMessage("2", "tok"),
		"EndpointApplicationGuildCommands": discordgo.EndpointApplicationGuildCommands("2", "3"),
		"EndpointChannelMessage":           discordgo.EndpointChannelMessage("4", "5"),
	} {
		if !strings.HasPrefix(got, root+"api/v9/") {
			t.Errorf("%s = %q, want prefix %q", name, got, root+"api/v9/")
		}
	}
}

func apiEndpointStrings() map[string]string {
	return map[string]string{
		"EndpointDiscord": discordgo.EndpointDiscord, "EndpointAPI": discordgo.EndpointAPI,
		"EndpointGuilds": discordgo.EndpointGuilds, "EndpointChannels": discordgo.EndpointChannels,
		"EndpointUsers": discordgo.EndpointUsers, "EndpointGateway": discordgo.EndpointGateway,
		"EndpointGatewayBot": discordgo.EndpointGatewayBot, "EndpointWebhooks": discordgo.EndpointWebhooks,
		"EndpointStickers": discordgo.EndpointStickers, "EndpointStageInstances": discordgo.EndpointStageInstances,
		"EndpointSKUs": discordgo.EndpointSKUs, "EndpointVoice": discordgo.EndpointVoice,
		"EndpointVoiceRegions": discordgo.EndpointVoiceRegions, "EndpointNitroStickersPacks": discordgo.EndpointNitroStickersPacks,
		"EndpointGuildCreate": discordgo.EndpointGuildCreate, "EndpointApplications": discordgo.EndpointApplications,
		"EndpointOAuth2": discordgo.EndpointOAuth2, "EndpointOAuth2Applications": discordgo.EndpointOAuth2Applications,
		"EndpointOauth2": discordgo.EndpointOauth2, "EndpointOauth2Applications": discordgo.EndpointOauth2Applications,
	}
}

// roundTripFunc records what a transport was asked to send.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestRebase(t *testing.T) {
	for _, tc := range []struct {
		name, base, url, want string
	}{
		{"OK", "http://127.0.0.1:8080", "https://discord.com/api/v9/gateway", "http://127.0.0.1:8080/api/v9/gateway"},
		{"OKPathPrefix", "https://proxy.example/discord/", "https://discord.com/api/v9/channels/1/messages?wait=true", "https://proxy.example/discord/api/v9/channels/1/messages?wait=true"},
		{"OKEscapedPath", "http://127.0.0.1:1", "https://discord.com/api/v9/webhooks/1/a%2Fb/messages/@original", "http://127.0.0.1:1/api/v9/webhooks/1/a%2Fb/messages/@original"},
		{"OtherHostUnchanged", "http://127.0.0.1:1", "https://cdn.discordapp.com/attachments/1/2/x.png", "https://cdn.discordapp.com/attachments/1/2/x.png"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base, err := ParseAPIBase(tc.base)
			if err != nil {
				t.Fatal(err)
			}
			var sent *http.Request
			next := roundTripFunc(func(r *http.Request) (*http.Response, error) {
				sent = r
				return &http.Response{StatusCode: 200, Body: http.NoBody}, nil
			})
			req, err := http.NewRequest(http.MethodGet, tc.url, nil)
			if err != nil {
				t.Fatal(err)
			}
			before := req.URL.String()
			if _, err := Rebase(base, next).RoundTrip(req); err != nil {
				t.Fatal(err)
			}
			if got := sent.URL.String(); got != tc.want {
				t.Fatalf("sent to %s, want %s", got, tc.want)
			}
			if got := req.URL.String(); got != before {
				t.Fatalf("the caller's request changed to %s", got)
			}
		})
	}
}

func TestRebaseNilIsDiscord(t *testing.T) {
	next := roundTripFunc(func(*http.Request) (*http.Response, error) { return nil, nil })
	if got := Rebase(nil, next); got == nil {
		t.Fatal("Rebase(nil) = nil, want the next transport")
	}
	if _, ok := Rebase(nil, next).(*rebased); ok {
		t.Fatal("Rebase(nil) rebases, want Discord itself")
	}
}

func TestParseAPIBase(t *testing.T) {
	for _, bad := range []string{"", "discord.com", "ftp://x", "http://", "http://x/?q=1"} {
		if _, err := ParseAPIBase(bad); err == nil {
			t.Errorf("ParseAPIBase(%q) succeeded, want an error", bad)
		}
	}
	u, err := ParseAPIBase("https://discord.com/")
	if err != nil || u.String() != "https://discord.com" {
		t.Fatalf("ParseAPIBase(https://discord.com/) = %v, %v", u, err)
	}
}
