//! The streaming parallel pipeline: a reader thread → bounded channel → rayon workers → the
//! caller's sink (the writer), with at most `window` records in flight.
//!
//! Memory is constant in the input size: the reader takes a permit before it hands a record on
//! and the writer gives it back once the record's result has been written, so at most
//! [`PipelineOptions::window`] records (input or result) exist at any time, whatever the input's
//! length. In ordered mode the writer keeps early results in a reorder buffer until the results
//! before them are written; the permits bound that buffer too (the record the writer waits for is
//! always among those in flight, so the window never deadlocks).

use std::collections::BTreeMap;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::sync_channel;
use std::sync::{Condvar, Mutex};

use rayon::iter::{ParallelBridge, ParallelIterator};

/// How [`run`] schedules the work.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PipelineOptions {
    /// Worker threads (rayon); at least 1.
    pub threads: usize,
    /// Keep input order in the output (default). `false` writes results as they finish.
    pub ordered: bool,
    /// Most records in flight (read but not yet written), unit: records; at least 1. It bounds
    /// memory: about `window ×` (largest record + its result).
    pub window: usize,
}

impl PipelineOptions {
    /// `threads` workers (0 means one per core), ordered, window `max(16, 8 × threads)`.
    pub fn new(threads: usize) -> PipelineOptions {
        let threads = if threads == 0 {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        } else {
            threads
        };
        PipelineOptions {
            threads,
            ordered: true,
            window: (8 * threads).max(16),
        }
    }
}

/// A counting semaphore whose waiters also give up when `stop` is set.
struct Permits {
    free: Mutex<usize>,
    cv: Condvar,
}

impl Permits {
    fn acquire(&self, stop: &AtomicBool) -> bool {
        let mut free = self.free.lock().unwrap_or_else(|e| e.into_inner());
        while *free == 0 && !stop.load(Ordering::Relaxed) {
            free = self.cv.wait(free).unwrap_or_else(|e| e.into_inner());
        }
        if stop.load(Ordering::Relaxed) {
            return false;
        }
        *free -= 1;
        true
    }

    fn release(&self) {
        *self.free.lock().unwrap_or_else(|e| e.into_inner()) += 1;
        self.cv.notify_one();
    }

    fn wake_all(&self) {
        let _guard = self.free.lock().unwrap_or_else(|e| e.into_inner());
        self.cv.notify_all();
    }
}

/// Runs `work` on every item of `input` on `opts.threads` rayon workers and hands each result
/// to `sink` on the calling thread, in input order when `opts.ordered`, else as they finish.
///
/// `input` is pulled on its own thread, one item at a time, only while fewer than
/// `opts.window` items are in flight. When `sink` fails, reading stops, the items in flight are
/// finished and dropped, and the sink's first error is returned. `work` should not panic: if it
/// does, reading stops, the pipeline winds down, and the first panic is raised again here.
///
/// Errors: the sink's error; [`std::io::Error`] of kind `Other` when the worker threads cannot
/// be started.
pub fn run<I, O, W, S, E>(input: I, work: W, opts: &PipelineOptions, mut sink: S) -> Result<(), E>
where
    I: Iterator + Send,
    I::Item: Send,
    O: Send,
    W: Fn(I::Item) -> O + Sync,
    S: FnMut(O) -> Result<(), E>,
    E: From<std::io::Error>,
{
    let threads = opts.threads.max(1);
    let window = opts.window.max(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("cescope-batch-{i}"))
        .build()
        .map_err(|e| E::from(std::io::Error::other(e.to_string())))?;
    let permits = Permits {
        free: Mutex::new(window),
        cv: Condvar::new(),
    };
    let stop = AtomicBool::new(false);
    let (tx_in, rx_in) = sync_channel::<(u64, I::Item)>(window);
    let (tx_out, rx_out) = sync_channel::<(u64, O)>(window);
    let work = &work;
    let panicked: Mutex<Option<Box<dyn std::any::Any + Send>>> = Mutex::new(None);
    let (permits, stop, panicked) = (&permits, &stop, &panicked);
    let result = std::thread::scope(|s| {
        s.spawn(move || {
            for (i, item) in input.enumerate() {
                if !permits.acquire(stop) || tx_in.send((i as u64, item)).is_err() {
                    break;
                }
            }
        });
        s.spawn(move || {
            pool.install(|| {
                rx_in
                    .into_iter()
                    .par_bridge()
                    .for_each_with(tx_out, |tx, (i, item)| {
                        match std::panic::catch_unwind(AssertUnwindSafe(|| work(item))) {
                            Ok(out) => {
                                let _ = tx.send((i, out));
                            }
                            Err(payload) => {
                                // Stop reading so the other workers drain and finish; the
                                // panic is raised again once the pipeline has wound down.
                                let mut slot = panicked.lock().unwrap_or_else(|e| e.into_inner());
                                slot.get_or_insert(payload);
                                stop.store(true, Ordering::Relaxed);
                                permits.wake_all();
                            }
                        }
                    })
            })
        });
        let mut result: Result<(), E> = Ok(());
        let mut pending: BTreeMap<u64, O> = BTreeMap::new();
        let mut next = 0u64;
        for (i, out) in rx_out {
            if result.is_err() {
                permits.release();
                continue;
            }
            if opts.ordered {
                pending.insert(i, out);
                while let Some(out) = pending.remove(&next) {
                    next += 1;
                    result = sink(out);
                    permits.release();
                    if result.is_err() {
                        break;
                    }
                }
                // Results parked behind a failed write are dropped; give their permits back.
                if result.is_err() {
                    for _ in 0..pending.len() {
                        permits.release();
                    }
                    pending.clear();
                }
            } else {
                result = sink(out);
                permits.release();
            }
            if result.is_err() {
                stop.store(true, Ordering::Relaxed);
                permits.wake_all();
            }
        }
        // All workers are gone (done, or a panic in `work` that the scope re-raises): a reader
        // still waiting for a permit must not wait for ever.
        stop.store(true, Ordering::Relaxed);
        permits.wake_all();
        result
    });
    if let Some(payload) = panicked.lock().unwrap_or_else(|e| e.into_inner()).take() {
        std::panic::resume_unwind(payload);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    fn collect(n: u64, opts: &PipelineOptions) -> Vec<u64> {
        let mut out = Vec::new();
        run(
            0..n,
            |i| {
                // Uneven work so results finish out of order.
                if i % 7 == 0 {
                    std::thread::sleep(std::time::Duration::from_millis(2));
                }
                i * 10
            },
            opts,
            |o| -> Result<(), std::io::Error> {
                out.push(o);
                Ok(())
            },
        )
        .unwrap();
        out
    }

    #[test]
    fn ordered_keeps_input_order_with_several_threads() {
        let opts = PipelineOptions {
            threads: 3,
            ordered: true,
            window: 4,
        };
        let want: Vec<u64> = (0..200).map(|i| i * 10).collect();
        assert_eq!(collect(200, &opts), want);
    }

    #[test]
    fn unordered_gives_the_same_set() {
        let opts = PipelineOptions {
            threads: 3,
            ordered: false,
            window: 8,
        };
        let mut got = collect(200, &opts);
        got.sort_unstable();
        let want: Vec<u64> = (0..200).map(|i| i * 10).collect();
        assert_eq!(got, want);
    }

    #[test]
    fn in_flight_never_exceeds_the_window() {
        use std::sync::atomic::AtomicUsize;
        let live = AtomicUsize::new(0);
        let peak = AtomicUsize::new(0);
        let opts = PipelineOptions {
            threads: 2,
            ordered: true,
            window: 5,
        };
        // Count an item as live from the moment the reader produces it to when it is written.
        let input = (0..300u64).inspect(|_| {
            let now = live.fetch_add(1, Ordering::SeqCst) + 1;
            peak.fetch_max(now, Ordering::SeqCst);
        });
        run(
            input,
            |i| i,
            &opts,
            |_| -> Result<(), std::io::Error> {
                live.fetch_sub(1, Ordering::SeqCst);
                Ok(())
            },
        )
        .unwrap();
        // The reader may hold one item while it waits for a permit.
        assert!(peak.load(Ordering::SeqCst) <= 6, "{peak:?}");
    }

    #[test]
    fn a_failing_sink_stops_the_reader() {
        let read = std::sync::atomic::AtomicU64::new(0);
        let input = (0..1_000_000u64).inspect(|_| {
            read.fetch_add(1, Ordering::SeqCst);
        });
        let opts = PipelineOptions {
            threads: 2,
            ordered: true,
            window: 4,
        };
        let mut n = 0;
        let r = run(
            input,
            |i| i,
            &opts,
            |_| {
                n += 1;
                if n == 10 {
                    Err(std::io::Error::other("closed"))
                } else {
                    Ok(())
                }
            },
        );
        assert!(r.is_err());
        assert!(read.load(Ordering::SeqCst) < 100);
    }

    #[test]
    fn a_panicking_worker_is_propagated_not_a_hang() {
        let opts = PipelineOptions {
            threads: 2,
            ordered: true,
            window: 2,
        };
        let r = std::panic::catch_unwind(|| {
            run(
                0..1000u64,
                |i| {
                    assert!(i != 3, "boom");
                    i
                },
                &opts,
                |_| -> Result<(), std::io::Error> { Ok(()) },
            )
        });
        assert!(r.is_err());
    }
}
