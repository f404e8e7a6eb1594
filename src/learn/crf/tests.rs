use super::*;

fn idx(name: &str) -> usize {
    vocabulary_index(name).unwrap_or_else(|| panic!("{name} not in the vocabulary"))
}

/// A long paragraph, a link list, and a short block that is neither.
fn long() -> Attributes {
    vec![
        (0, 1.0),
        (idx("num_words"), 4.0),
        (idx("num_words=32..63"), 1.0),
    ]
}
fn links() -> Attributes {
    vec![
        (0, 1.0),
        (idx("link_density"), 0.9),
        (idx("link_density=0.75..1"), 1.0),
    ]
}
fn short() -> Attributes {
    vec![(0, 1.0), (idx("num_words=1"), 1.0)]
}

/// Short blocks are content between paragraphs and boilerplate between link lists, as often
/// one as the other: on its own a short block is a coin toss, and only the transitions can
/// tell the two cases apart.
fn toy() -> Vec<Sequence> {
    let mut seqs = Vec::new();
    for k in 0..20 {
        let n = 1 + k % 3;
        let mut a = vec![long(); n];
        a.push(short());
        a.extend(vec![long(); 1 + k % 2]);
        let len = a.len();
        seqs.push((a, vec![true; len]));
        let mut b = vec![links(); 1 + k % 2];
        b.push(short());
        b.extend(vec![links(); n]);
        let len = b.len();
        seqs.push((b, vec![false; len]));
    }
    seqs
}

#[test]
fn the_transitions_carry_a_short_block_between_content_blocks() {
    let body = fit_crf(&toy()).unwrap();
    body.check().unwrap();
    let s = CrfScorer::new(&body);
    let alone = s.marginals(&[short()])[0];
    assert!((0.3..0.7).contains(&alone), "short block alone: {alone}");
    let p = s.marginals(&[long(), short(), long()]);
    assert!(p[1] > 0.8, "between paragraphs: {p:?}");
    let q = s.marginals(&[links(), short(), links()]);
    assert!(q[1] < 0.2, "between link lists: {q:?}");
    assert!(p[0] > 0.9 && q[0] < 0.1, "{p:?} {q:?}");
    let t = body.transitions;
    assert!(t[1][1] > t[1][0] && t[0][0] > t[0][1], "{t:?}");
    // The explanation names the block's own evidence and the transitions.
    let said = Scorer { crf: s }
        .explain(&[0.0; N_FEATURES], &[])
        .join("; ");
    assert!(
        said.contains("on its own") && said.contains("content → content"),
        "{said}"
    );
    // Deterministic.
    assert_eq!(fit_crf(&toy()).unwrap(), body);
}

/// Forward–backward against the definition: the marginal of label content at t is the summed
/// exp-score of every labelling with content at t over the sum over all labellings.
#[test]
fn marginals_are_the_brute_force_sums() {
    let body = CrfBody {
        trainer: "hand".into(),
        c1: 0.0,
        c2: 1.0,
        max_iterations: 1,
        transitions: [[0.7, -1.1], [-0.4, 1.3]],
        state: vec![
            StateWeights {
                attribute: "bias".into(),
                boilerplate: 0.2,
                content: -0.3,
            },
            StateWeights {
                attribute: "num_words".into(),
                boilerplate: -0.5,
                content: 0.8,
            },
        ],
    };
    let s = CrfScorer::new(&body);
    let w = idx("num_words");
    let seq: Vec<Attributes> = [0.0, 2.5, 0.1, 1.7, 0.0]
        .iter()
        .map(|&v| vec![(0, 1.0), (w, v)])
        .collect();
    let n = seq.len();
    let st: Vec<[f64; 2]> = seq.iter().map(|a| s.state(a)).collect();
    let mut z = 0.0;
    let mut on = vec![0.0; n];
    let mut best = (f64::NEG_INFINITY, 0u32);
    for m in 0..(1u32 << n) {
        let y = |i: usize| ((m >> i) & 1) as usize;
        let mut score = st[0][y(0)];
        for i in 1..n {
            score += body.transitions[y(i - 1)][y(i)] + st[i][y(i)];
        }
        let e = score.exp();
        z += e;
        for (i, o) in on.iter_mut().enumerate() {
            if y(i) == 1 {
                *o += e;
            }
        }
        if score > best.0 {
            best = (score, m);
        }
    }
    let got = s.marginals(&seq);
    for i in 0..n {
        assert!((got[i] - on[i] / z).abs() < 1e-12, "{i}: {got:?}");
    }
    let path: Vec<bool> = (0..n).map(|i| (best.1 >> i) & 1 == 1).collect();
    assert_eq!(s.viterbi(&seq), path);
    assert!(s.marginals(&[]).is_empty());
}

/// The weights read from the CRFsuite file are crfs' own: its dump shows the same values, and
/// its tagger's labels are the body's Viterbi path.
#[test]
fn the_body_is_the_crfsuite_model_crfs_tags_with() {
    let mut seqs = toy();
    // Noisy sequences so that every weight is in play.
    for k in 0..30usize {
        let a: Vec<Attributes> = (0..7)
            .map(|i| match (k * 7 + i * 3) % 5 {
                0 | 1 => long(),
                2 => links(),
                _ => short(),
            })
            .collect();
        let y: Vec<bool> = (0..7).map(|i| (k + i * i) % 3 != 0).collect();
        seqs.push((a, y));
    }
    let bytes = train_crfsuite(&seqs).unwrap();
    let body = body_from_crfsuite(&bytes).unwrap();
    let model = crfs::Model::new(&bytes).unwrap();
    let mut dump = Vec::new();
    model.dump(&mut dump).unwrap();
    let dump = String::from_utf8(dump).unwrap();
    for s in &body.state {
        for (label, w) in [("boilerplate", s.boilerplate), ("content", s.content)] {
            if w != 0.0 {
                let line = format!("(0) {} --> {label}: {w:.6}", s.attribute);
                assert!(dump.contains(&line), "{line} not in\n{dump}");
            }
        }
    }
    let line = format!("(1) content --> content: {:.6}", body.transitions[1][1]);
    assert!(dump.contains(&line), "{line} not in\n{dump}");
    let tagger = model.tagger().unwrap();
    let scorer = CrfScorer::new(&body);
    let vocab = vocabulary();
    for (a, _) in &seqs {
        let x: Vec<Vec<crfs::Attribute>> = a
            .iter()
            .map(|b| {
                b.iter()
                    .map(|&(i, v)| crfs::Attribute::new(vocab[i].as_str(), v))
                    .collect()
            })
            .collect();
        let theirs: Vec<bool> = tagger
            .tag(&x)
            .unwrap()
            .iter()
            .map(|l| *l == "content")
            .collect();
        assert_eq!(scorer.viterbi(a), theirs);
    }
    assert!(body_from_crfsuite(b"not a model").is_err());
    assert!(body_from_crfsuite(&bytes[..40]).is_err());
}

#[test]
fn one_class_is_an_error_and_bad_bodies_are_refused() {
    let all_content: Vec<Sequence> = vec![(vec![long(), short()], vec![true, true])];
    let e = fit_crf(&all_content).unwrap_err().to_string();
    assert!(e.contains("blocks of both kinds"), "{e}");
    let good = CrfBody {
        trainer: "hand".into(),
        c1: 0.0,
        c2: 1.0,
        max_iterations: 1,
        transitions: [[0.0; 2]; 2],
        state: vec![StateWeights {
            attribute: "num_words=1".into(),
            boilerplate: 0.5,
            content: -0.5,
        }],
    };
    good.check().unwrap();
    let mut b = good.clone();
    b.state[0].attribute = "num_words=7".into();
    assert!(b.check().unwrap_err().contains("does not generate"));
    let mut b = good.clone();
    b.state.push(good.state[0].clone());
    assert!(b.check().unwrap_err().contains("twice"));
    let mut b = good.clone();
    b.state[0].content = f64::INFINITY;
    assert!(b.check().unwrap_err().contains("not finite"));
    let mut b = good;
    b.transitions[0][1] = f64::NAN;
    assert!(b.check().unwrap_err().contains("transition"));
}

/// A block's attributes from a hand-made row: 10 words with a fifth of them linked, in a `<p>`,
/// after a two-word heading, the last block of the page.
#[test]
fn the_attributes_of_a_row() {
    let mut row = vec![0.0; N_FEATURES];
    let b = BASE_FEATURES.len();
    row[0] = 10.0; // words
    row[3] = 0.2; // link density
    row[4] = 10.0; // text density
    row[15] = 1.0; // p
    row[b] = 2.0; // the previous block's words
    row[b + 9] = 1.0; // … in an h1
    row[3 * b] = 1.0; // abs position
    row[3 * b + 1] = 1.0; // rel position
    let got: Vec<(String, f64)> = attributes(&row)
        .into_iter()
        .map(|(i, v)| (vocabulary()[i].clone(), v))
        .collect();
    let ln11 = 10f64.ln_1p();
    let mut want = vec![
        ("bias", 1.0),
        ("num_words", ln11),
        ("link_density", 0.2),
        ("text_density", ln11),
        ("p", 1.0),
        ("num_words=8..15", 1.0),
        ("text_density=8..15", 1.0),
        ("link_density=0.1..0.25", 1.0),
        ("rel_position=9", 1.0),
    ];
    if NEIGHBOURS {
        want.extend([
            ("prev_num_words", 2f64.ln_1p()),
            ("prev_num_words=2..3", 1.0),
            ("prev_link_density=0", 1.0),
            ("last", 1.0),
        ]);
    }
    let want: Vec<(String, f64)> = want.into_iter().map(|(n, v)| (n.into(), v)).collect();
    assert_eq!(got, want);
    assert_eq!(count_bin(0.0), 0);
    assert_eq!(count_bin(1.0), 1);
    assert_eq!(count_bin(3.0), 2);
    assert_eq!(count_bin(4.0), 3);
    assert_eq!(count_bin(1000.0), 8);
    // Every generated name is unique.
    let v = vocabulary();
    let set: BTreeSet<&String> = v.iter().collect();
    assert_eq!(set.len(), v.len());
}
