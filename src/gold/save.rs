//! Saving gold files without ever losing work: atomic replacement, explicit overwrite modes,
//! backups, and the recovery (autosave) file of the annotation UI.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use super::{load, Gold, GoldError};

/// What [`save`] may do to an existing file at the target path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SaveMode {
    /// Create the file; refuse with [`GoldError::Exists`] when it exists (checked atomically:
    /// a file created concurrently is not replaced either).
    New,
    /// Keep the existing file as a backup, then replace it: the backup is `<name>.bak` (e.g.
    /// `x.json.bak`) or, when that exists, `<name>.<UTC time YYYYMMDDTHHMMSSZ>.bak` (with `-2`,
    /// `-3`, … appended if needed), so no earlier backup is ever replaced. A missing target is
    /// simply created.
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

/// Writes `gold` to `path` atomically (the bytes of [`Gold::to_json`]): the JSON is streamed into
/// a temporary file `.<name>.<random>.tmp` in the same directory, which is flushed to disk
/// (`fsync`) and renamed over the target; then the directory is synced (on Unix), so after a crash or a kill at any
/// moment the target is either the old file or the complete new one, never a truncated mix. A
/// leftover `.…tmp` file after a crash can be deleted. The directory is created if missing.
///
/// `mode` decides about an existing target ([`SaveMode`]). The file's `modified` field is written
/// as it is in `gold` ([`Gold::touch`] sets it). Errors: [`GoldError::Exists`],
/// [`GoldError::Write`] (the target is then unchanged).
pub fn save(path: &Path, gold: &Gold, mode: SaveMode) -> Result<SaveOutcome, GoldError> {
    write_atomic(path, gold, mode)
}

fn werr(path: &Path) -> impl FnOnce(std::io::Error) -> GoldError + '_ {
    move |source| GoldError::Write {
        path: path.to_path_buf(),
        source,
    }
}

/// Serialises `gold` straight into a temp file beside `path` (streamed, so no second copy of a
/// large file is held in memory), syncs it and moves it into place according to `mode`.
fn write_atomic(path: &Path, gold: &Gold, mode: SaveMode) -> Result<SaveOutcome, GoldError> {
    let exists = path.symlink_metadata().is_ok();
    if mode == SaveMode::New && exists {
        return Err(GoldError::Exists {
            path: path.to_path_buf(),
        });
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&dir).map_err(werr(path))?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "gold".to_string());
    let mut tmp = tempfile::Builder::new()
        .prefix(&format!(".{name}."))
        .suffix(".tmp")
        .tempfile_in(&dir)
        .map_err(werr(path))?;
    {
        let mut w = std::io::BufWriter::with_capacity(1 << 16, tmp.as_file_mut());
        gold.write_json(&mut w).map_err(werr(path))?;
        w.flush().map_err(werr(path))?;
    }
    let bytes = tmp.as_file().metadata().map_err(werr(path))?.len() as usize;
    set_readable_permissions(tmp.as_file(), path);
    tmp.as_file().sync_all().map_err(werr(path))?;

    let backup = if mode == SaveMode::Backup && exists {
        Some(make_backup(path)?)
    } else {
        None
    };
    match mode {
        SaveMode::New => tmp.persist_noclobber(path).map_err(|e| {
            if e.error.kind() == std::io::ErrorKind::AlreadyExists {
                GoldError::Exists {
                    path: path.to_path_buf(),
                }
            } else {
                werr(path)(e.error)
            }
        })?,
        SaveMode::Backup | SaveMode::Overwrite => {
            tmp.persist(path).map_err(|e| werr(path)(e.error))?
        }
    };
    sync_dir(&dir).map_err(werr(path))?;
    Ok(SaveOutcome {
        path: path.to_path_buf(),
        backup,
        replaced: exists,
        bytes,
    })
}

/// Temporary files are created private (0600); a gold file gets the permissions of the file it
/// replaces, or 0644.
#[cfg(unix)]
fn set_readable_permissions(f: &File, target: &Path) {
    use std::os::unix::fs::PermissionsExt;
    let perm = target
        .metadata()
        .map(|m| m.permissions())
        .unwrap_or_else(|_| std::fs::Permissions::from_mode(0o644));
    let _ = f.set_permissions(perm);
}

#[cfg(not(unix))]
fn set_readable_permissions(_f: &File, _target: &Path) {}

#[cfg(unix)]
fn sync_dir(dir: &Path) -> std::io::Result<()> {
    File::open(dir)?.sync_all()
}

#[cfg(not(unix))]
fn sync_dir(_dir: &Path) -> std::io::Result<()> {
    Ok(())
}

/// Keeps the current `path` under a fresh backup name (see [`SaveMode::Backup`]): a hard link
/// when the file system allows (atomic, the target never disappears), else a synced copy.
fn make_backup(path: &Path) -> Result<PathBuf, GoldError> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let stamp = time::OffsetDateTime::now_utc();
    let stamp = format!(
        "{:04}{:02}{:02}T{:02}{:02}{:02}Z",
        stamp.year(),
        u8::from(stamp.month()),
        stamp.day(),
        stamp.hour(),
        stamp.minute(),
        stamp.second()
    );
    let candidates = std::iter::once(format!("{name}.bak"))
        .chain(std::iter::once(format!("{name}.{stamp}.bak")))
        .chain((2..).map(|i| format!("{name}.{stamp}-{i}.bak")));
    for cand in candidates.take(1000) {
        let bak = path.with_file_name(&cand);
        if bak.symlink_metadata().is_ok() {
            continue;
        }
        match std::fs::hard_link(path, &bak) {
            Ok(()) => return Ok(bak),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(_) => {
                // No hard links here (some file systems): copy to a new file, never replacing one.
                let mut out = match std::fs::OpenOptions::new()
                    .write(true)
                    .create_new(true)
                    .open(&bak)
                {
                    Ok(f) => f,
                    Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                    Err(e) => return Err(werr(&bak)(e)),
                };
                let data = std::fs::read(path).map_err(werr(&bak))?;
                out.write_all(&data).map_err(werr(&bak))?;
                out.sync_all().map_err(werr(&bak))?;
                return Ok(bak);
            }
        }
    }
    Err(werr(path)(std::io::Error::other(
        "no free backup file name (1000 backups of this second exist)",
    )))
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
    write_atomic(&rec, gold, SaveMode::Overwrite)?;
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
    match (rm.modified(), gm.modified()) {
        (Ok(r), Ok(g)) if r > g => true,
        (Ok(r), Ok(g)) if r == g => std::fs::read(&rec).ok() != std::fs::read(gold_path).ok(),
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
        Err(e) => Err(werr(&rec)(e)),
    }
}
