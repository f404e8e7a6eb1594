//! `cescope extract`: one page, or a batch stream (--input).

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::Result;
use clap::ValueEnum;
use serde_json::json;

use cescope::algorithms::{self, Params};
use cescope::page::{DecodeOptions, Page};

use super::{shown, TextOrJson};

pub(super) fn extract(
    file: PathBuf,
    algo: &str,
    set: &[String],
    format: TextOrJson,
    encoding: Option<String>,
) -> Result<()> {
    let extractor = algorithms::find(algo)?;
    let mut params = Params::defaults(extractor.params());
    for s in set {
        params.set_str(extractor.params(), s)?;
    }
    let opts = DecodeOptions {
        encoding_override: encoding,
        ..Default::default()
    };
    let t0 = Instant::now();
    let page = Page::load(&file, &opts)?;
    let t_load = t0.elapsed();
    let t1 = Instant::now();
    let x = extractor.run(&page, &params);
    let t_run = t1.elapsed();
    let text = page.render(&x.selection);
    let mut warnings: Vec<String> = page.warnings().to_vec();
    warnings.extend(extractor.warnings(&page, &x));
    let mut out = std::io::stdout().lock();
    match format {
        TextOrJson::Text => {
            if !text.is_empty() {
                writeln!(out, "{text}")?;
            }
        }
        TextOrJson::Json => {
            let ranges: Vec<[usize; 2]> = x
                .selection
                .ranges()
                .iter()
                .map(|r| [r.start, r.end])
                .collect();
            let v = json!({
                "file": file.display().to_string(),
                "algo": extractor.name(),
                "params": params,
                "encoding": page.encoding().name(),
                "encoding_source": page.encoding_source(),
                "had_errors": page.had_errors(),
                "warnings": warnings,
                "sha256": page.sha256_hex(),
                "bytes": page.raw().len(),
                "text_bytes": page.text().len(),
                "virtual_lines": page.lines().len(),
                "selection": ranges,
                "selected_bytes": x.selection.len_bytes(),
                "text": text,
                "timing_ms": {
                    "load": t_load.as_secs_f64() * 1e3,
                    "run": t_run.as_secs_f64() * 1e3,
                },
            });
            serde_json::to_writer_pretty(&mut out, &v)?;
            writeln!(out)?;
        }
    }
    for w in &warnings {
        eprintln!("cescope: warning: {w}");
    }
    Ok(())
}

/// Output of `cescope extract --input`.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum BatchOutput {
    /// One extraction record per page: id, url, algo, text, headline?, error?, bytes.
    Jsonl,
    /// The input pages as JSONL page records (id, url, html, gold fields), not extracted.
    Pages,
}

/// `cescope extract --input …`: streams the input through the extractor (or, with `--output
/// pages`, converts it to JSONL pages); records on standard output, the summary on standard
/// error.
#[allow(clippy::too_many_arguments)]
pub(super) fn extract_batch(
    input: &std::path::Path,
    format: Option<cescope::batch::InputFormat>,
    output: BatchOutput,
    threads: Option<u16>,
    unordered: bool,
    headline: Option<&str>,
    algo: &str,
    set: &[String],
    encoding: Option<String>,
) -> Result<()> {
    use cescope::batch::{self, InputFormat, PipelineOptions};
    use std::io::IsTerminal;
    let format = match format.or_else(|| InputFormat::guess(input)) {
        Some(f) => f,
        None => anyhow::bail!(
            "cannot tell the format of {} from its name; give --input-format {}",
            shown(input),
            InputFormat::NAMES.join("|")
        ),
    };
    let extractor = algorithms::find(algo)?;
    let mut params = Params::defaults(extractor.params());
    for s in set {
        params.set_str(extractor.params(), s)?;
    }
    let headline = match headline {
        Some(name) => {
            let f = cescope::headline::find(name)?;
            let p = Params::defaults(f.params());
            Some((f, p))
        }
        None => None,
    };
    let decode = DecodeOptions {
        encoding_override: encoding,
        ..Default::default()
    };
    let mut opts = PipelineOptions::new(threads.map_or(0, usize::from));
    opts.ordered = !unordered;
    let source = batch::open(input, format)?;
    let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    let summary = match output {
        BatchOutput::Jsonl => {
            let job = batch::ExtractJob {
                extractor,
                params,
                headline,
                decode,
            };
            batch::extract_stream(
                source,
                &job,
                &opts,
                &mut out,
                std::io::stderr().is_terminal(),
            )?
        }
        BatchOutput::Pages => batch::pages_stream(source, &decode, &opts, &mut out, &mut |w| {
            eprintln!("cescope: warning: {w}")
        })?,
    };
    eprintln!("cescope: {summary}");
    Ok(())
}
