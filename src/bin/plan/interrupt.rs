//! Ctrl-C and the signals that ask a process to stop (SIGTERM, sent by
//! `timeout`, `kill` and batch systems; SIGXCPU, sent at a CPU time limit
//! such as `ulimit -t`): the first of them raises the search's
//! cancellation flag, so the search stops cleanly, reports its statistics
//! and the best plan found so far, and exits (status 130 without a plan);
//! a second one ends the process at once, with status 130.
//!
//! The signal handler only stores to the flag (signal-hook's `flag`
//! module), so no watcher thread is started: a process that solves a
//! small task in a few milliseconds does not pay for one.

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, OnceLock};

use planner::exit;
use signal_hook::consts::{SIGINT, SIGTERM, SIGXCPU};
use signal_hook::flag;

/// The signals that stop a search cleanly (see the module docs).
const STOP_SIGNALS: [i32; 3] = [SIGINT, SIGTERM, SIGXCPU];

static CANCEL: OnceLock<Arc<AtomicBool>> = OnceLock::new();

/// The process-wide cancellation flag, with the handlers installed on
/// first use. If a handler cannot be installed, the flag still works; that
/// signal then keeps its default behaviour.
pub fn cancel_flag() -> &'static AtomicBool {
    CANCEL.get_or_init(|| {
        let cancel = Arc::new(AtomicBool::new(false));
        for signal in STOP_SIGNALS {
            // The exit is registered first, so it sees the flag as the
            // previous signal left it: only a second one exits. If the
            // flag cannot be registered, the exit is removed again, so
            // that the signal keeps its default behaviour rather than
            // doing nothing.
            if let Ok(exit_id) =
                flag::register_conditional_shutdown(signal, exit::INTERRUPTED, Arc::clone(&cancel))
                && flag::register(signal, Arc::clone(&cancel)).is_err()
            {
                signal_hook::low_level::unregister(exit_id);
            }
        }
        cancel
    })
}
