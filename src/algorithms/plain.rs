//! `plain`: all text of the page — the baseline of Arias Moreno, Deschacht & Moens (2009,
//! section 5, Table 2: "a baseline method that extracts *all* texts from a given Web page,
//! removing markup information, but does not perform any content selection") and the "plain
//! text" row of Mohammadzadeh (2013, Table 4.9).
//!
//! The selection is the page's whole content text ([`Page::content_text`]): every character
//! outside tags, scripts, styles, comments, declarations and CDATA sections — the text a
//! text-mode browser would dump, plus the `title` element's text, which is text of the page. Its
//! recall is near 1 and its precision is the share of main content in the page's text.

use crate::extract::trace::{runs, Marks, Phase, Role, Series, Trace, Unit};
use crate::extract::{AlgoInfo, StaticInfo, NO_PARAMS};
use crate::extract::{Extraction, Extractor, Params};
use crate::page::Page;

/// The all-text baseline (no parameters).
#[derive(Debug, Clone, Default)]
pub struct Plain;

const PHASES: &[Phase] = &[
    Phase::new(
        "text",
        "content characters per line (everything outside markup, scripts, styles and comments)",
        &["content"],
    ),
    Phase::new(
        "extraction",
        "every line with text is selected",
        &["selected"],
    ),
];

static INFO: AlgoInfo = AlgoInfo::new(
    "plain",
    "all text of the page, no content selection (baseline; Arias Moreno et al. 2009, section 5)",
    "baseline; Arias Moreno et al. 2009, section 5",
    NO_PARAMS,
    PHASES,
);

impl StaticInfo for Plain {
    const INFO: &'static AlgoInfo = &INFO;
}

impl Extractor for Plain {
    /// Trace: `content` — content characters per virtual line (content signal); `selected` —
    /// the virtual lines with content text.
    fn run(&self, page: &Page, _params: &Params) -> Extraction {
        let lines = &page.lines().lines;
        let content: Vec<f64> = lines.iter().map(|l| l.content as f64).collect();
        let selected = runs((0..lines.len()).filter(|&i| lines[i].content > 0));
        Extraction {
            selection: page.content_text(),
            trace: Trace {
                series: vec![Series::new(
                    "content",
                    "content chars",
                    Unit::VirtualLine,
                    Role::ContentSignal,
                    content,
                )],
                marks: vec![Marks::new(
                    "selected",
                    "lines with text",
                    Unit::VirtualLine,
                    Role::Selected,
                    selected,
                )],
                ..Trace::default()
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_is_all_text_without_markup_scripts_or_comments() {
        let p = Page::from_text(
            "t.html",
            "<ul><li><a href=/>Home</a></li></ul><!-- c --><script>var x</script><p>Body text</p>",
        );
        let x = Plain.run(&p, &Params::default());
        assert_eq!(p.render(&x.selection), "Home\nBody text");
        x.trace.validate(&p).unwrap();
        let m = x.trace.marks("selected").unwrap();
        let covered: usize = m.spans.iter().map(|r| r.len()).sum();
        assert_eq!(covered, 2, "two lines with text: {:?}", m.spans);
    }
}
