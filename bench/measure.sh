# Sourced by the bench scripts: one timed `kproof-opt --verify-equiv` run
# (or MODE, e.g. --verify-sync).
#   measure PTX CONTRACT [MODE]   (uses $opt and $limit)
# sets VERDICT (PROVED, REFUTED, UNKNOWN, timeout or ?), SECS (wall
# seconds) and MIB (peak resident MiB).
measure() {
  local tf out rc kb
  tf=$(mktemp)
  out=$(/usr/bin/time -o "$tf" -f '%e %M' timeout "$limit" "$opt" "$1" \
          "${3:---verify-equiv}" --contract="$2" 2>/dev/null)
  rc=$?
  VERDICT=$(printf '%s\n' "$out" | grep -E '^(PROVED|REFUTED|UNKNOWN)' | tail -1 | cut -d: -f1)
  read -r SECS kb < <(grep -E '^[0-9.]+ [0-9]+$' "$tf" | tail -1)
  rm -f "$tf"
  [ "$rc" = 124 ] && VERDICT=timeout
  VERDICT=${VERDICT:-?}
  MIB=$(( ${kb:-0} / 1024 ))
}
