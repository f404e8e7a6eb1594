//! Parameters: their descriptions ([`ParamSpec`]), the values of one run ([`Params`]) and the
//! typed views algorithms read them through ([`ParamType`], [`Choice`], [`choice_enum!`](crate::choice_enum),
//! [`typed_params!`](crate::typed_params)).
//!
//! A parameter is described once, by a [`ParamSpec`] — name, kind, published default, range,
//! step and source — which drives the command line's `--set`, `cescope algos`, the inspector's
//! sliders, set files and the genetic optimiser ("the parameter description", Gottron 2009,
//! Fig. 2). [`Params`] holds the values of one run by name, and **every write is checked
//! against the spec of that name** ([`Params::set`], [`Params::set_str`]): a misspelt name, a
//! value of the wrong kind, out of range or an unknown choice is an [`Error::Param`] where it
//! is written, never a silent default later.
//!
//! An algorithm reads its values once, into a typed struct declared with [`typed_params!`](crate::typed_params)
//! (fields of type `i64`, `f64`, `bool` or a [`Choice`] enum declared with [`choice_enum!`](crate::choice_enum)),
//! whose `SPECS` are the algorithm's specs: the struct and the specs are one declaration, so
//! they cannot disagree.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// A name or text an algorithm owns: borrowed for the built-in algorithms (`Cow::Borrowed` of a
/// literal), owned for the ones built at run time (a filter set loaded from a file, a model).
pub type Text = Cow<'static, str>;

/// The type and range of a parameter.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum ParamKind {
    /// An integer in `min..=max`, moved by `step`.
    Int {
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
        /// Slider step.
        step: i64,
    },
    /// A real number in `min..=max`, moved by `step`.
    Float {
        /// Smallest value.
        min: f64,
        /// Largest value.
        max: f64,
        /// Slider step.
        step: f64,
    },
    /// A switch.
    Bool,
    /// One of a fixed list of names (a [`Choice`] enum's [`Choice::NAMES`]).
    Choice {
        /// The allowed names.
        choices: &'static [&'static str],
    },
}

/// A parameter value. Serialises as a bare JSON / TOML value (a number, a boolean, a name), and
/// reads back from one ([`ParamSpec::from_json`] checks it against its spec).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ParamValue {
    /// For [`ParamKind::Int`].
    Int(i64),
    /// For [`ParamKind::Float`].
    Float(f64),
    /// For [`ParamKind::Bool`].
    Bool(bool),
    /// For [`ParamKind::Choice`]: the choice's name.
    Choice(Text),
}

impl ParamValue {
    /// A choice value from a literal (usable in `const` specs).
    pub const fn choice(name: &'static str) -> ParamValue {
        ParamValue::Choice(Cow::Borrowed(name))
    }
}

impl fmt::Display for ParamValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamValue::Int(v) => write!(f, "{v}"),
            ParamValue::Float(v) => write!(f, "{v}"),
            ParamValue::Bool(v) => write!(f, "{v}"),
            ParamValue::Choice(v) => write!(f, "{v}"),
        }
    }
}

/// The description of one parameter of an algorithm.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ParamSpec {
    /// Name used by `--set NAME=VALUE` and the sliders.
    pub name: Text,
    /// Type and range.
    #[serde(flatten)]
    pub kind: ParamKind,
    /// The default, as published.
    pub default: ParamValue,
    /// One line of help.
    pub help: &'static str,
    /// Where the parameter and its default come from.
    pub source: &'static str,
}

impl ParamSpec {
    /// Parses `text` as a value of this parameter, checking kind and range. Errors:
    /// [`Error::Param`] naming the parameter, the text and what was expected.
    pub fn parse(&self, text: &str) -> Result<ParamValue> {
        let bad = |why: String| Error::Param(format!("{}={text}: {why}", self.name));
        match &self.kind {
            ParamKind::Int { .. } => {
                let v: i64 = text
                    .trim()
                    .parse()
                    .map_err(|_| bad("expected an integer".into()))?;
                self.check(ParamValue::Int(v))
            }
            ParamKind::Float { .. } => {
                let v: f64 = text
                    .trim()
                    .parse()
                    .map_err(|_| bad("expected a number".into()))?;
                self.check(ParamValue::Float(v))
            }
            ParamKind::Bool => match text.trim().to_ascii_lowercase().as_str() {
                "true" | "yes" | "on" | "1" => Ok(ParamValue::Bool(true)),
                "false" | "no" | "off" | "0" => Ok(ParamValue::Bool(false)),
                _ => Err(bad("expected true or false".into())),
            },
            ParamKind::Choice { .. } => {
                self.check(ParamValue::Choice(text.trim().to_string().into()))
            }
        }
    }

    /// `v` if it is a value of this parameter: the right kind (an integer is also a real), in
    /// range, a known choice (ASCII case-insensitive; returned in its canonical spelling).
    /// Errors: [`Error::Param`] saying what was expected.
    pub fn check(&self, v: ParamValue) -> Result<ParamValue> {
        let bad = |why: String| Error::Param(format!("{}={v}: {why}", self.name));
        match (&self.kind, &v) {
            (ParamKind::Int { min, max, .. }, ParamValue::Int(x)) => {
                if x < min || x > max {
                    return Err(bad(format!("out of range {min}..={max}")));
                }
                Ok(v)
            }
            (ParamKind::Float { min, max, .. }, ParamValue::Float(_) | ParamValue::Int(_)) => {
                let x = f64::from_value(&v).unwrap_or(f64::NAN);
                if !x.is_finite() || x < *min || x > *max {
                    return Err(bad(format!("out of range {min}..={max}")));
                }
                Ok(ParamValue::Float(x))
            }
            (ParamKind::Bool, ParamValue::Bool(_)) => Ok(v),
            (ParamKind::Choice { choices }, ParamValue::Choice(c)) => choices
                .iter()
                .find(|k| k.eq_ignore_ascii_case(c.trim()))
                .map(|k| ParamValue::choice(k))
                .ok_or_else(|| bad(format!("expected one of {}", choices.join(", ")))),
            (kind, _) => Err(bad(format!("expected {}", kind_name(kind)))),
        }
    }

    /// A value of this parameter from JSON / TOML data (a number, a boolean or a name), checked
    /// as [`ParamSpec::check`]. Errors: [`Error::Param`].
    pub fn from_json(&self, v: &serde_json::Value) -> Result<ParamValue> {
        let value = match v {
            serde_json::Value::Bool(b) => ParamValue::Bool(*b),
            serde_json::Value::Number(n) => match (n.as_i64(), n.as_f64()) {
                (Some(i), _) => ParamValue::Int(i),
                (None, Some(f)) => ParamValue::Float(f),
                _ => return Err(Error::Param(format!("{}={n}: not a number", self.name))),
            },
            serde_json::Value::String(s) => return self.parse(s),
            other => {
                return Err(Error::Param(format!(
                    "{}={other}: expected a number, a switch or a name",
                    self.name
                )))
            }
        };
        self.check(value)
    }

    /// The value one step up (`dir > 0`) or down from `v`, clamped to the range; choices cycle;
    /// a value of another kind steps from the default. A real number is rounded to 9 decimals
    /// after the step, so stepping 0.5 by 0.05 twice gives 0.6, not 0.6000000000000001.
    pub fn step(&self, v: &ParamValue, dir: i32) -> ParamValue {
        match (&self.kind, v) {
            (ParamKind::Int { min, max, step }, ParamValue::Int(x)) => {
                ParamValue::Int((x + step * i64::from(dir)).clamp(*min, *max))
            }
            (ParamKind::Float { min, max, step }, ParamValue::Float(x)) => {
                let y = x + step * f64::from(dir);
                let rounded = (y * 1e9).round() / 1e9;
                let y = if rounded.is_finite() { rounded } else { y };
                ParamValue::Float(y.clamp(*min, *max))
            }
            (ParamKind::Bool, ParamValue::Bool(b)) => ParamValue::Bool(!b),
            (ParamKind::Choice { choices }, ParamValue::Choice(c)) => {
                let n = choices.len();
                let i = choices.iter().position(|x| x == c).unwrap_or(0);
                let j = (i as i64 + i64::from(dir)).rem_euclid(n.max(1) as i64) as usize;
                choices
                    .get(j)
                    .map_or_else(|| self.default.clone(), |c| ParamValue::choice(c))
            }
            _ => self.default.clone(),
        }
    }
}

fn kind_name(k: &ParamKind) -> String {
    match k {
        ParamKind::Int { .. } => "an integer".into(),
        ParamKind::Float { .. } => "a number".into(),
        ParamKind::Bool => "true or false".into(),
        ParamKind::Choice { choices } => format!("one of {}", choices.join(", ")),
    }
}

/// The spec named `name` (surrounding white space ignored) in `specs`. Errors:
/// [`Error::Param`] naming the parameters there are.
pub fn find_spec<'a>(specs: &'a [ParamSpec], name: &str) -> Result<&'a ParamSpec> {
    specs.iter().find(|s| s.name == name.trim()).ok_or_else(|| {
        let known: Vec<&str> = specs.iter().map(|s| s.name.as_ref()).collect();
        Error::Param(format!(
            "unknown parameter {:?}; this algorithm has: {}",
            name.trim(),
            if known.is_empty() {
                "none".to_string()
            } else {
                known.join(", ")
            }
        ))
    })
}

/// Parameter values of one run, by name. Every value in it was checked against the spec of its
/// name when it was written ([`Params::set`], [`Params::set_str`], [`Params::defaults`]); an
/// absent name reads as its spec's published default.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(transparent)]
pub struct Params {
    values: BTreeMap<Text, ParamValue>,
}

impl Params {
    /// The published defaults of `specs`.
    pub fn defaults(specs: &[ParamSpec]) -> Params {
        Params {
            values: specs
                .iter()
                .map(|s| (s.name.clone(), s.default.clone()))
                .collect(),
        }
    }

    /// Applies one `NAME=VALUE` assignment. Errors: [`Error::Param`] for an unknown name, a
    /// missing `=`, or a value of the wrong kind, out of range or an unknown choice.
    pub fn set_str(&mut self, specs: &[ParamSpec], assignment: &str) -> Result<()> {
        let (name, value) = assignment
            .split_once('=')
            .ok_or_else(|| Error::Param(format!("{assignment:?}: expected NAME=VALUE")))?;
        let spec = find_spec(specs, name)?;
        self.values.insert(spec.name.clone(), spec.parse(value)?);
        Ok(())
    }

    /// Sets the value of `spec`, checked ([`ParamSpec::check`]). Errors: [`Error::Param`] for
    /// a value of the wrong kind, out of range or an unknown choice.
    pub fn set(&mut self, spec: &ParamSpec, v: ParamValue) -> Result<()> {
        let v = spec.check(v)?;
        self.values.insert(spec.name.clone(), v);
        Ok(())
    }

    /// Sets the parameter `name` of `specs` (as [`Params::set`]). Errors: [`Error::Param`] for
    /// an unknown name or a bad value.
    pub fn set_named(&mut self, specs: &[ParamSpec], name: &str, v: ParamValue) -> Result<()> {
        self.set(find_spec(specs, name)?, v)
    }

    /// The value of `name`, if set.
    pub fn get(&self, name: &str) -> Option<&ParamValue> {
        self.values.get(name)
    }

    /// The value of `spec` as `T`: the value set for its name, else its published default.
    /// Values are checked when written, so the stored value has the spec's kind; a spec whose
    /// default does not fit `T` is a programming error caught by the registry test
    /// `typed_params_read_every_spec`.
    pub fn read<T: ParamType>(&self, spec: &ParamSpec) -> T {
        self.values
            .get(spec.name.as_ref())
            .and_then(T::from_value)
            .or_else(|| T::from_value(&spec.default))
            .unwrap_or_else(T::fallback)
    }

    /// `name=value` pairs in name order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &ParamValue)> {
        self.values.iter().map(|(k, v)| (k.as_ref(), v))
    }
}

impl fmt::Display for Params {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for (k, v) in &self.values {
            if !first {
                write!(f, " ")?;
            }
            first = false;
            write!(f, "{k}={v}")?;
        }
        Ok(())
    }
}

/// A Rust type a parameter value reads as ([`Params::read`]): `i64` (int), `f64` (float; an
/// int converts), `bool` (switch), and the [`Choice`] enums.
pub trait ParamType: Sized {
    /// `v` as this type, if it is of the matching kind.
    fn from_value(v: &ParamValue) -> Option<Self>;
    /// The value of a spec whose default does not fit (a programming error; see
    /// [`Params::read`]).
    fn fallback() -> Self;
}

impl ParamType for i64 {
    fn from_value(v: &ParamValue) -> Option<Self> {
        match v {
            ParamValue::Int(x) => Some(*x),
            _ => None,
        }
    }
    fn fallback() -> Self {
        0
    }
}

impl ParamType for f64 {
    fn from_value(v: &ParamValue) -> Option<Self> {
        match v {
            ParamValue::Float(x) => Some(*x),
            ParamValue::Int(x) => Some(*x as f64),
            _ => None,
        }
    }
    fn fallback() -> Self {
        0.0
    }
}

impl ParamType for bool {
    fn from_value(v: &ParamValue) -> Option<Self> {
        match v {
            ParamValue::Bool(x) => Some(*x),
            _ => None,
        }
    }
    fn fallback() -> Self {
        false
    }
}

/// An enum whose variants are the choices of a [`ParamKind::Choice`] parameter, declared with
/// [`choice_enum!`](crate::choice_enum): `NAMES` are the spec's choices, in variant order.
pub trait Choice: Copy + Sized + 'static {
    /// The choices' names, in variant order.
    const NAMES: &'static [&'static str];
    /// The variants, in the order of [`Choice::NAMES`].
    const ALL: &'static [Self];
    /// The variant's name.
    fn name(self) -> &'static str;
    /// The variant named `name` (ASCII case-insensitive).
    fn from_name(name: &str) -> Option<Self> {
        Self::NAMES
            .iter()
            .position(|n| n.eq_ignore_ascii_case(name.trim()))
            .map(|i| Self::ALL[i])
    }
}

/// Declares a [`Choice`] enum (and its [`ParamType`]): each variant with the name its parameter
/// takes on the command line and in files.
///
/// ```
/// use cescope::extract::Choice;
/// cescope::choice_enum! {
///     /// What a deleted block takes with it.
///     pub enum Delete { /// its own text
///         OwnText = "own-text", Subtree = "subtree" }
/// }
/// assert_eq!(Delete::NAMES, &["own-text", "subtree"]);
/// assert_eq!(Delete::from_name("Subtree"), Some(Delete::Subtree));
/// ```
#[macro_export]
macro_rules! choice_enum {
    ($(#[$meta:meta])* $vis:vis enum $name:ident {
        $($(#[$vmeta:meta])* $variant:ident = $text:literal),+ $(,)?
    }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        $vis enum $name {
            $($(#[$vmeta])* $variant),+
        }
        impl $crate::extract::Choice for $name {
            const NAMES: &'static [&'static str] = &[$($text),+];
            const ALL: &'static [Self] = &[$($name::$variant),+];
            fn name(self) -> &'static str {
                match self {
                    $($name::$variant => $text),+
                }
            }
        }
        impl $crate::extract::ParamType for $name {
            fn from_value(v: &$crate::extract::ParamValue) -> Option<Self> {
                match v {
                    $crate::extract::ParamValue::Choice(c) => {
                        <$name as $crate::extract::Choice>::from_name(c)
                    }
                    _ => None,
                }
            }
            fn fallback() -> Self {
                <$name as $crate::extract::Choice>::ALL[0]
            }
        }
    };
}

/// Declares an algorithm's typed parameters: a struct with one field per parameter, each
/// bound to its [`ParamSpec`] constant, with `SPECS` (the specs in field order: the
/// algorithm's [`super::AlgoInfo::params`]) and `read(&Params)` (every field read once through
/// its spec, [`Params::read`]).
///
/// ```
/// use cescope::algorithms::lqf::{Delete, DELETE_SPEC, T_SPEC};
/// use cescope::extract::{ParamValue, Params};
/// cescope::typed_params! {
///     /// LQF's parameters.
///     pub struct LqfParams {
///         /// The link-quota threshold.
///         pub t: f64 = T_SPEC,
///         /// What a deleted block takes with it.
///         pub delete: Delete = DELETE_SPEC,
///     }
/// }
/// let mut params = Params::default();
/// params.set(&T_SPEC, ParamValue::Float(0.4)).unwrap();
/// let read = LqfParams::read(&params);
/// assert_eq!((read.t, read.delete), (0.4, Delete::OwnText));
/// ```
#[macro_export]
macro_rules! typed_params {
    ($(#[$meta:meta])* $vis:vis struct $name:ident {
        $($(#[$fmeta:meta])* $fvis:vis $field:ident : $ty:ty = $spec:expr),* $(,)?
    }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq)]
        $vis struct $name {
            $($(#[$fmeta])* $fvis $field: $ty),*
        }
        impl $name {
            /// The parameters' specs, in field order.
            pub const SPECS: &'static [$crate::extract::ParamSpec] = &[$($spec),*];
            /// The values of `params` (each absent one: its spec's published default).
            #[allow(unused_variables)]
            pub fn read(params: &$crate::extract::Params) -> Self {
                $name {
                    $($field: params.read::<$ty>(&$spec)),*
                }
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    choice_enum! {
        /// Test choices.
        enum Colour { Red = "red", DarkBlue = "dark-blue" }
    }

    const N: ParamSpec = ParamSpec {
        name: Cow::Borrowed("n"),
        kind: ParamKind::Int {
            min: 0,
            max: 10,
            step: 1,
        },
        default: ParamValue::Int(3),
        help: "",
        source: "",
    };
    const C: ParamSpec = ParamSpec {
        name: Cow::Borrowed("c"),
        kind: ParamKind::Choice {
            choices: <Colour as Choice>::NAMES,
        },
        default: ParamValue::choice("red"),
        help: "",
        source: "",
    };

    typed_params! {
        struct Both { n: i64 = N, c: Colour = C }
    }

    #[test]
    fn writes_are_checked_and_reads_are_typed() {
        let mut p = Params::default();
        assert_eq!(
            Both::read(&p),
            Both {
                n: 3,
                c: Colour::Red
            }
        );
        p.set_str(Both::SPECS, "c=DARK-blue").unwrap();
        p.set(&N, ParamValue::Int(7)).unwrap();
        assert_eq!(
            Both::read(&p),
            Both {
                n: 7,
                c: Colour::DarkBlue
            }
        );
        assert!(p.set(&N, ParamValue::Float(1.5)).is_err(), "wrong kind");
        assert!(p.set(&N, ParamValue::Int(11)).is_err(), "out of range");
        assert!(
            p.set(&C, ParamValue::choice("green")).is_err(),
            "unknown choice"
        );
        assert!(p.set_str(Both::SPECS, "m=1").is_err(), "unknown name");
        assert_eq!(Both::read(&p).n, 7, "a refused write changes nothing");
    }

    #[test]
    fn values_round_trip_through_serde() {
        let mut p = Params::defaults(Both::SPECS);
        p.set_str(Both::SPECS, "c=dark-blue").unwrap();
        let json = serde_json::to_value(&p).unwrap();
        assert_eq!(json, serde_json::json!({"c": "dark-blue", "n": 3}));
        let mut back = Params::default();
        for s in Both::SPECS {
            let v = s.from_json(&json[s.name.as_ref()]).unwrap();
            back.set(s, v).unwrap();
        }
        assert_eq!(back, p);
        assert!(C.from_json(&serde_json::json!(3)).is_err());
    }
}
