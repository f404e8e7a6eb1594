//! File-system access for every command: reading regular files with a size limit, and (in
//! [`mod@write`]) writing files atomically inside the folder the user named.
//!
//! Names read from files (page names in gold files, corpus ids) are untrusted: they are
//! validated as bare file names before they are joined to a folder, and output files are
//! never written through symbolic links (`DESIGN.md`, "Every name read from a file …").

pub mod read;
pub mod write;
