package arena

import (
	"io/fs"
	"strings"
	"testing"

	"mazebot/mazecore"
)

// TestPickerOffersEveryAlgorithm: the page's picker lists every algorithm
// of mazecore's table, backtracking chosen, and nothing is left to fill.
func TestPickerOffersEveryAlgorithm(t *testing.T) {
	index, err := fs.ReadFile(clientFiles(), "index.html")
	if err != nil {
		t.Fatal(err)
	}
	page := string(withAlgorithms(index))
	for _, a := range mazecore.Algorithms {
		want := `<option value="` + a.String() + `"`
		if a == mazecore.Backtracking {
			want += " selected"
		}
		if !strings.Contains(page, want+">"+a.String()+"</option>") {
			t.Errorf("the picker has no %s: want %s", a, want)
		}
	}
	if strings.Contains(page, "%ALGORITHMS%") {
		t.Error("the picker's placeholder is still on the page")
	}
}
