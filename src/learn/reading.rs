//! How to read a learned model's feature values: for each feature family — the shallow text
//! features of a block and its neighbours ([`super::shallow`]), the DOM context
//! ([`super::context::BlockContext`]: distances, shares, counts, flags), the guideline's unit
//! kinds and the member extractors' verdicts ([`super::stack`]) — what a value means, in words. Explanations print a
//! feature as its reading with the raw name and value after it, so `tag_h3 0` (a *distance* of
//! 0 levels, not "no h3") reads "inside an h3 (0 levels up)" and `tag_h3 64` "no h3 around".
//!
//! [`FAMILIES`] is the table (pattern, how to read it, the wording); [`read`] words one value.
//! A name no family knows reads as itself (`name value`).

use super::context::NONE;
use super::shallow::fmt;

/// One family of feature names and how to read its values.
pub struct Family {
    /// The names it covers: a literal name, or a pattern with one `*` standing for the part
    /// that varies (`tag_*`: `tag_h3`, `tag_li`, …).
    pub pattern: &'static str,
    /// How a value reads, for the documentation and the README.
    pub reads: &'static str,
    /// The wording of value `v` of the feature whose `*` part is `stem` (empty for a literal
    /// pattern).
    word: fn(stem: &str, v: f64) -> String,
}

impl Family {
    /// The `*` part of `name` when the family covers it.
    fn stem<'a>(&self, name: &'a str) -> Option<&'a str> {
        match self.pattern.split_once('*') {
            None => (self.pattern == name).then_some(""),
            Some((pre, post)) => name
                .strip_prefix(pre)?
                .strip_suffix(post)
                .filter(|s| !s.is_empty()),
        }
    }
}

/// `a` or `an` before a tag or word: `an h3`, `an li`, `an article`, `a nav`.
fn article(word: &str) -> &'static str {
    let mut c = word.chars();
    match (c.next(), c.next()) {
        (Some('a' | 'e' | 'i' | 'o'), _) => "an",
        (Some('h'), Some(d)) if d.is_ascii_digit() => "an",
        (Some('l'), Some('i')) => "an",
        _ => "a",
    }
}

/// A share in `[0, 1]` as a percentage, `37%`.
fn pct(v: f64) -> String {
    format!("{:.0}%", v * 100.0)
}

/// `n levels up` (`1 level up`, `its own element` for 0).
fn levels(v: f64) -> String {
    if v == 1.0 {
        "1 level up".to_string()
    } else {
        format!("{} levels up", fmt(v))
    }
}

/// Is `v` the "none around" value of a distance ([`NONE`])?
fn none(v: f64) -> bool {
    v >= f64::from(NONE)
}

/// `s` for plural counts.
fn plural(v: f64) -> &'static str {
    if v == 1.0 {
        ""
    } else {
        "s"
    }
}

/// A shallow text feature ([`super::shallow::BASE_FEATURES`]) of the block itself.
fn base(f: &str, v: f64) -> String {
    let n = fmt(v);
    match f {
        "num_words" => format!("{n} word{}", plural(v)),
        "avg_word_length" => format!("words of {n} characters on average"),
        "avg_sentence_length" => format!("sentences of {n} words on average"),
        "link_density" => format!("{} of its words in links", pct(v)),
        "text_density" => format!("{n} words per 80-column line"),
        "upper_ratio" => format!("{} of its words capitalised", pct(v)),
        "full_stop_ratio" => format!("{n} full stops per word"),
        "date_tokens" => format!("{n} date token{}", plural(v)),
        "vertical_bars" => format!("{n} vertical bar{}", plural(v)),
        tag => {
            if v > 0.0 {
                format!("inside {} {tag}", article(tag))
            } else {
                format!("not inside {} {tag}", article(tag))
            }
        }
    }
}

/// The feature families, most specific first (see the module documentation).
pub const FAMILIES: &[Family] = &[
    Family {
        pattern: "curr_*",
        reads: "the block's own shallow text feature: a count, a ratio, or 1 / 0 for inside / not inside the tag",
        word: |f, v| base(f, v),
    },
    Family {
        pattern: "prev_*",
        reads: "the same of the previous block (all 0 for the first block)",
        word: |f, v| format!("the previous block: {}", base(f, v)),
    },
    Family {
        pattern: "next_*",
        reads: "the same of the next block (all 0 for the last block)",
        word: |f, v| format!("the next block: {}", base(f, v)),
    },
    Family {
        pattern: "abs_position",
        reads: "the block's index on the page (0 first)",
        word: |_, v| format!("{} blocks before it on the page", fmt(v)),
    },
    Family {
        pattern: "rel_position",
        reads: "where the block lies, 0 the page's start, 1 its end",
        word: |_, v| format!("{} of the way down the page", pct(v)),
    },
    Family {
        pattern: "tag_*",
        reads: "levels from the block's element up to the nearest element with that tag: 0 it is one, 64 none around",
        word: |t, v| {
            if none(v) {
                format!("no {t} around")
            } else {
                format!("inside {} {t} ({})", article(t), levels(v))
            }
        },
    },
    Family {
        pattern: "kw_*",
        reads: "levels up to the nearest element whose class / id names a keyword of the group: 0 the block's own, 64 none around",
        word: |g, v| {
            if none(v) {
                format!("no {g} class/id around")
            } else {
                format!("{} {g} class/id {}", article(g), levels(v))
            }
        },
    },
    Family {
        pattern: "lm_*",
        reads: "levels up to the nearest ARIA landmark / schema.org element of that kind: 0 the block's own, 64 none around",
        word: |g, v| {
            if none(v) {
                format!("no {g} landmark around")
            } else {
                format!("{} {g} landmark (role / itemprop) {}", article(g), levels(v))
            }
        },
    },
    Family {
        pattern: "anc*_word_share",
        reads: "the share of the page's words in the block's element (anc0) or its k-th ancestor",
        word: |k, v| format!("{} holds {} of the page's words", ancestor(k), pct(v)),
    },
    Family {
        pattern: "anc*_link_density",
        reads: "the share of those words inside links",
        word: |k, v| format!("{}: {} of its words in links", ancestor(k), pct(v)),
    },
    Family {
        pattern: "anc*_blocks",
        reads: "the number of blocks in it",
        word: |k, v| format!("{} holds {} block{}", ancestor(k), fmt(v), plural(v)),
    },
    Family {
        pattern: "path_blocks",
        reads: "blocks of the page whose element has the same path (tag and first class per step)",
        word: |_, v| format!("{} block{} share its element's path", fmt(v), plural(v)),
    },
    Family {
        pattern: "path_word_share",
        reads: "the share of the page's words in those blocks",
        word: |_, v| format!("blocks on its path hold {} of the page's words", pct(v)),
    },
    Family {
        pattern: "record_group_records",
        reads: "records (posts, comments, items) in the block's record group, 0 outside one",
        word: |_, v| {
            if v == 0.0 {
                "in no record group".to_string()
            } else {
                format!("in a record group of {} records", fmt(v))
            }
        },
    },
    Family {
        pattern: "record_group_word_share",
        reads: "the share of the page's words in that group",
        word: |_, v| format!("its record group holds {} of the page's words", pct(v)),
    },
    Family {
        pattern: "record_position",
        reads: "where its record lies in the group, 0 first, 1 last",
        word: |_, v| format!("its record {} of the way through its group", pct(v)),
    },
    Family {
        pattern: "depth",
        reads: "elements from the root down to the block's element",
        word: |_, v| format!("{} elements deep", fmt(v)),
    },
    Family {
        pattern: "hidden",
        reads: "1 when the block is hidden from readers or in <noscript>",
        word: |_, v| {
            if v > 0.0 {
                "hidden or in <noscript>".to_string()
            } else {
                "shown to readers".to_string()
            }
        },
    },
    Family {
        pattern: "page_words",
        reads: "the page's words",
        word: |_, v| format!("the page has {} words", fmt(v)),
    },
    Family {
        pattern: "page_blocks",
        reads: "the page's blocks",
        word: |_, v| format!("the page has {} blocks", fmt(v)),
    },
    Family {
        pattern: "rdb_top_distance",
        reads: "levels up to the element a Readability-style scorer picks, 64 when it is not an ancestor",
        word: |_, v| {
            if none(v) {
                "outside Readability's top candidate".to_string()
            } else {
                format!("inside Readability's top candidate ({})", levels(v))
            }
        },
    },
    Family {
        pattern: "rdb_article_distance",
        reads: "levels up to the nearest element of Readability's article (the top candidate and the siblings it appends), 64 outside",
        word: |_, v| {
            if none(v) {
                "outside Readability's article".to_string()
            } else {
                format!("inside Readability's article ({})", levels(v))
            }
        },
    },
    Family {
        pattern: "rdb_best_share",
        reads: "the best Readability score among its ancestors over the top candidate's, 0 to 1",
        word: |_, v| format!("its best ancestor scores {} of Readability's top candidate", pct(v)),
    },
    Family {
        pattern: "lead_prose_words",
        reads: "words of prose (unlinked, outside records) before its record group, or before it outside one",
        word: |_, v| format!("{} words of prose before it", fmt(v)),
    },
    Family {
        pattern: "lead_prose_share",
        reads: "that prose over itself plus the group's words, 0 outside a group",
        word: |_, v| format!("prose before its group is {} of prose and group", pct(v)),
    },
    Family {
        pattern: "end_marker",
        reads: "1 when the block announces the end of the text (a comments or related-articles heading)",
        word: |_, v| {
            if v > 0.0 {
                "an end-of-text marker (comments / related heading)".to_string()
            } else {
                "not an end-of-text marker".to_string()
            }
        },
    },
    Family {
        pattern: "end_markers_before",
        reads: "end-of-text markers before the block",
        word: |_, v| format!("{} end-of-text marker{} before it", fmt(v), plural(v)),
    },
    Family {
        pattern: "end_marker_distance",
        reads: "blocks since the nearest end-of-text marker at or before it, 64 none",
        word: |_, v| {
            if none(v) {
                "no end-of-text marker before it".to_string()
            } else {
                format!("{} block{} after an end-of-text marker", fmt(v), plural(v))
            }
        },
    },
    Family {
        pattern: "end_marker_lead_words",
        reads: "words of prose before the page's first end-of-text marker, 0 when none precedes",
        word: |_, v| format!("{} words of prose before the first end-of-text marker", fmt(v)),
    },
    Family {
        pattern: "page_record_share",
        reads: "the share of the page's words in record groups",
        word: |_, v| format!("{} of the page's words in records", pct(v)),
    },
    Family {
        pattern: "page_largest_group_share",
        reads: "the largest record group's share of the page's words",
        word: |_, v| format!("the page's largest record group holds {} of its words", pct(v)),
    },
    Family {
        pattern: "page_end_markers",
        reads: "end-of-text markers on the page",
        word: |_, v| format!("{} end-of-text marker{} on the page", fmt(v), plural(v)),
    },
    Family {
        pattern: "decl_*",
        reads: "how many og:type / schema.org declarations of the page name that kind",
        word: |k, v| {
            if v == 0.0 {
                format!("the page does not declare itself {} {k}", article(k))
            } else {
                format!("the page declares itself {} {k} ({}×)", article(k), fmt(v))
            }
        },
    },
    Family {
        pattern: "unit_*",
        reads: "1 when the block is in a unit of that kind (the guideline's units: comments, related lists, captions, …), else 0",
        word: |k, v| {
            let kind = k.replace('_', " ");
            if v >= 0.5 {
                format!("in a {kind} unit")
            } else {
                format!("in no {kind} unit")
            }
        },
    },
    Family {
        pattern: "members_mean",
        reads: "the mean share of the block the member extractors select",
        word: |_, v| format!("the member extractors select {} of it on average", pct(v)),
    },
    Family {
        pattern: "*_block",
        reads: "the share of the block's text the member extractor selects",
        word: |m, v| format!("{m} selects {} of it", pct(v)),
    },
    Family {
        pattern: "*_prev",
        reads: "the same of the previous block",
        word: |m, v| format!("{m} selects {} of the previous block", pct(v)),
    },
    Family {
        pattern: "*_next",
        reads: "the same of the next block",
        word: |m, v| format!("{m} selects {} of the next block", pct(v)),
    },
    Family {
        pattern: "*_parent",
        reads: "the member's word-weighted share over the blocks whose element has the same parent",
        word: |m, v| format!("{m} selects {} of its siblings' words", pct(v)),
    },
    Family {
        pattern: "*_coverage",
        reads: "the share of the page's words the member selects",
        word: |m, v| format!("{m} selects {} of the page", pct(v)),
    },
];

/// `its element` (k = 0) or `the element k levels above it`.
fn ancestor(k: &str) -> String {
    match k {
        "0" => "its element".to_string(),
        "1" => "its element's parent".to_string(),
        k => format!("the element {k} levels above its own"),
    }
}

/// Feature `name` with value `v` in words ([`FAMILIES`]); `None` for a name no family knows.
pub fn reading(name: &str, v: f64) -> Option<String> {
    FAMILIES
        .iter()
        .find_map(|f| f.stem(name).map(|stem| (f.word)(stem, v)))
}

/// Feature `name` with value `v` as explanations print it: its reading, then the raw name and
/// value in brackets — `inside an h3 (0 levels up) [tag_h3 0]`; a name no family knows as
/// `name value`.
pub fn read(name: &str, v: f64) -> String {
    match reading(name, v) {
        Some(r) => format!("{r} [{name} {}]", fmt(v)),
        None => format!("{name} {}", fmt(v)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances_counts_shares_and_flags_read_as_what_they_mean() {
        assert_eq!(
            reading("tag_h3", 0.0).unwrap(),
            "inside an h3 (0 levels up)"
        );
        assert_eq!(reading("tag_h3", 64.0).unwrap(), "no h3 around");
        assert_eq!(reading("tag_li", 1.0).unwrap(), "inside an li (1 level up)");
        assert_eq!(
            reading("tag_nav", 3.0).unwrap(),
            "inside a nav (3 levels up)"
        );
        assert_eq!(
            reading("kw_comment", 2.0).unwrap(),
            "a comment class/id 2 levels up"
        );
        assert_eq!(reading("kw_ad", 64.0).unwrap(), "no ad class/id around");
        assert_eq!(reading("lm_main", 64.0).unwrap(), "no main landmark around");
        assert_eq!(reading("curr_h2", 1.0).unwrap(), "inside an h2");
        assert_eq!(
            reading("prev_link_density", 0.5).unwrap(),
            "the previous block: 50% of its words in links"
        );
        assert_eq!(reading("curr_num_words", 1.0).unwrap(), "1 word");
        assert_eq!(
            reading("anc0_word_share", 0.25).unwrap(),
            "its element holds 25% of the page's words"
        );
        assert_eq!(
            reading("anc3_blocks", 7.0).unwrap(),
            "the element 3 levels above its own holds 7 blocks"
        );
        assert_eq!(reading("hidden", 1.0).unwrap(), "hidden or in <noscript>");
        assert_eq!(
            reading("decl_article", 0.0).unwrap(),
            "the page does not declare itself an article"
        );
        assert_eq!(
            reading("cetd_block", 1.0).unwrap(),
            "cetd selects 100% of it"
        );
        assert_eq!(
            reading("lqf_parent", 0.25).unwrap(),
            "lqf selects 25% of its siblings' words"
        );
        assert_eq!(
            reading("end_marker_distance", 64.0).unwrap(),
            "no end-of-text marker before it"
        );
        // The page-level names are not mistaken for member verdicts (`page_blocks` is no
        // `*_block`), nor `anc0_blocks` for a count of the page.
        assert_eq!(
            reading("page_blocks", 9.0).unwrap(),
            "the page has 9 blocks"
        );
        assert_eq!(reading("bogus", 1.0), None);
        assert_eq!(read("tag_h3", 0.0), "inside an h3 (0 levels up) [tag_h3 0]");
        assert_eq!(read("bogus", 0.5), "bogus 0.5");
    }

    /// Every feature of the stacked classifier (and so of the shallow ones, a subset) has a
    /// reading.
    #[test]
    fn unit_kinds_read_as_membership() {
        assert_eq!(reading("unit_comments", 1.0).unwrap(), "in a comments unit");
        assert_eq!(
            reading("unit_link_list", 0.0).unwrap(),
            "in no link list unit"
        );
    }

    #[test]
    fn every_stack_feature_has_a_reading() {
        for n in super::super::stack::feature_names() {
            assert!(reading(&n, 1.0).is_some(), "{n}");
        }
    }
}
