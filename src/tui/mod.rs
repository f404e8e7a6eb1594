//! The inspector: a full-screen terminal app (ratatui + crossterm).

pub mod highlight;
pub mod keymap;
