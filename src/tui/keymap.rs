//! Placeholder: keymaps (being written).
