#!/usr/bin/env bash
# compare.sh runs the command line against the naive reference
# (bench/reference) as issue 17 measures it: a maze of SIZE×SIZE cells
# (default 4000) per algorithm, generated and written as text to
# /dev/null, each program RUNS times (default 3), interleaved, keeping the
# least CPU time (user + system) and the most peak memory. It prints the
# CPU time of mazebot over the reference's, and each one's peak RSS.
# First it checks that both print the same bytes.
#
#	bench/compare.sh [-cells N] [-runs N] [-before] [-mazebot PATH]
#
# mazeonly is the maze-only build (go build -tags mazeonly), mazebot the
# full one. -before also runs the command line of 4bc7a29; -mazebot
# measures another build in the full one's place.
set -euo pipefail
cd "$(dirname "$0")/.."
cells=4000 runs=3 before=false mazebot=
while [ $# -gt 0 ]; do
	case $1 in
	-cells) cells=$2; shift ;;
	-runs) runs=$2; shift ;;
	-before) before=true ;;
	-mazebot) mazebot=$2; shift ;;
	*) echo "usage: $0 [-cells N] [-runs N] [-before] [-mazebot PATH]" >&2; exit 2 ;;
	esac
	shift
done
size=$((2 * cells + 1))
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/reference" ./bench/reference
go build -o "$work/cputime" ./bench/cputime
if [ -n "$mazebot" ]; then
	cp "$mazebot" "$work/mazebot"
else
	go build -o "$work/mazebot" .
fi
go build -tags mazeonly -o "$work/mazeonly" .
progs=(reference mazebot mazeonly)
if $before; then
	git archive 4bc7a29 | tar -x -C "$work" -f - --one-top-level=old
	(cd "$work/old" && go build -o "$work/before" .)
	progs=(reference before mazebot mazeonly)
fi

command() { # command PROG ALGO: the command line of a program
	case $1 in
	reference) echo "$work/reference $2 $size 1" ;;
	*) echo "$work/$1 maze $2 $size --seed 1 --format text" ;;
	esac
}

echo "$cells×$cells cells ($size×$size tiles) as text to /dev/null, best of $runs, interleaved"
printf '%-13s %-10s %9s %9s %8s\n' algorithm program "cpu ms" "× ref" "rss MB"
for algo in binary-tree sidewinder backtracking digging; do
	ref=$($(command reference "$algo") | sha256sum)
	for p in "${progs[@]:1}"; do
		if [ "$($(command "$p" "$algo") 2>/dev/null | sha256sum)" != "$ref" ]; then
			echo "$p and the reference print different $algo mazes" >&2
			exit 1
		fi
	done
	declare -A best=() rss=()
	for r in $(seq "$runs"); do
		for p in "${progs[@]}"; do
			read -r user sys kib < <("$work/cputime" $(command "$p" "$algo") 2>/dev/null)
			cpu=$(echo "$user + $sys" | bc)
			if [ -z "${best[$p]:-}" ] || [ "$(echo "$cpu < ${best[$p]}" | bc)" = 1 ]; then
				best[$p]=$cpu
			fi
			if [ -z "${rss[$p]:-}" ] || [ "$kib" -gt "${rss[$p]}" ]; then
				rss[$p]=$kib
			fi
		done
	done
	for p in "${progs[@]}"; do
		printf '%-13s %-10s %9.0f %9.2f %8.1f\n' "$algo" "$p" "${best[$p]}" \
			"$(echo "${best[$p]} / ${best[reference]}" | bc -l)" "$(echo "${rss[$p]} / 1024" | bc -l)"
	done
	unset best rss
done
