//! Files sent to hurt (issue #50): each hostile file of `hostile/files.rs` read by the import as the app
//! reads one — on a thread with the reader's stack, the memory counted by the programs' own allocator
//! under the PDF child's cap — must end in words naming the bound it crossed (or in a bounded result),
//! holding no more than [`MAX_PEAK`] while it is read. Each prints its time and peak memory; only the
//! memory and the outcome are asserted.

#[path = "hostile/files.rs"]
mod files;

use std::alloc::{GlobalAlloc, Layout};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use files::Hostile;

/// The programs' allocator (`redline_memory::Bounded`, capped at the PDF child's bound), with a count of
/// the most it held: the figure each hostile file is measured by.
struct Peak;

static HELD: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(bytes: usize) {
    let now = HELD.fetch_add(bytes, Ordering::Relaxed) + bytes;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

// SAFETY: every call is passed on to `Bounded` unchanged; the count is bookkeeping only.
unsafe impl GlobalAlloc for Peak {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's layout.
        let p = unsafe { redline_memory::Bounded.alloc(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's layout.
        let p = unsafe { redline_memory::Bounded.alloc_zeroed(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's block, from this allocator.
        unsafe { redline_memory::Bounded.dealloc(ptr, layout) };
        HELD.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's block and sizes.
        let p = unsafe { redline_memory::Bounded.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            if new_size >= layout.size() {
                grew(new_size - layout.size());
            } else {
                HELD.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
            }
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Peak = Peak;

/// The most a hostile file may make the import hold above what the test held before it: a resume's
/// Word file takes a few MB.
const MAX_PEAK: usize = 100 << 20;

/// The stack of the thread that reads an import in the window (tokio's blocking threads).
const READER_STACK: usize = 2 << 20;

/// One file at a time: the peak is the whole program's.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// What a hostile file must end in.
enum Must {
    /// Refused, in words that say each of these.
    Refuse(&'static [&'static str]),
    /// Refused in words, or read: either way within the memory bound.
    EndBounded,
}

fn hostile(name: &str, must: Must) {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    static CAP: std::sync::Once = std::sync::Once::new();
    CAP.call_once(|| redline_memory::cap(redline_import::child::MEMORY));
    let Hostile { name, what, make } = files::all()
        .into_iter()
        .find(|h| h.name == name)
        .expect("a hostile file of that name");
    let bytes = make();
    let before = HELD.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let start = Instant::now();
    let outcome = std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(READER_STACK)
            .spawn_scoped(s, || {
                redline_import::import(name, &bytes).map(|i| (i.lines.len(), i.unplaced.len()))
            })
            .unwrap()
            .join()
            .unwrap()
    });
    let took = start.elapsed();
    let peak = PEAK.load(Ordering::Relaxed).saturating_sub(before);
    let said = match &outcome {
        Ok((lines, unplaced)) => format!("read: {lines} lines, {unplaced} not placed"),
        Err(e) => format!("refused: {e}"),
    };
    eprintln!(
        "{name} ({} KB; {what}): {:.2} s, peak {:.1} MB; {said}",
        bytes.len() >> 10,
        took.as_secs_f64(),
        peak as f64 / f64::from(1 << 20),
    );
    assert!(
        peak <= MAX_PEAK,
        "{name} took {} MB, more than {} MB",
        peak >> 20,
        MAX_PEAK >> 20
    );
    match (must, outcome) {
        (Must::Refuse(words), Err(e)) => {
            let e = e.to_string();
            for w in words {
                assert!(e.contains(w), "{name}: {e:?} does not say {w:?}");
            }
        }
        (Must::Refuse(_), Ok(_)) => panic!("{name} was imported"),
        (Must::EndBounded, Err(e)) => assert!(!e.to_string().is_empty()),
        (Must::EndBounded, Ok(_)) => {}
    }
}

#[test]
fn a_word_file_s_links_to_megabyte_targets_are_read_without_them() {
    hostile("links.docx", Must::EndBounded);
}

#[test]
fn a_word_file_s_links_are_found_by_hash() {
    hostile("relationships.docx", Must::EndBounded);
}

#[test]
fn a_word_file_nested_200_000_deep_is_refused_before_it_is_parsed() {
    hostile("deep.docx", Must::Refuse(&["Word document", "256 deep"]));
}

#[test]
fn an_opendocument_file_nested_200_000_deep_is_refused_before_it_is_parsed() {
    hostile("deep.odt", Must::Refuse(&["OpenDocument", "256 deep"]));
}

#[test]
fn nested_paragraphs_do_not_copy_the_text_below_them() {
    hostile("nested.docx", Must::EndBounded);
}

#[test]
fn a_text_of_adjacent_cdata_sections_is_read_once() {
    hostile("cdata.docx", Must::EndBounded);
}

#[test]
fn a_word_file_of_millions_of_elements_is_refused() {
    hostile("elements.docx", Must::Refuse(&["500,000 XML nodes"]));
}

#[test]
fn an_element_of_200_000_attributes_is_refused_before_it_is_parsed() {
    hostile("attributes.docx", Must::Refuse(&["128 attributes"]));
}

#[test]
fn namespaces_copied_to_each_element_are_refused_before_they_are_parsed() {
    hostile("namespaces.docx", Must::Refuse(&["256 namespaces"]));
}

#[test]
fn a_linkedin_export_of_300_000_columns_is_refused() {
    hostile("wide.zip", Must::Refuse(&["Profile.csv", "columns"]));
}

#[test]
fn a_huge_json_file_is_refused_before_it_is_parsed() {
    hostile("huge.json", Must::Refuse(&["4 MB"]));
}

#[test]
fn a_json_file_of_millions_of_values_is_refused_before_it_is_parsed() {
    hostile("values.json", Must::Refuse(&["values"]));
}

#[test]
fn a_text_of_millions_of_lines_that_place_nowhere_is_refused() {
    hostile("nowhere.txt", Must::Refuse(&["20,000 lines"]));
}
