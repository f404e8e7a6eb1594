//! The inspector draws every algorithm from its trace alone: test-only extractors of other units
//! and every registered algorithm, drawn, overlaid, stepped through their phases and explained;
//! and the structural checks that no view depends on an algorithm's name or its trace keys.
//! Snapshots keep their names from `tests/tui.rs` (`tui__…`).

#![cfg(feature = "tui")]

use crate::common;

use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use cescope::extract::{
    AlgoInfo, Algorithm, Capabilities, Extraction, Extractor, Key, Keys, Location, Marks, Params,
    Phase, Positions, Role, Scalar, Series, Step, Trace, Unfolding, Unit, NO_PARAMS, ONE_PHASE,
};
use cescope::page::{ByteClass, Page, Tag};
use cescope::selection::Selection;
use cescope::tui::app::{App, AppOptions};
use ratatui::style::Color;

use common::tui::{
    axis_colour, explain_text, keys, line_starting, opts, render, sample, screen,
    teaching_with_gold, tui_snapshot, type_text,
};

/// Token unit: each tag is a code token (-1), each word a content token (+1); selects the
/// maximum-sum run of tokens (the shape of BTE's plateau).
struct TokenTest;

static TOKEN_TEST: AlgoInfo = AlgoInfo::new(
    "token-test",
    "test double: token-unit trace",
    "test",
    NO_PARAMS,
    ONE_PHASE,
);

impl Algorithm for TokenTest {
    fn info(&self) -> &AlgoInfo {
        &TOKEN_TEST
    }
}

impl Extractor for TokenTest {
    fn run(&self, page: &Page, _: &Params) -> Extraction {
        let text = page.text();
        let mut pos: Vec<Range<usize>> = Vec::new();
        let mut word = Vec::new();
        for s in &page.lexed().spans {
            match s.class {
                ByteClass::Tag => {
                    pos.push(s.range());
                    word.push(false);
                }
                ByteClass::Text => {
                    let base = s.start as usize;
                    let mut at = None;
                    for (i, c) in text[s.range()]
                        .char_indices()
                        .chain([(s.range().len(), ' ')])
                    {
                        match (at, c.is_whitespace()) {
                            (None, false) => at = Some(i),
                            (Some(a), true) => {
                                pos.push(base + a..base + i);
                                word.push(true);
                                at = None;
                            }
                            _ => {}
                        }
                    }
                }
                _ => {}
            }
        }
        // Kadane: the run with the largest sum of +1 / -1.
        let (mut best, mut best_r, mut cur, mut start) = (0i64, 0..0, 0i64, 0);
        for (i, &w) in word.iter().enumerate() {
            if cur <= 0 {
                cur = 0;
                start = i;
            }
            cur += if w { 1 } else { -1 };
            if cur > best {
                best = cur;
                best_r = start..i + 1;
            }
        }
        let sel =
            Selection::from_ranges(best_r.clone().filter(|&i| word[i]).map(|i| pos[i].clone()));
        let f = |b: bool| {
            word.iter()
                .map(|&w| (w == b) as u8 as f64)
                .collect::<Vec<_>>()
        };
        let trace = Trace {
            series: vec![
                Series::new("w", "words", Unit::Token, Role::ContentSignal, f(true)),
                Series::new("t", "tags", Unit::Token, Role::CodeSignal, f(false)),
            ],
            marks: vec![Marks::new(
                "p",
                "plateau",
                Unit::Token,
                Role::Selected,
                if best_r.is_empty() {
                    vec![]
                } else {
                    vec![best_r]
                },
            )],
            positions: vec![Positions {
                unit: Unit::Token,
                ranges: pos,
            }],
            ..Default::default()
        };
        Extraction {
            selection: sel,
            trace,
        }
    }
}

/// Node unit: every `<p>` and `<li>` element is a node; its link quota (anchor text / text) is
/// the only (combined) signal, `t` a threshold scalar; nodes under `t` are kept.
struct NodeTest;

static NODE_TEST: AlgoInfo = AlgoInfo::new(
    "node-test",
    "test double: node-unit trace",
    "test",
    NO_PARAMS,
    ONE_PHASE,
);

impl Algorithm for NodeTest {
    fn info(&self) -> &AlgoInfo {
        &NODE_TEST
    }
}

impl Extractor for NodeTest {
    fn run(&self, page: &Page, _: &Params) -> Extraction {
        let t = 0.25;
        let text = page.text();
        let mut nodes: Vec<Range<usize>> = Vec::new();
        let mut quota = Vec::new();
        let mut open: Option<(usize, usize, usize)> = None; // start, text chars, link chars
        let mut in_a = false;
        for s in &page.lexed().spans {
            let is_block = s.tag == Tag::P || s.tag == Tag::Li;
            if s.class == ByteClass::Tag && is_block && s.is_start(s.tag) {
                open = Some((s.start as usize, 0, 0));
            } else if s.class == ByteClass::Tag && is_block {
                if let Some((a, all, link)) = open.take() {
                    nodes.push(a..s.end as usize);
                    quota.push(if all == 0 {
                        0.0
                    } else {
                        link as f64 / all as f64
                    });
                }
            } else if s.class == ByteClass::Tag && s.tag == Tag::A {
                in_a = s.is_start(Tag::A);
            } else if s.class == ByteClass::Text {
                let n = text[s.range()].trim().chars().count();
                if let Some(o) = open.as_mut() {
                    o.1 += n;
                    if in_a {
                        o.2 += n;
                    }
                }
            }
        }
        let kept: Vec<Range<usize>> = (0..nodes.len())
            .filter(|&i| quota[i] < t)
            .map(|i| i..i + 1)
            .collect();
        let sel = Selection::from_ranges(kept.iter().map(|k| nodes[k.start].clone()));
        let trace = Trace {
            series: vec![
                Series::new("q", "link quota", Unit::Node, Role::CombinedSignal, quota)
                    .with_agg(cescope::extract::Agg::Max),
            ],
            scalars: vec![Scalar::new("t", "t", None, Role::Threshold, t)],
            marks: vec![
                Marks::new(
                    "b",
                    "blocks",
                    Unit::Node,
                    Role::Candidates,
                    (0..nodes.len()).map(|i| i..i + 1).collect(),
                ),
                Marks::new("k", "kept blocks", Unit::Node, Role::Selected, kept),
            ],
            positions: vec![Positions {
                unit: Unit::Node,
                ranges: nodes,
            }],
        };
        Extraction {
            selection: sel,
            trace,
        }
    }
}

/// A small page: a menu of links, an article, a footer of links; one element per raw line.
fn links_page() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let menu: String = (0..4)
        .map(|i| format!("<li><a href=\"/s/{i}\">Section {i}</a></li>\n"))
        .collect();
    let html = format!(
        "<html><body>\n<ul>\n{menu}</ul>\n<p>The river rose overnight and the town <a href=\"/t\">council</a> opened the hall for families who had to leave their homes.</p>\n<p>By morning the water had reached the market square and the bridge was closed.</p>\n<ul>\n{menu}</ul>\n</body></html>\n"
    );
    let path = dir.path().join("links.html");
    std::fs::write(&path, html).unwrap();
    (dir, path)
}

fn open_with(path: &Path, e: Arc<dyn Extractor>) -> App {
    let mut app = App::open(path, opts()).unwrap();
    let i = app.add_extractor(e);
    app.set_active(i);
    app
}

/// The names of the active algorithm's phases, in order.
fn phase_names(app: &App) -> Vec<String> {
    let phases = app.active_algo().extractor.phases();
    phases.iter().map(|p| p.name.to_string()).collect()
}

/// `.` until step mode reaches the next phase (an unfolding phase takes several; at the last
/// phase `.` stays put).
fn next_phase(app: &mut App) {
    let start = app.step;
    for _ in 0..1000 {
        keys(app, ".");
        if app.step != start || app.substep.is_none() {
            return;
        }
    }
}

#[test]
fn token_unit_trace_is_drawn_on_lines() {
    let (_dir, path) = links_page();
    let mut app = open_with(&path, Arc::new(TokenTest));
    // The trace fits the page, and the plateau covers the article.
    let x = app.active_algo().result.clone().unwrap();
    let page = app.doc.as_ref().unwrap().page.clone();
    x.trace.validate(&page).unwrap();
    assert!(page.render(&x.selection).contains("market square"));
    // Cursor on the first article line.
    let line = (0..app.line_count())
        .find(|&i| page.text()[app.line_range(i).unwrap()].contains("river rose"))
        .unwrap();
    app.source.set_cursor(line);
    let t = render(&mut app, 100, 30);
    let s = t.backend().to_string();
    // Two-sided: code (tags) left, content (words) right, titled by the series' keys.
    assert!(s.contains("t ◀ │ ▶ w"), "{s}");
    // The explain panel counts the words of that line (tokens aggregated to the line): its
    // text without tags, split at white space.
    let mut plain = String::new();
    let mut in_tag = false;
    for c in page.text()[app.line_range(line).unwrap()].chars() {
        match c {
            '<' => in_tag = true,
            '>' => {
                in_tag = false;
                plain.push(' ');
            }
            c if !in_tag => plain.push(c),
            _ => {}
        }
    }
    let words = plain.split_whitespace().count();
    assert!(words > 10);
    assert!(
        s.contains(&format!(
            "words = {words} (content signal), tags = 2 (code signal)"
        )),
        "{s}"
    );
    assert!(s.contains("in plateau #1"), "{s}");
    // The axis marks the plateau's lines in green.
    let h = app.rects.histogram;
    let axis = h.x + (h.width / 2);
    let row = h.y + (line - app.source.top()) as u16;
    assert_eq!(t.backend().buffer()[(axis, row)].fg, Color::Green);
    tui_snapshot!("token_unit", s);
    // Raw lines: the same tokens aggregate to the physical lines.
    keys(&mut app, "r");
    let s = screen(&mut app, 100, 30);
    assert!(s.contains("raw lines"), "{s}");
}

#[test]
fn node_unit_trace_is_drawn_with_its_threshold() {
    let (_dir, path) = links_page();
    let mut app = open_with(&path, Arc::new(NodeTest));
    let x = app.active_algo().result.clone().unwrap();
    let page = app.doc.as_ref().unwrap().page.clone();
    x.trace.validate(&page).unwrap();
    let text = page.render(&x.selection);
    assert!(
        text.contains("market square") && !text.contains("Section 2"),
        "{text}"
    );
    // Cursor on the `<li>` line of the first menu item (a node with quota 1).
    let line = line_starting(&app, "<li>");
    app.source.set_cursor(line);
    let t = render(&mut app, 100, 30);
    let s = t.backend().to_string();
    // Only a combined signal: the histogram shows it, titled by its label.
    assert!(s.contains("link quota"), "{s}");
    let ex = common::tui::explain_text(&s);
    assert!(ex.contains("link quota = 1 (combined signal)"), "{s}");
    assert!(ex.contains("t = 0.250 (threshold)"), "{s}");
    // A line of markup: the text blocks around it in words, not the node intervals.
    assert!(
        ex.contains("markup only") && ex.contains("text block #1 “Section 0”"),
        "{s}"
    );
    assert!(!ex.contains("in blocks #1"), "{s}");
    // The threshold is a marker line on every row of the page.
    let buf = t.backend().buffer();
    let h = app.rects.histogram;
    let markers = (h.y..h.y + h.height)
        .filter(|&y| (h.x..h.x + h.width).any(|x| buf[(x, y)].symbol() == "┊"))
        .count();
    assert!(
        markers >= app.line_count().min(h.height as usize) - 1,
        "{markers}"
    );
    tui_snapshot!("node_unit", s);
}

#[test]
fn addanag_step_mode_shows_its_filter_step() {
    let mut app = App::open(&sample("wiki-article.html"), opts()).unwrap();
    keys(&mut app, "a");
    assert_eq!(app.active_algo().extractor.phases()[1].name, "filter");
    keys(&mut app, "s");
    let s0 = screen(&mut app, 110, 32);
    assert!(s0.contains("step 1/8 — preprocessing"), "{s0}");
    keys(&mut app, ".");
    // Go to a line whose size the filter changes.
    let x = app.active_algo().result.clone().unwrap();
    let before = &x.trace.series("length").unwrap().values;
    let after = &x.trace.series("filtered").unwrap().values;
    let line = (0..before.len())
        .find(|&i| after[i] < before[i])
        .expect("the wiki page has links");
    app.source.set_cursor(line);
    app.source.set_top(line.saturating_sub(3));
    let t = render(&mut app, 110, 32);
    let s = t.backend().to_string();
    assert!(s.contains("step 2/8 — filter"), "{s}");
    // The filtered size is drawn, the unfiltered one as a marker.
    assert!(s.contains('┊'), "{s}");
    // No region or selection is revealed yet: the axis is plain and the gutter empty.
    let h = app.rects.histogram;
    let axis = h.x + h.width / 2;
    assert!((h.y..h.y + h.height).all(|y| t.backend().buffer()[(axis, y)].symbol() == "│"));
    tui_snapshot!("step_addanag_filter", s);
    // T1 / T2, then the combined signal from smoothing on.
    keys(&mut app, ".");
    assert!(screen(&mut app, 110, 32).contains("step 3/8 — T1 / T2"));
}

/// The string literals of Rust source `code`, comments left out: normal and raw strings (`\"`
/// and `\\` unescaped; other escapes kept as written), not char literals or lifetimes.
fn string_literals(code: &str) -> Vec<String> {
    let c: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let ident = |ch: char| ch.is_alphanumeric() || ch == '_';
    while i < c.len() {
        match c[i] {
            '/' if c.get(i + 1) == Some(&'/') => {
                while i < c.len() && c[i] != '\n' {
                    i += 1;
                }
            }
            '/' if c.get(i + 1) == Some(&'*') => {
                i += 2;
                while i + 1 < c.len() && !(c[i] == '*' && c[i + 1] == '/') {
                    i += 1;
                }
                i += 2;
            }
            // A char literal ('x', '\n', '"'); a lifetime ('a) has no closing quote.
            '\'' => {
                if c.get(i + 1) == Some(&'\\') {
                    i += 2;
                    while i < c.len() && c[i] != '\'' {
                        i += 1;
                    }
                    i += 1;
                } else if c.get(i + 2) == Some(&'\'') {
                    i += 3;
                } else {
                    i += 1;
                }
            }
            // A raw string: r"…", r#"…"#, br"…" (not the end of an identifier such as `for`).
            'r' if (i == 0
                || !ident(c[i - 1])
                || (c[i - 1] == 'b' && (i < 2 || !ident(c[i - 2]))))
                && matches!(c.get(i + 1), Some('"' | '#')) =>
            {
                let mut j = i + 1;
                while c.get(j) == Some(&'#') {
                    j += 1;
                }
                if c.get(j) != Some(&'"') {
                    i += 1;
                    continue;
                }
                let hashes = j - i - 1;
                let close: String = std::iter::once('"')
                    .chain(std::iter::repeat_n('#', hashes))
                    .collect();
                let rest: String = c[j + 1..].iter().collect();
                let end = rest.find(&close).unwrap_or(rest.len());
                out.push(rest[..end].to_string());
                i = j + 1 + rest[..end].chars().count() + 1 + hashes;
            }
            '"' => {
                let mut s = String::new();
                i += 1;
                while i < c.len() && c[i] != '"' {
                    if c[i] == '\\' && matches!(c.get(i + 1), Some('"' | '\\')) {
                        i += 1;
                    } else if c[i] == '\\' {
                        s.push(c[i]);
                        i += 1;
                    }
                    if let Some(&ch) = c.get(i) {
                        s.push(ch);
                    }
                    i += 1;
                }
                out.push(s);
                i += 1;
            }
            _ => i += 1,
        }
    }
    out
}

/// The `.rs` files under `dir`, recursively.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(rust_files(&p));
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
    out.sort();
    out
}

/// The literals of `src` files (name, literal) that name a registered algorithm or headline
/// finder (the whole literal, ASCII case ignored) or a trace item of a registered algorithm
/// (the whole literal).
fn naming_literals(files: &[(String, String)]) -> Vec<String> {
    let page = Page::load(&sample("wiki-article.html"), &Default::default()).unwrap();
    let mut keys: Vec<String> = Vec::new();
    for e in cescope::extractors::registry() {
        let x = e.run(&page, &Params::defaults(e.params()));
        keys.extend(x.trace.keys().map(str::to_string));
    }
    assert!(keys.iter().any(|k| k == "T1"), "{keys:?}");
    let mut names = cescope::extractors::names();
    names.extend(cescope::extractors::headline_names());
    let mut found = Vec::new();
    for (file, code) in files {
        for l in string_literals(code) {
            let t = l.trim();
            if names.iter().any(|n| n.eq_ignore_ascii_case(t)) {
                found.push(format!("{file}: algorithm {t:?}"));
            } else if keys.iter().any(|k| k == t) {
                found.push(format!("{file}: trace item {t:?}"));
            }
        }
    }
    found
}

#[test]
fn string_literals_are_found_outside_comments() {
    let code = "let a = \"one\"; // \"not\"\n/* \"nor\" */ let b = 'x'; let q = '\"'; \
                fn f<'a>(s: &'a str) {} let r = r#\"two \"quoted\"\"#; let e = \"th\\\"ree\\\\\"; \
                for\"four\" in x {}";
    assert_eq!(
        string_literals(code),
        ["one", "two \"quoted\"", "th\"ree\\", "four"]
    );
}

/// The views depend on traces alone: no string literal in `src/tui` is the name of a registered
/// algorithm or headline finder, or the key of a trace item (a view that looked one up by name
/// would need one). Words in the code do not count (an algorithm named `table` is fine).
#[test]
fn tui_has_no_literal_naming_an_algorithm_or_a_trace_item() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/tui");
    let files: Vec<(String, String)> = rust_files(&dir)
        .iter()
        .map(|p| {
            let name = p.strip_prefix(&dir).unwrap().display().to_string();
            (name, std::fs::read_to_string(p).unwrap())
        })
        .collect();
    // The scan is real: it reads the inspector's subfolders and their literals.
    assert!(files.iter().any(|(n, _)| n.starts_with("ui/")), "{files:?}");
    let all: Vec<String> = files.iter().flat_map(|(_, c)| string_literals(c)).collect();
    assert!(all.iter().any(|l| l == "reading view"), "{}", all.len());
    let found = naming_literals(&files);
    assert!(
        found.is_empty(),
        "src/tui names algorithms or trace items: {found:?}"
    );
    // And it would see one.
    let planted = vec![(
        "planted.rs".to_string(),
        "if name == \"DANAg\" {}".to_string(),
    )];
    assert_eq!(
        naming_literals(&planted),
        ["planted.rs: algorithm \"DANAg\""]
    );
}

/// A registered extractor under a never-seen name, every trace key renamed to a never-seen one
/// of the same length (Cyrillic letters, which no sample page and no view has): what the
/// inspector shows for it must be what it shows for the original, once the new names are read
/// back as the old ones.
struct Renamed {
    inner: Arc<dyn Extractor>,
    /// The inner algorithm's info with the new name and the phases revealing the new keys.
    info: AlgoInfo,
    /// (original key, new key), longest new key first.
    keys: Vec<(String, &'static str)>,
}

impl Renamed {
    fn new(inner: Arc<dyn Extractor>, page: &Page) -> Renamed {
        let x = inner.run(page, &Params::defaults(inner.params()));
        let mut old: Vec<String> = x.trace.keys().map(str::to_string).collect();
        for (k, p) in inner.phases().iter().enumerate() {
            old.extend(p.reveals.iter().map(|s| s.to_string()));
            old.extend(
                (inner.capabilities().unfolding)
                    .and_then(|u| u.unfolds(k))
                    .map(|key| key.name().to_string()),
            );
        }
        old.sort();
        old.dedup();
        let glyphs: Vec<char> = "ЖЩФЮЯБГДЛПЦЧШЭЪЫЙИ".chars().collect();
        let g = glyphs.len();
        assert!(old.len() < g * g, "{} keys", old.len());
        let mut keys: Vec<(String, &'static str)> = old
            .into_iter()
            .enumerate()
            .map(|(i, k)| {
                let n = k.chars().count();
                let new: String = std::iter::once(glyphs[i % g])
                    .chain(std::iter::repeat_n(glyphs[i / g], n.saturating_sub(1)))
                    .collect();
                (k, &*Box::leak(new.into_boxed_str()))
            })
            .collect();
        keys.sort_by_key(|(_, new)| std::cmp::Reverse(new.chars().count()));
        let name: String = "Ѣ".repeat(inner.name().chars().count());
        let mut r = Renamed {
            info: AlgoInfo {
                name: name.into(),
                ..inner.info().clone()
            },
            inner,
            keys,
        };
        let phases: Vec<Phase> = r
            .inner
            .phases()
            .iter()
            .map(|p| Phase {
                name: p.name.clone(),
                what: p.what.clone(),
                reveals: Keys::Owned(p.reveals.iter().map(|k| r.new_key(k).to_string()).collect()),
            })
            .collect();
        r.info.phases = phases.into();
        r
    }

    fn new_key(&self, old: &str) -> &'static str {
        let k = self.keys.iter().find(|(o, _)| o == old);
        k.map_or_else(|| panic!("key {old:?} not renamed"), |(_, n)| *n)
    }

    /// `x` with its keys renamed (`forward`) or named back.
    fn rename(&self, x: &Extraction, forward: bool) -> Extraction {
        let map = |k: &mut String| {
            let hit = self
                .keys
                .iter()
                .find(|(o, n)| if forward { o == k } else { n == k });
            if let Some((o, n)) = hit {
                *k = if forward { n.to_string() } else { o.clone() };
            }
        };
        let mut y = x.clone();
        y.trace.series.iter_mut().for_each(|s| map(&mut s.key));
        y.trace.marks.iter_mut().for_each(|m| map(&mut m.key));
        y.trace.scalars.iter_mut().for_each(|s| map(&mut s.key));
        y
    }

    /// A screen of the renamed algorithm with its new name and keys read back as the old ones.
    fn read_back(&self, screen: &str) -> String {
        let mut s = screen.replace(self.name(), self.inner.name());
        for (old, new) in &self.keys {
            s = s.replace(new, old);
        }
        s
    }
}

impl Algorithm for Renamed {
    fn info(&self) -> &AlgoInfo {
        &self.info
    }
}

impl Unfolding for Renamed {
    fn unfolds(&self, step: usize) -> Option<Key<Marks>> {
        (self.inner.capabilities().unfolding?)
            .unfolds(step)
            .map(|k| Key::new(self.new_key(k.name())))
    }
}

impl Extractor for Renamed {
    fn run(&self, page: &Page, params: &Params) -> Extraction {
        self.rename(&self.inner.run(page, params), true)
    }
    fn explain(
        &self,
        page: &Page,
        x: &Extraction,
        at: Location,
        step: Option<Step>,
    ) -> Vec<String> {
        self.inner.explain(page, &self.rename(x, false), at, step)
    }
    fn capabilities(&self) -> Capabilities<'_> {
        Capabilities {
            unfolding: self
                .inner
                .capabilities()
                .unfolding
                .map(|_| self as &dyn Unfolding),
            ..Capabilities::default()
        }
    }
    fn warnings(&self, page: &Page, x: &Extraction) -> Vec<String> {
        self.inner.warnings(page, &self.rename(x, false))
    }
}

/// Every registered algorithm under a never-seen name and never-seen trace keys ([`Renamed`])
/// is drawn, explained, stepped through (phase by phase, span by span) and tabled exactly as
/// the original, on virtual lines, raw lines and the reading view; and the picker and the help
/// list it. So no view depends on an algorithm's name or its keys: the views depend on the
/// trace alone.
#[test]
fn every_algorithm_is_drawn_alike_under_another_name_and_keys() {
    let page = Page::load(&sample("news-article.html"), &Default::default()).unwrap();
    let (w, h) = (160, 48);
    for e in cescope::extractors::registry() {
        let name = e.name();
        let renamed = Arc::new(Renamed::new(Arc::clone(e), &page));
        let mut a = App::open(&sample("news-article.html"), opts()).unwrap();
        let i = a.algos.iter().position(|x| x.extractor.name() == name);
        a.set_active(i.unwrap());
        let mut b = App::open(&sample("news-article.html"), opts()).unwrap();
        let j = b.add_extractor(renamed.clone());
        b.set_active(j);
        let alike = |a: &mut App, b: &mut App, what: &str| {
            let (sa, sb) = (screen(a, w, h), screen(b, w, h));
            assert_eq!(renamed.read_back(&sb), sa, "{name}, {what}: renamed\n{sb}");
            assert_eq!((a.step, a.substep), (b.step, b.substep), "{name}, {what}");
        };
        for app in [&mut a, &mut b] {
            app.source.set_cursor(line_starting(app, "<p>"));
        }
        alike(&mut a, &mut b, "drawn");
        for k in ["b", "\u{1b}r", "w", "w", "r"] {
            keys(&mut a, k);
            keys(&mut b, k);
            alike(&mut a, &mut b, &format!("after {k:?}"));
        }
        keys(&mut a, "s");
        keys(&mut b, "s");
        for n in 0..200 {
            let at = format!("step {:?}.{:?}", a.step, a.substep);
            alike(&mut a, &mut b, &at);
            if n % 3 == 0 {
                keys(&mut a, "b");
                keys(&mut b, "b");
                let at = format!("table at step {:?}", a.step);
                alike(&mut a, &mut b, &at);
                keys(&mut a, "\u{1b}");
                keys(&mut b, "\u{1b}");
            }
            let at = (a.step, a.substep);
            keys(&mut a, ".");
            keys(&mut b, ".");
            if (a.step, a.substep) == at {
                break;
            }
        }
        // Listed: the picker finds it by its new name, the help's legend shows it.
        keys(&mut b, "\u{1b}s?");
        assert!(screen(&mut b, 180, 60).contains(&format!("▌{} ", renamed.name())));
        keys(&mut b, "\u{1b}p");
        type_text(&mut b, renamed.name());
        assert_eq!(b.picker_matches(), [j], "{name}");
        let s = screen(&mut b, w, h);
        let desc: String = renamed.describe().chars().take(40).collect();
        assert!(
            s.contains(&desc),
            "{name}: the picker shows its description\n{s}"
        );
    }
}

/// The registered token-unit algorithm (BTE) and the all-text baseline are drawn by the generic
/// views: BTE's tags left / words right, its plateau green on the axis, its own phases in step
/// mode; `plain` selects every line with text.
#[test]
fn bte_and_plain_from_the_registry_are_drawn() {
    let (_dir, path) = links_page();
    let bte: Arc<dyn Extractor> = cescope::extractors::find("bte").unwrap();
    let mut app = open_with(&path, bte);
    let page = app.doc.as_ref().unwrap().page.clone();
    let line = (0..app.line_count())
        .find(|&i| page.text()[app.line_range(i).unwrap()].contains("river rose"))
        .unwrap();
    app.source.set_cursor(line);
    let t = render(&mut app, 100, 30);
    let s = t.backend().to_string();
    assert!(s.contains("tags ◀ │ ▶ words"), "{s}");
    assert_eq!(axis_colour(&app, &t, line), Color::Green);
    tui_snapshot!("bte", s);
    // Step mode walks BTE's own phases.
    keys(&mut app, "s");
    assert!(screen(&mut app, 100, 30).contains("tokens"));
    keys(&mut app, "..");
    assert!(screen(&mut app, 100, 30).contains("optimum"));

    let plain: Arc<dyn Extractor> = cescope::extractors::find("plain").unwrap();
    let mut app = open_with(&path, plain);
    let x = app.active_algo().result.clone().unwrap();
    assert!(page.render(&x.selection).contains("Section 0"));
    let s = screen(&mut app, 100, 30);
    tui_snapshot!("plain", s);
}

/// The registered node-unit algorithm (LQF) is drawn by the generic views: link characters left,
/// other characters right, the kept blocks green on the axis, its own phases in step mode.
#[test]
fn lqf_from_the_registry_is_drawn() {
    let (_dir, path) = links_page();
    let lqf: Arc<dyn Extractor> = cescope::extractors::find("lqf").unwrap();
    let mut app = open_with(&path, lqf);
    let page = app.doc.as_ref().unwrap().page.clone();
    let x = app.active_algo().result.clone().unwrap();
    let text = page.render(&x.selection);
    assert!(
        text.contains("market square") && !text.contains("Section 0"),
        "{text}"
    );
    let line = line_starting(&app, "<p>");
    app.source.set_cursor(line);
    let t = render(&mut app, 100, 30);
    let s = t.backend().to_string();
    assert!(s.contains("link ◀ │ ▶ text"), "{s}");
    assert_eq!(axis_colour(&app, &t, line), Color::Green);
    tui_snapshot!("lqf", s);
    keys(&mut app, "s");
    assert!(screen(&mut app, 100, 30).contains("blocks"));
    keys(&mut app, "..");
    assert!(screen(&mut app, 100, 30).contains("deletion"));
}

/// Switching algorithms in step mode keeps the step inside the new algorithm's phases (AdDANAg
/// has 8, BTE 4; found by the long soak walk).
#[test]
fn step_mode_survives_switching_to_an_algorithm_with_fewer_phases() {
    let (_dir, path) = links_page();
    let bte: Arc<dyn Extractor> = cescope::extractors::find("bte").unwrap();
    let mut app = App::open(&path, opts()).unwrap();
    let addanag = app
        .algos
        .iter()
        .position(|a| a.extractor.name() == "addanag")
        .unwrap();
    app.set_active(addanag);
    keys(&mut app, "s.......");
    assert_eq!(app.step, Some(7));
    let i = app.add_extractor(bte);
    app.set_active(i);
    assert_eq!(app.step, Some(3));
    assert!(screen(&mut app, 100, 30).contains("extraction"));
}

/// Every registered algorithm, from the registry alone: chosen as the active algorithm it is
/// drawn (snapshot `algo_NAME`), overlaid with every other algorithm at once, stepped through its
/// own phases (each step's header names the phase) and explained at a line of the article.
#[test]
fn every_registered_algorithm_is_drawn_overlaid_stepped_and_explained() {
    for e in cescope::extractors::registry() {
        let name = e.name();
        let mut app = App::open(&sample("news-article.html"), opts()).unwrap();
        let i = app
            .algos
            .iter()
            .position(|a| a.extractor.name() == name)
            .unwrap_or_else(|| panic!("{name} is not offered by the inspector"));
        app.set_active(i);
        assert!(app.active_algo().result.is_some(), "{name} ran");
        app.source.set_cursor(line_starting(&app, "<p>"));
        let s = screen(&mut app, 110, 32);
        assert!(s.contains(name), "{name}: the status names it\n{s}");
        tui_snapshot!(format!("algo_{name}"), s);

        // Overlaid with all the others (each chosen and overlaid with `o`): every
        // algorithm's result is computed and the frame draws without losing the active one.
        for j in 0..app.algos.len() {
            app.set_active(j);
            if !app.algos[j].overlay {
                keys(&mut app, "o");
            }
        }
        app.set_active(i);
        assert!(app.algos.iter().all(|a| a.overlay), "{name}: all overlaid");
        let s = screen(&mut app, 110, 32);
        assert!(s.contains(name), "{name} with all overlays\n{s}");
        assert!(
            app.algos.iter().all(|a| a.result.is_some()),
            "{name}: all ran"
        );

        // Step mode walks its own phases.
        keys(&mut app, "s");
        let n = e.phases().len();
        for (k, p) in e.phases().iter().enumerate() {
            assert_eq!(app.step, Some(k), "{name}");
            let s = screen(&mut app, 110, 32);
            let header = format!("step {}/{n} — {}", k + 1, p.name);
            assert!(s.contains(&header), "{name}: {header:?}\n{s}");
            next_phase(&mut app);
        }
        keys(&mut app, "s");
        assert_eq!(app.step, None, "{name}");

        // Explain names the line it explains.
        let page = app.doc.as_ref().unwrap().page.clone();
        let x = app.active_algo().result.clone().unwrap();
        let said = e.explain(
            &page,
            &x,
            cescope::extract::Location::Byte(app.line_range(app.source.cursor()).unwrap().start),
            None,
        );
        assert!(!said.is_empty(), "{name}: explain says something");
    }
}

/// Step mode at every step of DANAg and AdDANAg, on a line of a region the gap expansion
/// joins: the histogram, gutter and explain text show only what each phase revealed (one
/// snapshot per algorithm holds every step's screen).
#[test]
fn step_mode_at_every_step_of_danag_and_addanag() {
    for name in ["danag", "addanag"] {
        let mut app = App::open(&sample("news-article.html"), opts()).unwrap();
        let i = app
            .algos
            .iter()
            .position(|a| a.extractor.name() == name)
            .unwrap();
        app.set_active(i);
        keys(&mut app, "}}");
        keys(&mut app, "s");
        let n = app.active_algo().extractor.phases().len();
        let mut all = String::new();
        let mut explains = Vec::new();
        for k in 0..n {
            assert_eq!(app.step, Some(k));
            let s = screen(&mut app, 110, 32);
            let explain: String = s
                .lines()
                .skip_while(|l| !l.contains("┌ explain"))
                .collect::<Vec<_>>()
                .join("\n");
            explains.push(explain);
            all.push_str(&format!("=== step {} ===\n{s}\n", k + 1));
            next_phase(&mut app);
        }
        // Each step says something the one before did not (the text grows or changes).
        for w in explains.windows(2) {
            assert_ne!(w[0], w[1], "{name}: two steps explain alike");
        }
        tui_snapshot!(format!("steps_{name}"), all);
    }
}

/// Step mode plays DANAg's gap expansion region by region from the seed: on the teaching page
/// the seed r1 first, then r2 (d = 5 <= gap 20), then the extraction phase.
#[test]
fn gap_expansion_plays_region_by_region() {
    let mut app = App::open(&sample("teaching.html"), opts()).unwrap();
    let names = phase_names(&app);
    let gap = names.iter().position(|n| *n == "gap expansion").unwrap();
    keys(&mut app, "s");
    for _ in 0..gap {
        keys(&mut app, ".");
    }
    assert_eq!((app.step, app.substep), (Some(gap), Some(1)));
    let t = render(&mut app, 110, 32);
    // Only the seed region (lines 9-14) is green on the axis; r2 (18-20) is still a candidate.
    assert_eq!(axis_colour(&app, &t, 12), Color::Yellow, "seed");
    assert_eq!(axis_colour(&app, &t, 18), Color::Blue, "r2 not yet joined");
    let s = t.backend().to_string();
    assert!(s.contains("gap expansion (1 revealed"), "{s}");
    tui_snapshot!("gap_expansion_1", s);
    keys(&mut app, ".");
    assert_eq!((app.step, app.substep), (Some(gap), Some(2)));
    let t = render(&mut app, 110, 32);
    assert_eq!(axis_colour(&app, &t, 18), Color::Green, "r2 joined");
    keys(&mut app, ".");
    assert_eq!((app.step, app.substep), (Some(gap + 1), None));
    // Backwards: into the phase with every region shown, then one fewer.
    keys(&mut app, ",");
    assert_eq!((app.step, app.substep), (Some(gap), Some(2)));
    keys(&mut app, ",");
    assert_eq!(app.substep, Some(1));
}

/// A filter set's members are candidate sets of its trace: the histogram gives each its own
/// column (its number on the lines it selects), revealed member by member in step mode.
#[test]
fn filter_set_members_get_a_column_each() {
    let o = AppOptions {
        algo: "mix4".into(),
        ..opts()
    };
    let mut app = App::open(&sample("news-article.html"), o).unwrap();
    keys(&mut app, "(");
    let s = screen(&mut app, 160, 40);
    assert!(s.contains("columns 1–3: candidate sets"), "{s}");
    assert!(
        s.contains("││123 "),
        "all three members on the first selected line: {s}"
    );
    keys(&mut app, "s.");
    let s = screen(&mut app, 160, 40);
    assert!(s.contains("││12 "), "step 2 reveals two members: {s}");
    assert!(!s.contains("││123"), "{s}");
}

/// Issue 19, item 7: step mode gives nothing away. On the teaching page, with its gold: the
/// status bar shows P / R / F1 only at the extraction (last) step; the seed phase does not say
/// "selected"; at "1 revealed" of the gap expansion a line of r2 is "not reached yet", at "2
/// revealed" it joins; the overview column shows no selection before it is decided; the
/// focused slider is marked.
#[test]
fn step_mode_hides_later_phases_and_the_scores() {
    let mut app = teaching_with_gold();
    let s = screen(&mut app, 110, 32);
    assert!(s.contains("F1 1.000"), "teaching.html has its gold: {s}");
    assert!(s.contains("▸ gap "), "the focused slider is marked: {s}");
    keys(&mut app, "s:19\n");
    let phases = phase_names(&app);
    let mut all = String::new();
    loop {
        let step = app.step.unwrap();
        let s = screen(&mut app, 110, 32);
        all.push_str(&format!("=== {:?} {:?} ===\n{s}\n", app.step, app.substep));
        let status = s.lines().rev().nth(1).unwrap();
        let last = step + 1 == phases.len();
        assert_eq!(
            status.contains("F1 1.000"),
            last,
            "step {}: {status}",
            step + 1
        );
        assert_eq!(s.contains("chars selected"), last, "step {}", step + 1);
        let explain = explain_text(&s);
        // The overview column (the screen's last histogram column) shows the selection only
        // once the gap expansion has revealed it.
        let overview_marked = s.lines().skip(1).take(20).any(|l| {
            let cols: Vec<char> = l.chars().collect();
            cols.len() >= 2 && cols[cols.len() - 2] == '▐'
        });
        match phases[step].as_str() {
            "gap expansion" => match app.substep {
                Some(1) => {
                    assert!(explain.contains("r2 is not reached yet"), "{explain}");
                    assert!(!explain.contains("-> selected"), "{explain}");
                }
                Some(2) => assert!(
                    explain.contains("d(r1, r2) = 5 <= gap 20") && explain.contains("-> selected"),
                    "{explain}"
                ),
                k => panic!("substep {k:?}"),
            },
            "extraction" => assert!(explain.contains("-> selected"), "{explain}"),
            _ => {
                assert!(!explain.contains("selected"), "{}: {explain}", phases[step]);
                assert!(!overview_marked, "{}: overview\n{s}", phases[step]);
            }
        }
        if last {
            break;
        }
        keys(&mut app, ".");
    }
    // The seed phase names the seed without the verdict, also on the seed's own lines.
    keys(&mut app, "s");
    keys(&mut app, "s....:14\n");
    assert_eq!(phases[app.step.unwrap()], "seed");
    let explain = explain_text(&screen(&mut app, 110, 32));
    assert!(
        explain.contains("r1 is the seed region") && !explain.contains("selected"),
        "{explain}"
    );
    tui_snapshot!("teaching_steps", all);
}

/// The shipped learned model is in the inspector's algorithm list without `--algo` (after the
/// registered algorithms), chosen like any other, and shows its probability signal.
#[test]
fn the_shipped_learned_model_is_in_the_list() {
    let mut app = App::open(&sample("news-article.html"), opts()).unwrap();
    let names: Vec<&str> = app.algos.iter().map(|a| a.extractor.name()).collect();
    let at = names.iter().position(|n| *n == "learned");
    assert_eq!(at, Some(cescope::extractors::names().len()), "{names:?}");
    keys(&mut app, "p");
    type_text(&mut app, "learned");
    keys(&mut app, "\n");
    assert_eq!(app.active_algo().extractor.name(), "learned");
    let s = screen(&mut app, 120, 40);
    assert!(s.contains("learned"), "{s}");
    let r = app.active_algo().result.as_ref().expect("learned ran");
    assert!(!r.selection.is_empty());
}
