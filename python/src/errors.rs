//! The Python exceptions: every library error becomes a [`HaseError`] carrying the library's own
//! message (with its causes), and a database held by another process a [`StoreInUseError`].

use hase_library::store::StoreError;
use pyo3::PyErr;
use pyo3::create_exception;
use pyo3::exceptions::PyException;

create_exception!(_hase, HaseError, PyException, "An error from hase, with the library's message.");
create_exception!(
    _hase,
    StoreInUseError,
    HaseError,
    "The hase database is open in another process (a running sweep, the GUI); retry when it is closed."
);

/// The message of `error` followed by its causes, as the CLI prints them (`a: b: c`), unless a
/// cause's text is already part of the message.
fn message_with_causes(error: &(dyn std::error::Error + 'static)) -> String {
    let mut message = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        let text = cause.to_string();
        if !message.contains(&text) {
            message.push_str(": ");
            message.push_str(&text);
        }
        source = cause.source();
    }
    message
}

/// A [`HaseError`] with the message of `error`.
pub fn hase_error(error: &(dyn std::error::Error + 'static)) -> PyErr {
    HaseError::new_err(message_with_causes(error))
}

/// A [`HaseError`] with `context` in front of the message of `error`.
pub fn hase_error_in(context: &str, error: &(dyn std::error::Error + 'static)) -> PyErr {
    HaseError::new_err(format!("{context}: {}", message_with_causes(error)))
}

/// A store error: [`StoreInUseError`] when another process holds the database, else [`HaseError`].
pub fn store_error(error: &StoreError) -> PyErr {
    match error {
        StoreError::InUse { .. } => StoreInUseError::new_err(message_with_causes(error)),
        _ => hase_error(error),
    }
}
