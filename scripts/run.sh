#!/usr/bin/env bash
# Installs everything Redline needs and starts the app (in development mode, with live reload of the UI).
# Arguments go to the app, e.g. `scripts/run.sh --data-dir /tmp/redline-try`.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$ROOT/scripts/setup.sh"
export PATH="$HOME/.cargo/bin:$PATH"

if [ "$(uname -s)" = Linux ] && [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
  cat >&2 <<'MSG'
Redline is a desktop app and this session has no display (neither DISPLAY nor WAYLAND_DISPLAY is set).
Everything is installed; to see the app, do one of these:
  - run this command again from a desktop session;
  - start it in a virtual display:    xvfb-run -a scripts/run.sh
  - use the command line instead:     cargo run -q --bin redline -- show   (the installed `redline show`)
MSG
  exit 2
fi

cd "$ROOT"
if [ "$#" -gt 0 ]; then
  exec ui/node_modules/.bin/tauri dev -- -- "$@"
else
  exec ui/node_modules/.bin/tauri dev
fi
