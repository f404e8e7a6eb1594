//! What a page **declares** itself to be: the Open Graph `og:type` and the schema.org types
//! of its JSON-LD (`<script type="application/ld+json">`, every `"@type"`) and microdata
//! (`itemtype`), folded into a few kinds ([`Declared`]).
//!
//! No paper uses them. They are a page-type input for the learned block classifiers: the
//! learning prototype (`../shared/notes/learning-prototype.md`, "caveats") found that pooling
//! corpora mixes rules — a forum thread's replies are main content, an article's comment
//! thread is not — and it had no page-type input. A page's own declaration is the observable
//! proxy: news and blog systems emit `og:type=article` and `NewsArticle` / `BlogPosting`,
//! forum software `DiscussionForumPosting` / `QAPage`, shops `Product`.
//!
//! O(nodes + bytes of the JSON-LD scripts); no JSON parser (a page's JSON-LD is often not
//! valid JSON: the `"@type"` values are scanned for directly).

use html5ever::local_name;

use super::dom::{Dom, NodeKind};
use super::{MemoKey, Page};

/// The kinds a declaration is folded into, in feature order ([`Declared::names`]).
pub const KINDS: [&str; 8] = [
    "article",
    "documentation",
    "forum",
    "product",
    "collection",
    "faq",
    "website",
    "organization",
];

/// The schema.org types of each kind (matched exactly, after any `http://schema.org/` or
/// `schema:` prefix); `og:type` values are matched by [`og_kind`].
const TYPES: [&[&str]; 8] = [
    &[
        "Article",
        "NewsArticle",
        "BlogPosting",
        "Blog",
        "ReportageNewsArticle",
        "AnalysisNewsArticle",
        "OpinionNewsArticle",
        "BackgroundNewsArticle",
        "ReviewNewsArticle",
        "LiveBlogPosting",
        "ScholarlyArticle",
        "Report",
        "Review",
        "Recipe",
    ],
    &["TechArticle", "APIReference", "HowTo", "SoftwareSourceCode"],
    &[
        "DiscussionForumPosting",
        "QAPage",
        "Question",
        "Answer",
        "SocialMediaPosting",
        "Comment",
    ],
    &[
        "Product",
        "ProductGroup",
        "IndividualProduct",
        "ProductModel",
        "Offer",
        "AggregateOffer",
        "Car",
        "Book",
        "SoftwareApplication",
    ],
    &[
        "CollectionPage",
        "ItemList",
        "SearchResultsPage",
        "OfferCatalog",
        "Event",
        "JobPosting",
    ],
    &["FAQPage"],
    &["WebSite", "WebPage"],
    &[
        "Organization",
        "Corporation",
        "LocalBusiness",
        "Service",
        "ProfessionalService",
        "ContactPage",
        "AboutPage",
        "Place",
    ],
];

/// A page's declared kinds: for each of [`KINDS`], how many declarations name it (capped at
/// 15), so a page with one `NewsArticle` and a listing of twenty `ItemList` entries says both.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Declared {
    counts: [u8; KINDS.len()],
}

impl Declared {
    /// The feature names, `decl_<kind>`, in [`KINDS`] order.
    pub fn names() -> impl Iterator<Item = String> {
        KINDS.iter().map(|k| format!("decl_{k}"))
    }

    /// [`Declared::of`] the page's DOM, computed once per page ([`Page::memo`]): the learner's
    /// block context and the guideline's units both read it.
    pub fn of_page(page: &Page) -> Declared {
        const DECLARED: MemoKey<Declared> = MemoKey::new("declared::of");
        *page.memo(DECLARED, || Declared::of(page.dom()))
    }

    /// The declarations of the page parsed as `dom`: every `<meta property|name="og:type">`,
    /// every `"@type"` in a `<script type="application/ld+json">`, every `itemtype` attribute.
    pub fn of(dom: &Dom) -> Declared {
        let mut d = Declared::default();
        for (id, _) in dom.elements() {
            match dom.tag_name(id) {
                Some("meta") => {
                    if let Some(k) = dom.meta_content(id, "og:type").and_then(og_kind) {
                        d.add(k);
                    }
                }
                Some("script") => {
                    let ld = dom
                        .attr(id, "type")
                        .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/ld+json"));
                    if ld {
                        for c in dom.children(id) {
                            if dom.kind(c) == NodeKind::Text {
                                for t in json_ld_types(dom.node_text(c).unwrap_or("")) {
                                    if let Some(k) = schema_kind(t) {
                                        d.add(k);
                                    }
                                }
                            }
                        }
                    }
                }
                _ => {}
            }
            if let Some(types) = dom.attr_local(id, &local_name!("itemtype")) {
                for t in types.split_ascii_whitespace() {
                    if let Some(k) = schema_kind(t) {
                        d.add(k);
                    }
                }
            }
        }
        d
    }

    fn add(&mut self, kind: usize) {
        self.counts[kind] = (self.counts[kind] + 1).min(15);
    }

    /// How many declarations name each of [`KINDS`], in that order.
    pub fn counts(&self) -> [u8; KINDS.len()] {
        self.counts
    }

    /// The kinds declared at least once, in [`KINDS`] order.
    pub fn kinds(&self) -> Vec<&'static str> {
        KINDS
            .iter()
            .zip(self.counts)
            .filter(|(_, c)| *c > 0)
            .map(|(k, _)| *k)
            .collect()
    }
}

/// The kind of an `og:type` value (`article`, `blog`, `product`, `website`, …; `product.item`
/// counts as `product`), `None` for others (`video.movie`, `profile`, …).
fn og_kind(value: &str) -> Option<usize> {
    let v = value.trim().to_ascii_lowercase();
    let head = v.split(['.', ':']).next().unwrap_or("");
    let kind = match head {
        "article" | "blog" | "news" => "article",
        "product" | "og_product" | "book" => "product",
        "website" => "website",
        "company" | "organization" | "business" => "organization",
        _ => return None,
    };
    KINDS.iter().position(|k| *k == kind)
}

/// The kind of a schema.org type name, given bare (`NewsArticle`) or as a URL / CURIE
/// (`https://schema.org/NewsArticle`, `schema:NewsArticle`); `None` for other types.
fn schema_kind(name: &str) -> Option<usize> {
    let bare = name.trim().rsplit(['/', ':', '#']).next().unwrap_or("");
    TYPES.iter().position(|types| types.contains(&bare))
}

/// The values of every `"@type"` key in `text` (a string or an array of strings), in order;
/// tolerant of invalid JSON around them. O(len): the scan goes on after each array.
fn json_ld_types(text: &str) -> Vec<&str> {
    const KEY: &str = "\"@type\"";
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find(KEY) {
        rest = &rest[at + KEY.len()..];
        let after = rest.trim_start();
        let Some(after) = after.strip_prefix(':') else {
            continue;
        };
        let after = after.trim_start();
        if let Some(s) = after.strip_prefix('"') {
            if let Some(end) = s.find('"') {
                out.push(&s[..end]);
            }
        } else if let Some(list) = after.strip_prefix('[') {
            let end = list.find(']').unwrap_or(list.len());
            out.extend(
                list[..end]
                    .split(',')
                    .map(|s| s.trim().trim_matches('"'))
                    .filter(|s| !s.is_empty()),
            );
            // Go on after the array: each byte is scanned a bounded number of times.
            rest = &list[end..];
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::DomOptions;

    fn of(html: &str) -> Vec<&'static str> {
        Declared::of(&Dom::parse(html, &DomOptions::default())).kinds()
    }

    #[test]
    fn reads_og_type_json_ld_and_microdata() {
        assert_eq!(
            of(r#"<meta property="og:type" content="article"><p>x"#),
            ["article"]
        );
        assert_eq!(
            of(r#"<script type="application/ld+json">
                {"@context":"https://schema.org","@graph":[{"@type":"WebSite"},
                 {"@type": ["DiscussionForumPosting","Thing"]}],}
                </script><p>x"#),
            ["forum", "website"]
        );
        assert_eq!(
            of(r#"<div itemscope itemtype="http://schema.org/Product"><p>x</div>"#),
            ["product"]
        );
        // Not a JSON-LD script; an og:type that is none of the kinds.
        assert!(of(r#"<script>var a = {"@type": "Product"}</script>
                      <meta property="og:type" content="video.movie"><p>x"#)
        .is_empty());
    }

    #[test]
    fn counts_every_declaration_and_caps_them() {
        let items: String = (0..20)
            .map(|_| r#"<li itemscope itemtype="https://schema.org/Product">a</li>"#)
            .collect();
        let d = Declared::of(&Dom::parse(
            &format!(r#"<meta name="og:type" content="product.item"><ul>{items}</ul>"#),
            &DomOptions::default(),
        ));
        assert_eq!(d.counts()[3], 15);
        assert_eq!(d.counts().iter().map(|&c| u32::from(c)).sum::<u32>(), 15);
    }

    #[test]
    fn scans_types_in_broken_json() {
        assert_eq!(
            json_ld_types(r#"{"@type" : "NewsArticle", "x": [1,, "@type":["A", "B"] "#),
            ["NewsArticle", "A", "B"]
        );
        // The scan goes on after an array; an unclosed array ends it.
        assert_eq!(
            json_ld_types(r#"{"@type":["A","B"], "x": {"@type":"C"}} "@type": ["D", "#),
            ["A", "B", "C", "D"]
        );
        assert_eq!(schema_kind("schema:BlogPosting"), Some(0));
        assert_eq!(schema_kind("Thing"), None);
    }
}
