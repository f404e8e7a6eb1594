//! `cescope extract`: one page, or a batch stream (`--input`).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result};
use clap::{Args, ValueEnum};
use serde_json::json;

use cescope::extract::Params;

use cescope::batch::InputFormat;
use cescope::extractors::DEFAULT_ALGORITHM;
use cescope::extractors::DEFAULT_HEADLINE;
use cescope::guideline::guided;
use cescope::page::{Format, Page, RenderOptions};

use super::{named, shown, PageArgs};

/// Extract the main content of one page (`-` reads standard input; .gz is read transparently),
/// or stream many with --input: WARC, JSONL or a directory of pages, one JSONL record out per
/// page (id, url, algo, text, headline?, error?, bytes), on all cores, constant memory. The
/// content is plain text, or with --format markdown|html its structure kept (headings, lists,
/// tables, code blocks, quotes) as Markdown or clean HTML.
#[derive(Debug, Args)]
pub struct ExtractArgs {
    /// The page: a path, `-` for standard input.
    #[arg(required_unless_present = "input", conflicts_with = "input")]
    file: Option<PathBuf>,
    /// Batch input: a WARC (.warc, .warc.gz) or JSONL (.jsonl, .jsonl.gz) file, `-` for
    /// standard input, or a directory of pages.
    #[arg(long, value_name = "FILE|DIR|-")]
    input: Option<PathBuf>,
    /// Format of --input (default: guessed from its name; required for `-`).
    #[arg(long, value_name = "FORMAT", requires = "input", value_parser = named::<InputFormat>(&InputFormat::NAMES))]
    input_format: Option<InputFormat>,
    /// Batch output: `jsonl` (one extraction record per page) or `pages` (the input as JSONL
    /// pages {id, url, html, gold fields}, no extraction: a corpus or WARC turned into the
    /// JSONL that `cescope eval` and Spark read).
    #[arg(long, value_enum, default_value = "jsonl", requires = "input")]
    output: BatchOutput,
    /// Batch: worker threads (default: one per core).
    #[arg(long, value_name = "N", requires = "input", value_parser = clap::value_parser!(u16).range(1..))]
    threads: Option<u16>,
    /// Batch: write records as they finish instead of in input order.
    #[arg(long, requires = "input")]
    unordered: bool,
    /// Batch: also find each page's headline with this finder (see `cescope algos`; without a
    /// name the shipped learned ranker, `learned`).
    #[arg(long, value_name = "FINDER", requires = "input", num_args = 0..=1, default_missing_value = DEFAULT_HEADLINE)]
    headline: Option<String>,
    /// Algorithm name (see `cescope algos`).
    #[arg(long, short, default_value = DEFAULT_ALGORITHM)]
    algo: String,
    /// Finish the extract with this guideline: add or remove whole units (headline, bylines,
    /// captions, comments, posts, …) as it decides (a preset name or a TOML file, see
    /// `cescope guideline list`).
    #[arg(long, value_name = "NAME|FILE")]
    guideline: Option<String>,
    /// Output format: text (one line per line of content), json (one page: the text with the
    /// selection, parameters, encoding and timing), markdown (GitHub-flavoured: headings,
    /// lists, tables, fenced code) or html (the selected elements, cleaned). With --input the
    /// records' `text` takes the form (json is text there).
    #[arg(long, short, value_enum, default_value = "text")]
    format: ExtractFormat,
    /// Keep links (markdown, html): [text](href) instead of the text alone.
    #[arg(long)]
    links: bool,
    /// Keep images (markdown, html): ![alt](src) where they lie in the content.
    #[arg(long)]
    images: bool,
    /// --set, --encoding, --scripting.
    #[command(flatten)]
    page: PageArgs,
}

/// `--format` of `cescope extract`.
// No doc comments on the variants: clap would show them as the values' help.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ExtractFormat {
    Text,
    Json,
    Markdown,
    Html,
}

impl ExtractArgs {
    /// The library form of the content (`json` carries plain text) and the links / images
    /// options. Errors: --links or --images with a format that cannot show them.
    fn rendering(&self) -> Result<(Format, RenderOptions)> {
        let format = match self.format {
            ExtractFormat::Text | ExtractFormat::Json => Format::Text,
            ExtractFormat::Markdown => Format::Markdown,
            ExtractFormat::Html => Format::Html,
        };
        if format == Format::Text && (self.links || self.images) {
            anyhow::bail!("--links and --images need --format markdown or html");
        }
        let opts = RenderOptions {
            links: self.links,
            images: self.images,
        };
        Ok((format, opts))
    }
}

/// Output of `cescope extract --input`.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum BatchOutput {
    /// One extraction record per page: id, url, algo, text, headline?, error?, bytes.
    Jsonl,
    /// The input pages as JSONL page records (id, url, html, gold fields), not extracted.
    Pages,
}

/// `cescope extract`: the batch with `--input`, else the one page. Errors: an unknown
/// algorithm or parameter, an unreadable page or input.
pub fn run(args: &ExtractArgs) -> Result<()> {
    if let Some(input) = &args.input {
        return batch(input, args);
    }
    let file = args
        .file
        .as_deref()
        .context("give a page file (or --input for a batch)")?;
    one_page(file, args)
}

/// One page: its extract as text, Markdown or clean HTML, or as JSON with the selection,
/// parameters, encoding, hash and timing, on standard output; warnings on standard error.
fn one_page(file: &Path, args: &ExtractArgs) -> Result<()> {
    let (format, render) = args.rendering()?;
    let guideline = super::guideline(args.guideline.as_deref())?;
    let extractor = guided(cescope::extractors::find(&args.algo)?, guideline.as_ref());
    let params = args.page.params(extractor.params())?;
    let opts = args.page.decode();
    let t0 = Instant::now();
    let page = Page::load(file, &opts)?;
    let t_load = t0.elapsed();
    let t1 = Instant::now();
    let x = extractor.run(&page, &params);
    let t_run = t1.elapsed();
    let text = page.render_as(&x.selection, format, &render);
    let mut warnings: Vec<String> = page.warnings().to_vec();
    warnings.extend(extractor.warnings(&page, &x));
    let mut out = std::io::stdout().lock();
    match args.format {
        ExtractFormat::Text | ExtractFormat::Markdown | ExtractFormat::Html => {
            if !text.is_empty() {
                writeln!(out, "{text}")?;
            }
        }
        ExtractFormat::Json => {
            let ranges: Vec<[usize; 2]> = x
                .selection
                .ranges()
                .iter()
                .map(|r| [r.start, r.end])
                .collect();
            let mut v = json!({
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
            if let (Some(g), Some(map)) = (&guideline, v.as_object_mut()) {
                map.insert("guideline".into(), json!(g.reference()));
            }
            serde_json::to_writer_pretty(&mut out, &v)?;
            writeln!(out)?;
        }
    }
    for w in &warnings {
        eprintln!("cescope: warning: {w}");
    }
    Ok(())
}

/// `cescope extract --input …`: streams the input through the extractor (or, with `--output
/// pages`, converts it to JSONL pages); records on standard output, the summary on standard
/// error.
fn batch(input: &Path, args: &ExtractArgs) -> Result<()> {
    use cescope::batch::{self, PipelineOptions};
    use std::io::IsTerminal;
    let Some(format) = args.input_format.or_else(|| InputFormat::guess(input)) else {
        anyhow::bail!(
            "cannot tell the format of {} from its name; give --input-format {}",
            shown(input),
            InputFormat::NAMES.join("|")
        );
    };
    let (text_format, render) = args.rendering()?;
    let guideline = super::guideline(args.guideline.as_deref())?;
    let extractor = guided(cescope::extractors::find(&args.algo)?, guideline.as_ref());
    let params = args.page.params(extractor.params())?;
    let headline = match &args.headline {
        Some(name) => {
            let f = cescope::extractors::find_headline(name)?;
            let p = Params::defaults(f.params());
            Some((f, p))
        }
        None => None,
    };
    let decode = args.page.decode();
    let mut opts = PipelineOptions::new(args.threads.map_or(0, usize::from));
    opts.ordered = !args.unordered;
    let source = batch::open(input, format)?;
    let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    let summary = match args.output {
        BatchOutput::Jsonl => {
            let job = batch::ExtractJob {
                extractor,
                params,
                headline,
                decode,
                format: text_format,
                render,
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
            eprintln!("cescope: warning: {w}");
        })?,
    };
    eprintln!("cescope: {summary}");
    Ok(())
}
