use super::*;

/// The blocks of kind `k` as their texts.
fn texts_of(page: &Page, units: &Units, k: UnitKind) -> Vec<String> {
    let blocks = page.blocks();
    (0..blocks.len())
        .filter(|&i| units.kinds(i).contains(k))
        .map(|i| blocks.text(page.dom(), i))
        .collect()
}

/// The headline range of the page's `<h1>` (what a headline finder would give).
fn h1(page: &Page) -> Option<Range<usize>> {
    let blocks = page.blocks();
    (0..blocks.len())
        .find(|&i| blocks.get(i).within.heading() == Some(1))
        .map(|i| blocks.get(i).extent.clone())
}

/// A hand-made blog article with every article-side kind and a comment section.
const ARTICLE: &str = r#"<html><head><title>Bridge | Town Herald</title></head><body class="single comments-open">
<nav><ul><li><a href="/">Home</a></li><li><a href="/news">News</a></li><li><a href="/sport">Sport</a></li></ul></nav>
<main><article class="post">
<h1>Council approves the bridge</h1>
<p class="byline">By Ana Lopes</p>
<p><time datetime="2024-03-12">12 March 2024</time></p>
<p>The council approved the new bridge on Tuesday after a long debate about its cost and its look.</p>
<figure><img src="b.jpg"><figcaption>The bridge as the architects drew it.</figcaption></figure>
<p>Work starts in spring and is planned to end in 2027, the mayor said to the press on Tuesday.</p>
<table><thead><tr><th>Year</th><th>Cost</th></tr></thead><tr><td>2025</td><td>4 M</td></tr></table>
<pre><code>span = 120 m</code></pre>
<p><code>load = 40 t</code></p>
<aside class="factbox"><p>The old bridge was built in 1910 and carried horses and carts.</p></aside>
<ul><li><a href="/a">Earlier story one</a></li><li><a href="/b">Earlier story two</a></li></ul>
<p>The new bridge will carry trams, bicycles and people, but no cars, the plans say in detail.</p>
</article>
<div class="related-posts"><h3>More news</h3><ul><li><a href="/c">Road works begin</a></li><li><a href="/d">New school opens</a></li></ul></div>
<div id="comments"><h3>3 Comments</h3>
<ol class="comment-list">
<li class="comment"><p class="author">Rui</p><p>Finally a bridge for the trams, long overdue in this town.</p></li>
<li class="comment"><p class="author">Eva</p><p>Too expensive for what it is, in my opinion, honestly.</p></li>
<li class="comment"><p class="author">Max</p><p>Will there be a path for walkers too, or only trams?</p></li>
</ol>
<form><label>Your comment</label><textarea></textarea><button>Post</button></form>
</div></main>
<footer><p>© 2024 Town Herald</p></footer>
</body></html>"#;

#[test]
fn article_kinds_on_a_hand_made_page() {
    let page = Page::from_text("a.html", ARTICLE);
    let units = Units::find(&page, h1(&page));
    let t = |k| texts_of(&page, &units, k);
    assert_eq!(t(UnitKind::Headline), ["Council approves the bridge"]);
    assert_eq!(t(UnitKind::Byline), ["By Ana Lopes", "12 March 2024"]);
    assert_eq!(
        t(UnitKind::Caption),
        ["The bridge as the architects drew it."]
    );
    assert_eq!(t(UnitKind::Table), ["Year", "Cost", "2025", "4 M"]);
    assert_eq!(t(UnitKind::Code), ["span = 120 m", "load = 40 t"]);
    assert_eq!(
        t(UnitKind::Supplemental),
        ["The old bridge was built in 1910 and carried horses and carts."]
    );
    assert_eq!(
        t(UnitKind::LinkList),
        [
            "Home",
            "News",
            "Sport",
            "Earlier story one",
            "Earlier story two",
            "Road works begin",
            "New school opens"
        ]
    );
    assert_eq!(
        t(UnitKind::Related),
        ["More news", "Road works begin", "New school opens"]
    );
    // The comment section: heading, comments, form; the body's `comments-open` class makes
    // no unit (a page wrapper), nor does the article.
    let comments = t(UnitKind::Comments);
    assert_eq!(comments.first().map(String::as_str), Some("3 Comments"));
    assert!(comments.iter().any(|c| c == "Rui"));
    assert!(comments.iter().any(|c| c == "Your comment"));
    assert!(!comments.iter().any(|c| c.contains("council approved")));
    // The comments' author lines are post metadata; the article's prose is no unit.
    assert_eq!(t(UnitKind::PostMeta), ["Rui", "Eva", "Max"]);
    assert!(t(UnitKind::Posts).is_empty());
    let prose = (0..page.blocks().len())
        .find(|&i| page.blocks().text(page.dom(), i).starts_with("The council"))
        .unwrap();
    assert!(units.kinds(prose).is_empty());
    // The footer's year is no dateline; nor are the nav links bylines.
    assert!(!t(UnitKind::Byline).iter().any(|b| b.contains('©')));
}

#[test]
fn each_unit_says_why() {
    let page = Page::from_text("a.html", ARTICLE);
    let units = Units::find(&page, h1(&page));
    for u in units.units() {
        assert!(!u.why.is_empty(), "{u:?}");
        assert!(!u.blocks.is_empty());
    }
    let table = units.of_kind(UnitKind::Table).next().unwrap();
    assert_eq!(table.why, "a table with <thead>");
    let comments = units
        .of_kind(UnitKind::Comments)
        .find(|u| u.group.is_some())
        .unwrap();
    assert!(
        comments.why.contains("named as comments"),
        "{}",
        comments.why
    );
}

#[test]
fn without_a_headline_there_is_no_headline_unit() {
    let page = Page::from_text("a.html", ARTICLE);
    let units = Units::find(&page, None);
    assert_eq!(units.of_kind(UnitKind::Headline).count(), 0);
    // The article (class "post") holds the page's prose: still no comment unit around it.
    let texts = texts_of(&page, &units, UnitKind::Comments);
    assert!(!texts.iter().any(|c| c.contains("council approved")));
    // A <title> range is no headline unit either.
    let title = page.text().find("Bridge | Town").unwrap();
    let units = Units::find(&page, Some(title..title + 20));
    assert_eq!(units.of_kind(UnitKind::Headline).count(), 0);
}

/// A hand-made forum thread: posts with author lines, post numbers, reactions and a quote.
fn forum(posts: usize) -> String {
    let mut s = String::from(
        "<html><head><title>Thread</title></head><body><nav><a href=/>Forum</a> <a href=/t>Topics</a></nav>\
         <h1>Which bridge design is best?</h1><div class=\"block-body\">",
    );
    for k in 1..=posts {
        s.push_str(&format!(
            "<article class=\"message message--post\"><div class=\"message-user\"><h4 class=\"message-name\">user{k}</h4></div>\
             <div class=\"message-main\"><ul class=\"message-attribution\"><li>Mar {k}, 2024</li><li><a href=\"#p{k}\">#{k}</a></li></ul>\
             <div class=\"message-body\">"
        ));
        if k % 2 == 0 {
            s.push_str(&format!(
                "<blockquote><div class=\"bbCodeBlock-content\">user{} said: an earlier point</div>\
                 <div class=\"bbCodeBlock-expandLink\">Click to expand...</div></blockquote>",
                k - 1
            ));
        }
        s.push_str(&format!(
            "<div class=\"bbWrapper\">Post number {k} says the arch design is better because it carries more load over the river.</div></div>\
             <div class=\"reactions\">{} likes</div></div></article>",
            k + 2
        ));
    }
    s.push_str("</div><footer>Forum rules</footer></body></html>");
    s
}

#[test]
fn forum_posts_and_their_metadata() {
    let html = forum(6);
    let page = Page::from_text("f.html", html.as_str());
    let units = Units::find(&page, h1(&page));
    let posts: Vec<&Unit> = units.of_kind(UnitKind::Posts).collect();
    assert_eq!(posts.len(), 6);
    assert_eq!(posts[0].post, Some((0, 6)));
    assert_eq!(posts[5].post, Some((5, 6)));
    assert!(posts[0].why.contains("named as posts"), "{}", posts[0].why);
    let meta = texts_of(&page, &units, UnitKind::PostMeta);
    for want in [
        "user1",
        "Mar 1, 2024",
        "#1",
        "3 likes",
        "Click to expand...",
    ] {
        assert!(meta.iter().any(|m| m == want), "{want} in {meta:?}");
    }
    // The post bodies are not metadata.
    assert!(!meta.iter().any(|m| m.starts_with("Post number")));
    // No comment section and no byline on a forum page of posts.
    assert_eq!(units.of_kind(UnitKind::Comments).count(), 0);
    assert_eq!(units.of_kind(UnitKind::Byline).count(), 0);
}

#[test]
fn a_listing_of_articles_is_not_a_thread() {
    // Every record has its own heading: a blog's index, not forum posts.
    let mut html = String::from("<html><body><h1>Blog</h1><div id=list>");
    for title in [
        "Council approves the bridge",
        "Trams return to the old town",
        "School opens a new library",
        "Floods close the river road",
        "Market moves to the square",
    ] {
        html.push_str(&format!(
            "<article class=\"post\"><h2>{title}</h2><p>The excerpt of this story tells what it is about in some words.</p></article>"
        ));
    }
    html.push_str("</div></body></html>");
    let page = Page::from_text("l.html", html.as_str());
    let units = Units::find(&page, h1(&page));
    assert_eq!(units.of_kind(UnitKind::Posts).count(), 0);
}

#[test]
fn layout_tables_are_not_tables() {
    // Readability's rules: nested tables and small tables without headers are layout.
    let html = "<body><h1>T</h1><table><tr><td><table><tr><td>a</td><td>b</td></tr></table></td></tr></table>\
        <table role=presentation><tr><th>x</th></tr></table>\
        <table><tr><td>1</td><td>2</td></tr><tr><td>3</td><td>4</td></tr></table>\
        <table><tr><td>1</td><td>2</td><td>3</td><td>4</td><td>5</td></tr></table></body>";
    let page = Page::from_text("t.html", html);
    let units = Units::find(&page, h1(&page));
    let tables: Vec<&str> = units
        .of_kind(UnitKind::Table)
        .map(|u| u.why.as_str())
        .collect();
    // The inner table of the nested pair is 1 × 2: layout; the 2 × 2 is layout; the 5-column
    // row is data.
    assert_eq!(tables, ["a table of 1 rows and 5 columns"]);
}

#[test]
fn related_heading_takes_the_run_of_links_after_it() {
    let html = "<body><h1>T</h1><p>Enough prose in this article to count as the article's text before the \
        heading, forty words or more: one two three four five six seven eight nine ten eleven \
        twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty twenty-one \
        twenty-two twenty-three twenty-four, and then some more words to be sure that the prose before \
        the heading holds fifty words at least.</p>\
        <h3>You may also like</h3><p><a href=/1>First other story</a></p><p><a href=/2>Second other story</a></p>\
        <p>And then a long paragraph of the page that is not a link and has more than twelve words in it.</p></body>";
    let page = Page::from_text("r.html", html);
    let units = Units::find(&page, h1(&page));
    assert_eq!(
        texts_of(&page, &units, UnitKind::Related),
        [
            "You may also like",
            "First other story",
            "Second other story"
        ]
    );
}

#[test]
fn likeness_text_folds_case_space_and_numbers() {
    assert_eq!(likeness_text("#14"), likeness_text("#15"));
    assert_eq!(likeness_text("12 Likes"), "# likes");
    assert_eq!(
        likeness_text("  Click   to expand... "),
        "click to expand..."
    );
    assert_ne!(likeness_text("Reply"), likeness_text("Report"));
}

#[test]
fn kinds_have_names_and_a_primary() {
    for k in UnitKind::ALL {
        assert_eq!(UnitKind::from_name(k.name()), Some(k));
        assert!(!k.describe().is_empty());
    }
    assert_eq!(UnitKind::from_name("post-meta"), Some(UnitKind::PostMeta));
    assert_eq!(UnitKind::from_name("nope"), None);
    let mut s = KindSet::default();
    assert_eq!(s.primary(), None);
    s.insert(UnitKind::Comments);
    s.insert(UnitKind::Caption);
    assert_eq!(s.primary(), Some(UnitKind::Caption));
    assert_eq!(
        s.iter().collect::<Vec<_>>(),
        [UnitKind::Caption, UnitKind::Comments]
    );
}

#[test]
fn a_caption_class_counts_beside_a_picture_only() {
    let html = "<body><h1>T</h1><div class=wp-caption><img src=a.jpg><p class=wp-caption-text>The old mill in 1910.</p></div>\
        <div class=card><h3 class=text-caption>Leather wallet for men, slim</h3><p>Price 20</p></div></body>";
    let page = Page::from_text("c.html", html);
    let units = Units::find(&page, h1(&page));
    assert_eq!(
        texts_of(&page, &units, UnitKind::Caption),
        ["The old mill in 1910."]
    );
}

/// Six same-class sections (an account line and a paragraph of 29 words each), without names of
/// posts, inside `wrapper` (an opening tag, closed by `close`).
fn sections(wrapper: &str, close: &str) -> String {
    let mut s =
        format!("<html><body><nav><a href=/>Home</a></nav><h1>Six food bloggers</h1>{wrapper}");
    for k in 1..=6 {
        s.push_str(&format!(
            "<div class=\"block\"><div class=\"block-text\"><p>Account: @cook{k}</p><p>Blogger {k} began cooking at home years ago and now \
             shares a recipe each week with readers who follow every step of her kitchen from morning to night.</p></div></div>"
        ));
    }
    s.push_str(close);
    s.push_str("<footer>About us</footer></body></html>");
    s
}

#[test]
fn an_article_cut_into_sections_is_no_thread() {
    // Unnamed same-class records holding the page's words: a thread by their size ...
    let html = sections("<div class=\"wrap\">", "</div>");
    let page = Page::from_text("s.html", html.as_str());
    let units = Units::find(&page, h1(&page));
    let posts: Vec<&Unit> = units.of_kind(UnitKind::Posts).collect();
    assert_eq!(posts.len(), 6);
    assert!(
        posts[0].why.contains("largest record group"),
        "{}",
        posts[0].why
    );
    // ... but not inside an article's wrapper: an <article> element, a class naming an
    // article or story, or itemprop=articleBody.
    for (open, close) in [
        ("<article>", "</article>"),
        ("<div class=\"article__content\">", "</div>"),
        ("<div id=\"story-body\">", "</div>"),
        ("<div itemprop=\"articleBody\">", "</div>"),
    ] {
        let html = sections(open, close);
        let page = Page::from_text("s.html", html.as_str());
        let units = Units::find(&page, h1(&page));
        assert_eq!(units.of_kind(UnitKind::Posts).count(), 0, "{open}");
    }
}
