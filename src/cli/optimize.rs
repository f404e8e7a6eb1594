//! `cescope optimize`: the genetic parameter (or filter-set) search.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Result;
use clap::Args;

use cescope::optimize::{GaOptions, SearchSpace};

use super::{params_with, with_threads, TextOrJson};

/// Optimise an algorithm's parameters on gold standards with a genetic search (Gottron 2009,
/// section 4): fitness = mean word-LCS F1 on the training corpus, as `cescope eval` prints it.
#[derive(Debug, Args)]
pub struct OptimizeArgs {
    /// The algorithm whose parameters are searched (see `cescope algos`).
    #[arg(long, short, required_unless_present_any = ["filter_set", "search_sets"], conflicts_with_all = ["filter_set", "search_sets"])]
    algo: Option<String>,
    /// A filter-set file (TOML) whose members' parameters are searched.
    #[arg(long, value_name = "FILE", conflicts_with = "search_sets")]
    filter_set: Option<PathBuf>,
    /// Search over filter sets instead: which members (--candidates), their order, serial /
    /// union / intersection / vote, vote weights and threshold; --out writes the winner as a
    /// set file that `--algo FILE` runs.
    #[arg(long, conflicts_with_all = ["only", "set"])]
    search_sets: bool,
    /// The algorithms a searched filter set may use (default: the paper's dsc, bte, accb, lqf).
    #[arg(
        long,
        value_name = "NAMES",
        value_delimiter = ',',
        default_value = "dsc,bte,accb,lqf",
        requires = "search_sets"
    )]
    candidates: Vec<String>,
    /// The largest number of members of a searched filter set.
    #[arg(long, value_name = "N", default_value_t = 3, requires = "search_sets")]
    max_members: usize,
    /// Training corpus: a directory of pages, a ground-truth.json, or a directory holding one.
    #[arg(long, required = true, value_name = "CORPUS")]
    train: Vec<PathBuf>,
    /// Test corpus (repeatable): the best setting and the defaults are scored on it.
    #[arg(long, value_name = "CORPUS")]
    test: Vec<PathBuf>,
    /// Search only these parameters (comma-separated); the others keep their defaults (or
    /// --set values).
    #[arg(long, value_name = "NAMES", value_delimiter = ',')]
    only: Option<Vec<String>>,
    /// Fix a parameter: NAME=VALUE (repeatable); the injected individual uses it too.
    #[arg(long = "set", short = 's', value_name = "NAME=VALUE")]
    set: Vec<String>,
    /// Stop after N generations in a row without improvement (the paper's K).
    #[arg(long, value_name = "N", default_value_t = GaOptions::default().patience)]
    generations: usize,
    /// Stop after N generations in all.
    #[arg(long, value_name = "N", default_value_t = GaOptions::default().max_generations)]
    max_generations: usize,
    /// Individuals per generation.
    #[arg(long, value_name = "N", default_value_t = GaOptions::default().population)]
    population: usize,
    /// The fittest N become parents and are carried over (default: a quarter of the
    /// population, at least 2).
    #[arg(long, value_name = "N")]
    parents: Option<usize>,
    /// Share of children made by recombination (the rest by mutation).
    #[arg(long, value_name = "P", default_value_t = GaOptions::default().crossover)]
    crossover: f64,
    /// Probability that a mutation changes a gene (default: 1 / number of parameters).
    #[arg(long, value_name = "P")]
    mutation_rate: Option<f64>,
    /// Standard deviation of a numeric mutation, as a share of the parameter's range.
    #[arg(long, value_name = "S", default_value_t = GaOptions::default().deviation)]
    deviation: f64,
    /// Seed of every random draw (same seed, same run, whatever --threads).
    #[arg(long, value_name = "N", default_value_t = GaOptions::default().seed)]
    seed: u64,
    /// Train on a seeded subset of N training pages.
    #[arg(long, value_name = "N")]
    sample: Option<usize>,
    /// Worker threads (default: one per core).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    threads: Option<u16>,
    /// How many of the top individuals to list.
    #[arg(long, value_name = "N", default_value_t = 10)]
    top: usize,
    /// Output format.
    #[arg(long, short, value_enum, default_value = "text")]
    format: TextOrJson,
    /// Write the best setting to FILE as command-line arguments (`cescope eval CORPUS $(cat FILE)`).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Plot every configuration tried (SVG, like Gottron 2009, Fig. 4).
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<PathBuf>,
    /// The plot's axes: two parameter names X,Y, or one (Y is then the train F1). Default: the
    /// first two numeric parameters, else the first parameter against F1.
    #[arg(long, value_name = "X[,Y]", requires = "plot")]
    plot_axes: Option<String>,
}

impl OptimizeArgs {
    /// The genetic search's options from the command line.
    fn ga_options(&self) -> GaOptions {
        GaOptions {
            population: self.population,
            parents: self
                .parents
                .unwrap_or_else(|| GaOptions::default_parents(self.population)),
            patience: self.generations,
            max_generations: self.max_generations,
            crossover: self.crossover,
            mutation_rate: self.mutation_rate,
            deviation: self.deviation,
            seed: self.seed,
        }
    }
}

/// `cescope optimize`: on `--threads` worker threads, loads the training pages once, runs the
/// genetic search over the parameters of `--algo` / `--filter-set` (or over filter sets),
/// scores the best setting and the defaults on the test corpora, prints the table (or JSON),
/// writes --out and --plot. Errors: bad options, unknown names, unreadable corpora.
pub fn run(args: &OptimizeArgs) -> Result<()> {
    use cescope::optimize::{self as opt, ParamSpace};

    let opts = args.ga_options();
    let name = match (&args.algo, &args.filter_set) {
        _ if args.search_sets => String::new(),
        (Some(a), _) => a.clone(),
        (None, Some(f)) => f.display().to_string(),
        (None, None) => {
            anyhow::bail!("give --algo NAME, --filter-set FILE or --search-sets")
        }
    };
    with_threads(args.threads, || {
        if args.search_sets {
            let space = opt::SetSpace::new(&args.candidates, args.max_members)?;
            let axes = opt::plot_axes(&space, args.plot_axes.as_deref())?;
            return search(&space, args, &opts, axes);
        }
        let e: std::sync::Arc<dyn cescope::extract::Extractor> = cescope::extractors::find(&name)?;
        let base = params_with(e.params(), &args.set)?;
        let space = ParamSpace::new(e.clone(), base, args.only.as_deref())?.with_algo_arg(&name);
        let axes = opt::plot_axes(&space, args.plot_axes.as_deref())?;
        search(&space, args, &opts, axes)
    })?
}

/// The search of `cescope optimize` over any space ([`cescope::optimize::study`]): prints its
/// progress, the table (or JSON), writes --out and --plot (the plot with gene `x` across, gene
/// `y` or the train F1 up).
fn search<S: SearchSpace>(
    space: &S,
    args: &OptimizeArgs,
    opts: &GaOptions,
    (x, y): (usize, Option<usize>),
) -> Result<()> {
    use cescope::optimize::{self as opt, Corpora, Progress};
    use std::io::IsTerminal;

    let bar = std::io::stderr().is_terminal().then(|| {
        let b = indicatif::ProgressBar::new_spinner();
        if let Ok(style) =
            indicatif::ProgressStyle::with_template("{spinner} {elapsed_precise} {msg}")
        {
            b.set_style(style);
        }
        b
    });
    let corpora = Corpora {
        train: &args.train,
        test: &args.test,
        sample: args.sample,
    };
    let study = opt::study(space, corpora, opts, &mut |p| match p {
        Progress::Note(n) => eprintln!("cescope: note: {n}"),
        Progress::Warning(n) => eprintln!("cescope: warning: {n}"),
        Progress::Loaded { pages, of, secs } => {
            eprintln!("cescope: training on {pages} of {of} page(s), loaded in {secs:.2} s");
            if let Some(b) = &bar {
                b.enable_steady_tick(std::time::Duration::from_millis(200));
            }
        }
        Progress::Generation(g, evals) => {
            if let Some(b) = &bar {
                b.set_message(format!(
                    "generation {}: best F1 {:.4}, population mean {:.4}; {evals} evaluations",
                    g.generation, g.best_so_far, g.mean
                ));
            }
        }
    });
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let study = study?;
    let (outcome, scores) = (&study.outcome, &study.scores);
    let mut out = std::io::stdout().lock();
    match args.format {
        TextOrJson::Text => write!(out, "{}", opt::table(space, outcome, args.top, scores))?,
        TextOrJson::Json => {
            serde_json::to_writer_pretty(&mut out, &opt::to_json(space, outcome, opts, scores))?;
            writeln!(out)?;
        }
    }
    out.flush()?;
    if let Some(path) = &args.out {
        opt::write_best(space, outcome, path)?;
        eprintln!("cescope: wrote {}", path.display());
    }
    if let Some(path) = &args.plot {
        opt::plot(space, outcome, x, y, path)?;
        eprintln!("cescope: wrote {}", path.display());
    }
    eprintln!(
        "cescope: {} distinct evaluations x {} pages in {:.2} s wall ({} thread(s)), {:.2} s with the test corpora",
        outcome.evaluations(),
        study.train_pages,
        study.search_secs,
        rayon::current_num_threads(),
        study.total_secs
    );
    Ok(())
}
