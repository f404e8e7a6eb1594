//! The block table (`cescope blocks`): one row per atomic text block of a page
//! ([`crate::page::blocks`]) with its DOM path, class / id, shallow text features, visibility
//! and each given extractor's verdict — the fraction of the block's text bytes its selection
//! holds ([`Blocks::project`]). For scripts, for debugging, and as the training view of the
//! learned methods. Rendered as an aligned text table, JSON or CSV.

use std::sync::Arc;

use serde_json::{json, Map, Value};

use super::report::csv_field;
use crate::extract::{Extractor, Location, Params};
use crate::page::blocks::{Blocks, Features};
use crate::page::units::{KindSet, UnitKind, Units};
use crate::page::Page;
use crate::selection::Selection;

/// One block of the table. Units as in [`Features`]; offsets are bytes of the decoded text.
#[derive(Debug, Clone, PartialEq)]
pub struct BlockRow {
    /// Block index (the absolute position, 0-based); the number people see is
    /// [`BlockRow::number`].
    pub index: usize,
    /// The container's DOM path (`html > body > div#content.post > p`).
    pub path: String,
    /// The container's tag name (`p`; empty for text directly in the document).
    pub tag: String,
    /// The container's `id` attribute (empty if none).
    pub id: String,
    /// The container's `class` attribute, white space collapsed (empty if none).
    pub class: String,
    /// The block's byte extent: first byte of its text, one past its last.
    pub start: usize,
    /// See `start`.
    pub end: usize,
    /// The features.
    pub features: Features,
    /// Relative position in `[0, 1]` ([`Blocks::relative_position`]).
    pub relative_position: f64,
    /// Level of the enclosing heading (1–6), 0 if none.
    pub heading: u8,
    /// Names of the enclosing elements flagged ([`crate::page::blocks::Within`]).
    pub within: Vec<&'static str>,
    /// Names of the visibility flags ([`crate::page::blocks::Visibility`]); empty if shown.
    pub visibility: Vec<&'static str>,
    /// The block's innermost record ([`crate::page::blocks::records`]), if any.
    pub record: Option<RecordCell>,
    /// One verdict per column of [`BlockTable::algos`]: the fraction of the block's text bytes
    /// selected, in `[0, 1]`.
    pub verdicts: Vec<f64>,
    /// The block's text, white space collapsed.
    pub text: String,
    /// The explanation of [`BlockTable::why`]'s extractor for the block (empty without one).
    pub why: String,
    /// The unit kinds of the block ([`crate::page::units`]), the one it is named by first
    /// ([`KindSet::primary`]); empty before [`BlockTable::set_units`] or for a block in no
    /// unit.
    pub units: Vec<UnitKind>,
}

impl BlockRow {
    /// The block's number as every view shows it (`#1` first: [`Blocks::number`]): the text
    /// table's `#`, the inspector's block table and the explanations.
    pub fn number(&self) -> usize {
        Blocks::number(self.index)
    }
}

/// Where a block lies among the page's records: posts, comments, listing items
/// ([`crate::page::blocks::Records`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordCell {
    /// The record group (numbered in document order from 0).
    pub group: usize,
    /// The record's number in its group, from 1.
    pub record: usize,
    /// Records in the group.
    pub records: usize,
    /// The group's signature (`li.comment`).
    pub signature: String,
}

/// The block table of one page.
#[derive(Debug, Clone, PartialEq)]
pub struct BlockTable {
    /// The page's name.
    pub page: String,
    /// The verdict columns' names.
    pub algos: Vec<String>,
    /// One row per block, in document order.
    pub rows: Vec<BlockRow>,
    /// The extractor whose explanations fill [`BlockRow::why`] ([`BlockTable::explain_with`]).
    pub why: Option<String>,
}

impl BlockTable {
    /// The table of `page` with one verdict column per `(name, selection)`: each selection
    /// projected onto the page's blocks. O(blocks · (depth + block text) + selections).
    pub fn new(page: &Page, verdicts: &[(&str, &Selection)]) -> BlockTable {
        let dom = page.dom();
        let blocks: &Blocks = page.blocks();
        let records = page.records();
        let projected: Vec<Vec<f64>> = verdicts.iter().map(|(_, s)| blocks.project(s)).collect();
        let rows = blocks
            .blocks()
            .iter()
            .enumerate()
            .map(|(i, b)| {
                let attr = |name| {
                    dom.attr(b.container, name)
                        .map(|v| v.split_whitespace().collect::<Vec<_>>().join(" "))
                        .unwrap_or_default()
                };
                BlockRow {
                    index: i,
                    path: blocks.path(dom, i),
                    tag: dom.tag_name(b.container).unwrap_or("").to_string(),
                    id: attr("id"),
                    class: attr("class"),
                    start: b.extent.start,
                    end: b.extent.end,
                    features: b.features,
                    relative_position: blocks.relative_position(i),
                    heading: b.within.heading().unwrap_or(0),
                    within: b.within.names().collect(),
                    visibility: b.visibility.names().collect(),
                    record: records.of_block(i).map(|k| {
                        let group = records.records()[k].group;
                        let g = &records.groups()[group];
                        RecordCell {
                            group,
                            record: k - g.records.start + 1,
                            records: g.records.len(),
                            signature: g.signature.clone(),
                        }
                    }),
                    verdicts: projected.iter().map(|v| v[i]).collect(),
                    text: blocks.text(dom, i),
                    why: String::new(),
                    units: Vec::new(),
                }
            })
            .collect();
        BlockTable {
            page: page.name().to_string(),
            algos: verdicts.iter().map(|(n, _)| (*n).to_string()).collect(),
            rows,
            why: None,
        }
    }

    /// The table of `page` with the verdicts of `extractors`, each run with its published
    /// defaults.
    pub fn with_extractors(page: &Page, extractors: &[Arc<dyn Extractor>]) -> BlockTable {
        let runs: Vec<(&str, Selection)> = extractors
            .iter()
            .map(|e| {
                let params = Params::defaults(e.params());
                (e.name(), e.run(page, &params).selection)
            })
            .collect();
        let verdicts: Vec<(&str, &Selection)> = runs.iter().map(|(n, s)| (*n, s)).collect();
        BlockTable::new(page, &verdicts)
    }

    /// Fills the `why` column with `e`'s explanation ([`Extractor::explain`], its default
    /// parameters, one run) of the first line of each block's text: for a learned extractor
    /// its probability against the threshold and the features that moved the block's score
    /// most, for a DOM algorithm its decisive comparison (LQF's link quota against t, …). A
    /// line that holds the text of several blocks is explained for the first of them.
    /// O(blocks · one explanation).
    pub fn explain_with(&mut self, page: &Page, e: &dyn Extractor) {
        let x = e.run(page, &Params::defaults(e.params()));
        let blocks = page.blocks();
        let lines = page.lines();
        for (i, row) in self.rows.iter_mut().enumerate() {
            let Some(line) = blocks
                .ranges(i)
                .first()
                .and_then(|r| lines.line_of(r.start))
            else {
                continue;
            };
            row.why = e.explain(page, &x, Location::Line(line), None).join("; ");
        }
        self.why = Some(e.name().to_string());
    }

    /// Fills each row's unit kinds from `units` (the page's units, [`Units::find`]; the
    /// caller chooses the headline finder).
    pub fn set_units(&mut self, units: &Units) {
        for (i, row) in self.rows.iter_mut().enumerate() {
            let kinds: KindSet = units.kinds(i);
            let primary = kinds.primary();
            row.units = primary
                .into_iter()
                .chain(kinds.iter().filter(|k| Some(*k) != primary))
                .collect();
        }
    }

    /// The CSV header: the columns of [`BlockTable::to_csv`].
    fn csv_header(&self) -> Vec<String> {
        let mut h: Vec<String> = [
            "index",
            "number",
            "path",
            "tag",
            "id",
            "class",
            "start",
            "end",
            "tokens",
            "words",
            "chars",
            "avg_word_length",
            "avg_sentence_length",
            "link_density",
            "text_density",
            "upper_words",
            "upper_ratio",
            "all_caps_words",
            "all_caps_ratio",
            "full_stops",
            "full_stop_ratio",
            "date_tokens",
            "vertical_bars",
            "sentences",
            "lines",
            "heading",
            "in_p",
            "in_div",
            "within",
            "relative_position",
            "visibility",
            "record_group",
            "record",
            "group_records",
            "unit",
        ]
        .iter()
        .map(|s| (*s).to_string())
        .collect();
        h.extend(self.algos.iter().cloned());
        if self.why.is_some() {
            h.push("why".to_string());
        }
        h.push("text".to_string());
        h
    }

    /// The table as CSV (RFC 4180 quoting), one line per block after the header `index`
    /// (0-based), `number` (the block's number as every view shows it, [`BlockRow::number`]),
    /// `path, tag, id, class, start, end`, the features (counts, then the paper's ratios next to
    /// their counts), `heading` (0–6), `in_p`, `in_div` (0 / 1), `within` and `visibility`
    /// (names joined by spaces), `relative_position`, `record_group`, `record` (from 1) and
    /// `group_records` (empty outside every record), `unit` (the block's unit kinds, the
    /// primary first, joined by spaces), one column per verdict, `why` (with
    /// [`BlockTable::explain_with`]), `text`. Ratios
    /// with 4 decimals.
    pub fn to_csv(&self) -> String {
        let mut out = self.csv_header().join(",");
        out.push('\n');
        for r in &self.rows {
            let f = &r.features;
            let num = |x: f64| format!("{x:.4}");
            let mut cells: Vec<String> = vec![
                r.index.to_string(),
                r.number().to_string(),
                csv_field(&r.path),
                csv_field(&r.tag),
                csv_field(&r.id),
                csv_field(&r.class),
                r.start.to_string(),
                r.end.to_string(),
                f.tokens.to_string(),
                f.words.to_string(),
                f.chars.to_string(),
                num(f.avg_word_length()),
                num(f.avg_sentence_length()),
                num(f.link_density()),
                num(f.text_density()),
                f.upper_words.to_string(),
                num(f.upper_ratio()),
                f.all_caps_words.to_string(),
                num(f.all_caps_ratio()),
                f.full_stops.to_string(),
                num(f.full_stop_ratio()),
                f.date_tokens.to_string(),
                f.vertical_bars.to_string(),
                f.sentences.to_string(),
                f.lines.to_string(),
                r.heading.to_string(),
                u8::from(r.within.contains(&"p")).to_string(),
                u8::from(r.within.contains(&"div")).to_string(),
                csv_field(&r.within.join(" ")),
                num(r.relative_position),
                csv_field(&r.visibility.join(" ")),
            ];
            let rec = r.record.as_ref();
            cells.extend([
                rec.map_or(String::new(), |c| c.group.to_string()),
                rec.map_or(String::new(), |c| c.record.to_string()),
                rec.map_or(String::new(), |c| c.records.to_string()),
                csv_field(&unit_names(&r.units, " ")),
            ]);
            cells.extend(r.verdicts.iter().map(|&v| num(v)));
            if self.why.is_some() {
                cells.push(csv_field(&r.why));
            }
            cells.push(csv_field(&r.text));
            out.push_str(&cells.join(","));
            out.push('\n');
        }
        out
    }

    /// The table as JSON: `{"page", "algos", "blocks": [{index, number, path, tag, id, class, start,
    /// end, features: {counts…, avg_word_length, avg_sentence_length, link_density,
    /// text_density, upper_ratio, all_caps_ratio, full_stop_ratio}, heading, within,
    /// relative_position, visibility, record: null | {group, record, records, signature},
    /// verdicts: {algo: fraction}, units: [kind…] (primary first), text, why (with [`BlockTable::explain_with`])}], why_algo}`.
    pub fn to_json(&self) -> Value {
        let blocks: Vec<Value> = self
            .rows
            .iter()
            .map(|r| {
                let f = &r.features;
                let mut features = match serde_json::to_value(f) {
                    Ok(Value::Object(m)) => m,
                    _ => Map::new(),
                };
                for (k, v) in [
                    ("avg_word_length", f.avg_word_length()),
                    ("avg_sentence_length", f.avg_sentence_length()),
                    ("link_density", f.link_density()),
                    ("text_density", f.text_density()),
                    ("upper_ratio", f.upper_ratio()),
                    ("all_caps_ratio", f.all_caps_ratio()),
                    ("full_stop_ratio", f.full_stop_ratio()),
                ] {
                    features.insert(k.to_string(), json!(v));
                }
                let verdicts: Map<String, Value> = self
                    .algos
                    .iter()
                    .zip(&r.verdicts)
                    .map(|(a, v)| (a.clone(), json!(v)))
                    .collect();
                let mut block = json!({
                    "index": r.index,
                    "number": r.number(),
                    "path": r.path,
                    "tag": r.tag,
                    "id": r.id,
                    "class": r.class,
                    "start": r.start,
                    "end": r.end,
                    "features": features,
                    "heading": r.heading,
                    "within": r.within,
                    "relative_position": r.relative_position,
                    "visibility": r.visibility,
                    "record": r.record.as_ref().map(|c| json!({
                        "group": c.group,
                        "record": c.record,
                        "records": c.records,
                        "signature": c.signature,
                    })),
                    "verdicts": verdicts,
                    "units": r.units.iter().map(|k| k.name()).collect::<Vec<_>>(),
                    "text": r.text,
                });
                if self.why.is_some() {
                    block["why"] = json!(r.why);
                }
                block
            })
            .collect();
        let mut v = json!({ "page": self.page, "algos": self.algos, "blocks": blocks });
        if let Some(w) = &self.why {
            v["why_algo"] = json!(w);
        }
        v
    }

    /// The table for a terminal: per block its number ([`BlockRow::number`], `#`), words, link
    /// density (`LD`), text density (`TD`), visibility flags, record (`g2 3/14`: record 3 of
    /// the 14 of group 2), unit kind (the primary one, `+` when there are more), one verdict
    /// column per extractor (percent of its text
    /// selected), the start of its text (up to `text_chars` characters, padded) and the DOM
    /// path; with [`BlockTable::explain_with`], a second line `why: …` under each block.
    pub fn to_text(&self, text_chars: usize) -> String {
        let mut out = format!(
            "{:>5} {:>6} {:>5} {:>6} {:<9} {:<9} {:<13}",
            "#", "words", "LD", "TD", "hidden", "record", "unit"
        );
        for a in &self.algos {
            out.push_str(&format!(" {:>8}", clip(a, 8)));
        }
        out.push_str(&format!("  {:<text_chars$}  path\n", "text"));
        for r in &self.rows {
            let f = &r.features;
            let vis: String = r
                .visibility
                .iter()
                .map(|v| match *v {
                    "aria-hidden" => "aria",
                    "display:none" => "none",
                    other => other,
                })
                .collect::<Vec<_>>()
                .join(",");
            let rec = r.record.as_ref().map_or("-".to_string(), |c| {
                format!("g{} {}/{}", c.group, c.record, c.records)
            });
            let unit = match r.units.as_slice() {
                [] => "-".to_string(),
                [one] => one.name().to_string(),
                [first, ..] => format!("{}+", first.name()),
            };
            out.push_str(&format!(
                "{:>5} {:>6} {:>5.2} {:>6.1} {:<9} {:<9} {:<13}",
                r.number(),
                f.words,
                f.link_density(),
                f.text_density(),
                if vis.is_empty() { "-" } else { &vis },
                rec,
                unit
            ));
            for v in &r.verdicts {
                out.push_str(&format!(" {:>7.0}%", v * 100.0));
            }
            out.push_str(&format!(
                "  {:<text_chars$}  {}\n",
                clip(&r.text, text_chars),
                r.path
            ));
            if !r.why.is_empty() {
                out.push_str(&format!("{:>5} why: {}\n", "", r.why));
            }
        }
        out
    }
}

/// The names of `kinds` joined by `sep`.
fn unit_names(kinds: &[UnitKind], sep: &str) -> String {
    kinds.iter().map(|k| k.name()).collect::<Vec<_>>().join(sep)
}

/// `s` cut to at most `n` characters, `…` marking a cut.
fn clip(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(n.saturating_sub(1)).collect();
        t.push('…');
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A single algorithm by name ([`crate::algorithms::named`]).
    fn single(name: &str) -> Arc<dyn Extractor> {
        crate::algorithms::named(name).unwrap()
    }

    #[test]
    fn verdict_columns_and_formats() {
        let html = "<body><div id=main class='post  x'><p>Hello, world.</p></div>\
            <p hidden>a, \"b\"</p></body>";
        let p = Page::from_text("t.html", html);
        let hello = html.find("Hello").unwrap();
        let part = Selection::from_range(hello..hello + 7);
        let all = p.content_text();
        let t = BlockTable::new(&p, &[("part", &part), ("all", &all)]);
        assert_eq!(t.rows.len(), 2);
        assert_eq!(t.rows[0].verdicts, vec![7.0 / 13.0, 1.0]);
        assert_eq!(t.rows[1].verdicts, vec![0.0, 1.0]);
        assert_eq!(t.rows[0].path, "html > body > div#main.post.x > p");
        assert_eq!((t.rows[0].tag.as_str(), t.rows[0].id.as_str()), ("p", ""));
        assert_eq!(t.rows[1].visibility, vec!["hidden"]);
        let csv = t.to_csv();
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines.len(), 3);
        assert!(
            lines[0].ends_with(",visibility,record_group,record,group_records,unit,part,all,text"),
            "{}",
            lines[0]
        );
        assert!(
            lines[2].ends_with(",hidden,,,,,0.0000,1.0000,\"a, \"\"b\"\"\""),
            "{}",
            lines[2]
        );
        let v = t.to_json();
        assert_eq!(v["blocks"][0]["verdicts"]["part"], json!(7.0 / 13.0));
        assert_eq!(v["blocks"][0]["features"]["words"], json!(2));
        assert_eq!(v["blocks"][0]["features"]["full_stop_ratio"], json!(0.5));
        let text = t.to_text(5);
        assert!(
            text.contains("  Hell…  html > body > div#main.post.x > p\n"),
            "{text}"
        );
        assert!(text.contains("     54%"), "{text}");
        assert!(!text.contains("why:"), "{text}");
    }

    #[test]
    fn the_why_column_holds_each_blocks_explanation() {
        let html = "<body>\n<p>Some article text that is long enough to keep, with words.</p>\n\
            <p><a href=/a>Home</a> <a href=/b>News</a></p>\n</body>";
        let p = Page::from_text("t.html", html);
        let lqf = single("lqf");
        let mut t = BlockTable::with_extractors(&p, std::slice::from_ref(&lqf));
        t.explain_with(&p, lqf.as_ref());
        assert_eq!(t.why.as_deref(), Some("lqf"));
        assert!(t.rows[0].why.contains("≤ t 0.25"), "{}", t.rows[0].why);
        assert!(t.rows[1].why.contains("> t 0.25"), "{}", t.rows[1].why);
        assert!(t
            .to_csv()
            .lines()
            .next()
            .unwrap()
            .ends_with(",lqf,why,text"));
        assert_eq!(t.to_json()["why_algo"], json!("lqf"));
        assert!(t.to_json()["blocks"][1]["why"]
            .as_str()
            .unwrap()
            .contains("link quota"));
        assert!(t.to_text(10).contains("why: "), "{}", t.to_text(10));
    }

    #[test]
    fn record_columns() {
        let post = |n: &str| format!("<div class=post-{n}><b>{n}</b><p>body {n}</p></div>");
        let html = format!(
            "<body><p>intro</p>{}{}{}</body>",
            post("1"),
            post("2"),
            post("3")
        );
        let p = Page::from_text("t.html", html);
        let t = BlockTable::new(&p, &[]);
        let cells: Vec<Option<(usize, usize, usize)>> = t
            .rows
            .iter()
            .map(|r| r.record.as_ref().map(|c| (c.group, c.record, c.records)))
            .collect();
        assert_eq!(
            cells,
            vec![
                None,
                Some((0, 1, 3)),
                Some((0, 1, 3)),
                Some((0, 2, 3)),
                Some((0, 2, 3)),
                Some((0, 3, 3)),
                Some((0, 3, 3))
            ]
        );
        assert_eq!(
            t.to_json()["blocks"][6]["record"]["signature"],
            json!("div.post-")
        );
        assert!(
            t.to_csv().lines().nth(4).unwrap().contains(",0,2,3,"),
            "header, then blocks 0–3"
        );
        assert!(t.to_text(10).contains(" g0 3/3 "), "{}", t.to_text(10));
    }
}
