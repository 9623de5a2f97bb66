#!/usr/bin/env python3
"""How fast `redline` starts: each command as a whole process, its wall time and peak memory (the child's
max RSS, as GNU time reports it), against a baseline in the same run — the floor of any process here (`/bin/true`).
Until 2026-11-26 `redline` was a launcher that ran the app's binary, which loads WebKitGTK and GTK; the
figures of both, side by side, are in docs/benchmarks.md. Prints figures; judges nothing (README
"Budgets").

    scripts/bench-cli.py [RUNS] [TARGET_DIR]   (default 50 runs each; target/release)

With REDLINE_BEFORE set to another build of `redline` (the version before a change), its exports are
measured in the same run, each run beside one of this build's.
"""

import os
import struct
import statistics
import subprocess
import sys
import tempfile
import time
import zlib

RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 50
TARGET = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(__file__), "..", "target", "release")
CLI = os.path.join(TARGET, "redline")
APP = os.path.join(TARGET, "redline-app")
FLOOR = "/bin/true"


GNU_TIME = "/usr/bin/time"


def once(argv):
    """Runs argv with its output thrown away; returns (wall ms, peak RSS in MB)."""
    start = time.perf_counter()
    child = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    ms = (time.perf_counter() - start) * 1000
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{' '.join(argv)} failed")
    return ms, usage.ru_maxrss / 1024


def peak(argv):
    """argv's own peak RSS in MB, the most of three runs, as GNU time reports it. (A child Python forks
    starts as a copy of Python, ~14 MB, and its max RSS counts those pages; GNU time's child starts as a
    copy of that small program.) None without GNU time (Debian's `time`)."""
    if not os.access(GNU_TIME, os.X_OK):
        return None
    most = 0
    for _ in range(3):
        out = subprocess.run([GNU_TIME, "-f", "%M", *argv], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             stdin=subprocess.DEVNULL, text=True, check=True)
        most = max(most, int(out.stderr.strip().splitlines()[-1]))
    return most / 1024


def measure(name, argv, before=None):
    """Times argv RUNS times; with `before` (the same command of another build), the two take turns, run
    by run, so that both see the same machine (its speed here drifts by a quarter within minutes)."""
    sides = [(name, argv)] + ([(f"before: {name}", before)] if before else [])
    results = {label: ([], []) for label, _ in sides}
    for _, command in sides:
        once(command)  # warm: the page cache holds the binary and the database
    for _ in range(RUNS):
        for label, command in sides:
            ms, mb = once(command)
            results[label][0].append(ms)
            results[label][1].append(mb)
    for (label, command), (times, peaks) in zip(sides, results.values()):
        times.sort()
        p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
        own = peak(command)
        memory = f"peak RSS {own:5.1f} MB" if own is not None else f"peak RSS {max(peaks):5.1f} MB (with Python's pages)"
        print(f"{label:<44} p50 {statistics.median(times):6.1f} ms  p99 {p99:6.1f} ms  {memory}")


DESIGNS = ("classic", "modern", "sidebar", "compact", "academic", "engineering", "elegant", "banner")


def gradient_png(width, height):
    """A photo-sized PNG (a gradient), written with zlib alone."""
    rows = b"".join(
        b"\0" + bytes(v for x in range(width) for v in (x * 255 // width, y * 255 // height, 120))
        for y in range(height)
    )

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


def libraries(binary):
    out = subprocess.run(["ldd", binary], capture_output=True, text=True).stdout
    return len([line for line in out.splitlines() if "=>" in line or line.strip().startswith("/")])


def main():
    for binary in (CLI, APP):
        if not os.access(binary, os.X_OK):
            sys.exit(f"no release build at {binary}: run scripts/test.sh (or cargo build --release) first")
    with tempfile.TemporaryDirectory() as data:
        # The first start makes the database and imports the sample: not what is measured.
        subprocess.run([CLI, "--data-dir", data, "list"], check=True, stdout=subprocess.DEVNULL)
        print(f"shared libraries loaded: redline {libraries(CLI)}, redline-app {libraries(APP)}")
        measure("a process that does nothing (baseline)", [FLOOR])
        before = os.environ.get("REDLINE_BEFORE")
        for what, args in (
            ("list", ["list"]),
            ("export --format pdf", ["export", "--format", "pdf", "-o", "-"]),
            ("export --format html", ["export", "--format", "html", "-o", "-"]),
        ):
            measure(
                f"redline {what}",
                [CLI, "--data-dir", data, *args],
                [before, "--data-dir", data, *args] if before and what != "list" else None,
            )
        # Each design's PDF as a whole process (the README's budget holds for every design), then the
        # sidebar with a photo in its band.
        for design in DESIGNS:
            measure(f"redline export --format pdf --template {design}",
                    [CLI, "--data-dir", data, "export", "--format", "pdf", "--template", design, "-o", "-"])
        photo = os.path.join(data, "photo.png")
        with open(photo, "wb") as out:
            out.write(gradient_png(600, 800))
        subprocess.run([CLI, "--data-dir", data, "photo", photo], check=True, stdout=subprocess.DEVNULL)
        measure("redline export --format pdf --template sidebar, with a photo",
                [CLI, "--data-dir", data, "export", "--format", "pdf", "--template", "sidebar", "-o", "-"])


if __name__ == "__main__":
    main()
