//! Tests of the optimiser.

use std::borrow::Cow;
use std::sync::Arc;

use super::space::{float_at, grid_steps};
use super::*;
use crate::eval::run::EvalPage;
use crate::extract::{
    AlgoInfo, Algorithm, Extraction, Extractor, ParamKind, ParamSpec, ParamValue, Params, ONE_PHASE,
};
use crate::page::Page;
use crate::selection::Selection;
use std::path::Path;

/// A fake extractor for a toy problem with a known optimum: it selects the first `n` words
/// of the page (`flag` changes nothing).
struct FirstWords;

const FIRST_WORDS_SPECS: &[ParamSpec] = &[
    ParamSpec {
        name: Cow::Borrowed("n"),
        kind: ParamKind::Int {
            min: 0,
            max: 100,
            step: 1,
        },
        default: ParamValue::Int(80),
        help: "words to select",
        source: "test",
    },
    ParamSpec {
        name: Cow::Borrowed("flag"),
        kind: ParamKind::Bool,
        default: ParamValue::Bool(false),
        help: "no effect",
        source: "test",
    },
];

static FIRST_WORDS: AlgoInfo = AlgoInfo::new(
    "first-words",
    "the first n words (test)",
    "test",
    FIRST_WORDS_SPECS,
    ONE_PHASE,
);

impl Algorithm for FirstWords {
    fn info(&self) -> &AlgoInfo {
        &FIRST_WORDS
    }
}

impl Extractor for FirstWords {
    fn run(&self, page: &Page, params: &Params) -> Extraction {
        let n = params.read::<i64>(&FIRST_WORDS_SPECS[0]) as usize;
        let text = page.text();
        let mut sel = Selection::new();
        let mut start = None;
        let mut count = 0;
        for (i, c) in text.char_indices() {
            if c.is_ascii_alphanumeric() {
                start.get_or_insert(i);
            } else if let Some(s) = start.take() {
                if count < n && s > 2 {
                    sel.push(s..i);
                }
                count += usize::from(s > 2);
            }
        }
        Extraction {
            selection: sel,
            trace: Default::default(),
        }
    }
}

/// A page of 100 words `w0 … w99` whose gold is the first 37: F1 of `n` words is
/// 2·min(n, 37) / (n + 37), highest at n = 37 only.
fn toy() -> (ParamSpace, TrainingSet) {
    let words: Vec<String> = (0..100).map(|i| format!("w{i}")).collect();
    let page = Page::from_text("toy.html", format!("<p>{}</p>", words.join(" ")));
    let gold = words[..37].join(" ");
    let e: Arc<dyn Extractor> = Arc::new(FirstWords);
    let space = ParamSpace::new(e.clone(), Params::defaults(e.params()), None).unwrap();
    (space, TrainingSet::from_pages(vec![(page, gold)]).unwrap())
}

#[test]
fn toy_fitness_is_the_known_curve() {
    let (space, training) = toy();
    for n in [0i64, 10, 37, 50, 100] {
        let (e, p) = space.configure(&vec![Gene::Int(n), Gene::Bool(false)]);
        let want = 2.0 * (n.min(37) as f64) / (n as f64 + 37.0);
        assert!((training.fitness(&*e, &p) - want).abs() < 1e-12, "n = {n}");
    }
}

#[test]
fn the_search_finds_the_known_optimum() {
    let (space, training) = toy();
    let opts = GaOptions {
        population: 10,
        parents: 3,
        patience: 8,
        max_generations: 100,
        ..GaOptions::default()
    };
    let out = optimize(&space, &training, &opts, &mut |_, _| {}).unwrap();
    assert_eq!(out.best().individual[0], Gene::Int(37), "{:?}", out.best());
    assert!((out.best().fitness - 1.0).abs() < 1e-12);
    // Far fewer evaluations than the 202 points of the space.
    assert!(out.evaluations() < 202);
    // The best fitness seen never drops from one generation to the next.
    for w in out.history.windows(2) {
        assert!(w[1].best_so_far >= w[0].best_so_far);
        assert!(w[1].best >= w[0].best, "the parents are carried over");
    }
}

#[test]
fn same_seed_same_run_whatever_the_threads() {
    let (space, training) = toy();
    let opts = GaOptions {
        population: 8,
        parents: 2,
        seed: 99,
        ..GaOptions::default()
    };
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| optimize(&space, &training, &opts, &mut |_, _| {}).unwrap())
    };
    let (a, b, c) = (run(1), run(2), run(1));
    for other in [&b, &c] {
        assert_eq!(a.tried, other.tried);
        assert_eq!(a.history, other.history);
        assert_eq!(a.ranking, other.ranking);
    }
    let d = optimize(
        &space,
        &training,
        &GaOptions { seed: 100, ..opts },
        &mut |_, _| {},
    )
    .unwrap();
    assert_ne!(a.tried, d.tried, "another seed, another run");
}

#[test]
fn the_defaults_are_injected_into_generation_zero() {
    let (space, training) = toy();
    let out = optimize(&space, &training, &GaOptions::default(), &mut |_, _| {}).unwrap();
    let d = out.injected().expect("an injected individual");
    assert_eq!(d.generation, 0);
    assert_eq!(d.individual, vec![Gene::Int(80), Gene::Bool(false)]);
    assert_eq!(out.tried[0].individual, d.individual, "evaluated first");
    assert_eq!(out.history[0].population, GaOptions::default().population);
    // --set values are what is injected.
    let e: Arc<dyn Extractor> = Arc::new(FirstWords);
    let mut base = Params::defaults(e.params());
    base.set_str(e.params(), "n=5").unwrap();
    let space = ParamSpace::new(e, base, Some(&["n".to_string()])).unwrap();
    assert_eq!(space.injected(), vec![vec![Gene::Int(5)]]);
    assert_eq!(space.gene_names(), ["n"]);
}

#[test]
fn mutation_stays_in_range_and_on_the_grid_for_every_extractor() {
    let mut rng = rng(7);
    for e in crate::extractors::registry() {
        if e.params().is_empty() {
            continue;
        }
        let e: Arc<dyn Extractor> = Arc::clone(e);
        let space = ParamSpace::new(e.clone(), Params::defaults(e.params()), None).unwrap();
        let mut ind = space.random(&mut rng);
        for _ in 0..300 {
            for deviation in [0.01, 0.1, 2.0] {
                let m = space.mutate(&ind, 0.5, deviation, &mut rng);
                assert_ne!(m, ind, "{}: a mutation changes a gene", e.name());
                let (_, p) = space.configure(&m);
                for s in space.specs() {
                    let v = p.get(&s.name).unwrap();
                    assert!(on_grid(s, v), "{} {}={v}: off the grid", e.name(), s.name);
                    // The value also passes the spec's own parser (kind and range).
                    assert_eq!(s.parse(&v.to_string()).unwrap(), *v);
                }
                ind = m;
            }
        }
        let r = space.random(&mut rng);
        let (_, p) = space.configure(&r);
        for s in space.specs() {
            assert!(
                on_grid(s, p.get(&s.name).unwrap()),
                "{} {}",
                e.name(),
                s.name
            );
        }
    }
}

#[test]
fn recombination_takes_each_gene_from_a_parent() {
    let mut rng = rng(3);
    let e: Arc<dyn Extractor> = crate::extractors::find("addanag").unwrap();
    let space = ParamSpace::new(e.clone(), Params::defaults(e.params()), None).unwrap();
    let mut from_a = 0;
    let mut from_b = 0;
    for _ in 0..200 {
        let (a, b) = (space.random(&mut rng), space.random(&mut rng));
        let c = space.recombine(&a, &b, &mut rng);
        assert_eq!(c.len(), a.len());
        for i in 0..c.len() {
            assert!(c[i] == a[i] || c[i] == b[i], "gene {i} from neither parent");
            if a[i] != b[i] {
                from_a += usize::from(c[i] == a[i]);
                from_b += usize::from(c[i] == b[i]);
            }
        }
    }
    assert!(from_a > 0 && from_b > 0, "both parents contribute");
}

#[test]
fn set_space_individuals_are_valid_sets_and_round_trip_through_toml() {
    use crate::algorithms::combine;
    let cands: Vec<String> = ["dsc", "bte", "accb", "lqf"].map(String::from).to_vec();
    let space = SetSpace::new(&cands, 3).unwrap();
    let mut rng = rng(11);
    let valid = |g: &SetGenes| {
        (1..=3).contains(&g.members.len())
            && g.weights.len() == g.members.len()
            && g.members.iter().all(|&m| m < 4)
            && g.weights.iter().all(|&w| (1..=3).contains(&w))
            && (1..=10).contains(&g.share)
            && g.combine < 4
            && *g == SetSpace::canonical(g.clone())
    };
    let inj = space.injected();
    assert_eq!(
        inj[0].members,
        [0, 1, 2],
        "the serial chain, capped at 3 members"
    );
    assert!(inj.iter().all(valid));
    let mut a = space.random(&mut rng);
    for _ in 0..500 {
        let b = space.random(&mut rng);
        assert!(valid(&b), "{b:?}");
        let c = space.recombine(&a, &b, &mut rng);
        assert!(valid(&c), "{c:?}");
        // Each member from a parent (positions move when the child's form is canonical).
        for m in &c.members {
            assert!(a.members.contains(m) || b.members.contains(m));
        }
        let m = space.mutate(&c, 0.2, 0.1, &mut rng);
        assert!(valid(&m), "{m:?}");
        assert_ne!(m, c, "a mutation changes the set");
        a = m;
    }
    // The written set file reads back to a set with the same members and combination.
    let u = SetSpace::canonical(SetGenes {
        members: vec![2, 1, 2],
        combine: 1,
        weights: vec![1, 3, 2],
        share: 2,
    });
    assert_eq!((u.members, u.weights, u.share), (vec![1, 2], vec![1, 1], 5));
    let g = SetGenes {
        members: vec![3, 1],
        combine: 3,
        weights: vec![2, 1],
        share: 6,
    };
    let v = SetSpace::canonical(g.clone());
    assert_eq!((v.members, v.weights), (vec![1, 3], vec![1, 2]));
    // (The written set file reads back; `g` as drawn, not canonical, keeps its order.)
    let text = space.out_file(&g);
    let set = combine::parse(&text, Path::new(".")).unwrap();
    let names: Vec<&str> = set.members().iter().map(|m| m.extractor().name()).collect();
    assert_eq!(names, ["lqf", "bte"]);
    assert_eq!(set.combine(), combine::Combine::Vote { threshold: 1.8 });
    assert_eq!(set.members()[0].weight(), 2.0);
    assert_eq!(space.values(&g), ["lqf,bte", "vote", "2,1", "1.8"]);
    assert!(SetSpace::new(&["nope".to_string()], 3).is_err());
    assert!(SetSpace::new(&cands, 0).is_err());
}

#[test]
fn grid_points_are_clean_decimals() {
    assert_eq!(float_at(0.0, 0.01, 30), 0.3);
    assert_eq!(float_at(0.05, 0.05, 14), 0.75);
    assert_eq!(grid_steps(0.0, 1.0, 0.01), 100);
    let sw = crate::extractors::find("sw").unwrap();
    let t_en = &sw.params()[0];
    assert!(on_grid(t_en, &ParamValue::Float(0.31)));
    assert!(!on_grid(t_en, &ParamValue::Float(0.315)));
    assert!(!on_grid(t_en, &ParamValue::Float(1.5)));
}

#[test]
fn bad_options_and_spaces_are_refused() {
    let (space, training) = toy();
    for bad in [
        GaOptions {
            population: 1,
            ..GaOptions::default()
        },
        GaOptions {
            parents: 20,
            ..GaOptions::default()
        },
        GaOptions {
            crossover: 1.5,
            ..GaOptions::default()
        },
        GaOptions {
            patience: 0,
            ..GaOptions::default()
        },
    ] {
        assert!(optimize(&space, &training, &bad, &mut |_, _| {}).is_err());
    }
    let e: Arc<dyn Extractor> = Arc::new(FirstWords);
    let p = Params::defaults(e.params());
    assert!(ParamSpace::new(e.clone(), p.clone(), Some(&["nope".into()])).is_err());
    let plain: Arc<dyn Extractor> = crate::extractors::find("plain").unwrap();
    assert!(ParamSpace::new(plain, Params::default(), None).is_err());
    assert!(TrainingSet::from_pages(Vec::new()).is_err());
    assert!(TrainingSet::load(&[], false).is_err());
}

#[test]
fn plot_axes_by_name_and_by_default() {
    let space_of = |name: &str| {
        let e: Arc<dyn Extractor> = crate::extractors::find(name).unwrap();
        ParamSpace::new(e.clone(), Params::defaults(e.params()), None).unwrap()
    };
    // DANAg: gap is its one numeric parameter → gap against F1.
    let danag = space_of("danag");
    assert_eq!(danag.gene_names()[0], "gap");
    assert_eq!(plot_axes(&danag, None).unwrap(), (0, None));
    // ACCB: its first two numeric parameters against each other.
    let accb = space_of("accb");
    let (x, y) = plot_axes(&accb, None).unwrap();
    let y = y.expect("two numeric parameters");
    for i in [x, y] {
        assert!(matches!(
            accb.specs()[i].kind,
            ParamKind::Int { .. } | ParamKind::Float { .. }
        ));
    }
    assert!(x < y);
    let names = accb.gene_names();
    let named = format!("{}, {}", names[y], names[x]);
    assert_eq!(plot_axes(&accb, Some(&named)).unwrap(), (y, Some(x)));
    assert!(
        plot_axes(&accb, Some("gap")).is_err(),
        "not an ACCB parameter"
    );
    // A set search: members against F1 unless named.
    let sets = SetSpace::new(&["dsc".to_string(), "bte".to_string()], 2).unwrap();
    assert_eq!(plot_axes(&sets, None).unwrap(), (0, None));
    assert_eq!(plot_axes(&sets, Some("combine")).unwrap(), (1, None));
}

#[test]
fn a_sample_is_seeded_and_keeps_order() {
    let pages: Vec<EvalPage> = (0..50)
        .map(|i| EvalPage {
            corpus: "c".into(),
            id: format!("{i:02}"),
            path: format!("{i}.html").into(),
            gold: Default::default(),
            site: "unknown".into(),
            gold_sha256: None,
        })
        .collect();
    let ids = |v: Vec<EvalPage>| v.into_iter().map(|p| p.id).collect::<Vec<_>>();
    let a = ids(sample(pages.clone(), 10, 1));
    assert_eq!(a.len(), 10);
    assert!(a.windows(2).all(|w| w[0] < w[1]));
    assert_eq!(a, ids(sample(pages.clone(), 10, 1)));
    assert_ne!(a, ids(sample(pages.clone(), 10, 2)));
    assert_eq!(ids(sample(pages.clone(), 99, 1)).len(), 50);
}

#[test]
fn fitness_of_the_defaults_is_evals_mean_f1() {
    use crate::eval::run::{evaluate, gather_with, CorpusOrGoldFiles, Metric};
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/sample-pages");
    let (pages, _) = gather_with(&[dir.into()], &CorpusOrGoldFiles).unwrap();
    assert!(pages.len() >= 5, "sample pages with gold files");
    for name in ["danag", "accb", "lqf", "sw"] {
        let e: Arc<dyn Extractor> = crate::extractors::find(name).unwrap();
        let training = TrainingSet::load(&pages, e.needs_dom()).unwrap();
        let params = Params::defaults(e.params());
        let fit = training.fitness(&*e, &params);
        let rep = evaluate(
            &pages,
            &[(crate::extractors::find(name).unwrap(), params)],
            Metric::Word,
            false,
        );
        assert_eq!(fit, rep.overall(0).f1, "{name}");
        assert!(fit > 0.0 && fit <= 1.0);
    }
}
