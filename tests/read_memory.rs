//! Reading a page never holds more than its limit: a decompression bomb is refused after at
//! most `min(limit, SINGLE_PASS_BYTES) + 1` decompressed bytes, measured with a counting global
//! allocator (peak bytes in live allocations during the call; a reallocation counts its new
//! size, as the system allocator grows large blocks in place or by remapping, without holding
//! both). The bounds allow the decompressor's state and one read chunk on top. One test
//! function, so no other test's allocations run in this process at the same time.

// A counting global allocator needs `unsafe impl GlobalAlloc`: the one place cescope allows
// unsafe code (the `[lints]` table denies it elsewhere; the library forbids it).
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};

use cescope::page::decode::{read_input_limited, SINGLE_PASS_BYTES};
use cescope::Error;

struct Counting;

static IN_USE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded unchanged to the system allocator.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let now = IN_USE.fetch_add(layout.size(), SeqCst) + layout.size();
            PEAK.fetch_max(now, SeqCst);
        }
        p
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded unchanged to the system allocator.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            if new_size >= layout.size() {
                let now =
                    IN_USE.fetch_add(new_size - layout.size(), SeqCst) + new_size - layout.size();
                PEAK.fetch_max(now, SeqCst);
            } else {
                IN_USE.fetch_sub(layout.size() - new_size, SeqCst);
            }
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.dealloc(ptr, layout) };
        IN_USE.fetch_sub(layout.size(), SeqCst);
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Peak heap growth (bytes) while `f` runs, and its result.
fn peak_during<T>(f: impl FnOnce() -> T) -> (usize, T) {
    let base = IN_USE.load(SeqCst);
    PEAK.store(base, SeqCst);
    let out = f();
    (PEAK.load(SeqCst).saturating_sub(base), out)
}

/// A gzip file of `mib` MiB of zeros, as `mib` concatenated 1 MiB members (about 1 KiB each),
/// so building it costs one compression of 1 MiB.
fn bomb(dir: &std::path::Path, mib: usize) -> std::path::PathBuf {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    enc.write_all(&vec![0u8; 1 << 20]).unwrap();
    let member = enc.finish().unwrap();
    let path = dir.join(format!("bomb-{mib}.html.gz"));
    std::fs::write(&path, member.repeat(mib)).unwrap();
    path
}

fn assert_too_large(r: cescope::Result<Vec<u8>>, limit: u64) {
    match r {
        Err(e @ Error::TooLarge { .. }) => {
            let msg = e.to_string();
            assert!(msg.contains("after decompression"), "{msg}");
            assert!(msg.contains(&limit.to_string()), "{msg}");
        }
        other => panic!("expected TooLarge, got {:?}", other.map(|v| v.len())),
    }
}

#[test]
fn bombs_are_refused_within_bounded_memory() {
    let dir = tempfile::tempdir().unwrap();
    // Slack for the decompressor's state (window, tables), the 64 KiB chunk and the path.
    const SLACK: usize = 1 << 20;
    let bound = |held: u64| held as usize + 1 + SLACK;

    // A limit below the single-pass size: at most limit + 1 bytes are held.
    let small = bomb(dir.path(), 64);
    for limit in [100_000u64, 1 << 20] {
        let (peak, r) = peak_during(|| read_input_limited(&small, limit));
        assert_too_large(r, limit);
        assert!(
            peak <= bound(limit),
            "limit {limit}: peak heap {peak} bytes"
        );
    }

    // A limit above the single-pass size: the data past SINGLE_PASS_BYTES is only counted, so
    // the peak stays near SINGLE_PASS_BYTES, well under the limit.
    let limit = SINGLE_PASS_BYTES + (4 << 20);
    let big = bomb(dir.path(), (limit >> 20) as usize + 1);
    let (peak, r) = peak_during(|| read_input_limited(&big, limit));
    assert_too_large(r, limit);
    assert!(
        peak <= bound(SINGLE_PASS_BYTES) && (peak as u64) < limit,
        "limit {limit}: peak heap {peak} bytes"
    );

    // The same file within the limit is read whole (two passes), holding about its size once.
    let fits = ((limit >> 20) + 1) << 20;
    let (peak, r) = peak_during(|| read_input_limited(&big, fits));
    let data = r.expect("within the limit");
    assert_eq!(data.len() as u64, fits);
    assert!(data.iter().all(|&b| b == 0));
    // The second pass fills one buffer of the counted size: no doubling on top of it.
    assert!(peak <= fits as usize + 1 + SLACK, "peak heap {peak} bytes");
}
