//! Writing files inside the folder the user chose: one implementation for every command that
//! writes a file (gold save and recovery file, `gold export` in both formats, `gold import`,
//! `gold mark`, `eval --report`'s `report.json` and SVG plots).
//!
//! * [`check_file_name`]: a name read from a file (a gold file's `page`, a corpus id) must be a
//!   **bare file name** before it is joined to a folder: no `/` or `\`, not `.` or `..`, not
//!   empty, no NUL or other control character, at most 255 bytes; the error says what is wrong.
//! * [`write_atomic`]: the bytes go to a temporary file `.<name>.<unique>.tmp` in the
//!   destination's folder, which is flushed and synced (`fsync`), then renamed over the
//!   destination, and the folder is synced. A full disk, a crash or a kill at any moment leaves
//!   the old file or the complete new one, never a truncated mix; the temporary file is removed
//!   when writing fails (the `tempfile` crate draws the unique part, removes the file on drop
//!   and persists it; the folder's `fsync` and the refusal of links are done here). A symbolic link (or any non-regular file) at the destination is refused,
//!   so cescope never writes through a link. [`Replace`] says what may happen to an existing
//!   file: refuse, replace, or replace keeping **one** backup `<name>.bak`.
//! * [`Outputs`]: two inputs that map to one output file are an error naming both.
//! * [`printable`]: text taken from files, escaped for printing (control characters and
//!   bidirectional overrides as `\u{…}`), so a file cannot drive the terminal.
//!
//! Errors carry their cause in their message and expose no separate `source()`, so a report
//! that prints the whole error chain (`anyhow`'s `{:#}`) names each cause once.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use tempfile::{Builder, NamedTempFile};

/// The longest file name accepted by [`check_file_name`], in bytes (the common limit of Linux,
/// macOS and Windows file systems).
pub const MAX_NAME_BYTES: usize = 255;

/// What is wrong with a name that should be a bare file name ([`check_file_name`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NameProblem {
    /// The name is empty.
    Empty,
    /// The name is `.` or `..`.
    Dots,
    /// The name holds a directory separator (`/` or `\`); an absolute path starts with one.
    Separator(char),
    /// The name holds a drive prefix (`C:`).
    Drive,
    /// The name holds a NUL or another control character.
    Control(char),
    /// The name is longer than [`MAX_NAME_BYTES`].
    TooLong(usize),
}

impl std::fmt::Display for NameProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NameProblem::Empty => f.write_str("it is empty"),
            NameProblem::Dots => f.write_str("it names a directory"),
            NameProblem::Separator('/') => f.write_str(
                "it holds directories (\"/\"); an absolute path or \"..\" would leave the folder",
            ),
            NameProblem::Separator(c) => write!(f, "it holds a directory separator ({c:?})"),
            NameProblem::Drive => f.write_str("it starts with a drive (\"C:\")"),
            NameProblem::Control(c) => {
                write!(f, "it holds the control character {}", c.escape_unicode())
            }
            NameProblem::TooLong(n) => {
                write!(f, "it is {n} bytes long (limit {MAX_NAME_BYTES} bytes)")
            }
        }
    }
}

/// A name read from a file that is not a bare file name ([`check_file_name`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("\"{}\" is not a bare file name: {problem}", printable(name))]
pub struct NameError {
    /// The name as read.
    pub name: String,
    /// What is wrong with it.
    pub problem: NameProblem,
}

/// Checks that `name` (read from a file: a page name, a corpus id) is a bare file name that can
/// be joined to a folder without leaving it: not empty, not `.` or `..`, no `/` or `\` (so no
/// absolute path and no `..` component), no drive prefix, no NUL or other control character, at
/// most [`MAX_NAME_BYTES`] bytes. O(name length). Errors: [`NameError`] saying what is wrong.
pub fn check_file_name(name: &str) -> Result<(), NameError> {
    let problem = if name.is_empty() {
        Some(NameProblem::Empty)
    } else if name == "." || name == ".." {
        Some(NameProblem::Dots)
    } else if let Some(c) = name.chars().find(|&c| c == '/' || c == '\\') {
        Some(NameProblem::Separator(c))
    } else if let Some(c) = name.chars().find(|c| c.is_control()) {
        Some(NameProblem::Control(c))
    } else if name.len() >= 2
        && name.as_bytes()[1] == b':'
        && name.as_bytes()[0].is_ascii_alphabetic()
    {
        Some(NameProblem::Drive)
    } else if name.len() > MAX_NAME_BYTES {
        Some(NameProblem::TooLong(name.len()))
    } else {
        None
    };
    match problem {
        None => Ok(()),
        Some(problem) => Err(NameError {
            name: name.to_string(),
            problem,
        }),
    }
}

/// `text` with every control character (C0, DEL, C1) and every bidirectional-override
/// character (U+200E/F, U+202A–U+202E, U+2066–U+2069) written as `\u{…}` (`\n`, `\t`, `\r` as
/// such), so text taken from a file cannot move the cursor, clear the screen or reorder what is
/// printed. Borrowed when nothing needs escaping. O(length).
pub fn printable(text: &str) -> Cow<'_, str> {
    let bad = |c: char| {
        c.is_control()
            || matches!(c, '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
    };
    if !text.chars().any(bad) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if bad(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// [`printable`] of a path (lossy for non-UTF-8 bytes).
pub fn printable_path(path: &Path) -> String {
    printable(&path.to_string_lossy()).into_owned()
}

/// What [`write_atomic`] may do to an existing destination file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Replace {
    /// Refuse with [`WriteError::Exists`] (checked atomically when the file system has hard
    /// links: a file created meanwhile is not replaced either).
    Never,
    /// Replace it.
    Always,
    /// Keep it as the one backup `<name>.bak` (replacing an older `<name>.bak`), then replace it.
    KeepBackup,
}

/// Options of [`write_atomic`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WriteOptions {
    /// What may happen to an existing destination.
    pub replace: Replace,
    /// Fault injection for tests: after this many bytes every write fails as a full disk does
    /// (`ENOSPC`, "No space left on device"). `None` in normal use.
    pub fail_after: Option<u64>,
}

impl WriteOptions {
    /// Options with `replace` and no fault.
    pub const fn new(replace: Replace) -> WriteOptions {
        WriteOptions {
            replace,
            fail_after: None,
        }
    }
}

impl Default for WriteOptions {
    /// Replace an existing file ([`Replace::Always`]), no fault.
    fn default() -> WriteOptions {
        WriteOptions::new(Replace::Always)
    }
}

/// What [`write_atomic`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Written {
    /// The file written.
    pub path: PathBuf,
    /// Bytes written.
    pub bytes: u64,
    /// True when an existing file was replaced.
    pub replaced: bool,
    /// The backup of the replaced file ([`Replace::KeepBackup`]).
    pub backup: Option<PathBuf>,
}

/// Why [`write_atomic`] failed. The destination is unchanged in every case.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// The destination (or its backup) is a symbolic link: cescope never writes through links.
    #[error("{} is a symbolic link; cescope does not write through links (remove the link or choose another output)", printable_path(.path))]
    Link {
        /// The link.
        path: PathBuf,
    },
    /// The destination exists and is not a regular file.
    #[error("{} is {kind}, not a regular file; not replaced", printable_path(.path))]
    NotRegular {
        /// The destination.
        path: PathBuf,
        /// What it is ("a directory", "a FIFO (named pipe)", …).
        kind: &'static str,
    },
    /// [`Replace::Never`] and the destination exists.
    #[error("{} already exists; not replaced", printable_path(.path))]
    Exists {
        /// The destination.
        path: PathBuf,
    },
    /// The operating system refused a step (`step` says which); the cause is part of the
    /// message, not a separate `source()`.
    #[error("cannot write {}: {step}: {cause}", printable_path(.path))]
    Io {
        /// The destination.
        path: PathBuf,
        /// What was being done, e.g. "creating a temporary file in gold".
        step: String,
        /// The operating system's error.
        cause: io::Error,
    },
}

impl WriteError {
    /// The I/O error behind an [`WriteError::Io`], if it is one.
    pub fn io_error(&self) -> Option<&io::Error> {
        match self {
            WriteError::Io { cause, .. } => Some(cause),
            _ => None,
        }
    }
}

fn io_err(path: &Path, step: impl Into<String>) -> impl FnOnce(io::Error) -> WriteError + '_ {
    let step = step.into();
    move |cause| WriteError::Io {
        path: path.to_path_buf(),
        step,
        cause,
    }
}

/// Checks a destination before writing it: `Ok(false)` when absent, `Ok(true)` when it is a
/// regular file; [`WriteError::Link`] for a symbolic link and [`WriteError::NotRegular`] for
/// anything else ([`write_atomic`] checks the same; a command writing several files checks them
/// all first, so that it refuses before writing any).
pub fn check_destination(path: &Path) -> Result<bool, WriteError> {
    match path.symlink_metadata() {
        Ok(m) if m.file_type().is_symlink() => Err(WriteError::Link {
            path: path.to_path_buf(),
        }),
        Ok(m) if m.is_file() => Ok(true),
        Ok(m) => Err(WriteError::NotRegular {
            path: path.to_path_buf(),
            kind: super::read::kind_of(&m),
        }),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(io_err(path, "inspecting it")(e)),
    }
}

/// The folder of `path` (`.` for a bare name) and its file name.
fn split(path: &Path) -> Result<(PathBuf, String), WriteError> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .ok_or_else(|| WriteError::NotRegular {
            path: path.to_path_buf(),
            kind: "not a file name",
        })?;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    Ok((dir, name))
}

/// A new temporary file `.<name>.<unique>.tmp` in `dir` (the name cut to 200 bytes, within
/// the file name limit), made by `make`, which must fail with `AlreadyExists` when the name is
/// taken (`tempfile` then draws another unique part). It is removed when dropped unless it was
/// persisted (moved into place).
fn temp_in<F>(
    dir: &Path,
    name: &str,
    make: impl FnMut(&Path) -> io::Result<F>,
) -> io::Result<NamedTempFile<F>> {
    let mut stem = String::new();
    for c in name.chars() {
        if stem.len() + c.len_utf8() > 200 {
            break;
        }
        stem.push(c);
    }
    Builder::new()
        .prefix(&format!(".{stem}."))
        .suffix(".tmp")
        .make_in(dir, make)
}

/// Creates a new private (0600) temporary file `.<name>.<unique>.tmp` in `dir`, never
/// replacing anything. The file is opened here, not by `tempfile`'s own constructor, so that
/// an error names only its cause (`tempfile` appends the temporary path to it).
fn create_temp(dir: &Path, name: &str, dest: &Path) -> Result<NamedTempFile, WriteError> {
    temp_in(dir, name, |tmp| {
        let mut o = OpenOptions::new();
        o.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            o.mode(0o600);
        }
        o.open(tmp)
    })
    .map_err(io_err(
        dest,
        format!("creating a temporary file in {}", printable_path(dir)),
    ))
}

/// A writer that fails like a full disk after `left` bytes (fault injection).
struct Limited<W> {
    inner: W,
    left: Option<u64>,
    written: u64,
}

impl<W: Write> Write for Limited<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = match self.left {
            Some(0) => return Err(io::Error::from_raw_os_error(28)),
            Some(left) => buf.len().min(usize::try_from(left).unwrap_or(usize::MAX)),
            None => buf.len(),
        };
        let n = self.inner.write(&buf[..n])?;
        if let Some(l) = &mut self.left {
            *l -= n as u64;
        }
        self.written += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// Writes `path` atomically with the bytes `content` writes (see the module documentation):
/// temporary file in the same folder, `fsync`, refusal of a link or non-regular file at the
/// destination, optional single backup, rename, `fsync` of the folder. The folder must exist.
/// The new file gets the permissions of the file it replaces, else 0644.
///
/// Errors: [`WriteError::Link`], [`WriteError::NotRegular`], [`WriteError::Exists`]
/// ([`Replace::Never`]), [`WriteError::Io`] (including an error returned by `content`); the
/// destination is unchanged and the temporary file removed in every case.
pub fn write_atomic(
    path: &Path,
    opts: &WriteOptions,
    content: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<Written, WriteError> {
    let (dir, name) = split(path)?;
    let existed = check_destination(path)?;
    if existed && opts.replace == Replace::Never {
        return Err(WriteError::Exists {
            path: path.to_path_buf(),
        });
    }
    let tmp = create_temp(&dir, &name, path)?;
    let file = tmp.as_file();
    let bytes = {
        let mut w = Limited {
            inner: io::BufWriter::with_capacity(1 << 16, file),
            left: opts.fail_after,
            written: 0,
        };
        content(&mut w)
            .and_then(|()| w.flush())
            .map_err(io_err(path, "writing"))?;
        w.written
    };
    set_permissions(file, path);
    file.sync_all().map_err(io_err(path, "syncing to disk"))?;

    // Check again just before the rename (a rename replaces a link, never writes through it).
    let existed = check_destination(path)?;
    let backup = if existed && opts.replace == Replace::KeepBackup {
        Some(keep_backup(path, &dir, &name)?)
    } else {
        None
    };
    if opts.replace == Replace::Never {
        persist_noclobber(tmp, path)?;
    } else {
        persist(tmp, path)?;
    }
    sync_dir(&dir).map_err(io_err(path, "syncing the folder"))?;
    Ok(Written {
        path: path.to_path_buf(),
        bytes,
        replaced: existed,
        backup,
    })
}

/// [`write_atomic`] of a byte string.
pub fn write_bytes(path: &Path, opts: &WriteOptions, data: &[u8]) -> Result<Written, WriteError> {
    write_atomic(path, opts, |w| w.write_all(data))
}

/// Moves `tmp` to `path`, replacing a file there (a rename).
fn persist<F>(tmp: NamedTempFile<F>, path: &Path) -> Result<(), WriteError> {
    tmp.persist(path)
        .map(drop)
        .map_err(|e| io_err(path, "moving the temporary file into place")(e.error))
}

/// Moves `tmp` to `path` unless `path` exists: atomically where the file system allows it
/// (`tempfile`'s `persist_noclobber`: a rename that refuses to replace, else a hard link and
/// the removal of the temporary name); where it has no hard links either, a check followed by
/// a rename.
fn persist_noclobber<F>(tmp: NamedTempFile<F>, path: &Path) -> Result<(), WriteError> {
    match tmp.persist_noclobber(path) {
        Ok(_) => Ok(()),
        Err(e) if e.error.kind() == io::ErrorKind::AlreadyExists => Err(WriteError::Exists {
            path: path.to_path_buf(),
        }),
        Err(e) => {
            if check_destination(path)? {
                return Err(WriteError::Exists {
                    path: path.to_path_buf(),
                });
            }
            persist(e.file, path)
        }
    }
}

/// Keeps the current `path` as `<name>.bak`, replacing an older backup atomically: a hard link
/// (or, without hard links, a synced copy) under a temporary name, renamed over the backup.
fn keep_backup(path: &Path, dir: &Path, name: &str) -> Result<PathBuf, WriteError> {
    let bak_name = format!("{name}.bak");
    let bak = dir.join(&bak_name);
    check_destination(&bak)?;
    let moved = match temp_in(dir, &bak_name, |tmp| std::fs::hard_link(path, tmp)) {
        Ok(tmp) => tmp.persist(&bak).map_err(|e| e.error),
        Err(_) => {
            let tmp = temp_in(dir, &bak_name, |tmp| {
                OpenOptions::new().write(true).create_new(true).open(tmp)
            })
            .map_err(io_err(&bak, "creating the backup"))?;
            let mut src = File::open(path).map_err(io_err(&bak, "reading the file to back up"))?;
            io::copy(&mut src, &mut tmp.as_file())
                .map_err(io_err(&bak, "copying the file to back up"))?;
            tmp.as_file()
                .sync_all()
                .map_err(io_err(&bak, "syncing the backup"))?;
            tmp.persist(&bak).map(drop).map_err(|e| e.error)
        }
    };
    moved.map_err(io_err(&bak, "moving the backup into place"))?;
    Ok(bak)
}

#[cfg(unix)]
fn set_permissions(f: &File, target: &Path) {
    use std::os::unix::fs::PermissionsExt;
    let perm = target
        .symlink_metadata()
        .ok()
        .filter(|m| m.is_file())
        .map(|m| m.permissions())
        .unwrap_or_else(|| std::fs::Permissions::from_mode(0o644));
    let _ = f.set_permissions(perm);
}

#[cfg(not(unix))]
fn set_permissions(_f: &File, _target: &Path) {}

#[cfg(unix)]
fn sync_dir(dir: &Path) -> io::Result<()> {
    File::open(dir)?.sync_all()
}

#[cfg(not(unix))]
fn sync_dir(_dir: &Path) -> io::Result<()> {
    Ok(())
}

/// Two inputs that map to one output file ([`Outputs::claim`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{} and {} both map to the output {}; rename one of them",
    printable(first),
    printable(second),
    printable_path(output)
)]
pub struct DuplicateOutput {
    /// The output file.
    pub output: PathBuf,
    /// The input that claimed it first.
    pub first: String,
    /// The input that claimed it again.
    pub second: String,
}

/// The output files of one command and the input each comes from, to refuse two inputs
/// writing one output.
#[derive(Debug, Clone, Default)]
pub struct Outputs {
    claimed: HashMap<PathBuf, String>,
}

impl Outputs {
    /// An empty set.
    pub fn new() -> Outputs {
        Outputs::default()
    }

    /// Records that `input` (a description, e.g. a file name) writes `output`. Errors:
    /// [`DuplicateOutput`] naming both inputs when another input already claimed `output`.
    pub fn claim(
        &mut self,
        output: &Path,
        input: impl Into<String>,
    ) -> Result<(), DuplicateOutput> {
        let input = input.into();
        match self.claimed.get(&same_file_key(output)) {
            Some(first) => Err(DuplicateOutput {
                output: output.to_path_buf(),
                first: first.clone(),
                second: input,
            }),
            None => {
                self.claimed.insert(same_file_key(output), input);
                Ok(())
            }
        }
    }
}

/// One spelling per file: the folder resolved ([`Path::canonicalize`]) when it exists, else
/// the path without `.` components; so `gold/x.json` and `./gold/x.json` are one output.
fn same_file_key(path: &Path) -> PathBuf {
    let lexical: PathBuf = path
        .components()
        .filter(|c| !matches!(c, std::path::Component::CurDir))
        .collect();
    let (Some(dir), Some(name)) = (lexical.parent(), lexical.file_name()) else {
        return lexical;
    };
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    match dir.canonicalize() {
        Ok(d) => d.join(name),
        Err(_) => lexical,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bare_names() {
        for ok in ["a.html", "x y.json", "مقال.html", ".hidden", "a..b", "ab:c"] {
            assert_eq!(check_file_name(ok), Ok(()), "{ok}");
        }
        let bad = [
            ("", NameProblem::Empty),
            (".", NameProblem::Dots),
            ("..", NameProblem::Dots),
            ("../x.html", NameProblem::Separator('/')),
            ("/etc/passwd", NameProblem::Separator('/')),
            ("a\\b", NameProblem::Separator('\\')),
            ("C:x", NameProblem::Drive),
            ("a\0b", NameProblem::Control('\0')),
            ("a\u{1b}b", NameProblem::Control('\u{1b}')),
            ("a\u{85}b", NameProblem::Control('\u{85}')),
        ];
        for (name, problem) in bad {
            let e = check_file_name(name).unwrap_err();
            assert_eq!(e.problem, problem, "{name:?}");
            assert!(!e.to_string().contains('\u{1b}'), "{e}");
        }
        let long = "a".repeat(256);
        assert_eq!(
            check_file_name(&long).unwrap_err().problem,
            NameProblem::TooLong(256)
        );
        assert!(check_file_name(&"a".repeat(255)).is_ok());
        let e = check_file_name("../../x.html").unwrap_err().to_string();
        assert!(
            e.contains("\"../../x.html\" is not a bare file name"),
            "{e}"
        );
    }

    #[test]
    fn printable_escapes_controls_only() {
        assert!(matches!(printable("plain عربي"), Cow::Borrowed(_)));
        assert_eq!(
            printable("a\u{1b}[2Jb\n\u{202e}"),
            "a\\u{1b}[2Jb\\n\\u{202e}"
        );
        assert_eq!(printable("\u{7f}\u{9b}"), "\\u{7f}\\u{9b}");
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn atomic_write_replace_modes() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.txt");
        let w = write_bytes(&p, &WriteOptions::new(Replace::Never), b"one").unwrap();
        assert_eq!((w.bytes, w.replaced, w.backup), (3, false, None));
        assert!(matches!(
            write_bytes(&p, &WriteOptions::new(Replace::Never), b"two"),
            Err(WriteError::Exists { .. })
        ));
        assert_eq!(std::fs::read(&p).unwrap(), b"one");
        let w = write_bytes(&p, &WriteOptions::new(Replace::KeepBackup), b"two").unwrap();
        assert_eq!(w.backup, Some(dir.path().join("a.txt.bak")));
        assert!(w.replaced);
        let w = write_bytes(&p, &WriteOptions::new(Replace::KeepBackup), b"three").unwrap();
        assert_eq!(w.backup, Some(dir.path().join("a.txt.bak")));
        assert_eq!(std::fs::read(&p).unwrap(), b"three");
        assert_eq!(std::fs::read(dir.path().join("a.txt.bak")).unwrap(), b"two");
        write_bytes(&p, &WriteOptions::default(), b"four").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"four");
        assert_eq!(names(dir.path()), ["a.txt", "a.txt.bak"]);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&p).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o644);
        }
    }

    #[test]
    fn a_full_disk_leaves_the_old_file() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.json");
        write_bytes(&p, &WriteOptions::default(), b"{\"good\": true}\n").unwrap();
        let opts = WriteOptions {
            replace: Replace::Always,
            fail_after: Some(4096),
        };
        let big = vec![b'x'; 100_000];
        let e = write_bytes(&p, &opts, &big).unwrap_err();
        let msg = e.to_string();
        assert!(msg.contains("No space left on device"), "{msg}");
        assert_eq!(msg.matches("No space left").count(), 1, "{msg}");
        assert_eq!(std::fs::read(&p).unwrap(), b"{\"good\": true}\n");
        assert_eq!(
            names(dir.path()),
            ["a.json"],
            "the temporary file is removed"
        );
        // An error of the content callback is reported the same way.
        let e = write_atomic(&p, &WriteOptions::default(), |_| {
            Err(io::Error::other("serialiser failed"))
        })
        .unwrap_err();
        assert!(e.to_string().contains("serialiser failed"), "{e}");
        assert_eq!(names(dir.path()), ["a.json"]);
    }

    #[cfg(unix)]
    #[test]
    fn links_and_non_regular_files_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim");
        std::fs::write(&victim, "keep").unwrap();
        let link = dir.path().join("out.txt");
        std::os::unix::fs::symlink(&victim, &link).unwrap();
        for replace in [Replace::Never, Replace::Always, Replace::KeepBackup] {
            let e = write_bytes(&link, &WriteOptions::new(replace), b"x").unwrap_err();
            assert!(matches!(e, WriteError::Link { .. }), "{e}");
            assert!(e.to_string().contains("symbolic link"), "{e}");
        }
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep");
        // A link where the backup goes is refused too.
        let p = dir.path().join("g.json");
        std::fs::write(&p, "old").unwrap();
        std::os::unix::fs::symlink(&victim, dir.path().join("g.json.bak")).unwrap();
        let e = write_bytes(&p, &WriteOptions::new(Replace::KeepBackup), b"new").unwrap_err();
        assert!(matches!(e, WriteError::Link { .. }), "{e}");
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "old");
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep");
        // A directory in the way.
        std::fs::create_dir(dir.path().join("d.txt")).unwrap();
        let e = write_bytes(&dir.path().join("d.txt"), &WriteOptions::default(), b"x").unwrap_err();
        assert!(
            e.to_string().contains("is a directory, not a regular file"),
            "{e}"
        );
    }

    #[test]
    fn the_temporary_file_is_private_and_named_after_the_destination() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.json");
        write_atomic(&p, &WriteOptions::default(), |w| {
            let tmp: Vec<String> = names(dir.path());
            assert_eq!(tmp.len(), 1, "{tmp:?}");
            assert!(
                tmp[0].starts_with(".a.json.") && tmp[0].ends_with(".tmp"),
                "{tmp:?}"
            );
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                let meta = std::fs::metadata(dir.path().join(&tmp[0])).unwrap();
                assert_eq!(meta.permissions().mode() & 0o777, 0o600);
            }
            w.write_all(b"x")
        })
        .unwrap();
        assert_eq!(names(dir.path()), ["a.json"]);
        // A name near the limit gets a temporary name within it.
        let long = dir.path().join(format!("{}.json", "n".repeat(245)));
        write_bytes(&long, &WriteOptions::default(), b"y").unwrap();
        assert_eq!(std::fs::read(&long).unwrap(), b"y");
    }

    #[test]
    fn a_missing_folder_is_named_once_with_its_cause() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("missing").join("a.json");
        let e = write_bytes(&p, &WriteOptions::default(), b"x").unwrap_err();
        let folder = dir.path().join("missing");
        assert_eq!(
            e.to_string(),
            format!(
                "cannot write {}: creating a temporary file in {}: No such file or directory \
                 (os error 2)",
                p.display(),
                folder.display()
            )
        );
    }

    #[test]
    fn never_does_not_replace_a_file_created_while_writing() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.json");
        let e = write_atomic(&p, &WriteOptions::new(Replace::Never), |w| {
            std::fs::write(&p, "theirs").unwrap();
            w.write_all(b"ours")
        })
        .unwrap_err();
        assert!(matches!(e, WriteError::Exists { .. }), "{e}");
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "theirs");
        assert_eq!(
            names(dir.path()),
            ["a.json"],
            "the temporary file is removed"
        );
    }

    #[test]
    fn duplicate_outputs_name_both_inputs() {
        let mut o = Outputs::new();
        o.claim(Path::new("out/a.txt"), "g/a.json").unwrap();
        o.claim(Path::new("out/b.txt"), "g/b.json").unwrap();
        let e = o
            .claim(Path::new("./out/a.txt"), "g/a-copy.json")
            .unwrap_err();
        let m = e.to_string();
        assert!(
            m.contains("g/a.json") && m.contains("g/a-copy.json") && m.contains("out/a.txt"),
            "{m}"
        );
        // One file, two spellings (the folder exists).
        let dir = tempfile::tempdir().unwrap();
        let mut o = Outputs::new();
        o.claim(&dir.path().join("x.json"), "a").unwrap();
        assert!(o.claim(&dir.path().join(".").join("x.json"), "b").is_err());
    }
}
