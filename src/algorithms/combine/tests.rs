use std::borrow::Cow;
use std::path::Path;

use super::*;
use crate::extract::{ParamKind, StaticInfo, NO_PARAMS, ONE_PHASE};

/// The algorithm or shipped set named `name` (what a set file's `algo = NAME` finds).
fn find(name: &str) -> Result<Arc<dyn Extractor>> {
    Member::named(name).map(|m| match m.kind {
        MemberKind::Algo(e) => e,
        MemberKind::Set(s) => Arc::new(*s),
    })
}

/// A fake extractor that selects fixed byte ranges, shifted right by its parameter `shift`
/// (bytes), on whatever page it is given.
struct Fixed {
    info: AlgoInfo,
    ranges: Vec<Range<usize>>,
}

const SHIFT: ParamSpec = ParamSpec {
    name: Cow::Borrowed("shift"),
    kind: ParamKind::Int {
        min: 0,
        max: 100,
        step: 1,
    },
    default: ParamValue::Int(0),
    help: "test",
    source: "test",
};

impl Algorithm for Fixed {
    fn info(&self) -> &AlgoInfo {
        &self.info
    }
}

impl Extractor for Fixed {
    fn run(&self, _page: &Page, params: &Params) -> Extraction {
        let s = params.read::<i64>(&SHIFT) as usize;
        Extraction {
            selection: Selection::from_ranges(self.ranges.iter().map(|r| r.start + s..r.end + s)),
            trace: Trace::default(),
        }
    }
}

/// A fake extractor whose decision depends on the page it runs on: it selects all content
/// text when the page has more than 20 non-blank content bytes, else nothing.
struct Crowded;

static CROWDED: AlgoInfo = AlgoInfo::new(
    "crowded",
    "all or nothing (test)",
    "test",
    NO_PARAMS,
    ONE_PHASE,
);

impl StaticInfo for Crowded {
    const INFO: &'static AlgoInfo = &CROWDED;
}

impl Extractor for Crowded {
    fn run(&self, page: &Page, _: &Params) -> Extraction {
        let text = page.text().as_bytes();
        let all = page.content_text();
        let n: usize = all
            .ranges()
            .iter()
            .map(|r| text[r.clone()].iter().filter(|b| **b != b' ').count())
            .sum();
        Extraction {
            selection: if n > 20 { all } else { Selection::new() },
            trace: Trace::default(),
        }
    }
}

/// Content text at bytes 3..43.
fn page40() -> Page {
    Page::from_text("t.html", format!("<p>{}</p>", "abcdefghij".repeat(4)))
}

fn fixed(name: &'static str, ranges: &[Range<usize>]) -> Member {
    Member::algo(Arc::new(Fixed {
        info: AlgoInfo {
            params: Cow::Borrowed(std::slice::from_ref(&SHIFT)),
            ..AlgoInfo::new(name, "fixed ranges (test)", "test", NO_PARAMS, ONE_PHASE)
        },
        ranges: ranges.to_vec(),
    }))
}

fn run_default(s: &FilterSet, page: &Page) -> Extraction {
    s.run(page, &Params::defaults(s.params()))
}

#[test]
fn union_intersection_and_weighted_vote_on_hand_made_selections() {
    let page = page40();
    let members = || {
        vec![
            fixed("a", &[3..10]),
            fixed("b", &[8..20]),
            fixed("c", &[15..30]).with_weight(2.0),
        ]
    };
    let u = FilterSet::new("u", None, Combine::Union, members()).unwrap();
    assert_eq!(run_default(&u, &page).selection.ranges(), &[3..30]);
    let i = FilterSet::new("i", None, Combine::Intersection, members()).unwrap();
    assert!(run_default(&i, &page).selection.is_empty());
    let i2 = FilterSet::new(
        "i2",
        None,
        Combine::Intersection,
        members().into_iter().take(2).collect(),
    )
    .unwrap();
    assert_eq!(run_default(&i2, &page).selection.ranges(), &[8..10]);
    // Per byte: 3..8 a (1), 8..10 a+b (2), 10..15 b (1), 15..20 b+c (3), 20..30 c (2).
    let v = FilterSet::new("v", None, Combine::Vote { threshold: 2.0 }, members()).unwrap();
    assert_eq!(run_default(&v, &page).selection.ranges(), &[8..10, 15..30]);
    let v3 = FilterSet::new("v3", None, Combine::Vote { threshold: 3.0 }, members()).unwrap();
    assert_eq!(run_default(&v3, &page).selection.ranges(), &[15..20]);
    // Selections are normalised first: markup a member selects does not count.
    let n = FilterSet::new("n", None, Combine::Union, vec![fixed("m", &[0..5])]).unwrap();
    assert_eq!(run_default(&n, &page).selection.ranges(), &[3..5]);
}

#[test]
fn serial_runs_each_member_on_the_page_left_by_the_previous() {
    let page = page40();
    // Alone, Crowded keeps all 40 content bytes.
    assert_eq!(
        Crowded.run(&page, &Params::default()).selection.ranges(),
        &[3..43]
    );
    // After a member that keeps 7 bytes, it sees a page with 7 non-blank bytes: nothing.
    let s = FilterSet::new(
        "s",
        None,
        Combine::Serial,
        vec![fixed("a", &[3..10]), Member::algo(Arc::new(Crowded))],
    )
    .unwrap();
    assert!(run_default(&s, &page).selection.is_empty());
    // After one that keeps 30, it selects everything it sees, but blanked text never comes
    // back: the result is the first member's 30 bytes.
    let s = FilterSet::new(
        "s",
        None,
        Combine::Serial,
        vec![fixed("a", &[3..33]), Member::algo(Arc::new(Crowded))],
    )
    .unwrap();
    let x = run_default(&s, &page);
    assert_eq!(x.selection.ranges(), &[3..33]);
    x.trace.validate(&page).unwrap();
    let e = s.explain(&page, &x, Location::Byte(40), None);
    assert!(
        e.iter().any(|l| l.contains("stage 1 a did not select it")),
        "{e:?}"
    );
}

/// An article whose two paragraphs have a list of related links between them, inside the
/// article, with a navigation bar before and a footer after.
///
/// BTE alone (one continuous token range maximising tags outside + words inside) keeps the
/// link list: its four items cost 16 tag tokens against 12 words, far fewer than the ~50 words
/// on each side gain, so the best range runs from the first paragraph to the second across the
/// list. LQF deletes every block whose link quota (linked / all characters of its own text)
/// exceeds 0.25: each `<li>` is all link text (quota 1), the paragraphs have none. On the page
/// left by LQF the list's words are blanked, and BTE's range on that page cannot bring them back.
const ARTICLE_WITH_LINK_LIST: &str = "<html><body>\
<div><a href=\"/\">Home</a> <a href=\"/world\">World</a> <a href=\"/sport\">Sport</a></div>\
<article><h1>Bridge approved</h1>\
<p>The city council approved the new bridge across the river on Tuesday evening after a long \
and heated debate about its cost, its design and the years of building work that residents \
along both banks will have to live with before the first cars and buses can cross it.</p>\
<ul><li><a href=\"/a\">Related: old bridge closed</a></li><li><a href=\"/b\">Related: river \
levels rise</a></li><li><a href=\"/c\">Related: council budget vote</a></li><li><a href=\"/d\">\
Related: new bus routes</a></li></ul>\
<p>Work is expected to start in the spring and should take about two years, officials said, \
while a temporary ferry will carry pedestrians and cyclists between the two landing stages \
near the market square until the bridge is finished and opened to all traffic in the city.</p>\
</article>\
<div><a href=\"/imprint\">Imprint</a> <a href=\"/privacy\">Privacy</a></div>\
</body></html>";

#[test]
fn serial_lqf_bte_differs_from_bte_alone_where_lqf_removes_a_link_list() {
    let page = Page::from_text("article.html", ARTICLE_WITH_LINK_LIST);
    let bte = find("bte").unwrap();
    let alone = page.render(&bte.run(&page, &Params::default()).selection);
    let set = find("lqf_bte").unwrap();
    let x = set.run(&page, &Params::defaults(set.params()));
    x.trace.validate(&page).unwrap();
    let serial = page.render(&x.selection);
    assert!(alone.contains("river levels rise"), "BTE alone: {alone}");
    assert!(alone.contains("approved the new bridge"), "{alone}");
    assert!(!serial.contains("river levels rise"), "LQF_BTE: {serial}");
    assert!(serial.contains("approved the new bridge"), "{serial}");
    assert!(serial.contains("temporary ferry"), "{serial}");
    // The explain panel says where in the chain the list was removed.
    let at = ARTICLE_WITH_LINK_LIST.find("river levels").unwrap();
    let e = set.explain(&page, &x, Location::Byte(at), None);
    assert!(e.iter().any(|l| l.contains("stage 1 lqf")), "{e:?}");
}

/// The two paragraphs of [`article_with_long_link_list`], 60 words each.
const BRIDGE_1: &str = "The city council approved the new bridge across the river on Tuesday \
evening after a long and heated debate about its cost, its design and the years of building \
work that residents along both banks will have to live with before the first cars, buses and \
bicycles can finally cross it without taking the long detour through the old town.";
const BRIDGE_2: &str = "Work is expected to start in the spring and should take about two \
years, officials said, while a temporary ferry will carry pedestrians and cyclists between the \
two landing stages near the market square until the bridge is finished, inspected by the \
engineers of the regional transport authority and opened to all traffic in the city next \
summer, weather permitting.";

/// An article (two paragraphs of 60 words) with a list of 15 related links between them — 62
/// tags (`<ul>`, and `<li>`, `<a>`, `</a>`, `</li>` per item) and 45 link words —, a
/// navigation bar before it and a footer after it (the issue's page, Weissig & Gottron
/// section 5: "LQF removes navigation menus and links lists that are embedded into the main
/// content. Hence, BTE can afterwards detect a continuous region of main content more easily").
///
/// BTE alone takes the list in: across it, 45 words against 62 tags cost 17, and the second
/// paragraph gains 60. LQF removes the list (every `<li>` is link text only). If its 62 tags
/// stayed on the page BTE sees next, crossing them would cost 62 against the second
/// paragraph's 60, and LQF_BTE would keep one paragraph.
fn article_with_long_link_list() -> String {
    let topics = [
        "bridge",
        "river",
        "council",
        "budget",
        "ferry",
        "traffic",
        "market",
        "spring",
        "cyclists",
        "engineers",
        "detour",
        "harbour",
        "tram",
        "parking",
        "election",
    ];
    let list: String = topics
        .iter()
        .enumerate()
        .map(|(i, t)| format!("<li><a href=\"/r{i}\">Related: {t} news</a></li>"))
        .collect();
    format!(
        "<html><head><title>Bridge approved</title></head><body>\
         <div><a href=\"/\">Home</a> <a href=\"/world\">World</a> <a href=\"/sport\">Sport</a> \
         <a href=\"/city\">City</a></div>\
         <article><p>{BRIDGE_1}</p><ul>{list}</ul><p>{BRIDGE_2}</p></article>\
         <div><a href=\"/imprint\">Imprint</a> <a href=\"/privacy\">Privacy</a></div>\
         </body></html>"
    )
}

fn words(s: &str) -> Vec<&str> {
    s.split_whitespace().collect()
}

#[test]
fn lqf_bte_keeps_the_whole_article_around_a_removed_link_list() {
    let html = article_with_long_link_list();
    let page = Page::from_text("bridge.html", html.as_str());
    let article = format!("{BRIDGE_1} {BRIDGE_2}");
    assert_eq!(words(&article).len(), 120);
    // BTE alone keeps both paragraphs and the list between them.
    let bte = find("bte").unwrap();
    let alone = page.render(&bte.run(&page, &Params::default()).selection);
    assert!(
        alone.contains(BRIDGE_1) && alone.contains(BRIDGE_2),
        "{alone}"
    );
    assert!(alone.contains("Related: tram news"), "{alone}");
    // LQF removes the list; BTE then runs on a page without the list's markup either.
    let set = find("lqf_bte").unwrap();
    let x = set.run(&page, &Params::defaults(set.params()));
    x.trace.validate(&page).unwrap();
    let serial = page.render(&x.selection);
    assert_eq!(words(&serial), words(&article), "LQF_BTE kept: {serial}");
    // With the text-only mask the list's 62 tags stay, and BTE cuts the article at them.
    let text_only = find_set("lqf_bte").with_removal(Removal::Text);
    let y = run_default(&text_only, &page);
    let cut = page.render(&y.selection);
    assert_eq!(words(&cut), words(BRIDGE_1), "remove = text kept: {cut}");
    // The phase and the explanation of the second member say what it ran on.
    let what = |s: &FilterSet| s.phases()[1].what.to_string();
    assert!(what(&find_set("lqf_bte")).contains("tags and all"));
    assert!(what(&text_only).contains("all tags kept"));
}

#[test]
fn remove_is_read_written_and_checked() {
    let text = "combine = \"serial\"\nremove = \"text\"\n[[member]]\nalgo = \"lqf\"\n\
                [[member]]\nalgo = \"bte\"\n";
    let s = parse(text, Path::new(".")).unwrap();
    assert_eq!(s.removal(), Removal::Text);
    assert!(s.to_toml().contains("remove = \"text\""), "{}", s.to_toml());
    assert_eq!(
        parse(&s.to_toml(), Path::new(".")).unwrap().removal(),
        Removal::Text
    );
    // The shipped sets remove nodes; the with_params copy keeps the choice.
    let lqf_bte = find_set("lqf_bte");
    assert_eq!(lqf_bte.removal(), Removal::Nodes);
    assert!(lqf_bte.to_toml().contains("remove = \"nodes\""));
    let p = Params::defaults(s.params());
    assert_eq!(s.with_params(&p).removal(), Removal::Text);
    // Pruning parses the page, so a serial set of line-based members needs the DOM; a
    // parallel one does not.
    assert!(find_set("3xdsc").needs_dom());
    assert!(!find_set("mix1").needs_dom());
    assert!(!find_set("3xdsc").with_removal(Removal::Text).needs_dom());
    assert!(matches!(
        err("combine = \"union\"\nremove = \"text\"\n[[member]]\nalgo = \"lqf\"\n"),
        SetError::Invalid { message, .. } if message.contains("serial")
    ));
    assert!(matches!(
        err("combine = \"serial\"\nremove = \"tags\"\n[[member]]\nalgo = \"lqf\"\n"),
        SetError::BadValue { message, .. } if message.contains("nodes or text")
    ));
    assert!(matches!(
        err("combine = \"serial\"\n[[member]]\nalgo = \"lqf\"\nremove = \"text\"\n"),
        SetError::Invalid { at, .. } if at == "member 1"
    ));
}

#[test]
fn nested_sets_and_prefixed_params() {
    let page = page40();
    let inner = FilterSet::new(
        "inner",
        None,
        Combine::Union,
        vec![fixed("a", &[3..5]), fixed("b", &[10..12])],
    )
    .unwrap();
    let outer = FilterSet::new(
        "outer",
        None,
        Combine::Intersection,
        vec![fixed("c", &[3..20]), Member::set(inner)],
    )
    .unwrap();
    let names: Vec<&str> = outer.params().iter().map(|s| s.name.as_ref()).collect();
    assert_eq!(names, ["1.shift", "2.1.shift", "2.2.shift"]);
    assert_eq!(
        run_default(&outer, &page).selection.ranges(),
        &[3..5, 10..12]
    );
    // `--set 2.2.shift=10` moves only b: 20..22 falls outside c.
    let mut p = Params::defaults(outer.params());
    p.set_str(outer.params(), "2.2.shift=10").unwrap();
    assert_eq!(outer.run(&page, &p).selection.ranges(), &[3..5]);
    assert!(p.set_str(outer.params(), "3.shift=1").is_err());
    assert!(p.set_str(outer.params(), "shift=1").is_err());
    // Baked in, the value becomes the default.
    let baked = outer.with_params(&p);
    let spec = baked
        .params()
        .iter()
        .find(|s| s.name == "2.2.shift")
        .unwrap();
    assert_eq!(spec.default, ParamValue::Int(10));
    assert_eq!(run_default(&baked, &page).selection.ranges(), &[3..5]);
}

const NESTED: &str = r#"
name = "nested"
combine = "serial"

[[member]]
combine = "union"
[[member.member]]
algo = "bte"
[[member.member]]
algo = "lqf"
params = { t = 0.5 }

[[member]]
algo = "dsc"
"#;

#[test]
fn nested_toml_runs_like_its_parts() {
    let set = parse(NESTED, Path::new(".")).unwrap();
    let spec = set.params().iter().find(|s| s.name == "1.2.t").unwrap();
    assert_eq!(spec.default, ParamValue::Float(0.5));
    let page = Page::from_text("article.html", ARTICLE_WITH_LINK_LIST);
    let lqf = find("lqf").unwrap();
    let mut lp = Params::defaults(lqf.params());
    lp.set_str(lqf.params(), "t=0.5").unwrap();
    let first = page
        .normalize(
            &find("bte")
                .unwrap()
                .run(&page, &Params::default())
                .selection,
        )
        .union(&page.normalize(&lqf.run(&page, &lp).selection));
    let dsc = find("dsc").unwrap();
    let second = page
        .normalize(
            &dsc.run(&page.masked(&first), &Params::defaults(dsc.params()))
                .selection,
        )
        .intersection(&first);
    let x = set.run(&page, &Params::defaults(set.params()));
    assert_eq!(x.selection, second);
    assert_eq!(set.members()[0].extractor().name(), "union(bte,lqf)");
}

#[test]
fn set_files_include_other_files_and_refuse_cycles_and_depth() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("inner.toml"),
        "combine = \"union\"\n[[member]]\nalgo = \"bte\"\n[[member]]\nalgo = \"lqf\"\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("outer.toml"),
        "combine = \"vote\"\nthreshold = 2\n[[member]]\nset = \"inner.toml\"\nweight = 2\n\
         params = { \"2.t\" = 0.75 }\n[[member]]\nalgo = \"dsc\"\n",
    )
    .unwrap();
    let s = load(&dir.path().join("outer.toml")).unwrap();
    assert_eq!(s.name(), "outer");
    assert_eq!(s.members()[0].extractor().name(), "inner");
    assert_eq!(s.members()[0].weight(), 2.0);
    let spec = s.params().iter().find(|p| p.name == "1.2.t").unwrap();
    assert_eq!(spec.default, ParamValue::Float(0.75));
    // Written inline, it reads back to the same parameters.
    let back = parse(&s.to_toml(), dir.path()).unwrap();
    assert_eq!(back.params(), s.params());

    std::fs::write(
        dir.path().join("self.toml"),
        "combine = \"union\"\n[[member]]\nset = \"self.toml\"\n",
    )
    .unwrap();
    let e = load(&dir.path().join("self.toml")).unwrap_err();
    assert!(
        matches!(
            &e,
            Error::FilterSet {
                source: SetError::Cycle { .. },
                ..
            }
        ),
        "{e}"
    );
    for k in 0..=MAX_DEPTH + 1 {
        std::fs::write(
            dir.path().join(format!("d{k}.toml")),
            format!(
                "combine = \"union\"\n[[member]]\nset = \"d{}.toml\"\n",
                k + 1
            ),
        )
        .unwrap();
    }
    std::fs::write(
        dir.path().join(format!("d{}.toml", MAX_DEPTH + 2)),
        "combine = \"union\"\n[[member]]\nalgo = \"bte\"\n",
    )
    .unwrap();
    let e = load(&dir.path().join("d0.toml")).unwrap_err();
    assert!(
        matches!(
            &e,
            Error::FilterSet {
                source: SetError::TooDeep { .. },
                ..
            }
        ),
        "{e}"
    );
    let e = load(&dir.path().join("missing.toml")).unwrap_err();
    assert!(
        matches!(
            &e,
            Error::FilterSet {
                source: SetError::Io { .. },
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn to_toml_round_trips() {
    for s in shipped() {
        let text = s.to_toml();
        let back = parse(&text, Path::new(".")).unwrap();
        assert_eq!(back.name(), s.name());
        assert_eq!(back.describe(), s.describe());
        assert_eq!(back.params(), s.params(), "{}", s.name());
        assert_eq!(back.combine(), s.combine());
        let w: Vec<f64> = back.members().iter().map(|m| m.weight()).collect();
        let w0: Vec<f64> = s.members().iter().map(|m| m.weight()).collect();
        assert_eq!(w, w0);
        assert_eq!(back.to_toml(), text);
    }
    // Values given through --set and baked in are written and read back.
    let mix = find_set("mix4");
    let mut p = Params::defaults(mix.params());
    p.set_str(mix.params(), "3.r=25").unwrap();
    p.set_str(mix.params(), "1.window=7").unwrap();
    let baked = mix.with_params(&p);
    let back = parse(&baked.to_toml(), Path::new(".")).unwrap();
    assert_eq!(back.params(), baked.params());
    let r = back.params().iter().find(|s| s.name == "3.r").unwrap();
    assert_eq!(r.default, ParamValue::Int(25));
    let nested = parse(NESTED, Path::new(".")).unwrap();
    let back = parse(&nested.to_toml(), Path::new(".")).unwrap();
    assert_eq!(back.params(), nested.params());
    assert_eq!(back.to_toml(), nested.to_toml());
}

fn find_set(name: &str) -> FilterSet {
    shipped()
        .iter()
        .find(|s| s.name() == name)
        .cloned()
        .unwrap_or_else(|| panic!("{name} is not shipped"))
}

fn err(text: &str) -> SetError {
    match parse(text, Path::new(".")) {
        Err(Error::FilterSet { source, .. }) => source,
        Err(e) => panic!("other error {e}"),
        Ok(s) => panic!("parsed: {s:?}"),
    }
}

#[test]
fn bad_set_files_get_one_line_errors() {
    let cases = [
        "combine = \"serial\"\n[[member]]\nalgo = \"nope\"\n",
        "combine = \"serial\"\n[[member]]\nalgo = \"lqf\"\nparams = { q = 1 }\n",
        "combine = \"serial\"\n[[member]]\nalgo = \"lqf\"\nparams = { t = 7.5 }\n",
        "combine = \"serial\"\n[[member]]\nalgo = \"lqf\"\nparams = { t = \"x\" }\n",
        "combine = \"serial\"\n",
        "combine = \"vote\"\n[[member]]\nalgo = \"lqf\"\n",
        "combine = \"serial\"\nthreshold = 1\n[[member]]\nalgo = \"lqf\"\n",
        "combine = \"union\"\n[[member]]\nalgo = \"lqf\"\nweight = 2\n",
        "combine = \"vote\"\nthreshold = 1\n[[member]]\nalgo = \"lqf\"\nweight = -1\n",
        "combine = \"mix\"\n[[member]]\nalgo = \"lqf\"\n",
        "[[member]]\nalgo = \"lqf\"\n",
        "combine = \"union\"\n[[member]]\nparams = { t = 1 }\n",
        "combine = \"union\"\n[[member]]\nalgo = \"lqf\"\nset = \"x.toml\"\n",
        "combine = \"union\"\ncolour = 1\n[[member]]\nalgo = \"lqf\"\n",
        "combine = = \n",
    ];
    let errs: Vec<SetError> = cases.iter().map(|c| err(c)).collect();
    assert!(
        matches!(&errs[0], SetError::UnknownAlgorithm { known, .. } if known.contains("lqf") && known.contains("mix4"))
    );
    assert!(matches!(&errs[1], SetError::UnknownParam { known, .. } if known.contains('t')));
    assert!(matches!(&errs[2], SetError::BadValue { message, .. } if message.contains("range")));
    assert!(matches!(&errs[3], SetError::BadValue { .. }));
    assert!(matches!(&errs[4], SetError::Empty { .. }));
    assert!(matches!(&errs[5], SetError::VoteWithoutThreshold { .. }));
    assert!(matches!(&errs[6], SetError::Invalid { .. }));
    assert!(matches!(&errs[7], SetError::Invalid { at, .. } if at == "member 1"));
    assert!(matches!(&errs[8], SetError::BadValue { .. }));
    assert!(matches!(&errs[9], SetError::Invalid { .. }));
    assert!(matches!(&errs[10], SetError::Invalid { .. }));
    assert!(matches!(&errs[11], SetError::Invalid { .. }));
    assert!(matches!(&errs[12], SetError::Invalid { .. }));
    assert!(matches!(&errs[13], SetError::Toml(_)));
    assert!(matches!(&errs[14], SetError::Toml(_)));
    for e in &errs {
        assert!(!e.to_string().contains('\n'), "{e}");
    }
    let many: String = std::iter::once("combine = \"union\"\n".to_string())
        .chain((0..=MAX_MEMBERS).map(|_| "[[member]]\nalgo = \"bte\"\n".to_string()))
        .collect();
    assert!(matches!(err(&many), SetError::TooManyMembers { .. }));
    // Nested errors name the member path.
    let e = err(
        "combine = \"union\"\n[[member]]\ncombine = \"union\"\n[[member.member]]\nalgo = \"x\"\n",
    );
    assert!(
        matches!(&e, SetError::UnknownAlgorithm { at, .. } if at == "member 1.1"),
        "{e}"
    );
}

#[test]
fn shipped_sets_match_section_5() {
    let names: Vec<&str> = shipped().iter().map(|s| s.name()).collect();
    assert_eq!(
        names,
        [
            "3xdsc",
            "3xbte",
            "3xaccb-r40",
            "lqf_dsc",
            "lqf_bte",
            "lqf_accb-r40",
            "mix1",
            "mix2",
            "mix3",
            "mix4"
        ]
    );
    let members = |n: &str| -> Vec<String> {
        find_set(n)
            .members()
            .iter()
            .map(|m| m.extractor().name().to_string())
            .collect()
    };
    for (n, m) in [
        ("3xdsc", ["dsc", "dsc", "dsc"].as_slice()),
        ("3xbte", &["bte", "bte", "bte"]),
        ("3xaccb-r40", &["accb", "accb", "accb"]),
        ("lqf_dsc", &["lqf", "dsc"]),
        ("lqf_bte", &["lqf", "bte"]),
        ("lqf_accb-r40", &["lqf", "accb"]),
    ] {
        assert_eq!(members(n), m, "{n}");
        assert_eq!(find_set(n).combine(), Combine::Serial, "{n}");
    }
    for n in ["mix1", "mix2", "mix3", "mix4"] {
        assert_eq!(members(n), ["dsc", "bte", "accb"], "{n}");
    }
    assert_eq!(find_set("mix1").combine(), Combine::Union);
    assert_eq!(find_set("mix2").combine(), Combine::Intersection);
    assert_eq!(find_set("mix3").combine(), Combine::Vote { threshold: 2.0 });
    assert_eq!(find_set("mix4").combine(), Combine::Vote { threshold: 2.0 });
    let w = |n: &str| -> Vec<f64> { find_set(n).members().iter().map(|m| m.weight()).collect() };
    assert_eq!(w("mix3"), [1.0, 1.0, 1.0]);
    assert_eq!(w("mix4"), [1.0, 1.0, 2.0]);
    // Every ACCB member runs with r = 40 (ACCB-R40).
    for s in shipped() {
        for spec in s.params().iter().filter(|p| p.name.ends_with(".r")) {
            assert_eq!(
                spec.default,
                ParamValue::Int(40),
                "{} {}",
                s.name(),
                spec.name
            );
        }
        assert_eq!(
            s.params().iter().filter(|p| p.name.ends_with(".r")).count(),
            members(s.name()).iter().filter(|m| **m == "accb").count()
        );
        assert!(shipped_text(s.name()).is_some());
    }
    assert!(find("MIX4").is_ok());
}

#[test]
fn trace_rows_phases_and_vote_explain() {
    let page = Page::from_text("article.html", ARTICLE_WITH_LINK_LIST);
    let mix = find("mix4").unwrap();
    let phases: Vec<&str> = mix.phases().iter().map(|p| p.name.as_ref()).collect();
    assert_eq!(phases, ["1 dsc", "2 bte", "3 accb", "merge", "result"]);
    let x = mix.run(&page, &Params::defaults(mix.params()));
    x.trace.validate(&page).unwrap();
    // Each member row is that member's normal-form selection on the page.
    let bte = find("bte").unwrap();
    let b = page.normalize(&bte.run(&page, &Params::default()).selection);
    assert_eq!(x.trace.marks("member2").unwrap().spans, b.ranges());
    assert_eq!(x.trace.scalar("threshold"), Some(2.0));
    assert_eq!(
        x.trace.marks("selected").unwrap().spans,
        x.selection.ranges()
    );
    let at = ARTICLE_WITH_LINK_LIST.find("temporary ferry").unwrap();
    let e = mix.explain(&page, &x, Location::Byte(at), None);
    assert!(
        e.iter()
            .any(|l| l.starts_with("3 accb: ") && l.contains("weight 2")),
        "{e:?}"
    );
    assert!(e.iter().any(|l| l.contains("threshold 2")), "{e:?}");
    // The set owns its phases: the same set gives the same phases.
    assert_eq!(mix.phases(), find("mix4").unwrap().phases());
}
