#!/usr/bin/env bash
# Installs everything Redline's tests need and runs every test: formatting and lints, the UI's type check
# and unit tests, the engine's tests, the built app end to end in a real window, and the .deb package.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$ROOT/scripts/setup.sh" --test
export PATH="$HOME/.cargo/bin:$PATH"
cd "$ROOT"

step() { printf '\n\033[1m==> %s\033[0m\n' "$*"; }
# Every runner's output is kept so that the last line can count all the tests together.
LOGS=$(mktemp -d)
trap 'rm -rf "$LOGS"' EXIT
n=0
logged() { n=$((n + 1)); "$@" 2>&1 | tee "$LOGS/$n.log"; return "${PIPESTATUS[0]}"; }
TAURI=ui/node_modules/.bin/tauri
# The app is built once, with its UI embedded, and every later step reuses that build.
FEATURES=(--features custom-protocol)

step "UI: type check (svelte-check, strict)"
npm --prefix ui run --silent check

step "UI: unit tests (Vitest)"
logged npm --prefix ui test --silent

step "UI: build"
npm --prefix ui run --silent build

step "Rust: formatting and lints"
cargo fmt --all -- --check
cargo clippy --workspace --all-targets "${FEATURES[@]}" -- -D warnings

step "Rust: unit, integration and command tests"
logged cargo nextest run --workspace "${FEATURES[@]}" --no-fail-fast
logged cargo test --workspace --doc "${FEATURES[@]}"

if [ "$(uname -s)" = Linux ]; then
  # A private session bus and a throwaway keyring (its own data folder, unlocked with a throwaway password:
  # an empty one fails), so that a developer's own keyring is never touched.
  step "Keychain: API keys in a real Secret Service (gnome-keyring on a private D-Bus session)"
  KEYRINGS=$(mktemp -d)
  logged env XDG_DATA_HOME="$KEYRINGS" dbus-run-session -- sh -c \
    'printf ci | gnome-keyring-daemon --components=secrets --daemonize --unlock >/dev/null &&
     exec cargo nextest run --workspace --features custom-protocol --run-ignored only -E "test(the_key_lives_in_the_os_keychain)"'
  rm -rf "$KEYRINGS"
fi

# A server no one here wrote, with a real model: llama.cpp's OpenAI-compatible server (llama-cpp-python, set up
# by setup.sh) and SmolLM2-135M. The test starts the server itself and prints what the model managed.
step "Real model: llama.cpp's server with SmolLM2-135M, through redline provider test and chat"
logged env REDLINE_LLAMA_PYTHON="${XDG_CACHE_HOME:-$HOME/.cache}/redline/llama-venv/bin/python" \
  cargo nextest run --workspace "${FEATURES[@]}" --run-ignored only --no-capture \
    -E 'test(a_real_small_model_on_llama_cpp_never_breaks_the_resume)'

if [ "$(uname -s)" = Linux ]; then
  step "App: build with the UI embedded, and the .deb package"
  "$TAURI" build --debug --bundles deb --ci
else
  step "App: build with the UI embedded"
  "$TAURI" build --debug --no-bundle --ci
fi

if [ "$(uname -s)" = Linux ]; then
  # WebKitWebDriver exists for WebKitGTK only: macOS's WKWebView has no WebDriver.
  step "App: end to end in a real window (Xvfb, tauri-driver, WebKitWebDriver)"
  # --workspace, as above, so that the test build is reused rather than built again with other features.
  # One window at a time: each test starts a tauri-driver on ports it picks free, and tests started together
  # could pick the same one. (The cut-off session once seen here was a request sent before WebKitWebDriver
  # listened; the tests now wait for it.)
  # On a private session bus with a throwaway keyring, as above: a key entered in the window's settings goes
  # to a real Secret Service, and the test then looks for it everywhere else.
  KEYRINGS=$(mktemp -d)
  logged env REDLINE_E2E_APP="$ROOT/target/debug/redline-app" XDG_DATA_HOME="$KEYRINGS" dbus-run-session -- sh -c \
    'printf ci | gnome-keyring-daemon --components=secrets --daemonize --unlock >/dev/null &&
     exec xvfb-run -a --server-args="-screen 0 1400x900x24" \
       cargo nextest run --workspace --features custom-protocol --run-ignored only -E "binary(e2e)" --test-threads 1'
  rm -rf "$KEYRINGS"

  step "Package: the .deb installs and removes cleanly"
  deb=$(ls -t target/debug/bundle/deb/*.deb | head -n 1)
  as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
  as_root dpkg -i "$deb" >/dev/null
  test -x /usr/bin/redline-app || { echo "the .deb did not install /usr/bin/redline-app" >&2; exit 1; }
  dpkg -s redline | grep -q '^Status: install ok installed'
  # Opening a .json with Redline: the desktop entry says it opens JSON files.
  desktop=$(dpkg -L redline | grep '\.desktop$' | head -n 1)
  grep -q '^MimeType=.*application/json' "$desktop" \
    || { echo "the .deb's desktop entry ($desktop) does not offer to open .json files" >&2; exit 1; }
  as_root dpkg -r redline >/dev/null
  echo "installed and removed $(basename "$deb")"
fi

step "All tests passed"
# One closing line for every runner together: nextest's summaries, doc tests, Vitest.
sed 's/\x1b\[[0-9;]*m//g' "$LOGS"/*.log | awk '
  /tests? run: [0-9]+ passed/ { for (i = 1; i <= NF; i++) if ($i == "passed" || $i == "passed,") p += $(i - 1); for (i = 1; i <= NF; i++) if ($i == "failed" || $i == "failed,") f += $(i - 1) }
  /^test result: / { p += $4; f += $6 }
  /^ *Tests +[0-9]+ passed/ { p += $2 }
  END { printf "%d passed, %d failed\n", p, f }'

