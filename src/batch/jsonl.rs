//! JSON Lines input: one page per line, read one line at a time.
//!
//! Schema of a line (a JSON object; unknown fields are ignored):
//!
//! | field          | type             | meaning |
//! |----------------|------------------|---------|
//! | `id`           | string or number | optional; else the `url`, else `line-N` (N = line number from 1) |
//! | `url`          | string           | optional; where the page came from |
//! | `html`         | string           | required; the page (a JSON string is Unicode, so the page is decoded as UTF-8 whatever its `<meta>` says) |
//! | `articleBody`  | string           | optional gold: the main content as plain text (the `ground-truth.json` record shape, [`GoldText`]) |
//! | `headline`     | string           | optional gold headline |
//! | `page_type`    | string           | optional gold page type (`eval --by type`) |
//!
//! A record has gold when it has `articleBody`. Blank lines are skipped. A line that is not such
//! an object (bad JSON, no `html`) becomes an error record (id `line-N`); the stream goes on. A
//! line longer than [`super::MAX_RECORD_BYTES`] is an error record too. For Spark, give every
//! line an `id` or `url`: line numbers restart in every partition.

use std::io::BufRead;

use serde::{Deserialize, Serialize};

use super::InputRecord;
use crate::corpus::GoldText;

/// The Content-Type given to the decoder for every JSONL page: the `html` string is Unicode,
/// written as UTF-8.
pub const JSONL_CONTENT_TYPE: &str = "text/html; charset=utf-8";

/// One line of the JSONL page format (the module documentation's table), as read and as
/// written by [`super::pages_stream`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PageLine {
    /// The id (a number is turned into its decimal text).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<IdValue>,
    /// The page's URL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// The page.
    pub html: String,
    /// Gold main content.
    #[serde(
        rename = "articleBody",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub article_body: Option<String>,
    /// Gold headline.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub headline: Option<String>,
    /// Gold page type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page_type: Option<String>,
}

/// A JSONL `id`: a string or a number.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum IdValue {
    /// A string id.
    Text(String),
    /// A numeric id (any JSON number).
    Number(serde_json::Number),
}

impl std::fmt::Display for IdValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            IdValue::Text(s) => f.write_str(s),
            IdValue::Number(n) => write!(f, "{n}"),
        }
    }
}

impl PageLine {
    /// A page line with gold fields from `gold` (its `url` is used when `url` is `None`).
    pub fn new(id: String, url: Option<String>, html: String, gold: Option<GoldText>) -> Self {
        let url = url.or_else(|| gold.as_ref().and_then(|g| g.url.clone()));
        PageLine {
            id: Some(IdValue::Text(id)),
            url,
            html,
            article_body: gold.as_ref().map(|g| g.article_body.clone()),
            headline: gold.as_ref().and_then(|g| g.headline.clone()),
            page_type: gold.and_then(|g| g.page_type),
        }
    }

    /// The record of line `line` (from 1): id, url, the `html` as UTF-8 bytes with
    /// [`JSONL_CONTENT_TYPE`], and gold when `articleBody` is present.
    pub fn into_record(self, line: u64) -> InputRecord {
        let id = match (&self.id, &self.url) {
            (Some(id), _) => id.to_string(),
            (None, Some(url)) => url.clone(),
            (None, None) => format!("line-{line}"),
        };
        let gold = self.article_body.map(|body| GoldText {
            article_body: body,
            headline: self.headline,
            url: self.url.clone(),
            page_type: self.page_type,
        });
        InputRecord {
            id,
            url: self.url,
            content_type: Some(JSONL_CONTENT_TYPE.to_string()),
            gold,
            body: Ok(self.html.into_bytes()),
        }
    }
}

/// The records of a JSONL stream, one per non-blank line ([`PageLine`]); a line that cannot be
/// parsed is an error record, an I/O error mid-stream is a last error record.
pub struct JsonlRecords<R> {
    reader: R,
    line: u64,
    done: bool,
    buf: Vec<u8>,
}

impl<R: BufRead> JsonlRecords<R> {
    /// Reads records from `reader` (already decompressed).
    pub fn new(reader: R) -> Self {
        JsonlRecords {
            reader,
            line: 0,
            done: false,
            buf: Vec::new(),
        }
    }
}

impl<R: BufRead> Iterator for JsonlRecords<R> {
    type Item = InputRecord;

    fn next(&mut self) -> Option<InputRecord> {
        loop {
            if self.done {
                return None;
            }
            self.buf.clear();
            self.line += 1;
            let n = self.line;
            let limit = super::MAX_RECORD_BYTES;
            match std::io::Read::take(&mut self.reader, limit + 1).read_until(b'\n', &mut self.buf)
            {
                Ok(0) => {
                    self.done = true;
                    return None;
                }
                Ok(_) => {}
                Err(e) => {
                    self.done = true;
                    return Some(InputRecord::failed(
                        format!("line-{n}"),
                        None,
                        format!("line {n}: cannot read the input: {e}; the stream ends here"),
                    ));
                }
            }
            if self.buf.len() as u64 > limit {
                // Skip the rest of the overlong line.
                let mut sink = Vec::new();
                loop {
                    sink.clear();
                    match std::io::Read::take(&mut self.reader, 1 << 20)
                        .read_until(b'\n', &mut sink)
                    {
                        Ok(0) => break,
                        Ok(_) if sink.last() == Some(&b'\n') => break,
                        Ok(_) => {}
                        Err(_) => {
                            self.done = true;
                            break;
                        }
                    }
                }
                return Some(InputRecord::failed(
                    format!("line-{n}"),
                    None,
                    format!("line {n}: longer than {limit} bytes"),
                ));
            }
            if self.buf.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            return Some(match serde_json::from_slice::<PageLine>(&self.buf) {
                Ok(p) => p.into_record(n),
                Err(e) => InputRecord::failed(
                    format!("line-{n}"),
                    None,
                    format!("line {n}: not a page record {{\"id\"?, \"url\"?, \"html\", …}}: {e}"),
                ),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_ids_gold_and_a_bad_line() {
        let input = concat!(
            "{\"id\": \"a\", \"url\": \"http://x.org/a\", \"html\": \"<p>A</p>\"}\n",
            "\n",
            "{\"url\": \"http://x.org/b\", \"html\": \"<p>B</p>\", \"articleBody\": \"B\", \"headline\": \"H\"}\n",
            "{not json\n",
            "{\"id\": 7, \"html\": \"<p>C</p>\"}\n",
            "{\"url\": \"u\"}\n",
            "{\"html\": \"<p>D</p>\"}",
        );
        let recs: Vec<InputRecord> = JsonlRecords::new(input.as_bytes()).collect();
        let ids: Vec<&str> = recs.iter().map(|r| r.id.as_str()).collect();
        assert_eq!(
            ids,
            ["a", "http://x.org/b", "line-4", "7", "line-6", "line-7"]
        );
        assert_eq!(recs[0].body.as_deref(), Ok(&b"<p>A</p>"[..]));
        assert!(recs[0].gold.is_none());
        let g = recs[1].gold.as_ref().unwrap();
        assert_eq!(g.article_body, "B");
        assert_eq!(g.headline.as_deref(), Some("H"));
        assert_eq!(g.url.as_deref(), Some("http://x.org/b"));
        assert!(recs[2].body.as_ref().unwrap_err().contains("line 4"));
        assert!(recs[4].body.as_ref().unwrap_err().contains("html"));
        assert_eq!(recs[5].body.as_deref(), Ok(&b"<p>D</p>"[..]));
    }

    #[test]
    fn page_line_round_trips_gold() {
        let gold = GoldText {
            article_body: "body".into(),
            headline: Some("h".into()),
            url: Some("http://u".into()),
            page_type: Some("article".into()),
        };
        let line = PageLine::new("x".into(), None, "<p>body</p>".into(), Some(gold.clone()));
        let text = serde_json::to_string(&line).unwrap();
        let rec = serde_json::from_str::<PageLine>(&text)
            .unwrap()
            .into_record(1);
        assert_eq!(rec.id, "x");
        assert_eq!(rec.gold, Some(gold));
    }
}
