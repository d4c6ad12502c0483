#!/usr/bin/env bash
# identity.sh checks that the command line's output is what it was at BASE
# (default 4bc7a29): text, terminal, emoji, JSON and GIF byte for byte,
# PNG pixel for pixel (bench/pngdiff decodes both and compares them), for
# every algorithm at several sizes, seeds, loops and scales, with and
# without the solution.
#
#	bench/identity.sh [-base COMMIT]
set -euo pipefail
cd "$(dirname "$0")/.."
base=4bc7a29
[ "${1:-}" = -base ] && base=$2

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git archive "$base" | tar -x -C "$work" -f - --one-top-level=before
(cd "$work/before" && go build -o "$work/old" .)
go build -o "$work/new" .
go build -o "$work/pngdiff" ./bench/pngdiff

same=0 differ=0 pngs=()
check() { # check NAME ARGS...: run both, compare stdout
	local name=$1; shift
	"$work/old" "$@" >"$work/old.out" 2>/dev/null
	"$work/new" "$@" >"$work/new.out" 2>/dev/null
	if cmp -s "$work/old.out" "$work/new.out"; then
		same=$((same + 1))
	else
		differ=$((differ + 1))
		echo "DIFFERS: $name ($*)"
	fi
}
for algo in binary-tree sidewinder backtracking digging; do
	for size in 5 7 21 41 101 301 1001; do
		for seed in 1 7 4000000000; do
			args=(maze "$algo" "$size" --seed "$seed")
			for f in text terminal emoji json; do
				check "$algo $size $seed $f" "${args[@]}" --format "$f"
				check "$algo $size $seed $f solve" "${args[@]}" --format "$f" --solve
			done
			check "$algo $size $seed loops" "${args[@]}" --loops 40 --format text --solve
			if [ "$size" -le 101 ]; then
				check "$algo $size $seed gif" "${args[@]}" --format gif --solve
			fi
			for scale in 0 1 2 3 4 5 8 9 16; do
				[ "$size" -ge 301 ] && [ "$scale" -gt 2 ] && continue
				s=()
				[ "$scale" -gt 0 ] && s=(--scale "$scale")
				for solve in "" --solve; do
					n=$algo-$size-$seed-$scale$solve
					"$work/old" "${args[@]}" "${s[@]}" $solve -o "$work/$n.old.png" >/dev/null
					"$work/new" "${args[@]}" "${s[@]}" $solve -o "$work/$n.new.png" >/dev/null
					pngs+=("$work/$n.old.png" "$work/$n.new.png")
				done
			done
		done
	done
done
check "digging 4001 text" maze digging 4001 --seed 3 --format text --solve
echo "text, terminal, emoji, json, gif: $same outputs identical, $differ differ"
if "$work/pngdiff" "${pngs[@]}" >"$work/pngdiff.out"; then
	echo "png: $((${#pngs[@]} / 2)) pictures, every one with the same pixels"
else
	grep -v 'same pixels' "$work/pngdiff.out"
	differ=$((differ + 1))
fi
# A second decoder, independent of Go's, on the pictures up to 101 tiles.
if command -v python3 >/dev/null; then
	small=()
	for f in "${pngs[@]}"; do
		case $f in *-1001-* | *-301-*) ;; *) small+=("$f") ;; esac
	done
	python3 bench/pydecode.py "${small[@]}" | awk '{print $2, $3, $4}' >"$work/py.out"
	if paste - - <"$work/py.out" | awk '$1 != $4 || $2 != $5 || $3 != $6 {bad++} END {exit bad > 0}'; then
		echo "png: $((${#small[@]} / 2)) pairs decoded by bench/pydecode.py too, the same pixels"
	else
		echo "png: bench/pydecode.py sees different pixels"
		differ=$((differ + 1))
	fi
fi
[ "$differ" -eq 0 ]
