//! `cescope gold mark | import | export | check | agree`.

use std::io::Write;
use std::time::Instant;

use anyhow::Result;

use super::{printable, shown, GoldCommand, GoldExportFormat, GoldImportFormat};

pub(super) fn gold_cmd(command: GoldCommand) -> Result<()> {
    use cescope::gold::commands::{self as gc, ExportFormat};
    match command {
        GoldCommand::Mark {
            paths,
            selector,
            headline,
            empty,
            gold_dir,
            annotator,
            force,
        } => gold_mark(&gc::MarkOptions {
            paths,
            selector,
            headline,
            empty,
            gold_dir,
            annotator: cescope::config::annotator(annotator),
            force,
        }),
        GoldCommand::Import {
            from: GoldImportFormat::Scrapinghub,
            ground_truth,
            pages,
            out,
            annotator,
            force,
        } => gold_import(&gc::ImportOptions {
            ground_truth,
            pages,
            out,
            annotator: cescope::config::annotator(annotator),
            force,
        }),
        GoldCommand::Export { to, dir, out } => gold_export(&gc::ExportOptions {
            format: match to {
                GoldExportFormat::Scrapinghub => ExportFormat::Scrapinghub,
                GoldExportFormat::Text => ExportFormat::Text,
            },
            dir,
            out,
            write: Default::default(),
        }),
        GoldCommand::Check { dir, pages } => gold_check(&dir, pages.as_deref()),
        GoldCommand::Agree { dir_a, dir_b } => gold_agree(&dir_a, &dir_b),
    }
}

pub(super) fn save_status(s: &cescope::gold::commands::SaveStatus) -> String {
    use cescope::gold::commands::SaveStatus;
    match s {
        SaveStatus::Saved(o) => match &o.backup {
            Some(b) => format!("replaced {} (backup {})", shown(&o.path), shown(b)),
            None if o.replaced => format!("replaced {}", shown(&o.path)),
            None => format!("wrote {}", shown(&o.path)),
        },
        SaveStatus::Exists => "skipped (exists)".to_string(),
        SaveStatus::Unreadable(e) | SaveStatus::Unwritable(e) => {
            format!("not written: {}", printable(e))
        }
        SaveStatus::NoMatch => "not written: the selector matched nothing".to_string(),
    }
}

pub(super) fn gold_mark(opts: &cescope::gold::commands::MarkOptions) -> Result<()> {
    use cescope::gold::commands::{mark_pages, SaveStatus};
    let report = mark_pages(opts)?;
    let selector = opts.selector.as_deref().unwrap_or_default();
    let mut out = std::io::stdout().lock();
    for p in &report.pages {
        let page = shown(&p.page);
        match &p.status {
            SaveStatus::Unreadable(e) => {
                eprintln!("cescope: warning: {}", printable(e));
                continue;
            }
            SaveStatus::NoMatch => {
                eprintln!(
                    "cescope: warning: {page}: selector {selector:?} matched nothing; no gold written"
                );
                continue;
            }
            _ => {}
        }
        if p.no_text {
            eprintln!(
                "cescope: warning: {page}: the matching elements hold no text (void or unclosed elements?)"
            );
        }
        if p.headline_missing {
            eprintln!(
                "cescope: note: {page}: headline selector {:?} matched no element with text",
                opts.headline.as_deref().unwrap_or_default()
            );
        }
        match &p.status {
            SaveStatus::Exists => eprintln!(
                "cescope: note: {} exists; not replaced (--force replaces it, keeping a backup)",
                shown(&p.gold_path)
            ),
            SaveStatus::Unwritable(e) => eprintln!("cescope: warning: {}", printable(e)),
            s => {
                let head = p
                    .headline
                    .as_ref()
                    .map(|h| format!(", headline \"{}\"", printable(h)))
                    .unwrap_or_default();
                writeln!(
                    out,
                    "{page}: {} ranges, {} words{head}{}: {}",
                    p.ranges,
                    p.words,
                    if p.draft { " (draft)" } else { "" },
                    save_status(s)
                )?;
            }
        }
    }
    out.flush()?;
    let unmatched: Vec<String> = report.unmatched().iter().map(|p| shown(p)).collect();
    let matched = report.matched();
    if !unmatched.is_empty() && matched > 0 {
        eprintln!(
            "cescope: warning: the selector matched nothing on {} page(s): {}",
            unmatched.len(),
            unmatched.join(", ")
        );
    }
    if matched == 0 && !unmatched.is_empty() {
        anyhow::bail!(
            "selector {selector:?} matched nothing on any of the {} page(s)",
            unmatched.len()
        );
    }
    let failed = report.failed();
    if failed > 0 {
        anyhow::bail!("{failed} page(s) could not be read or written");
    }
    Ok(())
}

pub(super) fn gold_import(opts: &cescope::gold::commands::ImportOptions) -> Result<()> {
    use cescope::gold::commands::{import, SaveStatus};
    let t0 = Instant::now();
    let report = import(opts)?;
    for id in &report.missing {
        eprintln!(
            "cescope: warning: no page file for id {}; skipped",
            printable(id)
        );
    }
    let width = report
        .pages
        .iter()
        .map(|p| printable(&p.id).chars().count())
        .max()
        .unwrap_or(2)
        .max(2);
    let mut out = std::io::stdout().lock();
    let (mut n, mut high, mut sum, mut skipped) = (0usize, 0usize, 0.0, 0usize);
    for p in &report.pages {
        let id = printable(&p.id);
        let Some(stats) = &p.stats else {
            if let SaveStatus::Unreadable(e) = &p.status {
                eprintln!("cescope: warning: {id}: {}", printable(e));
            }
            continue;
        };
        n += 1;
        sum += stats.coverage;
        let low = stats.coverage < 0.95;
        high += usize::from(!low);
        skipped += usize::from(p.status == SaveStatus::Exists);
        let head = stats
            .headline_f1
            .map_or_else(|| "-".to_string(), |f| format!("{f:.3}"));
        writeln!(
            out,
            "{id:<width$}  coverage {:.3} ({}/{} words)  {} ranges  headline {head}  {}{}",
            stats.coverage,
            stats.matched,
            stats.gold_words,
            stats.ranges,
            save_status(&p.status),
            if low { "  LOW" } else { "" }
        )?;
    }
    writeln!(
        out,
        "{n} pages, {high} with coverage >= 95 %, mean coverage {:.3}, {:.2} s{}",
        if n == 0 { 0.0 } else { sum / n as f64 },
        t0.elapsed().as_secs_f64(),
        if skipped > 0 {
            format!(
                " ({skipped} not written: gold file exists; --force replaces, keeping a backup)"
            )
        } else {
            String::new()
        }
    )?;
    out.flush()?;
    let failed = report.pages.iter().filter(|p| p.status.failed()).count();
    if failed > 0 {
        anyhow::bail!("{failed} page(s) could not be read or written");
    }
    Ok(())
}

pub(super) fn gold_export(opts: &cescope::gold::commands::ExportOptions) -> Result<()> {
    let report = cescope::gold::commands::export(opts)?;
    if let Some(text) = &report.stdout {
        let mut out = std::io::stdout().lock();
        out.write_all(text.as_bytes())?;
        out.flush()?;
    } else if let Some(to) = &opts.out {
        eprintln!(
            "cescope: exported {} page(s) ({} draft(s)) to {}",
            report.pages,
            report.drafts,
            shown(to)
        );
    }
    Ok(())
}

pub(super) fn gold_check(dir: &std::path::Path, pages: Option<&std::path::Path>) -> Result<()> {
    let report = cescope::gold::commands::check_files(dir, pages)?;
    let mut out = std::io::stdout().lock();
    for f in &report.files {
        let name = shown(&f.file);
        if let Some(e) = &f.error {
            writeln!(out, "{}", printable(e))?;
        } else if f.problems.is_empty() {
            let note = f
                .note
                .as_ref()
                .map(|n| format!(" ({})", printable(n)))
                .unwrap_or_default();
            writeln!(out, "OK {name}{note}")?;
        } else {
            for p in &f.problems {
                writeln!(out, "{name}: {}", printable(&p.message))?;
            }
        }
        for w in &f.warnings {
            writeln!(out, "{name}: warning: {}", printable(w))?;
        }
    }
    let bad = report.bad();
    let warned = report
        .files
        .iter()
        .filter(|f| !f.warnings.is_empty())
        .count();
    writeln!(
        out,
        "{} files, {bad} with problems, {warned} with warnings",
        report.files.len()
    )?;
    out.flush()?;
    if bad > 0 {
        anyhow::bail!("{bad} of {} gold file(s) have problems", report.files.len());
    }
    Ok(())
}

pub(super) fn gold_agree(dir_a: &std::path::Path, dir_b: &std::path::Path) -> Result<()> {
    let report = cescope::gold::commands::agree_dirs(dir_a, dir_b)?;
    let width = report
        .pages
        .iter()
        .map(|p| printable(&p.id).chars().count())
        .max()
        .unwrap_or(2)
        .max(2);
    let mut out = std::io::stdout().lock();
    for p in &report.pages {
        let head = match p.agreement.headline_match {
            Some(true) => "equal",
            Some(false) => "differ",
            None => "-",
        };
        let version = if p.same_version {
            ""
        } else {
            "  (annotated on different versions of the page)"
        };
        writeln!(
            out,
            "{:<width$}  F1 {:.3}  headline {head}{version}",
            printable(&p.id),
            p.agreement.f1
        )?;
    }
    for (dir, only) in [(dir_a, &report.only_a), (dir_b, &report.only_b)] {
        if !only.is_empty() {
            let ids: Vec<String> = only.iter().map(|s| printable(s).into_owned()).collect();
            writeln!(out, "only in {}: {}", shown(dir), ids.join(", "))?;
        }
    }
    let Some(mean) = report.mean_f1() else {
        out.flush()?;
        anyhow::bail!(
            "no page is annotated in both {} and {}",
            shown(dir_a),
            shown(dir_b)
        );
    };
    let (equal, heads) = report.headlines();
    writeln!(
        out,
        "{} pages in both: mean F1 {mean:.3}, headlines equal {equal} of {heads}",
        report.pages.len()
    )?;
    out.flush()?;
    Ok(())
}
