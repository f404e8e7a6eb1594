//! `cescope title`: the ranked headline candidates of one page.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Result;
use serde_json::json;

use cescope::algorithms::Params;
use cescope::page::{DecodeOptions, Page};

use super::{printable, shown, TextOrJson};

pub(super) fn title_cmd(
    file: PathBuf,
    method: &str,
    top: usize,
    set: &[String],
    format: TextOrJson,
    encoding: Option<String>,
) -> Result<()> {
    let finder = cescope::headline::find(method)?;
    let mut params = Params::defaults(finder.params());
    for s in set {
        params.set_str(finder.params(), s)?;
    }
    let opts = DecodeOptions {
        encoding_override: encoding,
        ..Default::default()
    };
    let page = Page::load(&file, &opts)?;
    let found = finder.run(&page, &params);
    let best = &found.candidates[..top.min(found.candidates.len())];
    let mut out = std::io::stdout().lock();
    match format {
        TextOrJson::Text => {
            for c in best {
                writeln!(
                    out,
                    "{:.4}\t{}..{}\t{}",
                    c.score,
                    c.range.start,
                    c.range.end,
                    printable(&c.text)
                )?;
            }
        }
        TextOrJson::Json => {
            let v = json!({
                "file": file.display().to_string(),
                "method": finder.name(),
                "params": params,
                "candidates": best,
            });
            serde_json::to_writer_pretty(&mut out, &v)?;
            writeln!(out)?;
        }
    }
    for w in page.warnings() {
        eprintln!("cescope: warning: {w}");
    }
    if found.candidates.is_empty() {
        eprintln!(
            "cescope: note: {}: no headline candidate ({} found none)",
            shown(&file),
            finder.name()
        );
    }
    Ok(())
}
