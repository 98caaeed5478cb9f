//! Long work off the Python thread: the work runs on a named thread while the caller waits with
//! the GIL released, waking every [`SIGNAL_POLL`] to let Python handle signals. A Ctrl-C
//! (`KeyboardInterrupt`) sets the library's cancel flag, waits for the work to stop, and is raised.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use pyo3::prelude::*;

use crate::errors::HaseError;

/// How often a waiting caller checks for Python signals (Ctrl-C).
const SIGNAL_POLL: Duration = Duration::from_millis(100);

/// Run `work` on a thread named `thread_name` with the GIL released; `cancel` is the flag `work`
/// watches. Returns what `work` returned, or the signal's exception after cancelling it.
pub fn run_in_background<T: Send + 'static>(
    py: Python<'_>,
    thread_name: &str,
    cancel: &Arc<AtomicBool>,
    work: impl FnOnce() -> T + Send + 'static,
) -> PyResult<T> {
    let (sender, receiver) = mpsc::channel();
    let handle = std::thread::Builder::new()
        .name(thread_name.to_string())
        .spawn(move || {
            // The receiver is gone only if the caller itself went away; nothing is left to tell.
            let _ = sender.send(work());
        })
        .map_err(|e| HaseError::new_err(format!("cannot start the {thread_name} thread: {e}")))?;
    // A `Receiver` is `Send` but not `Sync`: it moves into each wait and back out.
    let mut receiver = receiver;
    loop {
        let (received, back) = py.detach(move || (receiver.recv_timeout(SIGNAL_POLL), receiver));
        receiver = back;
        match received {
            Ok(value) => {
                let _ = handle.join();
                return Ok(value);
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                let _ = handle.join();
                return Err(HaseError::new_err(format!("the {thread_name} thread stopped without a result")));
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                if let Err(signal) = py.check_signals() {
                    cancel.store(true, Ordering::SeqCst);
                    // The work stops at its next check of the flag; its result is dropped.
                    py.detach(move || drop(receiver.recv()));
                    let _ = handle.join();
                    return Err(signal);
                }
            }
        }
    }
}
