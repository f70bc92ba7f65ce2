//! Ctrl-C: the first interrupt raises the search's cancellation flag, so
//! the search stops cleanly, reports its statistics and exits with status
//! 130; a second interrupt ends the process at once.
//!
//! The signal handler only stores to the flag (signal-hook's `flag`
//! module), so no watcher thread is started: a process that solves a
//! small task in a few milliseconds does not pay for one.

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, OnceLock};

use planner::exit;
use signal_hook::consts::SIGINT;
use signal_hook::flag;

static CANCEL: OnceLock<Arc<AtomicBool>> = OnceLock::new();

/// The process-wide cancellation flag, with the Ctrl-C handler installed
/// on first use. If the handler cannot be installed, the flag still works;
/// Ctrl-C then keeps its default behaviour.
pub fn cancel_flag() -> &'static AtomicBool {
    CANCEL.get_or_init(|| {
        let cancel = Arc::new(AtomicBool::new(false));
        // The exit is registered first, so it sees the flag as the
        // previous interrupt left it: only a second Ctrl-C exits. If the
        // flag cannot be registered, the exit is removed again, so that
        // Ctrl-C keeps its default behaviour rather than doing nothing.
        if let Ok(exit_id) =
            flag::register_conditional_shutdown(SIGINT, exit::INTERRUPTED, Arc::clone(&cancel))
            && flag::register(SIGINT, Arc::clone(&cancel)).is_err()
        {
            signal_hook::low_level::unregister(exit_id);
        }
        cancel
    })
}
