//! Reading input files into [`SourceFile`]s with clear errors.

use pddl_syntax::{Diagnostic, SourceFile};
use std::io::Read;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

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
    /// allows ([`PARSE_BYTES_PER_INPUT_BYTE`] per byte). A regular file
    /// is refused before reading; a stream (standard input, a pipe) once
    /// more than the limit allows has arrived.
    #[error(
        "error: `{path}` is {}{bytes} bytes; parsing it takes about {PARSE_BYTES_PER_INPUT_BYTE} times that in memory, more than the memory limit of {} MiB",
        if *.more_than { "more than " } else { "" },
        memory_limit >> 20
    )]
    TooLargeToParse {
        /// The file.
        path: String,
        /// Its size, or what was read of a stream before it was refused.
        bytes: u64,
        /// The stream has more than `bytes` bytes (its size is unknown).
        more_than: bool,
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

/// The path that stands for standard input, as in most command-line
/// tools.
pub const STDIN_PATH: &str = "-";

/// How messages and diagnostics name standard input.
pub const STDIN_NAME: &str = "<stdin>";

/// Whether `path` stands for standard input ([`STDIN_PATH`]).
pub fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == STDIN_PATH
}

/// How messages name the file at `path`: as given, or [`STDIN_NAME`].
pub fn display_name(path: &Path) -> String {
    if is_stdin(path) {
        STDIN_NAME.to_string()
    } else {
        path.display().to_string()
    }
}

/// Set once standard input has been read: a second `-` would find it
/// empty, and an empty file is a confusing error.
static STDIN_READ: AtomicBool = AtomicBool::new(false);

/// [`read_source`], refusing a file whose parse would take more than
/// `memory_limit` bytes ([`PARSE_BYTES_PER_INPUT_BYTE`] per byte) where
/// there is a limit: parsing cannot be stopped halfway, so a regular file
/// is refused by its size before it is read, and a stream once more than
/// that has arrived.
pub fn read_source_to_parse(
    path: &Path,
    memory_limit: Option<u64>,
) -> Result<SourceFile, InputError> {
    let Some(limit) = memory_limit else {
        return read_source(path);
    };
    let max_bytes = (limit / PARSE_BYTES_PER_INPUT_BYTE).min(MAX_INPUT_BYTES);
    read_source_within(path, max_bytes).map_err(|error| match error {
        ReadError::Input(error) => error,
        ReadError::TooLarge { path, bytes } => InputError::TooLargeToParse {
            path,
            bytes: bytes.unwrap_or(max_bytes),
            more_than: bytes.is_none(),
            memory_limit: limit,
        },
    })
}

/// Largest input file accepted, so a huge file is refused before it is
/// read into memory.
pub const MAX_INPUT_BYTES: u64 = 1 << 30;

/// Reads a text file, naming it by `path` in diagnostics, or standard
/// input where `path` is [`STDIN_PATH`] (named [`STDIN_NAME`]; it can be
/// read once). A regular file larger than [`MAX_INPUT_BYTES`] is refused
/// before reading; a stream or a device, whose size is not known
/// beforehand (`-`, `<(generator)`, `/dev/zero`), is read up to that many
/// bytes and refused beyond.
pub fn read_source(path: &Path) -> Result<SourceFile, InputError> {
    read_source_within(path, MAX_INPUT_BYTES).map_err(|error| match error {
        ReadError::Input(error) => error,
        ReadError::TooLarge { path, bytes } => InputError::Unreadable {
            path,
            source: std::io::Error::other(match bytes {
                Some(len) => {
                    format!("file is {len} bytes, larger than the limit of {MAX_INPUT_BYTES}")
                }
                None => format!("more than {MAX_INPUT_BYTES} bytes, the limit"),
            }),
        },
    })
}

/// Why [`read_source_within`] failed.
enum ReadError {
    /// As reported to the user.
    Input(InputError),
    /// The file is larger than allowed: its size where known before
    /// reading (a regular file), `None` for a stream that went on.
    TooLarge { path: String, bytes: Option<u64> },
}

/// Reads `path` as [`read_source`] does, refusing more than `max_bytes`.
fn read_source_within(path: &Path, max_bytes: u64) -> Result<SourceFile, ReadError> {
    let shown = display_name(path);
    let unreadable = |source| {
        ReadError::Input(InputError::Unreadable {
            path: shown.clone(),
            source,
        })
    };
    let mut bytes = Vec::new();
    let read = if is_stdin(path) {
        if STDIN_READ.swap(true, Ordering::Relaxed) {
            return Err(unreadable(std::io::Error::other(
                "standard input was read already, for an earlier `-`",
            )));
        }
        std::io::stdin()
            .lock()
            .take(max_bytes + 1)
            .read_to_end(&mut bytes)
    } else {
        let file = std::fs::File::open(path).map_err(unreadable)?;
        let metadata = file.metadata().map_err(unreadable)?;
        // A regular file is refused by its size; a stream or a device
        // (whose length reads 0) by what arrives.
        if metadata.is_file() && metadata.len() > max_bytes {
            return Err(ReadError::TooLarge {
                path: shown,
                bytes: Some(metadata.len()),
            });
        }
        bytes.reserve_exact(metadata.len() as usize);
        file.take(max_bytes + 1).read_to_end(&mut bytes)
    };
    read.map_err(unreadable)?;
    if bytes.len() as u64 > max_bytes {
        return Err(ReadError::TooLarge {
            path: shown,
            bytes: None,
        });
    }
    SourceFile::from_bytes(shown.clone(), bytes).map_err(
        |(file, diagnostic): (SourceFile, Diagnostic)| {
            ReadError::Input(InputError::NotUtf8 {
                rendered: diagnostic.render(&file),
            })
        },
    )
}

/// The domain file of the problem file `problem` given alone, found
/// beside it by the names benchmark collections use (the rules of Fast
/// Downward's driver, the problem's own names first): `p01-domain.pddl`
/// for `p01.pddl`, `domain_p01.pddl`, `domain-p01.pddl`, `p01-domain.pddl`
/// from the name's first three characters (airport's `p01-airport…`), then
/// `domain.pddl`. The error says what was looked for, or that `problem`
/// is itself the domain file found (a domain given without its problem).
pub fn find_domain(problem: &Path) -> Result<std::path::PathBuf, String> {
    let name = problem
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .filter(|_| !is_stdin(problem))
        .ok_or_else(|| "a domain is found only beside a problem file".to_string())?;
    let stem = problem
        .file_stem()
        .map_or(name.clone(), |stem| stem.to_string_lossy().into_owned());
    let extension = problem
        .extension()
        .map_or(String::new(), |e| format!(".{}", e.to_string_lossy()));
    let first_three: String = name.chars().take(3).collect();
    let mut candidates: Vec<String> = Vec::new();
    for candidate in [
        format!("{stem}-domain{extension}"),
        format!("domain_{name}"),
        format!("domain-{name}"),
        format!("{first_three}-domain.pddl"),
        "domain.pddl".to_string(),
    ] {
        // `p01.pddl`'s first three characters name its own `p01-domain.pddl`.
        if !candidates.contains(&candidate) {
            candidates.push(candidate);
        }
    }
    let directory = problem.parent().unwrap_or(Path::new(""));
    let found = candidates
        .iter()
        .map(|candidate| directory.join(candidate))
        .find(|path| path.is_file())
        .ok_or_else(|| {
            format!(
                "no domain file beside `{}` (looked for {}); give DOMAIN PROBLEM",
                problem.display(),
                candidates
                    .iter()
                    .map(|c| format!("`{c}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })?;
    let same = |a: &Path, b: &Path| matches!((a.canonicalize(), b.canonicalize()), (Ok(a), Ok(b)) if a == b);
    if same(&found, problem) {
        return Err(format!(
            "`{}` is the domain file beside itself: give DOMAIN PROBLEM",
            problem.display()
        ));
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The size [`read_source_within`] reports for a file over `max_bytes`
    /// (`None`: a stream that went on).
    fn refusal(path: &Path, max_bytes: u64) -> Option<u64> {
        match read_source_within(path, max_bytes) {
            Err(ReadError::TooLarge { bytes, .. }) => bytes,
            Err(ReadError::Input(error)) => panic!("{}: {error}", path.display()),
            Ok(_) => panic!("{} read within {max_bytes} bytes", path.display()),
        }
    }

    #[test]
    fn a_regular_file_over_the_limit_is_refused_before_reading() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("big.pddl");
        std::fs::write(&path, "(define (domain d))").expect("write");
        assert_eq!(refusal(&path, 10), Some(19));
        let file = read_source(&path).expect("far below the limit");
        assert_eq!(file.text, "(define (domain d))");
        // Under a memory limit, by the parse's estimated memory.
        let error = read_source_to_parse(&path, Some(18 * PARSE_BYTES_PER_INPUT_BYTE))
            .expect_err("19 bytes need more than 18 bytes' worth");
        assert_eq!(
            error.to_string(),
            format!(
                "error: `{}` is 19 bytes; parsing it takes about 16 times that in memory, more than the memory limit of 0 MiB",
                path.display()
            )
        );
        assert!(read_source_to_parse(&path, Some(19 * PARSE_BYTES_PER_INPUT_BYTE)).is_ok());
    }

    /// A device or a pipe says nothing of its size: `/dev/zero` never
    /// ends, and was read until memory ran out.
    #[cfg(unix)]
    #[test]
    fn an_endless_stream_is_read_up_to_the_limit_only() {
        let zero = Path::new("/dev/zero");
        assert_eq!(refusal(zero, 1 << 20), None);
        let error = read_source_to_parse(zero, Some(16 << 20)).expect_err("endless");
        assert_eq!(
            error.to_string(),
            "error: `/dev/zero` is more than 1048576 bytes; parsing it takes about 16 times that in memory, more than the memory limit of 16 MiB"
        );
        assert_eq!(error.exit_status(), crate::exit::MEMORY_LIMIT);
    }

    #[test]
    fn a_domain_is_found_beside_its_problem_by_the_usual_names() {
        let dir = std::env::temp_dir().join(format!("planner-find-domain-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let touch = |name: &str| std::fs::write(dir.join(name), "").unwrap();
        let found = |problem: &str| {
            find_domain(&dir.join(problem))
                .map(|d| d.file_name().unwrap().to_string_lossy().into_owned())
        };
        touch("p01.pddl");
        let error = found("p01.pddl").unwrap_err();
        assert!(error.contains("`domain.pddl`"), "{error}");
        assert_eq!(error.matches("`p01-domain.pddl`").count(), 1, "{error}");
        touch("domain.pddl");
        assert_eq!(found("p01.pddl").unwrap(), "domain.pddl");
        // The problem's own names win over the shared one.
        touch("p01-domain.pddl");
        assert_eq!(found("p01.pddl").unwrap(), "p01-domain.pddl");
        touch("domain_p02.pddl");
        assert_eq!(found("p02.pddl").unwrap(), "domain_p02.pddl");
        touch("domain-p03.pddl");
        assert_eq!(found("p03.pddl").unwrap(), "domain-p03.pddl");
        // Airport: p04-airport4halfMUC-p2.pddl has p04-domain.pddl.
        touch("p04-domain.pddl");
        assert_eq!(
            found("p04-airport4halfMUC-p2.pddl").unwrap(),
            "p04-domain.pddl"
        );
        // A domain file given alone is not its own problem.
        assert!(found("domain.pddl").unwrap_err().contains("beside itself"));
        assert!(find_domain(Path::new(STDIN_PATH)).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
