//! Shared by the Puzznic integration tests.

use std::path::{Path, PathBuf};

/// The shared Game Boy levels, or `None` (with a skip message) when
/// `../shared` is absent.
pub fn gameboy_dir() -> Option<PathBuf> {
    let dir = Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/puzznic/gameboy"
    ));
    if dir.is_dir() {
        Some(dir.to_path_buf())
    } else {
        eprintln!("skipping: {} not found", dir.display());
        None
    }
}
