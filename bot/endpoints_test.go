package bot

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// TestSetAPIBaseCoversEveryEndpoint reads discordgo's endpoints.go and
// checks that every string endpoint derived from the API base now points at
// the new base, so a discordgo upgrade cannot silently send a call to
// discord.com. The status page and CDN are other hosts, not under the API
// base, and stay as they are.
func TestSetAPIBaseCoversEveryEndpoint(t *testing.T) {
	const base = "http://127.0.0.1:9/"
	if err := SetAPIBase(strings.TrimSuffix(base, "/")); err != nil {
		t.Fatal(err)
	}
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
	vars := apiEndpointStrings()
	for _, name := range strs {
		if strings.HasPrefix(name, "EndpointCDN") || strings.HasPrefix(name, "EndpointSm") || name == "EndpointStatus" {
			continue
		}
		p, ok := vars[name]
		if !ok {
			t.Errorf("discordgo.%s is a string endpoint this test (and maybe SetAPIBase) does not know", name)
			continue
		}
		if !strings.HasPrefix(*p, base) {
			t.Errorf("discordgo.%s = %q, want prefix %q", name, *p, base)
		}
	}
	for name, got := range map[string]string{
		"EndpointInteractionResponse":      discordgo.EndpointInteractionResponse("1", "tok"),
		"EndpointFollowupMessage":          discordgo.EndpointFollowupMessage("2", "tok"),
		"EndpointApplicationGuildCommands": discordgo.EndpointApplicationGuildCommands("2", "3"),
		"EndpointChannelMessage":           discordgo.EndpointChannelMessage("4", "5"),
	} {
		if !strings.HasPrefix(got, base+"api/v9/") {
			t.Errorf("%s = %q, want prefix %q", name, got, base+"api/v9/")
		}
	}
}

func apiEndpointStrings() map[string]*string {
	return map[string]*string{
		"EndpointDiscord": &discordgo.EndpointDiscord, "EndpointAPI": &discordgo.EndpointAPI,
		"EndpointGuilds": &discordgo.EndpointGuilds, "EndpointChannels": &discordgo.EndpointChannels,
		"EndpointUsers": &discordgo.EndpointUsers, "EndpointGateway": &discordgo.EndpointGateway,
		"EndpointGatewayBot": &discordgo.EndpointGatewayBot, "EndpointWebhooks": &discordgo.EndpointWebhooks,
		"EndpointStickers": &discordgo.EndpointStickers, "EndpointStageInstances": &discordgo.EndpointStageInstances,
		"EndpointSKUs": &discordgo.EndpointSKUs, "EndpointVoice": &discordgo.EndpointVoice,
		"EndpointVoiceRegions": &discordgo.EndpointVoiceRegions, "EndpointNitroStickersPacks": &discordgo.EndpointNitroStickersPacks,
		"EndpointGuildCreate": &discordgo.EndpointGuildCreate, "EndpointApplications": &discordgo.EndpointApplications,
		"EndpointOAuth2": &discordgo.EndpointOAuth2, "EndpointOAuth2Applications": &discordgo.EndpointOAuth2Applications,
		"EndpointOauth2": &discordgo.EndpointOauth2, "EndpointOauth2Applications": &discordgo.EndpointOauth2Applications,
	}
}
