#!/usr/bin/env bash
# Measures Redline's budgets on the release build (README "Budgets"): the size of the .deb and .rpm, the
# cold start to the first paint of the resume, and memory (PSS of the app and its WebKit processes) idle
# and after 100 AI turns against the replay server, the Page view's time from a change to the new page
# on screen, and the view's chunk-to-pixel time during a fast replayed turn (over the turn's channel, for
# the sample and a resume ten times its size), and how fast the command line starts (scripts/bench-cli.py).
# Needs what scripts/test.sh sets up and builds (the release packages); runs under Xvfb. The figures are printed, not judged: a test never asserts a time.
#
#   scripts/bench-budgets.sh [RUNS]   (RUNS: how many starts to time; default 10)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export PATH="$HOME/.cargo/bin:$PATH"
cd "$ROOT"
RUNS=${1:-10}
APP=${REDLINE_APP:-$ROOT/target/release/redline-app}
[ -x "$APP" ] || { echo "no release build at $APP: run scripts/test.sh first" >&2; exit 1; }

echo "== package size"
for pkg in target/release/bundle/deb/*.deb target/release/bundle/rpm/*.rpm; do
  [ -f "$pkg" ] && stat -c '%s %n' "$pkg" | awk '{ printf "%-60s %6.1f MiB (%.1f MB)\n", $2, $1 / 1048576, $1 / 1000000 }'
done
stat -c '%s %n' "$APP" | awk '{ printf "%-60s %6.1f MiB uncompressed\n", $2, $1 / 1048576 }'

echo "== cold start to first paint of the resume (redline-app --measure-startup, $RUNS runs)"
DATA=$(mktemp -d)
trap 'rm -rf "$DATA"' EXIT
times=()
for i in $(seq 1 "$RUNS"); do
  # Each run on its own fresh data folder: the first start of a new user (database created, sample imported).
  line=$(XDG_DATA_HOME="$DATA/xdg-$i" XDG_CONFIG_HOME="$DATA/xdg-$i/config" \
    xvfb-run -a --server-args="-screen 0 1400x900x24" "$APP" --measure-startup --data-dir "$DATA/run-$i" 2>/dev/null | tail -n 1)
  ms=$(printf '%s' "$line" | sed -n 's/.*"first_paint_ms":\([0-9]*\).*/\1/p')
  [ -n "$ms" ] || { echo "run $i printed no measurement: $line" >&2; exit 1; }
  times+=("$ms")
done
printf '%s\n' "${times[@]}" | sort -n | awk '{ a[NR] = $1 } END { printf "first paint: median %d ms, min %d ms, max %d ms (%d runs)\n", a[int((NR + 1) / 2)], a[1], a[NR], NR }'

# Runs the window benchmark NAME (benches/window.rs) on the release build, on a private session bus with
# an unlocked keyring, under Xvfb; prints its output lines that match `^PATTERN` (grep's basic regular
# expressions).
in_window() {
  local keyrings
  keyrings=$(mktemp -d)
  env REDLINE_E2E_APP="$APP" XDG_DATA_HOME="$keyrings" NAME="$1" dbus-run-session -- sh -c \
    'printf ci | gnome-keyring-daemon --components=secrets --daemonize --unlock >/dev/null 2>&1 &&
     exec xvfb-run -a --server-args="-screen 0 1400x900x24" \
       cargo bench --features custom-protocol --bench window -- "$NAME"' 2>&1 | grep "^$2"
  rm -rf "$keyrings"
}

echo "== memory (PSS), idle with the sample and after 100 AI turns"
# Each turn rewrites a summary (the resume keeps its size), the page types the asks (WebDriver keeps every
# element it looks up), and each figure is taken 5 s after the turns and again after a minute at rest.
REDLINE_BENCH_ASK=${REDLINE_BENCH_ASK:-rewrite} REDLINE_BENCH_DRIVE=${REDLINE_BENCH_DRIVE:-page} \
  REDLINE_BENCH_SETTLE=${REDLINE_BENCH_SETTLE:-60} in_window memory 'memory'

echo "== the Page view: from a change to the new page on screen"
in_window page-view 'page view'

echo "== the view during a fast turn: from a surface message leaving the engine to the frame that shows it"
in_window chunk-to-pixel 'chunk to pixel\|frames against a blank page'

echo "== the command line: a whole process per command, against the app's binary in command-line mode"
python3 "$ROOT/scripts/bench-cli.py" 50 "$(dirname "$APP")"
