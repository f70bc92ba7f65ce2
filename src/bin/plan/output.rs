//! Writing what the commands produce: standard output (`out!`,
//! `outln!`) and files (`-o`, `--junit`, `--html`).

use std::io::Write;
use std::path::Path;

/// `print!` to standard output, except that where it cannot be written
/// (a full disk, an I/O error) the process reports it on stderr and exits
/// with status 2, where `print!` panics. (A reader that went away ends the
/// process by SIGPIPE before that, see `main`.)
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::output::write_stdout(format_args!($($arg)*))
    };
}

/// `out!` with a newline, as `println!`.
macro_rules! outln {
    () => {
        $crate::output::write_stdout(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::output::write_stdout(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// Writes to standard output for `out!` and `outln!`.
pub fn write_stdout(args: std::fmt::Arguments<'_>) {
    if let Err(error) = std::io::stdout().write_fmt(args) {
        eprintln!("error: cannot write to standard output: {error}");
        std::process::exit(planner::exit::INPUT_ERROR);
    }
}

/// Whether an output path is `-`, standard output: the path that names
/// standard input for input files ([`planner::input::STDIN_PATH`]).
pub fn is_stdout(path: &Path) -> bool {
    path.as_os_str() == planner::input::STDIN_PATH
}

/// Whether the output file `path` of flag `flag` (as the user wrote it)
/// is refused because it is `-` and the command's report already goes to
/// standard output; says so on stderr when it is.
pub fn refuse_stdout(path: Option<&Path>, flag: &str) -> bool {
    let refused = path.is_some_and(is_stdout);
    if refused {
        eprintln!(
            "error: `{flag} -` would mix its output with the report on standard output; give it a file"
        );
    }
    refused
}

/// Writes `bytes` to `path` (standard output for `-`), creating the file
/// or replacing its contents; the error names the file.
///
/// Unlike `std::fs::write`, an existing file is not truncated to zero
/// length first: it is overwritten in place, then cut to the new length if
/// it was longer. On ext4 (with its default `auto_da_alloc`), closing a file that was
/// truncated to zero and written again starts writing its data to disk at
/// once, which took a context switch and about 0.3 ms per run: a fifth of
/// a whole small run (`perf stat -r 300 plan -q -o FILE …` on miconic s1-0,
/// 1.76 ms against 1.48 ms).
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<(), String> {
    if is_stdout(path) {
        write_stdout(format_args!("{}", String::from_utf8_lossy(bytes)));
        return Ok(());
    }
    let overwrite = || {
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)?;
        file.write_all(bytes)?;
        // Only a regular file has a length to cut (`-o /dev/null` or
        // `-o /dev/stdout` must work, and cannot be truncated).
        let metadata = file.metadata()?;
        if metadata.is_file() && metadata.len() > bytes.len() as u64 {
            file.set_len(bytes.len() as u64)?;
        }
        Ok(())
    };
    overwrite()
        .map_err(|error: std::io::Error| format!("cannot write `{}`: {error}", path.display()))
}
