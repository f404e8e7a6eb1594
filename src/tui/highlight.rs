//! Placeholder: the syntect highlighting layer (being written).
