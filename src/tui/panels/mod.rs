//! The inspector's panels as components, in the spirit of gitui's and bottom's: each panel owns
//! its state and handles its keys; the app ([`crate::tui::App`]) routes events to them and holds
//! what they share (the page, the algorithms and their selections, the gold standard being
//! annotated, the undo history).
//!
//! The pattern, the same for every panel:
//!
//! - **A struct owns the panel's state.** Nothing else holds it: the app keeps one value of
//!   each panel and reaches its state through the panel's methods; drawing
//!   (`crate::tui::ui`) reads it through `&App`.
//! - **`handle` takes an action** (or, for a panel that takes typed text, a key) and returns
//!   [`Handled`]: [`Handled::Consumed`] when the panel used it, [`Handled::NotConsumed`] when it
//!   goes on to the next one (gitui's `EventState`). The few shared things a panel reads to
//!   decide — how many rows it has, the algorithms' names, the byte ranges of the page's
//!   display lines — are passed as arguments: a panel never gets `&mut App`, and this module
//!   depends on nothing of the app (`tests/module_graph.rs` keeps `panels` below `app`).
//! - **What only the app can do, a panel asks for**: [`Handled::Ask`] carries the panel's own
//!   request type (make an algorithm active, step a parameter, jump to a row, quit), which the
//!   app carries out at once (gitui's queue of internal events, one at a time).
//!
//! The routing, in [`crate::tui::App::handle_key`]: typed text goes to its input first (the page
//! list's filter, the search, the review's note); then the popup that has the keys (the
//! [`picker`]); then the panels that are open (the unit menu, the [`review`], the [`table`], the
//! help of the [`overlay`]); then the global actions ([`crate::tui::App::apply`]), which hand the
//! panels' own actions to them (after the annotation's and the units' keys: [`source`] — the
//! navigation keys — then [`params`], [`explain`], [`histogram`], [`pages`]).
//!
//! One file per panel: [`source`] (the source view: the view — virtual, raw or reading lines —
//! cursor, scroll, search, jump list, where a jump placed the view), [`histogram`] (the signals
//! it draws and its clicks; its rows are the source's lines, so it scrolls with the source and
//! reads the source's first line passed in), [`overlay`] (the popup over the screen: none, the help or the picker),
//! [`picker`], [`params`] (the parameter bar's focus and slider keys), [`explain`] (shown,
//! scroll, fitted height), [`pages`] (the corpus and its page list), [`table`] (the region,
//! headline, text block and records tables), [`review`] (the review of draft gold files).

pub mod explain;
pub mod histogram;
pub mod overlay;
pub mod pages;
pub mod params;
pub mod picker;
pub mod review;
pub mod source;
pub mod table;

/// What a panel did with an event; `R` is what it can ask the app to do (a panel that asks
/// nothing leaves it [`std::convert::Infallible`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Handled<R = std::convert::Infallible> {
    /// The panel does not take this event: it goes on to the next panel or the global actions.
    NotConsumed,
    /// The panel took the event and updated its own state.
    Consumed,
    /// The panel took the event, and what it means needs the app: the app carries `R` out.
    Ask(R),
}

impl<R> Handled<R> {
    /// Did the panel take the event (consumed it or asked for something)?
    pub fn taken(&self) -> bool {
        !matches!(self, Handled::NotConsumed)
    }
}
