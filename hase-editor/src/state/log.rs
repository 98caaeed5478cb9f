//! The editor's messages: log lines ([`LogLine`], some naming the entity they are about) and the
//! toasts shown over the canvas for a few seconds ([`Toast`]), each of a [`LogLevel`].

use std::time::Instant;

/// How important a log line is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogLevel {
    /// Something happened.
    Info,
    /// Something was refused or looks wrong.
    Warning,
    /// Something failed.
    Error,
}

/// One line of the log.
#[derive(Clone, Debug)]
pub struct LogLine {
    /// Seconds since the editor started.
    pub at_s: f64,
    /// Importance.
    pub level: LogLevel,
    /// Text.
    pub text: String,
    /// The entity the line is about (instance path, possibly with `.port`): clicking the line
    /// reveals it.
    pub path: Option<String>,
}

/// A short message shown over the canvas for a few seconds.
#[derive(Clone, Debug)]
pub struct Toast {
    /// Importance.
    pub level: LogLevel,
    /// Text.
    pub text: String,
    /// When it was raised.
    pub since: Instant,
}
