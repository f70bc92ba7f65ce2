//! Reading input files into [`SourceFile`]s with clear errors.

use pddl_syntax::{Diagnostic, SourceFile};
use std::path::Path;

/// Why an input file could not be used.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// The file could not be read at all.
    #[error("cannot read `{path}`: {source}")]
    Unreadable {
        /// The path as given.
        path: String,
        /// The operating system's reason.
        source: std::io::Error,
    },
    /// The file is not valid UTF-8; the rendered diagnostic locates it.
    #[error("{rendered}")]
    NotUtf8 {
        /// The diagnostic rendered against the file.
        rendered: String,
    },
}

/// Largest input file accepted, so a huge file is refused before it is
/// read into memory.
pub const MAX_INPUT_BYTES: u64 = 1 << 30;

/// Reads a text file, naming it by `path` in diagnostics.
pub fn read_source(path: &Path) -> Result<SourceFile, InputError> {
    let shown = path.display().to_string();
    let unreadable = |source| InputError::Unreadable {
        path: shown.clone(),
        source,
    };
    let len = std::fs::metadata(path).map_err(unreadable)?.len();
    if len > MAX_INPUT_BYTES {
        return Err(unreadable(std::io::Error::other(format!(
            "file is {len} bytes, larger than the limit of {MAX_INPUT_BYTES}"
        ))));
    }
    let bytes = std::fs::read(path).map_err(unreadable)?;
    SourceFile::from_bytes(shown.clone(), bytes).map_err(
        |(file, diagnostic): (SourceFile, Diagnostic)| InputError::NotUtf8 {
            rendered: diagnostic.render(&file),
        },
    )
}
