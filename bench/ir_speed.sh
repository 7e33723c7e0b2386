#!/usr/bin/env bash
# ms per kernel specialisation for parse+Sema -> blk IR -> optimised blk IR,
# on every sample (issue 3, "Speed"). Uses `blkc build --emit=ir-opt
# --time-stages`, which times the stages inside one process; the process
# wall time (start-up, dialect registration, printing) is shown too.
# Usage: bench/ir_speed.sh [BUILD_DIR] [RUNS]   (default: build, 5 runs; best run kept)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build}"
runs="${2:-5}"
blkc="$build/bin/blkc"
[[ -x "$blkc" ]] || { echo "ir_speed: $blkc not built" >&2; exit 2; }

printf '%-22s %5s %10s %9s %9s %9s %12s %10s\n' sample specs "front(ms)" "irgen" "opt" total "ms/spec" "wall(ms)"
sum_total=0; sum_specs=0
for f in "$root"/samples/*.blk; do
  best=""; best_wall=""
  for ((i = 0; i < runs; i++)); do
    t0=$(date +%s%N)
    line=$("$blkc" build "$f" --emit=ir-opt --time-stages -o /dev/null 2>&1 >/dev/null | grep '^blkc: time:')
    t1=$(date +%s%N)
    wall=$(( (t1 - t0) / 1000000 ))
    # blkc: time: frontend F ms, irgen I ms, optimize O ms, specializations N
    read -r fe ir op n < <(echo "$line" | sed -E 's/.*frontend ([0-9.e+-]+) ms, irgen ([0-9.e+-]+) ms, optimize ([0-9.e+-]+) ms, specializations ([0-9]+).*/\1 \2 \3 \4/')
    total=$(awk -v a="$fe" -v b="$ir" -v c="$op" 'BEGIN { printf "%.3f", a + b + c }')
    if [[ -z "$best" ]] || awk -v x="$total" -v y="$best" 'BEGIN { exit !(x < y) }'; then
      best=$total; bfe=$fe; bir=$ir; bop=$op; bn=$n
    fi
    if [[ -z "$best_wall" || $wall -lt $best_wall ]]; then best_wall=$wall; fi
  done
  per=$(awk -v t="$best" -v n="$bn" 'BEGIN { printf "%.2f", (n > 0 ? t / n : 0) }')
  printf '%-22s %5d %10.2f %9.2f %9.2f %9.2f %12s %10d\n' "$(basename "$f")" "$bn" "$bfe" "$bir" "$bop" "$best" "$per" "$best_wall"
  sum_total=$(awk -v a="$sum_total" -v b="$best" 'BEGIN { print a + b }')
  sum_specs=$((sum_specs + bn))
done
awk -v t="$sum_total" -v n="$sum_specs" 'BEGIN { printf "all samples: %d specialisations, %.2f ms per specialisation (parse+Sema+IRGen+passes)\n", n, (n ? t / n : 0) }'
