package zones

import (
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// oddQueries are what a forged or pasted option value can hold, up to
// Discord's 6,000 characters: long runs of accents, precomposed and
// combining, zero-width spaces, Hangul syllables and jamo, and thousands
// of words. Before Search read a bounded query, each cost the whole table
// times its length (issue 36).
var oddQueries = []string{
	strings.Repeat("é", 3000),
	strings.Repeat("e\u0301", 3000),
	strings.Repeat("\u0301", 6000),
	strings.Repeat("\u200b", 6000),
	strings.Repeat("a\u200b", 3000),
	strings.Repeat("a ", 3000),
	strings.Repeat("서", 3000),
	strings.Repeat("\u1100\u1161", 3000),
	strings.Repeat("new york ", 666),
}

// searchBefore is Search as it was before it bounded its work: the whole
// query read, and split into its words again for every zone of the table.
// It is the benchmark's baseline and, for a query within the bound, the
// answer Search must still give.
func searchBefore(query, language string, now time.Time, max int) []Match {
	q := strings.Join(fold(query), " ")
	offset, isOffset := parseOffset(query)
	var found []scored
	zs := all()
	for i := range zs {
		z := &zs[i]
		s := score(z, q, strings.Fields(q), language)
		if isOffset {
			if _, off := now.In(z.loc).Zone(); off == offset {
				s = max1(s, 40)
			}
		}
		if s > 0 {
			found = append(found, scored{z, s})
		}
	}
	return best(found, language, now, max)
}

// foldAlone is fold as it was, with a chain of its own: what fold must
// give, now that no chain is shared.
func foldAlone(s string) []string {
	chain := transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
	if t, _, err := transform.String(chain, s); err == nil {
		s = t
	}
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// TestSearchConcurrently: completions search at once, as a flood of them
// does, and each gets the answer it gets alone. With one transform.Chain
// shared by all of them, their texts mixed: panics ("slice bounds out of
// range") and other members' words.
func TestSearchConcurrently(t *testing.T) {
	queries := append([]string{"seoul", "Côte d'Ivoire", "서울", "new york", "zürich"}, oddQueries...)
	want := map[string][]Match{}
	for _, q := range queries {
		want[q] = Search(q, "ko", now, 25)
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 40 {
				q := queries[(g+i)%len(queries)]
				if got := Search(q, "ko", now, 25); !reflect.DeepEqual(got, want[q]) {
					t.Errorf("Search(%q…) among others=%v, want %v as alone", string([]rune(q)[:min(6, len([]rune(q)))]), head(got), head(want[q]))
					return
				}
			}
		})
	}
	wg.Wait()
}

// TestSearchAsBefore: every query a member can type (the option takes 64
// characters) gets the answer it got before the bound, in both languages:
// the cities most lived in and one zone in ten by their city, country,
// code and name, whole and by their starts.
func TestSearchAsBefore(t *testing.T) {
	t.Parallel()
	queries := []string{"", " ", "+9", "utc-5", "GMT+05:30", "-0500", "new new york", "york new", "a a a", "los ang", "cote d'ivoire", "서울 서울", "  seoul  "}
	for i, z := range all() {
		if z.rank == len(majorCities) && i%10 != 0 {
			continue
		}
		names := []string{z.city, z.country, z.code, z.name}
		for _, lz := range z.local {
			names = append(names, lz.city, lz.country)
		}
		for _, s := range names {
			if s != "" {
				queries = append(queries, s, string([]rune(s)[:min(3, len([]rune(s)))]))
			}
		}
	}
	for _, q := range queries {
		for _, language := range searchLanguages {
			if got, want := Search(q, language, now, 25), searchBefore(q, language, now, 25); !reflect.DeepEqual(got, want) {
				t.Fatalf("Search(%q, %q)=%v, want %v as before", q, language, head(got), head(want))
			}
		}
	}
}

// TestSearchReadsABoundedQuery: what follows the first maxQueryRunes
// characters of a query (spaces around it aside) changes nothing, and the
// odd queries cost little memory: before, "a a a …" made 20 MB of word
// lists, one per zone.
func TestSearchReadsABoundedQuery(t *testing.T) {
	long := "  " + strings.Repeat("a ", maxQueryRunes/2) + "zzzz"
	if got, want := Search(long, "", now, 25), Search(strings.Repeat("a ", maxQueryRunes/2), "", now, 25); len(want) == 0 || !reflect.DeepEqual(got, want) {
		t.Errorf("Search read past its bound: %v, want %v", head(got), head(want))
	}
	all()
	for _, q := range oddQueries {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		for _, language := range searchLanguages {
			Search(q, language, now, 25)
		}
		runtime.ReadMemStats(&after)
		if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
			t.Errorf("Search(%q…) allocated %d KiB, want at most 1 MiB", string([]rune(q)[:6]), n>>10)
		}
	}
}

// BenchmarkSearchFlood is the picker under a flood of completions: 8
// members at once, one in three typing an odd query, the others a city.
// It reports the time one Search takes (p50, p99), before the bound and
// after.
//
//	go test ./commands/zones -run '^$' -bench SearchFlood -count 5
func BenchmarkSearchFlood(b *testing.B) {
	queries := slices.Clone(oddQueries)
	for _, q := range []string{"seoul", "서울", "new york", "los ang", "+9", "korea", "kolkata", "europe", "tokyo"} {
		queries = append(queries, q, q)
	}
	all()
	for _, c := range []struct {
		name   string
		search func(string, string, time.Time, int) []Match
	}{{"before", searchBefore}, {"after", Search}} {
		b.Run(c.name, func(b *testing.B) {
			var (
				next      atomic.Int64
				mu        sync.Mutex
				latencies []time.Duration
				wg        sync.WaitGroup
			)
			for range 8 {
				wg.Go(func() {
					var mine []time.Duration
					for i := next.Add(1); i <= int64(b.N); i = next.Add(1) {
						q := queries[int(i)%len(queries)]
						start := time.Now()
						c.search(q, searchLanguages[int(i)%len(searchLanguages)], now, 25)
						mine = append(mine, time.Since(start))
					}
					mu.Lock()
					latencies = append(latencies, mine...)
					mu.Unlock()
				})
			}
			wg.Wait()
			slices.Sort(latencies)
			pct := func(p float64) float64 {
				return float64(latencies[min(len(latencies)-1, int(p*float64(len(latencies))))].Microseconds()) / 1000
			}
			b.ReportMetric(pct(0.50), "p50-ms")
			b.ReportMetric(pct(0.99), "p99-ms")
		})
	}
}
