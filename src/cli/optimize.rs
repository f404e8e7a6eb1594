//! `cescope optimize`: the genetic parameter (or filter-set) search.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::Result;

use cescope::algorithms::{self, Params};

use super::TextOrJson;

/// The arguments of `cescope optimize` besides the GA options.
pub(super) struct OptimizeJob<'a> {
    pub(super) algo: &'a str,
    /// `--search-sets`: the candidates and the largest number of members.
    pub(super) sets: Option<(&'a [String], usize)>,
    pub(super) train: &'a [PathBuf],
    pub(super) test: &'a [PathBuf],
    pub(super) only: Option<&'a [String]>,
    pub(super) set: &'a [String],
    pub(super) sample: Option<usize>,
    pub(super) top: usize,
    pub(super) format: TextOrJson,
    pub(super) out: Option<&'a std::path::Path>,
    pub(super) plot: Option<&'a std::path::Path>,
    pub(super) plot_axes: Option<&'a str>,
}

/// `cescope optimize`: loads the training pages once, runs the genetic search, scores the best
/// setting and the defaults on the test corpora, prints the table (or JSON), writes --out and
/// --plot.
pub(super) fn optimize_cmd(job: &OptimizeJob, opts: &cescope::optimize::GaOptions) -> Result<()> {
    use cescope::optimize::{self as opt, ParamSpace};

    opts.validate()?;
    if let Some((candidates, max_members)) = job.sets {
        let space = opt::SetSpace::new(candidates, max_members)?;
        let axes = opt::plot_axes(&space, job.plot_axes)?;
        return search(&space, job, opts, Some(axes));
    }
    let e: std::sync::Arc<dyn algorithms::Extractor> = algorithms::find(job.algo)?.into();
    let mut base = Params::defaults(e.params());
    for s in job.set {
        base.set_str(e.params(), s)?;
    }
    let space = ParamSpace::new(e.clone(), base, job.only)?.with_algo_arg(job.algo);
    let axes = opt::plot_axes(&space, job.plot_axes)?;
    search(&space, job, opts, Some(axes))
}

/// The search of `cescope optimize` over any space: gathers and loads the pages, runs the GA,
/// scores the test corpora, prints and writes.
pub(super) fn search<S: cescope::optimize::SearchSpace>(
    space: &S,
    job: &OptimizeJob,
    opts: &cescope::optimize::GaOptions,
    axes: Option<(usize, Option<usize>)>,
) -> Result<()> {
    use cescope::eval::run;
    use cescope::optimize::{self as opt, TrainingSet};
    use std::io::IsTerminal;

    let t0 = Instant::now();
    let (pages, notes) = run::gather_with(job.train, &run::CorpusOrGoldFiles)?;
    for n in &notes {
        eprintln!("cescope: note: {n}");
    }
    if pages.is_empty() {
        anyhow::bail!("no page with a gold standard in the training corpus");
    }
    let mut tests = Vec::new();
    for t in job.test {
        let (pages, notes) = run::gather_with(std::slice::from_ref(t), &run::CorpusOrGoldFiles)?;
        for n in &notes {
            eprintln!("cescope: note: {n}");
        }
        if pages.is_empty() {
            anyhow::bail!(
                "no page with a gold standard in the test corpus {}",
                t.display()
            );
        }
        tests.push(pages);
    }
    let all = pages.len();
    let pages = match job.sample {
        Some(n) => opt::sample(pages, n, opts.seed),
        None => pages,
    };
    let training = TrainingSet::load(&pages, space.needs_dom())?;
    for n in training.notes() {
        eprintln!("cescope: warning: {n}");
    }
    eprintln!(
        "cescope: training on {} of {all} page(s), loaded in {:.2} s",
        training.len(),
        t0.elapsed().as_secs_f64()
    );
    let bar = std::io::stderr().is_terminal().then(|| {
        let b = indicatif::ProgressBar::new_spinner();
        if let Ok(style) =
            indicatif::ProgressStyle::with_template("{spinner} {elapsed_precise} {msg}")
        {
            b.set_style(style);
        }
        b.enable_steady_tick(std::time::Duration::from_millis(200));
        b
    });
    let mut on_gen = |g: &opt::GenerationStats, evals: usize| {
        if let Some(b) = &bar {
            b.set_message(format!(
                "generation {}: best F1 {:.4}, population mean {:.4}; {evals} evaluations",
                g.generation, g.best_so_far, g.mean
            ));
        }
    };
    let outcome = opt::optimize(space, &training, opts, &mut on_gen)?;
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let search = t0.elapsed().as_secs_f64();
    let scores: Vec<opt::TestScore> = job
        .test
        .iter()
        .zip(&tests)
        .map(|(t, pages)| {
            let name = pages
                .first()
                .map_or_else(|| t.display().to_string(), |p| p.corpus.clone());
            opt::test_score(space, &outcome, &name, pages)
        })
        .collect();
    let mut out = std::io::stdout().lock();
    match job.format {
        TextOrJson::Text => write!(out, "{}", opt::table(space, &outcome, job.top, &scores))?,
        TextOrJson::Json => {
            serde_json::to_writer_pretty(&mut out, &opt::to_json(space, &outcome, opts, &scores))?;
            writeln!(out)?;
        }
    }
    out.flush()?;
    if let Some(path) = job.out {
        opt::write_best(space, &outcome, path)?;
        eprintln!("cescope: wrote {}", path.display());
    }
    if let (Some(path), Some((x, y))) = (job.plot, axes) {
        opt::plot(space, &outcome, x, y, path)?;
        eprintln!("cescope: wrote {}", path.display());
    }
    eprintln!(
        "cescope: {} distinct evaluations x {} pages in {:.2} s wall ({} thread(s)), {:.2} s with the test corpora",
        outcome.evaluations(),
        training.len(),
        search,
        rayon::current_num_threads(),
        t0.elapsed().as_secs_f64()
    );
    Ok(())
}
