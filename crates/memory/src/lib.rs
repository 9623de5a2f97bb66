//! The program's memory, counted and capped: the `redline` program's and the app's global allocator
//! ([`Bounded`]), the system's allocator with a count of the bytes it holds, and [`cap`], which a child
//! process that reads a hostile file (a PDF built to inflate to gigabytes) calls first thing, so that an
//! allocation past its bound fails and the reader stops — on every system, whatever allocates. Its own
//! crate: the allocator belongs to the programs, not to any reader.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The system's allocator, counting the bytes it holds for the program, so that [`cap`] can bound them.
/// The `redline` program's and the app's global allocator (`src-tauri/cli.rs`, `src-tauri/main.rs`): an atomic add or subtract for each
/// allocation, no lock.
pub struct Bounded;

static HELD: AtomicUsize = AtomicUsize::new(0);
static CAP: AtomicUsize = AtomicUsize::new(usize::MAX);

/// From now on, the program may hold at most `bytes` more than it holds now: an allocation past that fails
/// (Rust then says "memory allocation of … failed" and stops the program). The reading modes call it
/// first thing, with the importer's `child::memory_limit`.
pub fn cap(bytes: u64) {
    let bytes = usize::try_from(bytes).unwrap_or(usize::MAX);
    CAP.store(
        HELD.load(Ordering::Relaxed).saturating_add(bytes),
        Ordering::Relaxed,
    );
}

/// Counts `n` more bytes held, unless that passes the cap.
fn take(n: usize) -> bool {
    let before = HELD.fetch_add(n, Ordering::Relaxed);
    if before.saturating_add(n) > CAP.load(Ordering::Relaxed) {
        HELD.fetch_sub(n, Ordering::Relaxed);
        return false;
    }
    true
}

/// A new block of `layout`'s size from `allocate`, counted; null, and nothing asked of the system, past the
/// cap.
fn counted(layout: Layout, allocate: impl FnOnce() -> *mut u8) -> *mut u8 {
    if !take(layout.size()) {
        return std::ptr::null_mut();
    }
    let p = allocate();
    if p.is_null() {
        HELD.fetch_sub(layout.size(), Ordering::Relaxed);
    }
    p
}

// Not inlined: each allocation stays a call, as with the system's allocator, rather than its count's atomics
// copied into every place that allocates (0.6 MB more machine code in each binary).
// SAFETY: every call is passed on to the system's allocator unchanged, or answered with null (an allocation
// that failed) before it is made; the count is bookkeeping only.
unsafe impl GlobalAlloc for Bounded {
    #[inline(never)]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's layout, as `GlobalAlloc::alloc` requires.
        counted(layout, || unsafe { System.alloc(layout) })
    }

    #[inline(never)]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as in `alloc`.
        counted(layout, || unsafe { System.alloc_zeroed(layout) })
    }

    #[inline(never)]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from this allocator with `layout`, as the caller promises.
        unsafe { System.dealloc(ptr, layout) };
        HELD.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    #[inline(never)]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let grows = new_size.saturating_sub(layout.size());
        if grows > 0 && !take(grows) {
            return std::ptr::null_mut();
        }
        // SAFETY: the caller's block and sizes, as `GlobalAlloc::realloc` requires.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if p.is_null() {
            HELD.fetch_sub(grows, Ordering::Relaxed);
        } else if new_size < layout.size() {
            HELD.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
        }
        p
    }
}
