//! Saving gold files without ever losing work: atomic replacement ([`crate::fsio::write`]),
//! explicit overwrite modes, one backup, and the recovery (autosave) file of the annotation UI.

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::{load, Gold, GoldError};
use crate::fsio::write::{self, Replace, WriteError, WriteOptions};

/// What [`save`] may do to an existing file at the target path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SaveMode {
    /// Create the file; refuse with [`GoldError::Exists`] when it exists (checked atomically:
    /// a file created concurrently is not replaced either).
    New,
    /// Keep the existing file as **the one backup** `<name>.bak` (e.g. `x.json.bak`; an older
    /// backup is replaced), then replace it. A missing target is simply created. Within a
    /// [`SaveSession`], a file the session wrote itself is replaced without a new backup.
    Backup,
    /// Replace the existing file (only after an explicit confirmation in the UI).
    Overwrite,
}

/// What [`save`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SaveOutcome {
    /// The file written.
    pub path: PathBuf,
    /// The backup of the previous file ([`SaveMode::Backup`] over an existing file).
    pub backup: Option<PathBuf>,
    /// True when an existing file was replaced.
    pub replaced: bool,
    /// Bytes written.
    pub bytes: usize,
}

/// Writes `gold` to `path` atomically (the bytes of [`Gold::to_json`]) through
/// [`write::write_atomic`]: the JSON is streamed into a temporary file `.<name>.<unique>.tmp` in
/// the same directory, which is synced (`fsync`) and renamed over the target; then the
/// directory is synced, so after a crash or a kill at any moment the target is either the old
/// file or the complete new one. A symbolic link at the target (or at `<name>.bak`) is refused,
/// never written through. The directory is created if missing.
///
/// `mode` decides about an existing target ([`SaveMode`]). The file's `modified` field is written
/// as it is in `gold` ([`Gold::touch`] sets it). Errors: [`GoldError::Exists`],
/// [`GoldError::Write`] (the target is then unchanged).
pub fn save(path: &Path, gold: &Gold, mode: SaveMode) -> Result<SaveOutcome, GoldError> {
    save_with(path, gold, mode, &WriteOptions::new(Replace::Always))
}

/// [`save`] with the write options of `opts` (its `replace` is set from `mode`), e.g. a
/// simulated full disk in tests.
pub fn save_with(
    path: &Path,
    gold: &Gold,
    mode: SaveMode,
    opts: &WriteOptions,
) -> Result<SaveOutcome, GoldError> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(dir).map_err(|cause| {
        GoldError::Write(WriteError::Io {
            path: path.to_path_buf(),
            step: format!("creating the folder {}", write::printable_path(dir)),
            cause,
        })
    })?;
    let replace = match mode {
        SaveMode::New => Replace::Never,
        SaveMode::Backup => Replace::KeepBackup,
        SaveMode::Overwrite => Replace::Always,
    };
    let opts = WriteOptions { replace, ..*opts };
    match write::write_atomic(path, &opts, |w| gold.write_json(w)) {
        Ok(w) => Ok(SaveOutcome {
            path: w.path,
            backup: w.backup,
            replaced: w.replaced,
            bytes: w.bytes as usize,
        }),
        Err(WriteError::Exists { path }) => Err(GoldError::Exists { path }),
        Err(e) => Err(GoldError::Write(e)),
    }
}

/// The saves of one editing session of one gold file (the inspector keeps one per open page),
/// so that only the **first** save over an existing file keeps a backup: a later save finds
/// the file the session wrote itself (same SHA-256 as its last write) and replaces it without
/// another backup, whatever mode it asks for. A file changed by someone else since the
/// session's last save is treated as any existing file (kept as the one `.bak` by
/// [`SaveMode::Backup`], refused by [`SaveMode::New`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SaveSession {
    /// The target and the SHA-256 of the bytes the session last wrote there.
    last: Option<(PathBuf, [u8; 32])>,
}

impl SaveSession {
    /// A session that has not saved yet.
    pub fn new() -> SaveSession {
        SaveSession::default()
    }

    /// Saves `gold` to `path` as [`save`], except that a target holding exactly what this
    /// session last wrote there is replaced without a backup (and without [`GoldError::Exists`]).
    /// Reads and hashes the existing target (bounded by [`super::GOLD_FILE_LIMIT`]) when the
    /// session has saved before. Errors as [`save`].
    pub fn save(
        &mut self,
        path: &Path,
        gold: &Gold,
        mode: SaveMode,
    ) -> Result<SaveOutcome, GoldError> {
        let json = gold.to_json();
        let ours = self.last.as_ref().is_some_and(|(p, hash)| {
            p == path
                && crate::fsio::read::read_regular(path, super::GOLD_FILE_LIMIT)
                    .is_ok_and(|data| Sha256::digest(&data).as_slice() == hash)
        });
        let mode = if ours { SaveMode::Overwrite } else { mode };
        let out = save(path, gold, mode)?;
        self.last = Some((path.to_path_buf(), Sha256::digest(json.as_bytes()).into()));
        Ok(out)
    }
}

// ---------------------------------------------------------------------------------------------
// Recovery
// ---------------------------------------------------------------------------------------------

/// The recovery (autosave) file of a gold file: `.<name>.recover` beside it, e.g.
/// `gold/.x.json.recover` for `gold/x.json`.
pub fn recovery_path(gold_path: &Path) -> PathBuf {
    let name = gold_path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "gold.json".to_string());
    gold_path.with_file_name(format!(".{name}.recover"))
}

/// Writes the recovery file of `gold_path` (atomically, replacing an older recovery file).
/// The UI calls it periodically while there are unsaved edits. Returns the recovery path.
pub fn save_recovery(gold_path: &Path, gold: &Gold) -> Result<PathBuf, GoldError> {
    let rec = recovery_path(gold_path);
    save(&rec, gold, SaveMode::Overwrite)?;
    Ok(rec)
}

/// Reads the recovery file of `gold_path`: `Ok(None)` when there is none, errors as [`load`].
pub fn load_recovery(gold_path: &Path) -> Result<Option<Gold>, GoldError> {
    let rec = recovery_path(gold_path);
    if rec.symlink_metadata().is_err() {
        return Ok(None);
    }
    load(&rec).map(Some)
}

/// Should the UI offer to restore the recovery file? True when it exists and the gold file does
/// not, or when its modification time is later than the gold file's, or equal (same clock tick)
/// while the contents differ. False when there is no recovery file.
pub fn recovery_is_newer(gold_path: &Path) -> bool {
    let rec = recovery_path(gold_path);
    let Ok(rm) = rec.metadata() else {
        return false;
    };
    let Ok(gm) = gold_path.metadata() else {
        return true;
    };
    let read = |p: &Path| crate::fsio::read::read_regular(p, super::GOLD_FILE_LIMIT).ok();
    match (rm.modified(), gm.modified()) {
        (Ok(r), Ok(g)) if r > g => true,
        (Ok(r), Ok(g)) if r == g => read(&rec) != read(gold_path),
        (Ok(_), Ok(_)) => false,
        // No modification times on this platform: offer it, the user decides.
        _ => true,
    }
}

/// Deletes the recovery file of `gold_path` (after a successful save, or when the user declines
/// to restore it). Returns whether there was one.
pub fn discard_recovery(gold_path: &Path) -> Result<bool, GoldError> {
    let rec = recovery_path(gold_path);
    match std::fs::remove_file(&rec) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
        Err(cause) => Err(GoldError::Write(WriteError::Io {
            path: rec,
            step: "deleting the recovery file".into(),
            cause,
        })),
    }
}
