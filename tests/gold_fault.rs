//! Saving a gold file survives SIGKILL at any moment: a writer process is killed 30 times at
//! random phases of its saves, and the file is always absent or a complete version.
//!
//! The writer is this test binary started again, not a `#[test]`: the target has `harness =
//! false` (`Cargo.toml`) and its `main` is the writer when [`WRITER_ENV`] is set, else the test
//! runner (libtest-mimic, so `cargo test` filters, `--list` and `--ignored` work as for any test
//! target). A writer written as a `#[test]` that returns at once without the variable was
//! counted as a passing test that checked nothing.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use libtest_mimic::{Arguments, Trial};

use cescope::gold::{self, save, Gold, SaveMode};
use cescope::page::Page;

fn main() {
    if let Ok(spec) = std::env::var(WRITER_ENV) {
        writer(&spec);
        return;
    }
    let args = Arguments::from_args();
    let trials = vec![Trial::test("sigkill_never_leaves_a_truncated_file", || {
        sigkill_never_leaves_a_truncated_file();
        Ok(())
    })];
    libtest_mimic::run(&args, trials).exit();
}

/// Set (to `BASE:PATH`) in the environment of a writer process.
const WRITER_ENV: &str = "CESCOPE_GOLD_FAULT_WRITER";
/// What the writer prints once its first save is done.
const READY: &str = "cescope-gold-writer-ready";

/// Version `k` of the large gold file the writer saves: about 0.6 MB of JSON.
fn version(k: u64) -> Gold {
    let text: String = (0..10_000).map(|i| format!("w{k}x{i} ")).collect();
    let page = Page::from_text("big.html", format!("<p>{text}</p>"));
    let mut g = Gold::new(&page, "writer");
    g.main_content.ranges = (0..10_000).map(|i| [i * 7 + 3, i * 7 + 8]).collect();
    g.main_content.text = text;
    g.notes = format!("version {k}");
    g.created = "2024-01-01T00:00:00Z".into();
    g.modified = "2024-01-01T00:00:00Z".into();
    g
}

/// The child side of [`sigkill_never_leaves_a_truncated_file`] (this binary started again with
/// [`WRITER_ENV`] = `BASE:PATH`): saves versions `BASE` and `BASE + 1` of a large gold file in
/// turn to `PATH` until it is killed (or 20 s have passed). It says it is ready after its first
/// save, so the parent's kills land in later saves, at random phases.
fn writer(spec: &str) {
    let (base, path) = spec.split_once(':').expect("BASE:PATH");
    let base: u64 = base.parse().unwrap();
    let path = PathBuf::from(path);
    // Prepare a few versions up front, so the loop is all writing.
    let versions: Vec<Gold> = (0..2).map(|k| version(base + k)).collect();
    if base == 0 {
        // The very first round is killed before any save can complete.
        println!("{READY}");
        std::thread::sleep(Duration::from_secs(20));
    }
    save(&path, &versions[0], SaveMode::Overwrite).unwrap();
    println!("{READY}");
    // Bounded, so that a writer whose parent died does not run forever.
    let until = Instant::now() + Duration::from_secs(20);
    let mut k = 0;
    while Instant::now() < until {
        save(
            &path,
            &versions[(k + 1) % versions.len()],
            SaveMode::Overwrite,
        )
        .unwrap();
        k += 1;
    }
}

/// The next number of a xorshift64 sequence: the random kill delays, seeded from the clock.
fn xorshift(seed: &mut u64) -> u64 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    *seed
}

/// Kills a writer 30 times at random moments (1–30 ms after its first save): the gold file is
/// always absent (before the first save) or one complete version, never a truncated one.
fn sigkill_never_leaves_a_truncated_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.json");
    let exe = std::env::current_exe().unwrap();
    let mut seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos() as u64
        | 1;
    let started = Instant::now();
    let (mut seen, mut absent, mut mid_write, mut tmp_files) = (0, 0, 0, 0);
    for round in 0..30u64 {
        let base = round * 2;
        let mut child = Command::new(&exe)
            .env(WRITER_ENV, format!("{base}:{}", path.display()))
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // Wait for the writer to be ready; never hang: give up after 20 s.
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if line.contains(READY) {
                    let _ = tx.send(());
                }
            }
        });
        if rx.recv_timeout(Duration::from_secs(20)).is_err() {
            let _ = child.kill();
            let _ = child.wait();
            panic!("round {round}: the writer did not start");
        }
        let ms = 1 + xorshift(&mut seed) % 30;
        std::thread::sleep(Duration::from_millis(ms));
        child.kill().unwrap(); // SIGKILL on Unix
        child.wait().unwrap();
        // A new stale temp file: the kill landed between creating the temp file and renaming it.
        let tmps = std::fs::read_dir(dir.path())
            .unwrap()
            .filter(|e| {
                let n = e
                    .as_ref()
                    .unwrap()
                    .file_name()
                    .to_string_lossy()
                    .into_owned();
                n.starts_with(".big.json.") && n.ends_with(".tmp")
            })
            .count();
        if tmps > tmp_files {
            mid_write += 1;
        }
        tmp_files = tmps;
        match std::fs::read(&path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                assert_eq!(seen, 0, "the file disappeared after round {round}");
                absent += 1;
            }
            Err(e) => panic!("{e}"),
            Ok(bytes) => {
                let g = gold::parse(&path, &bytes)
                    .unwrap_or_else(|e| panic!("round {round} (killed after {ms} ms): {e}"));
                let k: u64 = g
                    .notes
                    .strip_prefix("version ")
                    .and_then(|n| n.parse().ok())
                    .expect("a version note");
                assert!(k < base + 2, "round {round}: version {k} was never written");
                assert_eq!(g, version(k), "round {round}: version {k} differs");
                seen += 1;
            }
        }
    }
    eprintln!(
        "fault test: 30 kills, {seen} complete files, {absent} before the first save, \
         {mid_write} kills between temp file creation and rename, {:.1} s",
        started.elapsed().as_secs_f64()
    );
    assert_eq!((absent, seen), (1, 29));
    // Only the file itself and possibly stale temp files of killed writers remain.
    for e in std::fs::read_dir(dir.path()).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().into_owned();
        assert!(
            name == "big.json" || (name.starts_with(".big.json.") && name.ends_with(".tmp")),
            "{name}"
        );
    }
}
