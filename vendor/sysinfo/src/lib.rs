//! cescope's stand-in for the parts of `sysinfo` 0.38 that perpetual 3.0.0-rc.2 reads
//! (`System::new_with_specifics(RefreshKind::nothing().with_memory(…))`, `cgroup_limits`,
//! `available_memory`), applied to the workspace with `[patch.crates-io]`.
//!
//! **Why.** perpetual sizes each fit's pool of node histograms — and so the most nodes a tree
//! may grow — from the smaller of its memory limit (cescope always sets one,
//! `cescope::learn::gbt::MEMORY_LIMIT_GB`) and the memory sysinfo reports free. On Linux with
//! cgroup v1, sysinfo reports the cgroup's limit minus its usage, and that usage counts the page
//! cache: on a machine that has been reading files for a while it reported 0.8 GB free of 24 GB
//! with 20 GB of it reclaimable cache. Below about 1.6 GB the pool shrinks, the trees are cut
//! short and the model changes: two rebuilds of the shipped model with the same binary wrote
//! different cross-validation figures (scrapinghub-dev 0.926 against the file's 0.923, the
//! final trees equal), and two fits run side by side changed each other's trees. Reporting a
//! fixed, ample amount makes the limit alone size the pool, on every machine and whatever else
//! runs: the same job gives the same bytes. The cost: perpetual no longer shrinks a fit on a
//! machine short of memory (a fit of the shipped model's size takes about 3 GB).
//!
//! Nothing else in cescope's dependency tree uses sysinfo (`cargo tree -i sysinfo`, with any
//! features, and `-p cescope-python`): a new dependency on sysinfo 0.38 that reads more of it
//! would fail to compile against this stand-in rather than quietly misread.
//! A `[patch]` applies only within cescope's workspace (`fuzz/` is its own and does not train).

/// The free memory reported, in bytes (64 GiB): more than any fit of cescope asks for, so
/// perpetual's memory limit decides.
pub const REPORTED_FREE_BYTES: u64 = 64 << 30;

/// What to refresh of memory (nothing is read).
#[derive(Debug, Clone, Copy, Default)]
pub struct MemoryRefreshKind;

impl MemoryRefreshKind {
    /// Everything (nothing is read).
    pub fn everything() -> MemoryRefreshKind {
        MemoryRefreshKind
    }
}

/// What to refresh (nothing is read).
#[derive(Debug, Clone, Copy, Default)]
pub struct RefreshKind;

impl RefreshKind {
    /// Nothing.
    pub fn nothing() -> RefreshKind {
        RefreshKind
    }

    /// With memory (nothing is read).
    pub fn with_memory(self, _kind: MemoryRefreshKind) -> RefreshKind {
        self
    }
}

/// A cgroup's memory limits (never reported: [`System::cgroup_limits`] is `None`).
#[derive(Debug, Clone, Default)]
pub struct CGroupLimits {
    /// Total memory of the cgroup, bytes.
    pub total_memory: u64,
    /// Free memory of the cgroup, bytes.
    pub free_memory: u64,
    /// Free swap of the cgroup, bytes.
    pub free_swap: u64,
    /// Resident set size of the cgroup, bytes.
    pub rss: u64,
}

/// The system, as far as perpetual asks about it.
#[derive(Debug, Clone, Default)]
pub struct System;

impl System {
    /// A system handle (nothing is read).
    pub fn new_with_specifics(_refresh: RefreshKind) -> System {
        System
    }

    /// No cgroup limits: perpetual then asks [`System::available_memory`].
    pub fn cgroup_limits(&self) -> Option<CGroupLimits> {
        None
    }

    /// [`REPORTED_FREE_BYTES`].
    pub fn available_memory(&self) -> u64 {
        REPORTED_FREE_BYTES
    }
}
