//! `cescope train`: a learned method fitted on gold standards, written as a model file.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{bail, Result};
use clap::Args;

use cescope::learn::folds::Scheme;
use cescope::learn::train::Balance;
use cescope::learn::{self, model, train::table, TrainJob};
use cescope::page::units::UnitKind;

use super::{shown, with_threads};

/// Train a learned extractor on gold standards and write it as a model file (JSON) that
/// `--algo FILE.json` runs wherever an algorithm name works. Methods: `shallow` (a decision
/// tree over Kohlschütter et al. 2010's shallow text features of each block and its
/// neighbours), `svm` (a linear SVM over the same features), `mss` (Naive Bayes token scores
/// over trigram + parent tag and the maximum-scoring subsequence, Pasternack & Roth 2009),
/// `crf` (a linear-chain CRF labelling the blocks as one sequence, Gibson et al. 2007),
/// `stack` (gradient-boosted trees over each block's shallow features, DOM context and the
/// verdicts of cescope's own extractors: the shipped `learned`) and `headline` (a ranker of
/// headline candidates, trained on gold headlines). With `--folds K`, the training pages are
/// first cross-validated grouped by site; with `--folds corpus`, leaving one training corpus
/// out at a time (trained on the others, scored on it); the table is printed and stored in the
/// model. The model itself is always fitted on all training pages. Every method but `mss` is
/// fitted by a learner crate that a build has with `--features train` (`cargo build --release
/// --features train`); the model files run in any build.
#[derive(Debug, Args)]
pub struct TrainArgs {
    /// The learned method (shallow, svm, mss, crf, stack; headline: the headline ranker).
    #[arg(long, short, value_name = "NAME")]
    method: String,
    /// Training corpora: ground-truth.json corpora or folders of pages with cescope gold files
    /// (repeatable; default: the current folder).
    #[arg(long, value_name = "CORPUS", num_args = 1.., default_value = ".")]
    train: Vec<PathBuf>,
    /// Test corpora, scored with the final model (never pages it trained on).
    #[arg(long, value_name = "CORPUS", num_args = 1..)]
    test: Vec<PathBuf>,
    /// Cross-validate first: K folds grouped by site (K ≥ 2), or `corpus` to leave one
    /// training corpus out at a time (needs ≥ 2 corpora; prints a table per left-out corpus and
    /// the leave-one-corpus-out mean).
    #[arg(long, value_name = "K|corpus", value_parser = parse_folds)]
    folds: Option<Scheme>,
    /// With --method stack: the member extractors whose verdicts are features, any registered
    /// extractor names, comma-separated (default: cetd,lqf,bte; `cescope algos` lists them,
    /// the reference extractors readability and trafilatura included).
    #[arg(long, value_name = "A,B,…", value_delimiter = ',')]
    members: Option<Vec<String>>,
    /// With --method stack: unit kinds (`cescope blocks` shows each block's) whose blocks the
    /// fit leaves unlabelled, comma-separated — e.g. comments,caption,supplemental, where
    /// benchmarks' definitions differ: the model learns no definition of them from the gold,
    /// and a guideline (`--guideline`) decides them at extraction (docs/guidelines.md).
    #[arg(long, value_name = "KIND,…", value_delimiter = ',', value_parser = parse_kind)]
    unlabelled: Option<Vec<UnitKind>>,
    /// How each fit weighs its training pages: `pages` (each page the same) or `corpora` (each
    /// training corpus the same, however many pages it has; --method stack only).
    #[arg(long, value_name = "pages|corpora", default_value = "pages", value_parser = parse_balance)]
    balance: Balance,
    /// Seed of every random draw (folds, samples): the same seed gives the same model file.
    #[arg(long, value_name = "N", default_value_t = 1)]
    seed: u64,
    /// The model file to write (replaced atomically if it exists).
    #[arg(long, short, value_name = "MODEL")]
    out: PathBuf,
    /// Worker threads (default: one per core).
    #[arg(long, value_name = "N")]
    threads: Option<u16>,
    /// With --folds: after the table, one CSV line per training page with its cross-validated
    /// score (corpus, id, site, page type, precision, recall, F1), to find the pages the
    /// method gets wrong (with --folds corpus: scored by the model that never saw its corpus).
    #[arg(long, requires = "folds")]
    cv_pages: bool,
}

/// Parses `--balance`: `pages` or `corpora` ([`Balance`]).
fn parse_kind(s: &str) -> std::result::Result<UnitKind, String> {
    UnitKind::from_name(s).ok_or_else(|| {
        format!(
            "unknown unit kind {s:?}; the kinds are {}",
            UnitKind::ALL.map(UnitKind::name).join(", ")
        )
    })
}

fn parse_balance(s: &str) -> std::result::Result<Balance, String> {
    match s.trim().to_ascii_lowercase().as_str() {
        "pages" => Ok(Balance::Pages),
        "corpora" => Ok(Balance::Corpora),
        other => Err(format!("{other:?}: --balance takes pages or corpora")),
    }
}

/// Parses `--folds`: a number of folds or `corpus` ([`Scheme`]).
fn parse_folds(s: &str) -> std::result::Result<Scheme, String> {
    s.parse()
}

/// Runs `cescope train`: checks the method and the output folder, trains on `--threads`
/// threads with a progress bar on standard error (when it is a terminal), prints the
/// cross-validation and test tables on standard output, writes the model file.
pub fn run(args: &TrainArgs) -> Result<()> {
    let t0 = Instant::now();
    let headline = args
        .method
        .trim()
        .eq_ignore_ascii_case(learn::headline::METHOD);
    let method = if headline {
        None
    } else {
        Some(learn::find_method(&args.method)?)
    };
    let dir = match args.out.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    if !dir.is_dir() {
        bail!(
            "--out {}: the folder {} does not exist",
            shown(&args.out),
            shown(&dir)
        );
    }
    if args.out.file_name().is_none() {
        bail!("--out {}: not a file name", shown(&args.out));
    }
    let Some(method) = method else {
        return train_headline(args, t0);
    };
    let job = TrainJob {
        train: args.train.clone(),
        test: args.test.clone(),
        folds: match args.folds {
            Some(Scheme::Sites(k)) => Some(k),
            _ => None,
        },
        loco: args.folds == Some(Scheme::Corpora),
        members: args.members.clone(),
        unlabelled: args
            .unlabelled
            .as_ref()
            .map(|k| k.iter().copied().collect()),
        balance: args.balance,
        seed: args.seed,
        progress: std::io::stderr().is_terminal(),
    };
    let trained = with_threads(args.threads, || method.train(&job))??;
    let mut err = std::io::stderr().lock();
    for n in &trained.notes {
        writeln!(err, "note: {n}")?;
    }
    let mut out = std::io::stdout().lock();
    if let Some(cv) = &trained.cv {
        writeln!(
            out,
            "{} — {}-fold cross-validation grouped by site (word-LCS, macro averages):",
            method.info().name,
            cv.folds
        )?;
        write!(out, "{}", table(cv))?;
        if args.cv_pages {
            write!(out, "{}", learn::train::cv_pages_csv(&trained.cv_pages))?;
        }
    }
    if let Some(loco) = &trained.loco {
        writeln!(
            out,
            "{} — leave-one-corpus-out cross-validation over {} corpora (word-LCS, macro \
             averages):",
            method.info().name,
            loco.folds
        )?;
        write!(out, "{}", learn::train::loco_table(loco))?;
        if args.cv_pages {
            write!(out, "{}", learn::train::cv_pages_csv(&trained.loco_pages))?;
        }
    }
    if let Some(t) = &trained.test {
        writeln!(
            out,
            "{} — test corpora (word-LCS, macro averages):",
            method.info().name
        )?;
        write!(out, "{}", table(t))?;
    }
    model::write(&args.out, &trained.bytes)?;
    writeln!(
        err,
        "wrote {} ({} bytes; {} trained on {} pages) in {:.1} s (reading {:.1} s, fitting \
         {:.1} s{})",
        shown(&args.out),
        trained.bytes.len(),
        method.info().name,
        trained.pages,
        t0.elapsed().as_secs_f64(),
        trained.seconds[0],
        trained.seconds[1],
        fit_times(&trained.fit_seconds, trained.lanes),
    )?;
    Ok(())
}

/// The fits' part of `train`'s closing line: empty for one fit; else how many fits ran, how
/// many at a time, and the wall-clock seconds of the final fit (`seconds[0]`) and of each fold
/// (the rest, in fold order), e.g. `: 4 fits, 2 at a time; final fit 98.1 s, folds 75.3 /
/// 70.2 / 72.0 s`.
fn fit_times(seconds: &[f64], lanes: usize) -> String {
    let Some((final_fit, folds)) = seconds.split_first().filter(|(_, f)| !f.is_empty()) else {
        return String::new();
    };
    let folds: Vec<String> = folds.iter().map(|s| format!("{s:.1}")).collect();
    format!(
        ": {} fits, {lanes} at a time; final fit {final_fit:.1} s, folds {} s",
        seconds.len(),
        folds.join(" / ")
    )
}

/// `cescope train --method headline`: the learned headline ranker ([`learn::headline`]) fitted
/// on every page of `--train` with a gold headline; with `--folds K` first the
/// cross-validation table (exact match, Table 5.3's counts) next to `tf`, `title` and
/// `largest`. `--test` is refused (score a headline model with `eval --headline --algo
/// FILE.json`).
fn train_headline(args: &TrainArgs, t0: Instant) -> Result<()> {
    if args.members.is_some() {
        bail!("--members: the headline ranker has no member extractors (only stack takes members)");
    }
    if args.unlabelled.is_some() {
        bail!("--unlabelled: the headline ranker does not label blocks (only stack takes it)");
    }
    if args.balance != Balance::Pages {
        bail!(
            "--balance: the headline ranker weighs its pages the same (only stack takes --balance)"
        );
    }
    if !args.test.is_empty() {
        bail!(
            "--test is not used by --method headline: score the model with `cescope eval \
             --headline CORPUS --algo MODEL.json`"
        );
    }
    let mut out = std::io::stdout().lock();
    if let Some(scheme) = args.folds {
        let peers = cescope::extractors::resolve_headlines("tf,title,largest")?;
        let report = with_threads(args.threads, || {
            learn::headline::cross_validate_with(&args.train, scheme, args.seed, peers)
        })??;
        match scheme {
            Scheme::Sites(k) => writeln!(
                out,
                "headline — {k}-fold cross-validation grouped by site (exact match):"
            )?,
            Scheme::Corpora => writeln!(
                out,
                "headline — leave-one-corpus-out cross-validation (exact match; each corpus's \
                 rows scored by the ranker fitted on the other corpora):"
            )?,
        }
        write!(out, "{}", report.table(cescope::eval::run::GroupBy::Corpus))?;
    }
    let (m, notes) = with_threads(args.threads, || {
        learn::headline::train(&args.train, args.seed)
    })??;
    for n in &notes {
        writeln!(std::io::stderr().lock(), "note: {n}")?;
    }
    let bytes = m.to_bytes();
    model::write(&args.out, &bytes)?;
    writeln!(
        std::io::stderr().lock(),
        "wrote {} ({} bytes; headline trained on {} pages) in {:.1} s",
        shown(&args.out),
        bytes.len(),
        m.training.corpora.iter().map(|c| c.pages).sum::<usize>(),
        t0.elapsed().as_secs_f64()
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::fit_times;

    #[test]
    fn the_fit_times_name_the_final_fit_and_each_fold() {
        assert_eq!(fit_times(&[], 2), "");
        assert_eq!(fit_times(&[80.0], 1), "");
        assert_eq!(
            fit_times(&[98.14, 75.3, 70.24, 72.0], 2),
            ": 4 fits, 2 at a time; final fit 98.1 s, folds 75.3 / 70.2 / 72.0 s"
        );
    }
}
