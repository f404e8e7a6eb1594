//! Atomic writes inside a chosen folder (filled in by the hardening work).
