//go:build ignore

// gen writes zones.tsv from the system's tz database (Debian's tzdata):
// every zone of zone.tab with its country's name from iso3166.tab. Run it
// with `go run gen.go` after a tzdata update; the database is in the
// public domain.
package main

import (
	"bufio"
	"fmt"
	"os"
	"sort"
	"strings"
)

func read(path string, f func(fields []string)) {
	file, err := os.Open(path)
	if err != nil {
		panic(err)
	}
	defer file.Close()
	s := bufio.NewScanner(file)
	for s.Scan() {
		if line := s.Text(); line != "" && !strings.HasPrefix(line, "#") {
			f(strings.Split(line, "\t"))
		}
	}
	if err := s.Err(); err != nil {
		panic(err)
	}
}

func main() {
	countries := map[string]string{}
	read("/usr/share/zoneinfo/iso3166.tab", func(f []string) { countries[f[0]] = f[1] })
	var lines []string
	read("/usr/share/zoneinfo/zone.tab", func(f []string) {
		lines = append(lines, fmt.Sprintf("%s\t%s\t%s", f[2], f[0], countries[f[0]]))
	})
	sort.Strings(lines)
	out := "# zone\tcountry code\tcountry: from the tz database's zone.tab and iso3166.tab (public domain), by gen.go\n" + strings.Join(lines, "\n") + "\n"
	if err := os.WriteFile("zones.tsv", []byte(out), 0o644); err != nil {
		panic(err)
	}
}
