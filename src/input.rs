//! Reading input files into [`SourceFile`]s with clear errors.

use pddl_syntax::{Diagnostic, SourceFile};
use std::io::Read;
use std::path::Path;

/// Why an input file could not be used. Each displays as a whole
/// message, `error: ` included, ready for standard error.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// The file could not be read at all.
    #[error("error: cannot read `{path}`: {source}")]
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
    /// Parsing the file would take more memory than the memory limit
    /// allows ([`PARSE_BYTES_PER_INPUT_BYTE`] per byte); nothing was read.
    #[error(
        "error: `{path}` is {bytes} bytes; parsing it takes about {PARSE_BYTES_PER_INPUT_BYTE} times that in memory, more than the memory limit of {} MiB",
        memory_limit >> 20
    )]
    TooLargeToParse {
        /// The file.
        path: String,
        /// Its size.
        bytes: u64,
        /// The memory limit in bytes.
        memory_limit: u64,
    },
}

impl InputError {
    /// The `plan` exit status for this error: memory limit for a file too
    /// large to parse, input error otherwise.
    pub fn exit_status(&self) -> i32 {
        match self {
            InputError::TooLargeToParse { .. } => crate::exit::MEMORY_LIMIT,
            InputError::Unreadable { .. } | InputError::NotUtf8 { .. } => crate::exit::INPUT_ERROR,
        }
    }
}

/// Memory that reading, parsing and checking take per byte of input, a
/// little above what was measured: 11.6 on a 141 MB Puzznic problem
/// (1.64 GB resident), 13 on visitall problem50 (450 KB, 3 MB of it the
/// process's own).
pub const PARSE_BYTES_PER_INPUT_BYTE: u64 = 16;

/// Refuses a file whose parse would take more than `memory_limit` bytes
/// ([`PARSE_BYTES_PER_INPUT_BYTE`] per byte), before reading it: parsing
/// cannot be stopped halfway. Files whose size is not known beforehand
/// (pipes) pass, and so do files that cannot be examined (reading them
/// reports why).
pub fn check_parse_memory(path: &Path, memory_limit: u64) -> Result<(), InputError> {
    let Ok(metadata) = std::fs::metadata(path) else {
        return Ok(());
    };
    if metadata.len().saturating_mul(PARSE_BYTES_PER_INPUT_BYTE) > memory_limit {
        return Err(InputError::TooLargeToParse {
            path: path.display().to_string(),
            bytes: metadata.len(),
            memory_limit,
        });
    }
    Ok(())
}

/// [`check_parse_memory`] against `memory_limit` where there is one,
/// then [`read_source`].
pub fn read_source_to_parse(
    path: &Path,
    memory_limit: Option<u64>,
) -> Result<SourceFile, InputError> {
    if let Some(limit) = memory_limit {
        check_parse_memory(path, limit)?;
    }
    read_source(path)
}

/// Largest input file accepted, so a huge file is refused before it is
/// read into memory.
pub const MAX_INPUT_BYTES: u64 = 1 << 30;

/// Reads a text file, naming it by `path` in diagnostics. A regular file
/// larger than [`MAX_INPUT_BYTES`] is refused before reading; a pipe or
/// a device, whose size is not known beforehand (`<(generator)`,
/// `/dev/zero`), is read up to that many bytes and refused beyond.
pub fn read_source(path: &Path) -> Result<SourceFile, InputError> {
    read_source_within(path, MAX_INPUT_BYTES)
}

/// [`read_source`] with a limit of `max_bytes`.
fn read_source_within(path: &Path, max_bytes: u64) -> Result<SourceFile, InputError> {
    let shown = path.display().to_string();
    let unreadable = |source| InputError::Unreadable {
        path: shown.clone(),
        source,
    };
    let file = std::fs::File::open(path).map_err(unreadable)?;
    let len = file.metadata().map_err(unreadable)?.len();
    if len > max_bytes {
        return Err(unreadable(std::io::Error::other(format!(
            "file is {len} bytes, larger than the limit of {max_bytes}"
        ))));
    }
    let mut bytes = Vec::with_capacity(len as usize);
    file.take(max_bytes + 1)
        .read_to_end(&mut bytes)
        .map_err(unreadable)?;
    if bytes.len() as u64 > max_bytes {
        return Err(unreadable(std::io::Error::other(format!(
            "more than {max_bytes} bytes, the limit"
        ))));
    }
    SourceFile::from_bytes(shown.clone(), bytes).map_err(
        |(file, diagnostic): (SourceFile, Diagnostic)| InputError::NotUtf8 {
            rendered: diagnostic.render(&file),
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refusal(path: &Path, max_bytes: u64) -> String {
        match read_source_within(path, max_bytes) {
            Err(InputError::Unreadable { source, .. }) => source.to_string(),
            other => panic!(
                "{} read within {max_bytes} bytes: {other:?}",
                path.display()
            ),
        }
    }

    #[test]
    fn a_regular_file_over_the_limit_is_refused_before_reading() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("big.pddl");
        std::fs::write(&path, "(define (domain d))").expect("write");
        assert_eq!(
            refusal(&path, 10),
            "file is 19 bytes, larger than the limit of 10"
        );
        let file = read_source_within(&path, 19).expect("at the limit");
        assert_eq!(file.text, "(define (domain d))");
    }

    /// A device or a pipe says nothing of its size: `/dev/zero` never
    /// ends, and was read until memory ran out.
    #[cfg(unix)]
    #[test]
    fn an_endless_stream_is_read_up_to_the_limit_only() {
        assert_eq!(
            refusal(Path::new("/dev/zero"), 1 << 20),
            "more than 1048576 bytes, the limit"
        );
    }
}
