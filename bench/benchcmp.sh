#!/usr/bin/env bash
# benchcmp.sh compares the benchmarks of issue 17's stages before and after:
# the tree at BASE (default 4bc7a29) and the work tree, with the work tree's
# render/bench_test.go in both (it uses only the public API). The test
# binaries run alternately, COUNT times each (default 5), so that a busy
# machine slows both alike; benchstat prints the medians side by side.
#
#	bench/benchcmp.sh [-base COMMIT] [-count N] [-bench REGEXP] [-e2e]
#
# -e2e also runs BenchmarkE2E (a /maze through the fake Discord; the root
# package's at BASE, ./e2e's since issue 15). Needs benchstat: go install golang.org/x/perf/cmd/benchstat@latest
set -euo pipefail
cd "$(dirname "$0")/.."

base=4bc7a29 count=5 e2e=false
bench='Generate/.*/4000x4000|Text|PNGSolution|EmojiGrid|Terminal|GIFAnimation'
while [ $# -gt 0 ]; do
	case $1 in
	-base) base=$2; shift ;;
	-count) count=$2; shift ;;
	-bench) bench=$2; shift ;;
	-e2e) e2e=true ;;
	*) echo "usage: $0 [-base COMMIT] [-count N] [-bench REGEXP] [-e2e]" >&2; exit 2 ;;
	esac
	shift
done
benchstat=$(command -v benchstat || echo "$(go env GOPATH)/bin/benchstat")

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git archive "$base" | tar -x -C "$work" -f - --one-top-level=before
cp render/bench_test.go "$work/before/render/"
pkgs=(mazecore render)
for p in "${pkgs[@]}"; do
	(cd "$work/before" && go test -c -o "$work/before-$p.test" "./$p")
	go test -c -o "$work/after-$p.test" "./$p"
done
if $e2e; then
	(cd "$work/before" && go test -c -o "$work/before-e2e.test" .)
	go test -c -o "$work/after-e2e.test" ./e2e
fi

run() { # run SIDE PACKAGE, in the side's own tree
	local dir=.
	[ "$1" = before ] && dir=$work/before
	if [ "$2" = e2e ]; then
		# The e2e tests were the root package's before issue 15 and are
		# ./e2e's since: the pkg lines are left out, so that benchstat
		# pairs the benchmarks by name.
		local e2edir=$dir/e2e
		[ "$1" = before ] && e2edir=$dir
		(cd "$e2edir" && "$work/$1-e2e.test" -test.run '^$' -test.bench 'E2E$' -test.count 1) |
			grep -E '^Benchmark' >>"$work/$1.txt" || true
		return
	fi
	(cd "$dir/$2" && "$work/$1-$2.test" -test.run '^$' -test.bench "$bench" -test.benchmem -test.count 1) |
		grep -E '^(Benchmark|goos|goarch|pkg|cpu)' >>"$work/$1.txt" || true
}
if $e2e; then
	pkgs+=(e2e)
fi
for i in $(seq "$count"); do
	echo "round $i of $count" >&2
	for p in "${pkgs[@]}"; do
		run before "$p"
		run after "$p"
	done
done
"$benchstat" "$work/before.txt" "$work/after.txt"
