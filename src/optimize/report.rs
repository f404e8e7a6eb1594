//! The optimiser's output: the table of the best individuals (Gottron 2009, Table 2), JSON,
//! the test-corpus scores and the winner written as a `--set` list or a set file.

use std::path::Path;
use std::sync::Arc;

use serde::Serialize;
use serde_json::{json, Value};

use super::*;
use crate::error::Result;
use crate::eval::run::EvalPage;
use crate::extract::{Extractor, Params};

// ---------------------------------------------------------------------------------------------
// Output
// ---------------------------------------------------------------------------------------------

/// Test-corpus F1 of the best individual and of the defaults.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TestScore {
    /// Corpus name.
    pub corpus: String,
    /// Pages with a gold standard.
    pub pages: usize,
    /// Mean word-LCS F1 of the best individual.
    pub best: f64,
    /// Mean word-LCS F1 of the injected defaults.
    pub defaults: f64,
}

/// Scores the best individual and the injected defaults of `outcome` on `pages` (one test
/// corpus, from [`crate::eval::run::gather_with`]) with `cescope eval`'s own evaluation
/// ([`crate::eval::run::evaluate`], word measure), `corpus` naming it.
pub fn test_score<S: SearchSpace>(
    space: &S,
    outcome: &Outcome<S::Individual>,
    corpus: &str,
    pages: &[EvalPage],
) -> TestScore {
    use crate::eval::run::{evaluate, Metric};
    let best = space.configure(&outcome.best().individual);
    let defaults = outcome
        .injected()
        .map(|t| space.configure(&t.individual))
        .unwrap_or_else(|| best.clone());
    let algos: Vec<(Arc<dyn Extractor>, Params)> = vec![best, defaults];
    let rep = evaluate(pages, &algos, Metric::Word, false);
    TestScore {
        corpus: corpus.to_string(),
        pages: rep.pages.len(),
        best: rep.overall(0).f1,
        defaults: rep.overall(1).f1,
    }
}

/// The top `top` individuals like Gottron 2009, Table 2 (rank, one column per gene, train F1),
/// then the defaults' train F1, the number of distinct evaluations, generations and the stop
/// reason, and `tests` (F1 per test corpus, best vs defaults). Plain text, aligned columns.
pub fn table<S: SearchSpace>(
    space: &S,
    outcome: &Outcome<S::Individual>,
    top: usize,
    tests: &[TestScore],
) -> String {
    let names = space.gene_names();
    let mut rows: Vec<Vec<String>> = Vec::new();
    let mut head = vec!["rank".to_string()];
    head.extend(names.iter().cloned());
    head.push("train F1".to_string());
    head.push("gen".to_string());
    rows.push(head);
    for (r, &i) in outcome.ranking.iter().take(top).enumerate() {
        let t = &outcome.tried[i];
        let mut row = vec![format!("{}", r + 1)];
        row.extend(space.values(&t.individual));
        row.push(format!("{:.4}", t.fitness));
        row.push(format!(
            "{}{}",
            t.generation,
            if t.injected { " (defaults)" } else { "" }
        ));
        rows.push(row);
    }
    let widths: Vec<usize> = (0..rows[0].len())
        .map(|c| {
            rows.iter()
                .map(|r| r.get(c).map_or(0, |s| s.chars().count()))
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut s = String::new();
    for r in &rows {
        let cells: Vec<String> = r
            .iter()
            .enumerate()
            .map(|(c, v)| format!("{v:>w$}", w = widths[c]))
            .collect();
        s.push_str(cells.join("  ").trim_end());
        s.push('\n');
    }
    let best = outcome.best();
    s.push_str(&format!(
        "\nbest:     {}  train F1 {:.4}\n",
        space.describe(&best.individual),
        best.fitness
    ));
    if let Some(d) = outcome.injected() {
        let rank = outcome
            .ranking
            .iter()
            .position(|&i| outcome.tried[i].individual == d.individual)
            .map_or(0, |r| r + 1);
        s.push_str(&format!(
            "defaults: {}  train F1 {:.4} (rank {rank})\n",
            space.describe(&d.individual),
            d.fitness
        ));
    }
    s.push_str(&format!(
        "{} distinct evaluations in {} generations; stopped: {}\n",
        outcome.evaluations(),
        outcome.history.len(),
        match outcome.stop {
            StopReason::NoImprovement => "no improvement",
            StopReason::MaxGenerations => "--max-generations reached",
            StopReason::Exhausted => "no new individual could be drawn",
        }
    ));
    if !tests.is_empty() {
        let w = tests
            .iter()
            .map(|t| t.corpus.chars().count())
            .max()
            .unwrap_or(0)
            .max(11);
        s.push_str(&format!(
            "\n{:<w$}  {:>5}  {:>8}  {:>8}  {:>7}\n",
            "test corpus", "pages", "best F1", "default", "diff"
        ));
        for t in tests {
            s.push_str(&format!(
                "{:<w$}  {:>5}  {:>8.4}  {:>8.4}  {:>+7.4}\n",
                t.corpus,
                t.pages,
                t.best,
                t.defaults,
                t.best - t.defaults
            ));
        }
    }
    s
}

/// The outcome as JSON: options, genes, every individual tried (values, setting, fitness,
/// generation, injected) in evaluation order, the ranking (indices into `tried`), history,
/// best and defaults, and `tests`.
pub fn to_json<S: SearchSpace>(
    space: &S,
    outcome: &Outcome<S::Individual>,
    opts: &GaOptions,
    tests: &[TestScore],
) -> Value {
    let item = |t: &Tried<S::Individual>| {
        json!({
            "values": space.values(&t.individual),
            "setting": space.describe(&t.individual),
            "fitness": t.fitness,
            "generation": t.generation,
            "injected": t.injected,
        })
    };
    json!({
        "options": opts,
        "genes": space.gene_names(),
        "evaluations": outcome.evaluations(),
        "generations": outcome.history.len(),
        "stop": outcome.stop,
        "best": item(outcome.best()),
        "defaults": outcome.injected().map(item),
        "history": outcome.history,
        "ranking": outcome.ranking,
        "tried": outcome.tried.iter().map(item).collect::<Vec<_>>(),
        "tests": tests,
    })
}

/// Writes [`SearchSpace::out_file`] of the best individual to `path` atomically: for a
/// [`ParamSpace`] command-line arguments (`--algo NAME --set NAME=VALUE …`) that `cescope eval
/// CORPUS $(cat FILE)` or `cescope extract PAGE $(cat FILE)` take; for a [`SetSpace`] a
/// filter-set TOML file that `--algo FILE` runs. Errors: [`Error::Write`].
pub fn write_best<S: SearchSpace>(
    space: &S,
    outcome: &Outcome<S::Individual>,
    path: &Path,
) -> Result<()> {
    let text = space.out_file(&outcome.best().individual);
    let opts = crate::fsio::write::WriteOptions::default();
    crate::fsio::write::write_bytes(path, &opts, text.as_bytes())?;
    Ok(())
}

/// Whether this build draws the SVG plot (the `plots` cargo feature).
pub const PLOTS: bool = cfg!(feature = "plots");
