//! The shipped guideline presets (`cescope guideline list`), one TOML file each, compiled in.
//! Each file cites the published definition it follows and gives the reason of every choice
//! (`cescope guideline show NAME`); they were written from those definitions
//! (`../shared/notes/guidelines.md`) and hand-made pages, not from any benchmark's pages.

/// `(name, TOML text)` of every preset, in the order `guideline list` shows them.
pub const ALL: &[(&str, &str)] = &[
    ("article", include_str!("article.toml")),
    ("dragnet", include_str!("dragnet.toml")),
    ("with-comments", include_str!("with-comments.toml")),
    ("l3s-gn1", include_str!("l3s-gn1.toml")),
    ("cleaneval", include_str!("cleaneval.toml")),
    ("forum", include_str!("forum.toml")),
];
