#!/usr/bin/env bash
# Recompresses the .deb that `tauri build` wrote with xz, Debian's own default (Tauri's bundler writes gzip:
# the package is ~30% larger), and signs it again for the updater when it was signed (`X.deb.sig`, with
# the key in TAURI_SIGNING_PRIVATE_KEY, bound to the version as `tauri build` binds it). Run by
# scripts/test.sh and the release workflow after `tauri build --bundles deb`.
#
#   scripts/repack-deb.sh PATH.deb
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
deb=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
before=$(stat -c %s "$deb")
dpkg-deb -R "$deb" "$work/root"
# xz's highest level and its extreme strategy: 18 KB less than -9 alone (2026-11-30), for some more
# seconds of one core.
dpkg-deb --root-owner-group -Zxz -z9 -Sextreme --build "$work/root" "$work/repacked.deb" >/dev/null
mv "$work/repacked.deb" "$deb"
if [ -f "$deb.sig" ]; then
  [ -n "${TAURI_SIGNING_PRIVATE_KEY:-}" ] || { echo "repack-deb: $deb.sig needs TAURI_SIGNING_PRIVATE_KEY to be signed again" >&2; exit 1; }
  version=$(dpkg-deb -f "$deb" Version)
  rm -f "$deb.sig"
  "$ROOT/ui/node_modules/.bin/tauri" signer sign --app-version "$version" "$deb" >/dev/null
  [ -s "$deb.sig" ] || { echo "repack-deb: signing $deb failed" >&2; exit 1; }
fi
echo "repack-deb: $(basename "$deb") $((before / 1024)) KiB → $(($(stat -c %s "$deb") / 1024)) KiB (xz)"
