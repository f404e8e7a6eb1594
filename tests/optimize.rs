//! `cescope optimize` and `cescope bench --fitness` from the command line: errors are one
//! clear line, a run on the sample pages reports a best setting at least as fit as the
//! defaults, writes a reusable `--out` file and the plot, and is the same for the same seed.

use std::process::Command;

fn cescope() -> Command {
    Command::new(env!("CARGO_BIN_EXE_cescope"))
}

const SAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/sample-pages");

fn error_line(args: &[&str]) -> String {
    let out = cescope().args(args).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{args:?}");
    let err = String::from_utf8(out.stderr).unwrap();
    let errors: Vec<&str> = err
        .lines()
        .filter(|l| l.starts_with("cescope: error:"))
        .collect();
    assert_eq!(errors.len(), 1, "{args:?}: {err}");
    assert_eq!(err.lines().last(), Some(errors[0]), "the error comes last");
    errors[0].to_string()
}

#[test]
fn bad_input_is_one_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().display().to_string();
    let e = error_line(&["optimize", "--algo", "nope", "--train", SAMPLES]);
    assert!(e.contains("unknown algorithm \"nope\""), "{e}");
    // An empty directory is no corpus.
    let e = error_line(&["optimize", "--algo", "lqf", "--train", &d]);
    assert!(e.contains("corpus"), "{e}");
    // Pages without gold standards.
    std::fs::write(dir.path().join("a.html"), "<p>one page, no gold</p>").unwrap();
    let e = error_line(&["optimize", "--algo", "lqf", "--train", &d]);
    assert!(e.contains("no page with a gold standard"), "{e}");
    let e = error_line(&[
        "optimize", "--algo", "lqf", "--train", SAMPLES, "--test", &d,
    ]);
    assert!(
        e.contains("no page with a gold standard in the test corpus"),
        "{e}"
    );
    let e = error_line(&["optimize", "--algo", "plain", "--train", SAMPLES]);
    assert!(e.contains("no parameter to optimise"), "{e}");
    let e = error_line(&[
        "optimize", "--algo", "lqf", "--only", "gap", "--train", SAMPLES,
    ]);
    assert!(e.contains("lqf: unknown parameter \"gap\""), "{e}");
    let e = error_line(&[
        "optimize",
        "--algo",
        "lqf",
        "--train",
        SAMPLES,
        "--population",
        "1",
    ]);
    assert!(e.contains("--population"), "{e}");
    let e = error_line(&["bench", SAMPLES, "--algo", "nope", "--fitness", "3"]);
    assert!(e.contains("unknown algorithm"), "{e}");
    // Without --algo or --filter-set: a usage error.
    let out = cescope()
        .args(["optimize", "--train", SAMPLES])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

fn run_json(seed: &str, threads: &str, extra: &[&str]) -> serde_json::Value {
    let mut args = vec![
        "optimize",
        "--algo",
        "lqf",
        "--train",
        SAMPLES,
        "--population",
        "6",
        "--generations",
        "2",
        "--max-generations",
        "4",
        "--seed",
        seed,
        "--threads",
        threads,
        "--format",
        "json",
    ];
    args.extend_from_slice(extra);
    let out = cescope().args(&args).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn a_run_reports_the_best_and_the_defaults_and_writes_out_and_plot() {
    let dir = tempfile::tempdir().unwrap();
    let out_file = dir.path().join("best.args");
    let plot = dir.path().join("tried.svg");
    let j = run_json(
        "5",
        "2",
        &[
            "--test",
            SAMPLES,
            "--out",
            out_file.to_str().unwrap(),
            "--plot",
            plot.to_str().unwrap(),
        ],
    );
    let best = j["best"]["fitness"].as_f64().unwrap();
    let defaults = &j["defaults"];
    assert_eq!(defaults["generation"], 0);
    assert_eq!(defaults["injected"], true);
    assert!(best >= defaults["fitness"].as_f64().unwrap());
    let tried = j["tried"].as_array().unwrap();
    assert_eq!(tried.len(), j["evaluations"].as_u64().unwrap() as usize);
    assert!(tried.iter().all(|t| t["fitness"].as_f64().unwrap() <= best));
    // Trained and tested on the same pages: the test F1 is the train F1.
    let test = &j["tests"][0];
    assert!((test["best"].as_f64().unwrap() - best).abs() < 1e-12);
    // The --out file is command-line arguments that eval takes and that give the same F1.
    let args = std::fs::read_to_string(&out_file).unwrap();
    assert!(args.starts_with("--algo lqf --set "), "{args}");
    assert_eq!(
        args,
        format!("{}\n", j["best"]["setting"].as_str().unwrap())
    );
    let mut eval = cescope();
    eval.args(["eval", SAMPLES, "--format", "json"]);
    eval.args(args.split_whitespace());
    let out = eval.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rep: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let text = rep.to_string();
    assert!(
        text.contains(&format!("{best}")),
        "eval gives the train F1 {best}"
    );
    let svg = std::fs::read_to_string(&plot).unwrap();
    assert!(svg.starts_with("<svg") || svg.starts_with("<?xml"));
    assert!(svg.contains("configurations tried"));
}

#[test]
fn same_seed_same_run_with_one_or_two_threads() {
    let a = run_json("21", "1", &[]);
    let b = run_json("21", "2", &[]);
    assert_eq!(a["tried"], b["tried"]);
    assert_eq!(a["history"], b["history"]);
}

#[test]
fn bench_fitness_counts_what_it_ran() {
    let out = cescope()
        .args([
            "bench",
            SAMPLES,
            "--algo",
            "lqf",
            "--fitness",
            "7",
            "-f",
            "json",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(j["bench"]["evaluations"], 7);
    let distinct = j["bench"]["distinct"].as_u64().unwrap();
    assert!((1..=7).contains(&distinct));
    assert!(j["bench"]["pages"].as_u64().unwrap() >= 5);
}

#[test]
fn set_search_writes_a_set_file_that_algo_runs() {
    let dir = tempfile::tempdir().unwrap();
    let out_file = dir.path().join("best.toml");
    let out = cescope()
        .args([
            "optimize",
            "--search-sets",
            "--candidates",
            "bte,lqf",
            "--max-members",
            "2",
            "--train",
            SAMPLES,
            "--population",
            "5",
            "--generations",
            "1",
            "--max-generations",
            "3",
            "--format",
            "json",
            "--out",
            out_file.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(j["genes"][0], "members");
    let best = j["best"]["fitness"].as_f64().unwrap();
    let toml = std::fs::read_to_string(&out_file).unwrap();
    assert!(toml.contains("[[member]]"), "{toml}");
    let out = cescope()
        .args(["eval", SAMPLES, "--format", "json", "--algo"])
        .arg(&out_file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rep: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        rep.to_string().contains(&format!("{best}")),
        "eval gives the train F1 {best}"
    );
    let e = error_line(&[
        "optimize",
        "--search-sets",
        "--candidates",
        "nope",
        "--train",
        SAMPLES,
    ]);
    assert!(e.contains("unknown algorithm"), "{e}");
}

#[test]
fn filter_set_search_tunes_the_members_parameters() {
    let dir = tempfile::tempdir().unwrap();
    let set = dir.path().join("lqf_bte.toml");
    std::fs::write(
        &set,
        "name = \"lqf_bte\"\ncombine = \"serial\"\n\n[[member]]\nalgo = \"lqf\"\n\n[[member]]\nalgo = \"bte\"\n",
    )
    .unwrap();
    let out = cescope()
        .args(["optimize", "--filter-set"])
        .arg(&set)
        .args([
            "--train",
            SAMPLES,
            "--population",
            "4",
            "--generations",
            "1",
            "--max-generations",
            "2",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let genes: Vec<&str> = j["genes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g.as_str().unwrap())
        .collect();
    assert!(genes.contains(&"1.t"), "{genes:?}");
    let setting = j["best"]["setting"].as_str().unwrap();
    assert!(setting.contains("--set 1.t="), "{setting}");
    assert!(
        setting.starts_with(&format!("--algo {} ", set.display())),
        "the set file, which --algo reads again: {setting}"
    );
}
