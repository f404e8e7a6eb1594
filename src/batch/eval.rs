//! `cescope eval` over JSONL files with gold ([`super::jsonl`] records carrying `articleBody`),
//! streaming: each page is decoded, run through every algorithm and scored on the pipeline, and
//! only its scores are kept — the page itself is dropped once scored, so memory grows with the
//! number of pages times the number of algorithms (a few hundred bytes each), not with the input.
//!
//! The per-page scoring is [`crate::eval::run::score_page`] and the report
//! [`crate::eval::run::report_from`]: the same F1 as the directory form on the same pages.

use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::error::{escape_controls, Result};
use crate::eval::run::{report_from, score_page, site_of, Metric, PageInfo, PageResult, Report};
use crate::extract::{Extractor, Params};
use crate::page::DecodeOptions;
use std::sync::Arc;

use super::{decode_record, InputFormat, PipelineOptions};

/// True for paths `cescope eval` reads as JSONL: names ending in `.jsonl` or `.ndjson`,
/// optionally followed by `.gz`.
pub fn is_jsonl(path: &Path) -> bool {
    path.is_file() && InputFormat::guess(path) == Some(InputFormat::Jsonl)
}

/// The corpus name of a JSONL file: its name without `.gz`, `.jsonl` / `.ndjson`.
pub fn corpus_name(path: &Path) -> String {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string());
    let name = name.strip_suffix(".gz").unwrap_or(&name);
    let name = name
        .strip_suffix(".jsonl")
        .or_else(|| name.strip_suffix(".ndjson"))
        .unwrap_or(name);
    name.to_string()
}

/// Evaluates `algos` on the records with gold of the JSONL files `paths` (each file is a
/// corpus named by [`corpus_name`], made unique with `#2`…), in file then line order, on
/// `opts.threads` workers. Returns the report and the notes: per file, how many records had no
/// gold, and each record that could not be read (bad JSON line, no `html`) — those are skipped
/// since they carry no gold to score against. A page that fails to decode is kept with its
/// error and an empty extract, as in [`crate::eval::run::evaluate`].
///
/// Errors: [`crate::Error::Io`] when a file cannot be opened.
pub fn evaluate_jsonl(
    paths: &[PathBuf],
    algos: &[(Arc<dyn Extractor>, Params)],
    metric: Metric,
    opts: &PipelineOptions,
) -> Result<(Report, Vec<String>)> {
    let t0 = Instant::now();
    let mut per_page: Vec<(PageInfo, Vec<PageResult>)> = Vec::new();
    let mut corpora = Vec::new();
    let mut notes = Vec::new();
    let decode = DecodeOptions::default();
    for path in paths {
        let mut name = corpus_name(path);
        let same = corpora
            .iter()
            .filter(|c: &&String| c.as_str() == name || c.starts_with(&format!("{name}#")));
        let n = same.count();
        if n > 0 {
            name = format!("{name}#{}", n + 1);
        }
        corpora.push(name.clone());
        let source = super::open(path, InputFormat::Jsonl)?;
        let (mut without_gold, mut total) = (0usize, 0usize);
        let work = |rec: super::InputRecord| {
            let Some(gold) = rec.gold.clone() else {
                return Err(rec.body.err());
            };
            let t = Instant::now();
            let loaded = match rec.body {
                Ok(raw) => decode_record(&rec.id, raw, rec.content_type, &decode)
                    .map_err(crate::Error::Corpus),
                Err(why) => Err(crate::Error::Corpus(why)),
            };
            let info = PageInfo {
                corpus: name.clone(),
                id: rec.id,
                path: path.clone(),
                site: site_of(&gold),
                url: gold.url.clone(),
                page_type: gold.page_type.clone(),
                bytes: 0,
                load_ms: t.elapsed().as_secs_f64() * 1e3,
                error: None,
                warnings: Vec::new(),
                js_shell: false,
            };
            Ok(score_page(info, loaded, &gold, None, algos, metric))
        };
        super::pipeline::run(source.records, work, opts, |r| -> std::io::Result<()> {
            total += 1;
            match r {
                Ok(scored) => per_page.push(scored),
                Err(None) => without_gold += 1,
                Err(Some(why)) => {
                    notes.push(escape_controls(&format!("{name}: skipped a record: {why}")))
                }
            }
            Ok(())
        })
        .map_err(|e| crate::Error::io(path, e))?;
        if without_gold > 0 {
            notes.push(format!(
                "{name}: skipped {without_gold} of {total} records without a gold standard \
                 (no articleBody)"
            ));
        }
    }
    let mut report = report_from(metric, corpora, per_page, algos, t0);
    report.threads = opts.threads.max(1);
    Ok((report, notes))
}
