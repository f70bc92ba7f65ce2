//! Ctrl-C: the first interrupt raises the search's cancellation flag, so
//! the search stops cleanly, reports its statistics and exits with status
//! 130; a second interrupt ends the process at once.

use std::sync::Once;
use std::sync::atomic::{AtomicBool, Ordering};

use planner::exit;

static CANCEL: AtomicBool = AtomicBool::new(false);
static INSTALL: Once = Once::new();

/// The process-wide cancellation flag, with the Ctrl-C handler installed
/// on first use. If the handler cannot be installed (another one exists),
/// the flag still works; Ctrl-C then keeps its default behaviour.
pub fn cancel_flag() -> &'static AtomicBool {
    INSTALL.call_once(|| {
        let _ = ctrlc::set_handler(|| {
            if CANCEL.swap(true, Ordering::SeqCst) {
                std::process::exit(exit::INTERRUPTED);
            }
        });
    });
    &CANCEL
}
