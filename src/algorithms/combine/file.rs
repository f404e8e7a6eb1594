//! Set files: the TOML form of a [`FilterSet`] (see the parent module's documentation),
//! read by [`load`] / [`parse`], and the shipped sets of Weissig & Gottron, section 5
//! ([`shipped`]). Every error names the file and the member (`member 2.1`) it is about.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use serde::Deserialize;

use super::{
    check_shape, known, lookup, Combine, FilterSet, Member, MemberKind, Removal, SetError,
};
use super::{MAX_DEPTH, MAX_FILE_BYTES};
use crate::error::{Error, Result};
use crate::extract::{Extractor, Params};

/// A set file as written (one struct for sets and members).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSet {
    name: Option<String>,
    describe: Option<String>,
    combine: Option<String>,
    remove: Option<String>,
    threshold: Option<toml::Value>,
    algo: Option<String>,
    set: Option<String>,
    weight: Option<toml::Value>,
    params: Option<toml::Table>,
    #[serde(default)]
    member: Vec<RawSet>,
}

/// Reading state: the files being read (cycle check) and whether members may name registered
/// sets (not while the shipped sets themselves are being parsed).
struct Ctx {
    stack: Vec<PathBuf>,
    sets: bool,
}

/// Reads the set file `path`. Errors: [`Error::FilterSet`] naming the file (see [`SetError`]).
pub fn load(path: &Path) -> Result<FilterSet> {
    let mut ctx = Ctx {
        stack: Vec::new(),
        sets: true,
    };
    read_file(path, &mut ctx, "top level", 0).map_err(|source| Error::FilterSet {
        file: path.display().to_string(),
        source,
    })
}

/// Parses set-file `text`; `set = FILE` members are read relative to `base_dir`. Errors:
/// [`Error::FilterSet`] (file `<text>`).
pub fn parse(text: &str, base_dir: &Path) -> Result<FilterSet> {
    let mut ctx = Ctx {
        stack: Vec::new(),
        sets: true,
    };
    parse_text(text, base_dir, "set", &mut ctx).map_err(|source| Error::FilterSet {
        file: "<text>".into(),
        source,
    })
}

fn parse_text(
    text: &str,
    dir: &Path,
    default_name: &str,
    ctx: &mut Ctx,
) -> std::result::Result<FilterSet, SetError> {
    let raw: RawSet = toml::from_str(text).map_err(|e| SetError::Toml(one_line(&e.to_string())))?;
    if raw.weight.is_some() {
        return Err(SetError::Invalid {
            at: "top level".into(),
            message: "weight belongs to a [[member]]".into(),
        });
    }
    build_set(raw, dir, Some(default_name), 0, ctx, "top level")
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn read_file(
    path: &Path,
    ctx: &mut Ctx,
    at: &str,
    depth: usize,
) -> std::result::Result<FilterSet, SetError> {
    let io = |e: std::io::Error| SetError::Io {
        at: at.into(),
        path: path.display().to_string(),
        message: e.to_string(),
    };
    let canon = path.canonicalize().map_err(io)?;
    if ctx.stack.contains(&canon) {
        return Err(SetError::Cycle {
            at: at.into(),
            path: path.display().to_string(),
        });
    }
    if depth > MAX_DEPTH {
        return Err(SetError::TooDeep {
            at: at.into(),
            limit: MAX_DEPTH,
        });
    }
    let meta = std::fs::metadata(&canon).map_err(io)?;
    if !meta.is_file() || meta.len() > MAX_FILE_BYTES {
        return Err(SetError::Io {
            at: at.into(),
            path: path.display().to_string(),
            message: format!("not a regular file of at most {MAX_FILE_BYTES} bytes"),
        });
    }
    let text = std::fs::read_to_string(&canon).map_err(io)?;
    let dir = canon.parent().unwrap_or(Path::new(".")).to_path_buf();
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "set".into());
    ctx.stack.push(canon);
    let raw: std::result::Result<RawSet, _> = toml::from_str(&text);
    let out = match raw {
        Ok(raw) if raw.weight.is_some() && depth == 0 => Err(SetError::Invalid {
            at: at.into(),
            message: "weight belongs to a [[member]]".into(),
        }),
        Ok(mut raw) => {
            // A weight in an included file is its member's weight: the caller reads it.
            raw.weight = None;
            build_set(raw, &dir, Some(&stem), depth, ctx, at)
        }
        Err(e) => Err(SetError::Toml(format!(
            "{}: {}",
            path.display(),
            one_line(&e.to_string())
        ))),
    };
    ctx.stack.pop();
    out
}

fn number(v: &toml::Value) -> Option<f64> {
    match v {
        toml::Value::Integer(i) => Some(*i as f64),
        toml::Value::Float(f) => Some(*f),
        _ => None,
    }
}

fn build_set(
    raw: RawSet,
    dir: &Path,
    default_name: Option<&str>,
    depth: usize,
    ctx: &mut Ctx,
    at: &str,
) -> std::result::Result<FilterSet, SetError> {
    if depth > MAX_DEPTH {
        return Err(SetError::TooDeep {
            at: at.into(),
            limit: MAX_DEPTH,
        });
    }
    let invalid = |m: &str| SetError::Invalid {
        at: at.into(),
        message: m.into(),
    };
    if raw.algo.is_some() || raw.set.is_some() {
        return Err(invalid(
            "a filter set has combine = ... and [[member]]s, not algo or set",
        ));
    }
    let combine = match raw.combine.as_deref().map(str::trim) {
        Some("serial") => Combine::Serial,
        Some("union") => Combine::Union,
        Some("intersection") => Combine::Intersection,
        Some("vote") => {
            let t = raw
                .threshold
                .as_ref()
                .ok_or_else(|| SetError::VoteWithoutThreshold { at: at.into() })?;
            let threshold = number(t).ok_or_else(|| SetError::BadValue {
                at: at.into(),
                message: format!("threshold = {t}: expected a number"),
            })?;
            Combine::Vote { threshold }
        }
        Some(other) => {
            return Err(invalid(&format!(
                "combine = {other:?}: expected serial, union, intersection or vote"
            )))
        }
        None => {
            return Err(invalid(
                "missing combine = \"serial\" | \"union\" | \"intersection\" | \"vote\"",
            ))
        }
    };
    if raw.threshold.is_some() && !matches!(combine, Combine::Vote { .. }) {
        return Err(invalid("threshold is only used by combine = \"vote\""));
    }
    let removal = match raw.remove.as_deref().map(str::trim) {
        None => Removal::default(),
        Some(_) if combine != Combine::Serial => {
            return Err(invalid("remove is only used by combine = \"serial\""))
        }
        Some("nodes") => Removal::Nodes,
        Some("text") => Removal::Text,
        Some(other) => {
            return Err(SetError::BadValue {
                at: at.into(),
                message: format!("remove = {other:?}: expected nodes or text"),
            })
        }
    };
    check_shape(combine, raw.member.len(), at)?;
    let mut members = Vec::with_capacity(raw.member.len());
    for (j, m) in raw.member.into_iter().enumerate() {
        let at_m = if at == "top level" {
            format!("member {}", j + 1)
        } else {
            format!("{at}.{}", j + 1)
        };
        members.push(build_member(m, dir, combine, depth, ctx, &at_m)?);
    }
    let name = match (raw.name, default_name) {
        (Some(n), _) if !n.trim().is_empty() => n.trim().to_string(),
        (_, Some(d)) => d.to_string(),
        _ => {
            let names: Vec<&str> = members.iter().map(|m| m.extractor().name()).collect();
            format!("{}({})", combine.name(), names.join(","))
        }
    };
    let set = FilterSet::build(&name, raw.describe.as_deref(), combine, removal, members);
    match raw.params {
        Some(p) => apply_params(set, &p, at),
        None => Ok(set),
    }
}

/// Parses a `params` table against `e`'s parameters.
fn parse_params(
    e: &dyn Extractor,
    table: &toml::Table,
    at: &str,
) -> std::result::Result<Params, SetError> {
    let mut p = Params::default();
    for (k, v) in table {
        let spec = e
            .params()
            .iter()
            .find(|s| s.name == k.as_str())
            .ok_or_else(|| SetError::UnknownParam {
                at: at.into(),
                algo: e.name().into(),
                name: k.clone(),
                known: {
                    let n: Vec<&str> = e.params().iter().map(|s| s.name.as_ref()).collect();
                    if n.is_empty() {
                        "none".into()
                    } else {
                        n.join(", ")
                    }
                },
            })?;
        let text = match v {
            toml::Value::String(s) => s.clone(),
            toml::Value::Integer(_) | toml::Value::Float(_) | toml::Value::Boolean(_) => {
                v.to_string()
            }
            other => {
                return Err(SetError::BadValue {
                    at: at.into(),
                    message: format!("{k} = {other}: expected a number, a switch or a name"),
                })
            }
        };
        let value = spec.parse(&text).map_err(|e| SetError::BadValue {
            at: at.into(),
            message: match e {
                Error::Param(m) => m,
                e => e.to_string(),
            },
        })?;
        p.set(spec, value).map_err(|e| SetError::BadValue {
            at: at.into(),
            message: e.to_string(),
        })?;
    }
    Ok(p)
}

fn apply_params(
    set: FilterSet,
    table: &toml::Table,
    at: &str,
) -> std::result::Result<FilterSet, SetError> {
    let p = parse_params(&set, table, at)?;
    Ok(set.with_params(&p))
}

fn build_member(
    raw: RawSet,
    dir: &Path,
    parent: Combine,
    depth: usize,
    ctx: &mut Ctx,
    at: &str,
) -> std::result::Result<Member, SetError> {
    let weight = match &raw.weight {
        None => 1.0,
        Some(_) if !matches!(parent, Combine::Vote { .. }) => {
            return Err(SetError::Invalid {
                at: at.into(),
                message: "weight is only used when the set has combine = \"vote\"".into(),
            })
        }
        Some(v) => match number(v) {
            Some(w) if w.is_finite() && w > 0.0 => w,
            _ => {
                return Err(SetError::BadValue {
                    at: at.into(),
                    message: format!("weight = {v}: expected a number > 0"),
                })
            }
        },
    };
    let kinds = raw.algo.is_some() as u8 + raw.set.is_some() as u8 + raw.combine.is_some() as u8;
    if kinds != 1 {
        return Err(SetError::Invalid {
            at: at.into(),
            message: "a member needs exactly one of algo = NAME, set = \"FILE\" or combine = ... \
                      with its own [[member.member]]s"
                .into(),
        });
    }
    let member = if let Some(name) = &raw.algo {
        if raw.threshold.is_some()
            || raw.remove.is_some()
            || !raw.member.is_empty()
            || raw.name.is_some()
            || raw.describe.is_some()
        {
            return Err(SetError::Invalid {
                at: at.into(),
                message: "an algo member has only algo, params and weight".into(),
            });
        }
        let e = lookup(name.trim(), ctx.sets).ok_or_else(|| SetError::UnknownAlgorithm {
            at: at.into(),
            name: name.clone(),
            known: known(ctx.sets),
        })?;
        let given = match &raw.params {
            Some(t) => parse_params(e.as_ref(), t, at)?,
            None => Params::default(),
        };
        Member {
            kind: MemberKind::Algo(e),
            given,
            weight,
        }
    } else if let Some(file) = &raw.set {
        if raw.threshold.is_some() || raw.remove.is_some() || !raw.member.is_empty() {
            return Err(SetError::Invalid {
                at: at.into(),
                message: "a set = FILE member has only set, params and weight".into(),
            });
        }
        let s = read_file(&dir.join(file), ctx, at, depth + 1)?;
        let s = match &raw.params {
            Some(t) => apply_params(s, t, at)?,
            None => s,
        };
        Member::set(s)
    } else {
        Member::set(build_set(raw, dir, None, depth + 1, ctx, at)?)
    };
    Ok(member.with_weight(weight))
}

/// The shipped sets of Weissig & Gottron, section 5 (file name = registered name).
const SHIPPED: [(&str, &str); 10] = [
    ("3xdsc", include_str!("../sets/3xdsc.toml")),
    ("3xbte", include_str!("../sets/3xbte.toml")),
    ("3xaccb-r40", include_str!("../sets/3xaccb-r40.toml")),
    ("lqf_dsc", include_str!("../sets/lqf_dsc.toml")),
    ("lqf_bte", include_str!("../sets/lqf_bte.toml")),
    ("lqf_accb-r40", include_str!("../sets/lqf_accb-r40.toml")),
    ("mix1", include_str!("../sets/mix1.toml")),
    ("mix2", include_str!("../sets/mix2.toml")),
    ("mix3", include_str!("../sets/mix3.toml")),
    ("mix4", include_str!("../sets/mix4.toml")),
];

/// The shipped filter sets (Weissig & Gottron, section 5), parsed once: 3xdsc, 3xbte,
/// 3xaccb-r40, lqf_dsc, lqf_bte, lqf_accb-r40, mix1 … mix4. Their members are registered
/// algorithms only. A file that does not parse is left out (the unit tests check all parse).
pub fn shipped() -> &'static [FilterSet] {
    static SETS: OnceLock<Vec<FilterSet>> = OnceLock::new();
    SETS.get_or_init(|| {
        SHIPPED
            .iter()
            .filter_map(|(name, text)| {
                let mut ctx = Ctx {
                    stack: Vec::new(),
                    sets: false,
                };
                parse_text(text, Path::new("."), name, &mut ctx).ok()
            })
            .collect()
    })
}

/// The shipped set files as text, by registered name (what `cescope algos` could show).
pub fn shipped_text(name: &str) -> Option<&'static str> {
    SHIPPED
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, t)| *t)
}
