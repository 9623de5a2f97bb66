//! The window's benchmarks, on the built app in a real window (as `tests/e2e.rs` drives it): memory idle
//! and after a hundred AI turns, the Page view from a change to the new page on screen, and chunk to pixel
//! while a fast turn streams. They print figures and judge none (README "Budgets"); each asserts only that
//! what it measured happened.
//!
//! Needs what the window tests need (`REDLINE_E2E_APP`, tauri-driver, a display, a session bus);
//! `scripts/bench-budgets.sh` runs them on the release build:
//! `cargo bench --features custom-protocol --bench window -- [memory] [page-view] [chunk-to-pixel]`
//! (none named: all three).

// A test (or benchmark) may be longer than library code (clippy.toml).
#![allow(clippy::too_many_lines)]

#[path = "../tests/window/mod.rs"]
mod window;

use std::path::Path;
use std::time::{Duration, Instant};

use fantoccini::Client;
use serde_json::json;
use window::*;

/// The benchmarks by the names the command line takes.
const BENCHMARKS: [&str; 3] = ["memory", "page-view", "chunk-to-pixel"];

fn main() {
    // `cargo bench` passes `--bench`; anything else not a flag names a benchmark.
    let named: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    if let Some(unknown) = named.iter().find(|n| !BENCHMARKS.contains(&n.as_str())) {
        eprintln!(
            "no benchmark “{unknown}”: the benchmarks are {}",
            BENCHMARKS.join(", ")
        );
        std::process::exit(2);
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let chosen = |name: &str| named.is_empty() || named.iter().any(|n| n == name);
    if chosen("memory") {
        runtime.block_on(memory_idle_and_after_a_hundred_turns());
    }
    if chosen("page-view") {
        runtime.block_on(page_view_from_a_change_to_the_new_page_on_screen());
    }
    if chosen("chunk-to-pixel") {
        runtime.block_on(chunk_to_pixel_during_a_fast_turn());
    }
}

/// The processes of a driver's process group that are the app's: the app itself and the WebKit processes
/// it starts (not tauri-driver or WebKitWebDriver), with their proportional set size in kB.
fn app_memory(driver: &Driver) -> Vec<(String, u64)> {
    let group = driver.child.id().to_string();
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let dir = entry.path();
        let Ok(stat) = std::fs::read_to_string(dir.join("stat")) else {
            continue;
        };
        let Some(close) = stat.rfind(')') else {
            continue;
        };
        let comm = &stat[stat.find('(').unwrap() + 1..close];
        // Fields after the name: state, ppid, pgrp.
        let pgrp = stat[close + 2..].split_whitespace().nth(2).unwrap_or("");
        // The grammar checker too: a program of the app's own, running while checks ask it.
        let ours = comm == "redline-app"
            || comm == "redline-grammar"
            || comm.starts_with("WebKitWebProces")
            || comm.starts_with("WebKitNetworkPr");
        if pgrp != group || !ours {
            continue;
        }
        let pss = std::fs::read_to_string(dir.join("smaps_rollup"))
            .unwrap_or_default()
            .lines()
            .find(|l| l.starts_with("Pss:"))
            .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
            .unwrap_or(0);
        found.push((comm.to_owned(), pss));
    }
    found.sort();
    found
}

/// What the page holds: its DOM elements and Tauri's IPC callbacks (a leak of either shows here).
async fn print_page(client: &Client, when: &str) {
    let page = client
        .execute(
            "const c = window.__TAURI_INTERNALS__ && window.__TAURI_INTERNALS__.callbacks; \
             return [document.getElementsByTagName('*').length, c ? (c instanceof Map ? c.size : Object.keys(c).length) : -1];",
            vec![],
        )
        .await
        .unwrap();
    println!("memory: the page holds {page} (DOM elements, IPC callbacks) {when}");
}

/// Prints the memory of `processes` and returns it in KB, the grammar program left out of what it returns
/// (it comes and goes with the checks: growth is the app's own).
fn print_memory(when: &str, processes: &[(String, u64)]) -> u64 {
    let total: u64 = processes.iter().map(|(_, kb)| kb).sum();
    let grammar: u64 = processes
        .iter()
        .filter(|(name, _)| name == "redline-grammar")
        .map(|(_, kb)| kb)
        .sum();
    let parts: Vec<String> = processes
        .iter()
        .map(|(name, kb)| format!("{name} {:.1}", *kb as f64 / 1024.0))
        .collect();
    println!(
        "memory {when}: {:.1} MB PSS in all ({}); {:.1} MB without the grammar program",
        total as f64 / 1024.0,
        parts.join(", "),
        (total - grammar) as f64 / 1024.0
    );
    total - grammar
}

/// The memory budget (README "Budgets"), measured on the build `REDLINE_E2E_APP` names (the release build,
/// by `scripts/bench-budgets.sh`): PSS of the app and its WebKit processes, idle with the sample open, then
/// after 100 AI turns against the replay server (and after 250, 500, … when `REDLINE_BENCH_TURNS` asks for
/// more: 1,000 for a year's worth of asks). Prints the figures; asserts only that the turns ran.
async fn memory_idle_and_after_a_hundred_turns() {
    let turns: usize = std::env::var("REDLINE_BENCH_TURNS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(100)
        .max(1);
    // What each turn asks: by default a keyword added (the resume grows by one a turn); with
    // `REDLINE_BENCH_ASK=rewrite` the summary rewritten, one of two texts in turn, so that the resume keeps its
    // size and what grows is the app's own.
    let rewrite = std::env::var("REDLINE_BENCH_ASK").is_ok_and(|ask| ask == "rewrite");
    let name = if rewrite {
        "02-rewrite-summary.json"
    } else {
        "01-add-keyword.json"
    };
    let fixture = fixture(name);
    println!("each turn: {}", fixture.message);
    let replies: Vec<redline_agent::Reply> = (0..turns)
        .flat_map(|turn| {
            let mut replies = fixture.replies.clone();
            if rewrite && turn % 2 == 1 {
                for reply in &mut replies {
                    if let Some(value) = reply
                        .patch
                        .as_mut()
                        .and_then(|patch| patch.pointer_mut("/operations/0/value"))
                    {
                        *value =
                            format!("{} Each turn alternates.", value.as_str().unwrap()).into();
                    }
                }
            }
            replies
        })
        .collect();
    let server = replay(replies).await;
    let url = server.base_url();
    let (_data_dir, driver, client) = open_window(&replay_env(&url)).await;
    assert_eq!(text_of(&client, "basics-name").await, "Richard Hendriks");
    tokio::time::sleep(Duration::from_secs(5)).await;
    let idle = app_memory(&driver);
    let app_alone = idle
        .iter()
        .find(|(name, _)| name == "redline-app")
        .map(|(_, kb)| *kb)
        .unwrap_or(0);
    let before = print_memory("idle with the sample open", &idle);
    print_page(&client, "idle").await;
    println!(
        "memory of the app process alone, idle: {:.1} MB PSS",
        app_alone as f64 / 1024.0
    );
    at_rest_once_grammar_is_let_go(&driver).await;

    // With `REDLINE_BENCH_DRIVE=page` the page itself types and sends each ask (one WebDriver call for a
    // hundred turns), so that what WebDriver keeps of each turn's lookups is not counted as the app's.
    let in_page = std::env::var("REDLINE_BENCH_DRIVE").is_ok_and(|drive| drive == "page");
    // With `REDLINE_BENCH_SETTLE=S` each figure is taken twice: 5 s after the turns, and S seconds later, at
    // rest, once WebKit has collected and given back what the turns left as garbage.
    let settle: Option<u64> = std::env::var("REDLINE_BENCH_SETTLE")
        .ok()
        .and_then(|s| s.parse().ok());
    for turn in 1..=turns {
        if !in_page {
            saved_turn(&client, &fixture.message, turn).await;
        } else if turn % 100 == 1 || turn == 1 {
            let last = (turn + 99).min(turns);
            drive_in_page(&client, &fixture.message, turn, last).await;
        }
        if turn == turns || [100, 250, 500].contains(&turn) {
            print_growth(&driver, turn, before, settle).await;
        }
    }
    print_page(&client, "after the turns").await;
    client.close().await.ok();
}

/// Prints the memory once the grammar checker, started by the window's first check, has been let go
/// (`redline_grammar::client::IDLE` after that check): the app at rest.
async fn at_rest_once_grammar_is_let_go(driver: &Driver) {
    let grammar =
        |processes: &[(String, u64)]| processes.iter().any(|(name, _)| name == "redline-grammar");
    for _ in 0..60 {
        if !grammar(&app_memory(driver)) {
            print_memory("at rest, the grammar checker let go", &app_memory(driver));
            return;
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
    println!("the grammar checker was still running a minute later");
}

/// Prints the memory after `turn` turns and its growth against `before` (KB), 5 s after the turn and, with
/// `settle`, that many seconds later again.
async fn print_growth(driver: &Driver, turn: usize, before: u64, settle: Option<u64>) {
    let growth = |now: u64| (now as f64 - before as f64) / 1024.0;
    tokio::time::sleep(Duration::from_secs(5)).await;
    let now = print_memory(&format!("after {turn} turns"), &app_memory(driver));
    println!("memory growth over {turn} turns: {:+.1} MB", growth(now));
    if let Some(settle) = settle {
        tokio::time::sleep(Duration::from_secs(settle)).await;
        let rested = print_memory(
            &format!("after {turn} turns and {settle} s at rest"),
            &app_memory(driver),
        );
        println!(
            "memory growth over {turn} turns, {settle} s at rest: {:+.1} MB",
            growth(rested)
        );
    }
}

/// Has the page send `message` as turns `from` to `to` (of a document that started at revision 1), each
/// once the one before has saved its revision and is over.
async fn drive_in_page(client: &Client, message: &str, from: usize, to: usize) {
    client
        .update_timeouts(fantoccini::wd::TimeoutConfiguration::new(
            Some(Duration::from_secs(600)),
            None,
            None,
        ))
        .await
        .unwrap();
    let sent = client
        .execute_async(
            r#"
            const [message, from, to, done] = arguments;
            const one = (id) => document.querySelector(`[data-testid='${id}']`);
            const later = (ms) => new Promise((r) => setTimeout(r, ms));
            (async () => {
              for (let turn = from; turn <= to; turn++) {
                const input = one("chat-input");
                input.value = message;
                input.dispatchEvent(new Event("input", { bubbles: true }));
                await later(0);
                one("chat-send").click();
                const saved = `Saved as revision ${turn + 1}.`;
                for (;;) {
                  await later(25);
                  const lines = one("chat-messages").querySelectorAll("li");
                  const last = [...lines].slice(-8).some((li) => li.textContent.includes(saved));
                  if (last && one("chat-stop").disabled) break;
                }
              }
              done(to);
            })();
            "#,
            vec![message.into(), from.into(), to.into()],
        )
        .await
        .unwrap();
    assert_eq!(
        sent.as_u64(),
        Some(to as u64),
        "the page did not run its turns"
    );
}

/// The Page view's speed (a benchmark, not part of the test run: `scripts/bench-budgets.sh` runs it): from a
/// change — the template switched, so that every page is laid out and drawn again — to the new first page
/// decoded and on screen, timed inside the page, 100 times on the sample. Printed as p50, p99 and the worst.
async fn page_view_from_a_change_to_the_new_page_on_screen() {
    let (_data_dir, driver, client) = open_on_the_sample().await;
    click(&client, "toggle-pages").await;
    element(&client, "page-1").await;
    let mut times: Vec<f64> = switches(&client, "classic", "modern", 100)
        .await
        .iter()
        .map(|s| s.on_screen)
        .collect();
    let first = times[0];
    times.sort_by(f64::total_cmp);
    let at = |q: f64| quantile(&times, q);
    println!(
        "page view, a change to the new page on screen (sample, {} changes): p50 {:.1} ms, p90 {:.1} ms, p99 {:.1} ms, worst {:.1} ms; \
         the first (the other template laid out for the first time) {first:.1} ms",
        times.len(),
        at(0.5),
        at(0.9),
        at(0.99),
        times[times.len() - 1]
    );
    assert_eq!(times.len(), 100);
    page_view_per_design(&client).await;
    page_view_split(&client).await;
    client.close().await.ok();
    drop(driver);
}

/// The same, per design: the Page view switched between each design and the one before it in the list, 100
/// times each way, only the switches to the design counted (its pages laid out and drawn whole each time):
/// 99 changes, so that the p99 is not the one worst.
async fn page_view_per_design(client: &Client) {
    let names = [
        "classic",
        "modern",
        "sidebar",
        "compact",
        "academic",
        "engineering",
        "elegant",
        "banner",
    ];
    let mut p99s = Vec::new();
    for (i, design) in names.iter().enumerate() {
        let other = names[(i + names.len() - 1) % names.len()];
        // In two runs of 100: one script may take at most 30 s.
        let mut times = switches(client, design, other, 100).await;
        times.extend(switches(client, design, other, 100).await);
        // The switches to `design`: every other one, the first of them (a first layout) left out.
        let into: Vec<&Switch> = times.iter().step_by(2).skip(1).collect();
        let on_screen = sorted(into.iter().map(|s| s.on_screen));
        // The same pages swapped in with no engine work, the same hour: what the machine allows.
        let mut floor = floor_swaps(client, design, other, 100).await;
        floor.extend(floor_swaps(client, design, other, 100).await);
        let floor = sorted(floor.into_iter().skip(1));
        println!(
            "page view per design: {design:<12} p50 {:.1} ms, p99 {:.1} ms, worst {:.1} ms ({} changes to it); \
             p50 the new page's address set {:.1} ms, its image loaded {:.1} ms, drawn {:.0} px wide; \
             the floor (its page swapped in, no engine work) p50 {:.1} ms, p99 {:.1} ms, worst {:.1} ms",
            quantile(&on_screen, 0.5),
            quantile(&on_screen, 0.99),
            on_screen[on_screen.len() - 1],
            on_screen.len(),
            quantile(&sorted(into.iter().map(|s| s.address_set)), 0.5),
            quantile(&sorted(into.iter().map(|s| s.loaded)), 0.5),
            into[0].width,
            quantile(&floor, 0.5),
            quantile(&floor, 0.99),
            floor[floor.len() - 1],
        );
        p99s.push((quantile(&on_screen, 0.99), quantile(&floor, 0.99)));
    }
    let over = |i: usize| p99s.iter().filter(|p| [p.0, p.1][i] > 40.0).count();
    let mean = |i: usize| p99s.iter().map(|p| [p.0, p.1][i]).sum::<f64>() / p99s.len() as f64;
    println!(
        "page view per design, all {}: p99 over 40 ms in {} designs, the floor's in {}; the mean p99 {:.1} ms, the floor's {:.1} ms",
        p99s.len(),
        over(0),
        over(1),
        mean(0),
        mean(1)
    );
}

/// The value at quantile `q` of `sorted` values.
fn quantile(sorted: &[f64], q: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

/// One change of the Page view's design, timed inside the page from the change, in ms.
struct Switch {
    /// The new first page's address set on its image (the pages laid out, drawn and sent; the view updated).
    address_set: f64,
    /// The image loaded (the frame in which it was first seen complete).
    loaded: f64,
    /// The frame after that one: the new page decoded and on screen.
    on_screen: f64,
    /// How wide the first page is shown, in device pixels.
    width: f64,
}

/// `values`, smallest first.
fn sorted(values: impl Iterator<Item = f64>) -> Vec<f64> {
    let mut values: Vec<f64> = values.collect();
    values.sort_by(f64::total_cmp);
    values
}

/// `count` changes of the Page view's design, `a`, `b`, `a`, … (starting with `a`), each timed inside the
/// page from the change to the new first page decoded and on screen.
async fn switches(client: &Client, a: &str, b: &str, count: usize) -> Vec<Switch> {
    let times = client
        .execute_async(
            r#"
            const [a, b, count] = arguments;
            const done = arguments[arguments.length - 1];
            const select = document.querySelector("[data-testid='page-template']");
            const page = () => document.querySelector("[data-testid='page-1']");
            const frame = () => new Promise((r) => requestAnimationFrame(r));
            const times = [];
            // Not on screen already: the first change must change the page.
            if (select.value === a) {
              select.value = b;
              select.dispatchEvent(new Event("change", { bubbles: true }));
            }
            (async () => {
              await new Promise((r) => setTimeout(r, 400));
              for (let k = 0; k < count; k++) {
                const before = page().src;
                const start = performance.now();
                select.value = k % 2 === 0 ? a : b;
                select.dispatchEvent(new Event("change", { bubbles: true }));
                let set = 0;
                for (;;) {
                  await frame();
                  const img = page();
                  if (!set && img && img.src !== before) set = performance.now() - start;
                  // Loaded and decoded, not merely done (a refused image is complete too, 0 pixels wide).
                  if (img && img.src !== before && img.complete && img.naturalWidth > 0) break;
                }
                const loaded = performance.now() - start;
                await frame();
                times.push([set, loaded, performance.now() - start, page().clientWidth * devicePixelRatio]);
                await new Promise((r) => setTimeout(r, 150));
              }
              done(times);
            })();
            "#,
            vec![a.into(), b.into(), count.into()],
        )
        .await
        .unwrap();
    let ms = |t: &serde_json::Value, i: usize| t[i].as_f64().unwrap();
    times
        .as_array()
        .unwrap()
        .iter()
        .map(|t| Switch {
            address_set: ms(t, 0),
            loaded: ms(t, 1),
            on_screen: ms(t, 2),
            width: ms(t, 3),
        })
        .collect()
}

/// In-page script for the scripts that ask for pages themselves: `drawn(resume, template, shownWidth)` asks
/// the engine for the resume's pages as the Page view does (A4, nothing held), and `pngs(bytes)` splits the
/// answer (the header's length, little-endian; the JSON header; each page's PNG) into the pages' PNGs.
const PAGES_JS: &str = r#"
const invoke = window.__TAURI_INTERNALS__.invoke;
const drawn = async (resume, template, shownWidth) => new Uint8Array(await invoke("page_images",
  { document: resume, request: { format: "pdf", template, page: "a4" }, have: [], shownWidth }));
const pngs = (bytes) => {
  const length = new DataView(bytes.buffer).getUint32(0, true);
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + length)));
  let at = 4 + length;
  return header.pages.map((p) => bytes.slice(at, at += p.bytes));
};
"#;

/// The floor under a change into `design`, in the same window and hour: its first page and the one before
/// it in the list (the engine's own PNGs, fetched once, as wide as the view shows them) put on the page's
/// image by turns as new `blob:` addresses, with no command, layout or view update between. Timed as
/// [`switches`] times a change (from the address to the image decoded and on screen), only the swaps to
/// `design` kept: 50 of `count`.
async fn floor_swaps(client: &Client, design: &str, other: &str, count: usize) -> Vec<f64> {
    let times = client
        .execute_async(
            &format!("{PAGES_JS}{}", r#"
            const [resume, design, other, count] = arguments;
            const done = arguments[arguments.length - 1];
            const page = () => document.querySelector("[data-testid='page-1']");
            const frame = () => new Promise((r) => requestAnimationFrame(r));
            const shownWidth = Math.round(page().getBoundingClientRect().width * devicePixelRatio);
            const firstPage = async (template) => pngs(await drawn(resume, template, shownWidth))[0];
            (async () => {
              const swapped = [await firstPage(other), await firstPage(design)];
              const img = page();
              const shown = img.src;
              const times = [];
              let previous = null;
              await new Promise((r) => setTimeout(r, 400));
              for (let k = 0; k < count; k++) {
                const start = performance.now();
                const url = URL.createObjectURL(new Blob([swapped[k % 2]], { type: "image/png" }));
                img.src = url;
                do await frame(); while (!(img.currentSrc === url && img.complete && img.naturalWidth > 0));
                await frame();
                if (k % 2) times.push(performance.now() - start);
                if (previous) URL.revokeObjectURL(previous);
                previous = url;
                await new Promise((r) => setTimeout(r, 150));
              }
              // The view's own page again, as the view left it.
              img.src = shown;
              URL.revokeObjectURL(previous);
              done(times);
            })();
            "#),
            vec![
                redline_resume::sample(),
                design.into(),
                other.into(),
                count.into(),
            ],
        )
        .await
        .unwrap();
    times
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_f64().unwrap())
        .collect()
}

/// Where the Page view's time goes, timed inside the page: the command (layout, both pages drawn as wide as
/// the view shows them and their PNGs over the bridge, nothing held), then the two PNGs decoded by WebKit
/// (`HTMLImageElement.decode`).
async fn page_view_split(client: &Client) {
    let split = client
        .execute_async(
            &format!(
                "{PAGES_JS}{}",
                r#"
            const [resume, done] = [arguments[0], arguments[arguments.length - 1]];
            const command = [], decode = [];
            // As wide as the view shows its pages, as the view asks.
            const page = document.querySelector("[data-testid='page-1']");
            const shownWidth = Math.round(page.getBoundingClientRect().width * devicePixelRatio);
            (async () => {
              for (let k = 0; k < 40; k++) {
                const template = k % 2 ? "modern" : "classic";
                let start = performance.now();
                const bytes = await drawn(resume, template, shownWidth);
                command.push(performance.now() - start);
                const pages = pngs(bytes);
                start = performance.now();
                await Promise.all(pages.map((png) => {
                  const img = new Image();
                  img.src = URL.createObjectURL(new Blob([png], { type: "image/png" }));
                  return img.decode();
                }));
                decode.push(performance.now() - start);
              }
              done([command, decode]);
            })();
            "#
            ),
            vec![redline_resume::sample()],
        )
        .await
        .unwrap();
    let median = |v: &serde_json::Value| {
        let mut t: Vec<f64> = v
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|x| x.as_f64())
            .collect();
        t.sort_by(f64::total_cmp);
        (
            t[t.len() / 2],
            t[((t.len() - 1) as f64 * 0.9).round() as usize],
        )
    };
    let (command, decode) = (median(&split[0]), median(&split[1]));
    println!(
        "page view, split (40 changes, nothing held): the command {:.1} ms median ({:.1} p90), both pages decoded {:.1} ms median ({:.1} p90)",
        command.0, command.1, decode.0, decode.1
    );
}

/// The sample with every list ten times as long (the view's size test in Vitest uses the same shape).
fn ten_times_the_sample() -> serde_json::Value {
    let mut resume = redline_resume::sample();
    for (_, value) in resume.as_object_mut().unwrap().iter_mut() {
        if let Some(items) = value.as_array_mut() {
            *items = items
                .iter()
                .cycle()
                .take(items.len() * 10)
                .cloned()
                .collect();
        }
    }
    resume
}

/// The page's probe (ui/src/lib/probe.ts): each surface message applied gets the time it arrived, the time
/// the next frame began (its animation-frame callback) and the time that frame was painted (a message
/// posted from the callback runs after the frame's paint); and every frame's length while it runs, and its own
/// work: from its start (the animation-frame time) to a message posted then being handled, after its paint —
/// and after whatever ran first: a task queued before the message, or the next frame if it began first. So
/// it is at least the frame's work: small before a late frame, the page was idle when that frame was due.
/// Each batch of the turn's stream the page handled is a task (`tasks`: its start and length, from
/// `probeHandled`); one that began after the frame's animation callbacks ran, and ended before the message
/// was handled, ran after the frame's paint, in the time measured as the frame's: the benchmark reports the
/// frame's work both with and without it. It runs after [`FRAMES`].
const PROBE: &str = r#"
const data = { arrived: [], framed: [], shown: [], frames: [], work: [], tasks: [] };
const batches = [];
const painted = new MessageChannel();
painted.port1.onmessage = () => {
  const t = clock();
  for (const i of batches.shift() ?? []) data.shown[i] = t;
};
let pending = [];
window.__redlineProbe = {
  applied() {
    pending.push(data.arrived.length);
    data.arrived.push(clock());
    if (pending.length === 1) {
      requestAnimationFrame(() => {
        const t = clock();
        for (const i of pending) data.framed[i] = t;
        batches.push(pending);
        pending = [];
        painted.port2.postMessage(0);
      });
    }
  },
  handled(start) {
    const began = performance.timeOrigin + start;
    // After the view's own updates, which the batch queued first.
    queueMicrotask(() => data.tasks.push([began, clock() - began]));
  },
};
measureFrames(data, () => {});
window.__redlineProbeData = data;
"#;

/// What the probe and the frame loop measure frames with: `measureFrames(data, each)` puts every frame's
/// length (`frames`: its start, its length, the start of the frame before it) and its own work into `data`
/// (`work`: its start, its length, and when its animation-frame callback ran after its start), until
/// `data.stop` is set; each frame calls `each(n)` first, `n` counting the frames from 1.
const FRAMES: &str = r#"
const clock = () => performance.timeOrigin + performance.now();
const measureFrames = (data, each) => {
  const worked = new MessageChannel();
  const started = [];
  worked.port1.onmessage = () => {
    const [start, called] = started.shift();
    data.work.push([start, clock() - start, called - start]);
  };
  let last = null;
  let n = 0;
  const frame = (t) => {
    each(++n);
    if (last !== null) data.frames.push([performance.timeOrigin + t, t - last, performance.timeOrigin + last]);
    last = t;
    started.push([performance.timeOrigin + t, clock()]);
    worked.port2.postMessage(0);
    if (!data.stop) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
};
"#;

/// `REDLINE_BENCH_TRACE`: what each surface message applied was, and when (`events`), to print beside the
/// longest frames.
const TRACE: &str = r#"
const probe = window.__redlineProbe;
const data = window.__redlineProbeData;
data.events = [];
const applied = probe.applied;
probe.applied = (update) => {
  const ops = update.ops ? update.ops.map((o) => `${o.op} ${o.path}`).join(", ") : update.path;
  data.events.push([performance.timeOrigin + performance.now(), `${update.kind}${update.state ? ":" + update.state : ""} ${ops ?? ""}`]);
  applied(update);
};
// The view following the edit: each scroll of a pane (the resume's, the chat's).
document.addEventListener("scroll", (event) => {
  const pane = event.target instanceof Element ? event.target.className : "window";
  data.events.push([performance.timeOrigin + performance.now(), `scroll ${pane}`]);
}, { capture: true, passive: true });
"#;

/// A loop of frames run by the probe's own means ([`FRAMES`], after it), each frame calling `change(n)`
/// first, which a setup script before it defines; its figures in `window.__redlineLoopData` until `stop`
/// is set.
const FRAME_LOOP: &str = r#"
const data = { frames: [], work: [], stop: false };
measureFrames(data, change);
window.__redlineLoopData = data;
"#;

/// The baseline, in the same window and run, after the turns: the app's page hidden, one element of the
/// window's size in its place whose one text node changes every frame.
const BLANK: &str = r#"
document.body.style.display = "none";
const blank = document.createElement("div");
blank.style.cssText = "position:fixed;inset:0;background:#fff;color:#000;font:16px sans-serif";
const text = document.createTextNode("0");
blank.appendChild(text);
document.documentElement.appendChild(blank);
const change = (n) => { text.data = String(n); };
"#;

/// What a frame that repaints the resume's pane costs here, and nothing else: the pane's background turns
/// from one white to another every frame (nothing laid out, every pixel of the pane painted again) — as a
/// scroll does, or a change near the top of the view that moves everything below it.
const REPAINT: &str = r#"
const pane = document.querySelector(".document");
const change = (n) => { pane.style.backgroundColor = n % 2 ? '#fff' : '#fefefe'; };
"#;

/// Runs the frame loop after `setup` (`BLANK`, `REPAINT`) for `seconds` and returns its frames.
async fn frame_loop(client: &Client, setup: &str, seconds: f64) -> Frames {
    client
        .execute(&format!("{setup}\n{FRAMES}\n{FRAME_LOOP}"), vec![])
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_secs_f64(seconds)).await;
    let data = client
        .execute(
            "const d = window.__redlineLoopData; d.stop = true; return d;",
            vec![],
        )
        .await
        .unwrap();
    let lengths = |v: &serde_json::Value| -> Vec<f64> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|f| f[1].as_f64().unwrap())
            .collect()
    };
    Frames {
        frames: lengths(&data["frames"]),
        work: lengths(&data["work"]),
    }
}

/// A baseline's frames (a blank page, the resume's pane repainted): every frame's length and its own work, ms.
struct Frames {
    frames: Vec<f64>,
    work: Vec<f64>,
}

/// What one paced turn measured in the page.
struct ChunkToPixel {
    /// From a surface message leaving the engine to the frame showing it painted, ms, in order.
    to_pixel: Vec<f64>,
    /// From leaving the engine to the view's store having applied it, ms.
    to_page: Vec<f64>,
    /// From being applied to the next frame beginning, ms: the wait for a frame.
    to_frame: Vec<f64>,
    /// From that frame beginning to its being painted, ms: style, layout and paint.
    frame_to_pixel: Vec<f64>,
    /// Surface messages a second while the turns streamed, as the engine sent them.
    rate: f64,
    /// Every frame's length while a turn streamed, ms, in order.
    frames: Vec<f64>,
    /// Every frame's own work while a turn streamed, ms: from its start to its being painted.
    work: Vec<f64>,
    /// The same less the batches of the stream handled after the frame's paint, ms.
    frame_work: Vec<f64>,
    /// For each frame of `frames` longer than one refresh by more than the clock's grain, the work of the frame
    /// before it, ms: whether the page was still busy when it should have begun.
    work_before_late: Vec<f64>,
    /// Every frame's length in the two seconds before the turn (the window idle).
    idle_frames: Vec<f64>,
    /// A blank page of the same size, in the same window after the turns: the baseline.
    blank: Frames,
    /// The resume's pane repainted whole at every frame, and nothing else: what a scroll costs here.
    repaint: Frames,
}

/// Runs `turns` paced AI turns (a long summary typed in, a work entry filling in, 200 surface messages a
/// second) on `resume` in the real window, the stream going over the turn's channel, and returns what the
/// page's probe measured.
async fn chunk_to_pixel(resume: &serde_json::Value, turns: usize) -> ChunkToPixel {
    let summary =
        "Builds compression systems that run at the scale of the largest media libraries, and the \
        teams that ship them. "
            .repeat(24);
    let entry = json!({
        // No link: a link a model brings is held for the user (it would not be saved, and the turn not timed).
        "name": "Hooli", "position": "Staff Engineer, Nucleus",
        "startDate": "2011-01-01", "endDate": "2013-12-01",
        "summary": "Led the Nucleus compression team through its first three releases. ".repeat(8),
        "highlights": (0..6).map(|i| format!("Shipped release {i} of Nucleus to every Hooli data centre, on time and with a smaller footprint")).collect::<Vec<_>>(),
    });
    let replies: Vec<redline_agent::Reply> = (0..turns)
        .flat_map(|_| {
            [
                json!({"say": "On it.", "toolCall": {"name": "patch_resume", "arguments": {
                    "changes": "Rewrite the summary and add the Hooli job",
                    "targets": ["/basics/summary", "/work"]}}}),
                json!({"patch": {"operations": [
                    {"op": "replace", "path": "/basics/summary", "value": summary},
                    {"op": "add", "path": "/work/-", "value": entry},
                ]}}),
                json!({"say": "Done."}),
            ]
        })
        .map(|r| serde_json::from_value(r).unwrap())
        .collect();
    // 7 characters a delta every 3 ms (a timer's 3 ms is nearer 5 here): about 200 surface messages a
    // second while a value streams; the rate printed is the one the engine sent at.
    let pace = redline_agent::Pace {
        chunk: 7,
        delay: Duration::from_millis(3),
    };
    let server = redline_agent::ReplayServer::start(replies, pace)
        .await
        .unwrap();
    let url = server.base_url();
    let files = tempfile::tempdir().unwrap();
    let file = files.path().join("bench.resume.json");
    std::fs::write(&file, serde_json::to_vec(resume).unwrap()).unwrap();
    let sent_log = files.path().join("sent.txt");
    let data_dir = tempfile::tempdir().unwrap();
    let mut env = replay_env(&url).to_vec();
    env.push(("REDLINE_PROBE_SENT", sent_log.to_str().unwrap()));
    let driver = start_driver_with(&env);
    let client = connect_with(&driver, data_dir.path(), &[&file]).await;
    wait_for_text(&client, "basics-name", |t| t == "Richard Hendriks").await;
    tokio::time::sleep(Duration::from_secs(2)).await;
    let probe = format!("{FRAMES}\n{PROBE}");
    client.execute(&probe, vec![]).await.unwrap();
    let trace = std::env::var_os("REDLINE_BENCH_TRACE").is_some();
    if trace {
        client.execute(TRACE, vec![]).await.unwrap();
    }
    tokio::time::sleep(Duration::from_secs(2)).await;
    // Each turn's stream, as a range of the sent log's lines. While a turn streams the test keeps out of the
    // page: it watches the sent log. (A WebDriver wait asks the page four times a second, an XPath over every
    // list item on it, run on the page's main thread among the frames measured.)
    let mut streams = Vec::new();
    for turn in 1..=turns {
        let before = sent_lines(&sent_log);
        send_chat(&client, "Rewrite my summary and add my job at Hooli.").await;
        let after = quiet_after_growing(&sent_log, before).await;
        streams.push(before..after);
        let saved = format!("Saved as revision {}.", turn + 1);
        if !chat_says(&client, &saved).await {
            let chat = client
                .execute(
                    "return [...document.querySelectorAll('.chat li')].slice(-6).map((l) => l.innerText);",
                    vec![],
                )
                .await
                .unwrap();
            panic!("turn {turn} did not save; the chat's last lines: {chat}");
        }
        wait_for_text(&client, "chat-send", |t| t == "Send").await;
    }
    let data = client
        .execute(
            "const d = window.__redlineProbeData; d.stop = true; return d;",
            vec![],
        )
        .await
        .unwrap();
    // The baseline: as long as the turns streamed, a blank page in the same window.
    let sent: Vec<f64> = std::fs::read_to_string(&sent_log)
        .unwrap()
        .lines()
        .map(|l| l.parse::<f64>().unwrap() / 1000.0)
        .collect();
    let streamed: f64 = streams
        .iter()
        .map(|s| sent[s.end - 1] - sent[s.start])
        .sum();
    let repaint = frame_loop(&client, REPAINT, 3.0).await;
    let blank = frame_loop(&client, BLANK, (streamed / 1000.0).max(2.0)).await;
    client.close().await.ok();
    drop(driver);
    let numbers = |v: &serde_json::Value| -> Vec<f64> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_f64().unwrap_or(f64::NAN))
            .collect()
    };
    let (arrived, framed, shown) = (
        numbers(&data["arrived"]),
        numbers(&data["framed"]),
        numbers(&data["shown"]),
    );
    assert_eq!(
        sent.len(),
        arrived.len(),
        "every surface message the engine sent reached the view once"
    );
    assert!(sent.len() > 500 * turns, "{} surface messages", sent.len());
    // A turn's frames: from its first surface message leaving to 250 ms after its last (the frames that
    // paint the commit, the reply's last line and the view unlocking).
    let streaming = |t: f64| {
        streams
            .iter()
            .any(|s| (sent[s.start]..=sent[s.end - 1] + 250.0).contains(&t))
    };
    let frames_in = |key: &str, keep: &dyn Fn(f64) -> bool| {
        data[key]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| keep(f[0].as_f64().unwrap()))
            .map(|f| f[1].as_f64().unwrap())
            .collect::<Vec<f64>>()
    };
    let frames = frames_in("frames", &streaming);
    let tasks: Vec<(f64, f64)> = data["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| (t[0].as_f64().unwrap(), t[1].as_f64().unwrap()))
        .collect();
    // Each frame of the turns: its start, its work, and its work less the batches handled after its paint
    // (begun after its animation callbacks ran, ended before its message was handled).
    let each_frame: Vec<(f64, f64, f64)> = data["work"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| {
            let [start, work, called] = [0, 1, 2].map(|i| w[i].as_f64().unwrap());
            let (from, to) = (start + called, start + work);
            let after: f64 = tasks
                .iter()
                .filter(|(began, took)| *began >= from && began + took <= to)
                .map(|(_, took)| took)
                .sum();
            (start, work, work - after)
        })
        .filter(|(start, _, _)| streaming(*start))
        .collect();
    if trace {
        let events = data["events"].as_array().unwrap();
        let scrolls = |pane: &str| {
            events
                .iter()
                .filter(|e| e[1].as_str() == Some(&format!("scroll {pane}")))
                .count()
        };
        println!(
            "trace: {} scroll events of the resume's pane, {} of the chat's, over {turns} turns",
            scrolls("document"),
            scrolls("messages")
        );
        let mut longest = each_frame.clone();
        longest.sort_by(|a, b| b.1.total_cmp(&a.1));
        for (start, work, own) in longest.iter().take(12) {
            println!(
                "trace: a frame {:.0} ms into the turns, its work {work:.1} ms ({own:.1} less the batches after its paint):",
                start - sent[0]
            );
            for event in events {
                let at = event[0].as_f64().unwrap();
                if (start - 17.0..=start + work).contains(&at) {
                    println!(
                        "    {:+.1} ms {}",
                        at - start,
                        event[1].as_str().unwrap_or("")
                    );
                }
            }
        }
    }
    let work_at: std::collections::HashMap<u64, f64> = data["work"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| (w[0].as_f64().unwrap().to_bits(), w[1].as_f64().unwrap()))
        .collect();
    let work_before_late = data["frames"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| streaming(f[0].as_f64().unwrap()) && f[1].as_f64().unwrap() > LATE)
        .map(|f| {
            work_at
                .get(&f[2].as_f64().unwrap().to_bits())
                .copied()
                .unwrap_or(f64::NAN)
        })
        .collect();
    let idle_frames = frames_in("frames", &|t| t < sent[0]);
    ChunkToPixel {
        to_pixel: sent.iter().zip(&shown).map(|(s, p)| p - s).collect(),
        to_page: sent.iter().zip(&arrived).map(|(s, a)| a - s).collect(),
        to_frame: arrived.iter().zip(&framed).map(|(a, f)| f - a).collect(),
        frame_to_pixel: framed.iter().zip(&shown).map(|(f, p)| p - f).collect(),
        rate: sent.len() as f64
            / streams
                .iter()
                .map(|s| (sent[s.end - 1] - sent[s.start]) / 1000.0)
                .sum::<f64>(),
        frames,
        work: each_frame.iter().map(|f| f.1).collect(),
        frame_work: each_frame.iter().map(|f| f.2).collect(),
        work_before_late,
        idle_frames,
        blank,
        repaint,
    }
}

/// How many lines the sent log (`REDLINE_PROBE_SENT`) has: a line for each surface message sent.
fn sent_lines(log: &Path) -> usize {
    std::fs::read_to_string(log).map_or(0, |s| s.lines().count())
}

/// Waits for the sent log to grow past `before` and then to stay the same for a second (the turn's stream is
/// over), without asking the page anything; returns its length then.
async fn quiet_after_growing(log: &Path, before: usize) -> usize {
    let deadline = Instant::now() + Duration::from_secs(60);
    let (mut seen, mut since) = (before, Instant::now());
    while Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(50)).await;
        let now = sent_lines(log);
        if now != seen {
            (seen, since) = (now, Instant::now());
        } else if seen > before && since.elapsed() > Duration::from_secs(1) {
            return seen;
        }
    }
    panic!(
        "the turn's stream did not start and end within 60 s ({} lines)",
        seen - before
    );
}

/// A frame longer than this is late: longer than one refresh (16.7 ms) by more than the page clock's grain (it
/// reads whole milliseconds: a frame of one refresh reads 16 or 17).
const LATE: f64 = 16.7 + 1.0;

/// p50, p99 and the worst of `times`.
fn quantiles(mut times: Vec<f64>) -> (f64, f64, f64) {
    times.sort_by(f64::total_cmp);
    (
        quantile(&times, 0.5),
        quantile(&times, 0.99),
        times[times.len() - 1],
    )
}

/// The view under a fast model (a benchmark: `scripts/bench-budgets.sh` runs it on the release build): from a
/// surface message leaving the engine to the frame that shows it painted, p50 and p99, and every frame's
/// length while the turn runs — for the sample and for a resume ten times its size, with the turn's stream
/// over its `ipc::Channel` and over app-wide events. Printed, never judged on time; it asserts that every
/// message the engine sent was applied once.
async fn chunk_to_pixel_during_a_fast_turn() {
    for (name, resume) in [
        ("sample", redline_resume::sample()),
        ("ten times the sample", ten_times_the_sample()),
    ] {
        {
            let m = chunk_to_pixel(&resume, 2).await;
            let (p50, p99, worst) = quantiles(m.to_pixel.clone());
            let (page50, page99, _) = quantiles(m.to_page);
            let (wait50, wait99, _) = quantiles(m.to_frame);
            let (draw50, draw99, _) = quantiles(m.frame_to_pixel);
            let (frame50, _, longest) = quantiles(m.frames.clone());
            let over = m.frames.iter().filter(|&&f| f > 16.7).count();
            let late = m.frames.iter().filter(|&&f| f > LATE).count();
            // A late frame whose next one is short enough for the two to fit in two refreshes kept the beat:
            // it began late, and no refresh was missed.
            let kept_beat = m
                .frames
                .windows(2)
                .filter(|w| w[0] > LATE && w[0] + w[1] <= 2.0 * 16.7 + 1.0)
                .count();
            let long = m.frames.iter().filter(|&&f| f > 16.7 * 1.5).count();
            let (idle50, _, idle_longest) = quantiles(m.idle_frames.clone());
            let (work50, work99, work_longest) = quantiles(m.work.clone());
            let work_over = m.work.iter().filter(|&&w| w > 16.0).count();
            let before_late = m.work_before_late.iter().copied().fold(0.0, f64::max);
            println!(
                "chunk to pixel, {name}, over the turn's channel: {n} surface messages at {rate:.0}/s: p50 {p50:.1} ms, \
                 p99 {p99:.1} ms, worst {worst:.1} ms (to the DOM: p50 {page50:.1} ms, p99 {page99:.1} ms; then \
                 waiting for a frame: p50 {wait50:.1}, p99 {wait99:.1} ms; the frame's style, layout and paint: \
                 p50 {draw50:.1}, p99 {draw99:.1} ms); {frames} frames while it streamed (median {frame50:.1} ms), \
                 the longest {longest:.1} ms, {over} over 16.7 ms ({late} by more than \
                 the page clock's 1 ms grain, {kept_beat} of them with the next frame short enough for the two \
                 to fit in two refreshes), {long} over 25 ms; a frame's own work, from its start to its \
                 being painted: p50 {work50:.1}, p99 {work99:.1} ms, the longest {work_longest:.1} ms, \
                 {work_over} over 16 ms; the frame before a late one: at most {before_late:.1} ms; idle before it, frames of \
                 median {idle50:.1} ms, the longest {idle_longest:.1} ms",
                n = m.to_pixel.len(),
                rate = m.rate,
                frames = m.frames.len(),
            );
            // Against the floor: the same window with a blank page, as long, one text node changed a frame.
            let per_100 = |frames: &[f64]| {
                100.0 * frames.iter().filter(|&&f| f > 16.7 * 1.5).count() as f64
                    / frames.len() as f64
            };
            let (_, frame99, _) = quantiles(m.frames.clone());
            let (blank50, blank99, blank_longest) = quantiles(m.blank.frames.clone());
            let (_, blank_work99, _) = quantiles(m.blank.work.clone());
            let (_, frame_work99, _) = quantiles(m.frame_work.clone());
            println!(
                "frames against a blank page, {name}: while the turn streamed p99 {frame99:.1} ms, \
                 {late:.1} late (over 1.5 refreshes) per 100 frames, the page's own work p99 {work99:.1} \
                 ms ({frame_work99:.1} ms less the stream's batches handled after the frame's paint); the blank page in the same window ({blank_n} frames): median {blank50:.1} ms, p99 \
                 {blank99:.1} ms, the longest {blank_longest:.1} ms, {blank_late:.1} late per 100 frames, \
                 its work p99 {blank_work99:.1} ms. Goals: p99 within {over:+.1} ms of the blank page's (≤ \
                 +2), late frames {late_over:+.1} per 100 (≤ +1), work p99 ≤ 8 ms",
                late = per_100(&m.frames),
                blank_n = m.blank.frames.len(),
                blank_late = per_100(&m.blank.frames),
                over = frame99 - blank99,
                late_over = per_100(&m.frames) - per_100(&m.blank.frames),
            );
            let (repaint50, repaint99, _) = quantiles(m.repaint.work.clone());
            println!(
                "the resume's pane painted again whole at every frame, nothing else, {name} ({n} frames): its \
                 work p50 {repaint50:.1}, p99 {repaint99:.1} ms — what a frame that scrolls the view, or moves \
                 everything in it, costs in this window; {over} of the turns' {frames} frames had over 8 ms of work",
                n = m.repaint.work.len(),
                over = m.work.iter().filter(|&&w| w > 8.0).count(),
                frames = m.work.len(),
            );
            assert!(
                m.blank.frames.len() > 50 && m.repaint.frames.len() > 50,
                "the baselines ran: {} and {} frames",
                m.blank.frames.len(),
                m.repaint.frames.len()
            );
        }
    }
}
