//! Every size limit hase applies to its input, in one place. A count read from a file, a command
//! line or a parameter is checked against one of these before anything is sized from it, and the
//! error names the file (and line) or the entity, and the limit. The table in `docs/limits.md`
//! lists the same constants with the reason for each value; keep the two in step.
//!
//! The values are far above any real design or trace (a million processors, messages of a
//! terabyte) and far below what would exhaust memory or time before an error could be shown.
//!
//! [`read_capped`] reads a whole input file with a size cap, so that `/dev/zero`, a FIFO or a
//! mistaken multi-gigabyte file ends with an error instead of filling memory.

use std::io::Read;
use std::path::Path;

/// Largest project file (RON) read from disk, in bytes.
pub const MAX_PROJECT_FILE_BYTES: u64 = 256 << 20;

/// Largest workload file (instruction stream, time-independent trace or TI list file), in bytes.
pub const MAX_WORKLOAD_FILE_BYTES: u64 = 1 << 30;

/// Longest line of a text input (stream, TI trace, text trace, `.idx` index), in bytes.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// Largest message one operation may send or receive, in bytes (1 TiB). A TI trace size, a stream
/// `SEND` or a program's message size beyond this is refused where it is read.
pub const MAX_MESSAGE_BYTES: u64 = 1 << 40;

/// Most packets one message may be cut into (packet numbers are 32-bit). Packets are made as the
/// network interface sends them, so a large count costs simulated time, not memory.
pub const MAX_PACKETS_PER_MESSAGE: u64 = u32::MAX as u64;

/// Most ports one entity may have, counting every port array expanded (port indices are 16-bit).
pub const MAX_PORTS_PER_ENTITY: u64 = 1 << 16;

/// Most simulated (flat) entities one project may elaborate into.
pub const MAX_ENTITIES: u64 = 1 << 22;

/// Most ranks (processors) a workload may address; a rank number beyond this is refused.
pub const MAX_RANKS: u32 = 1 << 20;

/// Most processors a template generates.
pub const MAX_TEMPLATE_ENDPOINTS: u64 = 1 << 20;

/// Entities plus links one template may generate, counted from its closed forms before anything
/// is built. The million-entity torus (512×1024: 1,048,576 entities and 1,572,864 links) fits;
/// it is about 1.3 GiB ready to run and takes seconds to generate. A 20-cube (13.6 M) does not.
pub const MAX_TEMPLATE_ELEMENTS: u64 = 1 << 22;

/// Most operations one instruction stream may unroll to (`REPEAT` blocks are unrolled when read).
pub const MAX_EXPANDED_OPS: usize = 1_000_000;

/// Deepest nesting of `REPEAT` blocks in a stream and of compound types in a project.
pub const MAX_NESTING_DEPTH: usize = 64;

/// Most segments a pipelined collective schedule may cut a message into.
pub const MAX_SEGMENTS: u64 = 1 << 20;

/// Most elements of an integer or real array parameter (as a value or as a declared length).
pub const MAX_ARRAY_LEN: u64 = 1 << 20;

/// Longest instance or entity path (`fabric/level1/switch3`) in a project or a trace, in bytes.
pub const MAX_PATH_BYTES: usize = 4096;

/// Largest block payload (and header) of a compact binary trace, in bytes.
pub const MAX_BINARY_BLOCK_BYTES: u64 = 1 << 28;

/// Widest column the text reports pad to (`trace stats`); a longer name overflows its column
/// instead of being padded (the formatter refuses widths beyond 65,535).
pub const MAX_REPORT_COLUMN_CHARS: usize = 120;

/// Longest piece of input text an error message quotes: the offending token, shortened to this
/// many characters with an ellipsis. Errors never echo a whole line of a file.
pub const MAX_QUOTED_CHARS: usize = 60;

/// Longest text read as one quantity with its unit (`2.5 ms`, `10Gbps`) by the units parser.
pub const MAX_QUANTITY_CHARS: usize = 96;

/// Longest number (digits, sign, point, exponent) inside a quantity.
pub const MAX_NUMBER_CHARS: usize = 64;

/// Most values one swept variable of an experiment may take (ranges beyond this are refused).
pub const MAX_SWEEP_VALUES: usize = 100_000;

/// Most points one experiment may have, before its constraint drops any.
pub const MAX_SWEEP_POINTS: u64 = 10_000_000;

/// Runs of one experiment: points after the constraint times repetitions.
pub const MAX_SWEEP_RUNS: u64 = 10_000_000;

/// Any other text input read whole: a hostfile, a sweep spec, a raw benchmark CSV, a Slurm result
/// file, a SimGrid platform, a data sheet.
pub const MAX_TEXT_INPUT_BYTES: u64 = 256 << 20;

/// Characters of one `--where` or `constraint` expression.
pub const MAX_EXPRESSION_CHARS: usize = 4096;

/// Nesting of parentheses and unary operators in one expression.
pub const MAX_EXPRESSION_DEPTH: usize = 64;

// The limits fit the types they guard: port indices are u16, packet numbers u32.
const _: () = {
    assert!(MAX_PORTS_PER_ENTITY <= u16::MAX as u64 + 1);
    assert!(MAX_PACKETS_PER_MESSAGE <= u32::MAX as u64);
    assert!(MAX_RANKS as u64 <= MAX_ENTITIES);
    assert!(MAX_TEMPLATE_ENDPOINTS <= MAX_ENTITIES);
    assert!(MAX_REPORT_COLUMN_CHARS < u16::MAX as usize);
};

/// Why a capped read failed.
#[derive(Debug, thiserror::Error)]
pub enum CappedReadError {
    /// The file could not be opened or read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The system's reason.
        source: std::io::Error,
    },
    /// The path is not a regular file: a FIFO, a device, a directory, or a kernel pseudo-file
    /// under `/proc` or `/sys` (whose contents are the system's, never an input).
    #[error("{path}: {what}, not a regular file")]
    NotRegular {
        /// The file.
        path: String,
        /// What it is instead.
        what: &'static str,
    },
    /// The file is larger than the cap (or never ends, like `/dev/zero`).
    #[error("{path}: larger than the limit of {limit} bytes for this kind of file")]
    TooLarge {
        /// The file.
        path: String,
        /// The cap in bytes.
        limit: u64,
    },
    /// The file is not UTF-8 text.
    #[error("{path}: not UTF-8 text (first bad byte at offset {offset})")]
    NotText {
        /// The file.
        path: String,
        /// Byte offset of the first invalid byte.
        offset: usize,
    },
}

impl CappedReadError {
    /// What went wrong, without the path (for errors that name the file themselves).
    pub fn reason(&self) -> String {
        match self {
            CappedReadError::Io { source, .. } => source.to_string(),
            CappedReadError::NotRegular { what, .. } => format!("{what}, not a regular file"),
            CappedReadError::TooLarge { limit, .. } => {
                format!("larger than the limit of {limit} bytes for this kind of file")
            }
            CappedReadError::NotText { offset, .. } => {
                format!("not UTF-8 text (first bad byte at offset {offset})")
            }
        }
    }

    /// As an I/O error carrying [`CappedReadError::reason`].
    pub fn into_io(self) -> std::io::Error {
        match self {
            CappedReadError::Io { source, .. } => source,
            other => std::io::Error::new(std::io::ErrorKind::InvalidData, other.reason()),
        }
    }
}

/// Read a whole text file of at most `limit` bytes. Reads at most `limit + 1` bytes whatever the
/// file claims to be, so endless or growing inputs stop at the cap; refuses anything but a regular
/// file before opening it, so a FIFO cannot block and `/proc/self/environ` is never read.
pub fn read_capped(path: &Path, limit: u64) -> Result<String, CappedReadError> {
    let shown = || path.display().to_string();
    check_regular_file(path)?;
    let file = std::fs::File::open(path).map_err(|source| CappedReadError::Io { path: shown(), source })?;
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|source| CappedReadError::Io { path: shown(), source })?;
    if bytes.len() as u64 > limit {
        return Err(CappedReadError::TooLarge { path: shown(), limit });
    }
    String::from_utf8(bytes)
        .map_err(|e| CappedReadError::NotText { path: shown(), offset: e.utf8_error().valid_up_to() })
}

/// Read a text input of another kind (a spec, a hostfile, a result file…) with the
/// [`MAX_TEXT_INPUT_BYTES`] cap, as an I/O error for callers that keep one (a missing file keeps
/// its `NotFound` kind).
pub fn read_text_input(path: &Path) -> std::io::Result<String> {
    read_capped(path, MAX_TEXT_INPUT_BYTES).map_err(CappedReadError::into_io)
}

/// Refuse a path that is not a regular file, or that resolves into `/proc` or `/sys`.
pub fn check_regular_file(path: &Path) -> Result<(), CappedReadError> {
    let shown = || path.display().to_string();
    let meta = std::fs::metadata(path).map_err(|source| CappedReadError::Io { path: shown(), source })?;
    let file_type = meta.file_type();
    let what = if file_type.is_dir() {
        Some("a directory")
    } else if !file_type.is_file() {
        Some(special_file_kind(file_type))
    } else {
        match path.canonicalize() {
            Ok(real) if real.starts_with("/proc") || real.starts_with("/sys") => Some("a kernel pseudo-file"),
            _ => None,
        }
    };
    match what {
        Some(what) => Err(CappedReadError::NotRegular { path: shown(), what }),
        None => Ok(()),
    }
}

#[cfg(unix)]
fn special_file_kind(file_type: std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if file_type.is_fifo() {
        "a FIFO"
    } else if file_type.is_char_device() || file_type.is_block_device() {
        "a device"
    } else if file_type.is_socket() {
        "a socket"
    } else {
        "a special file"
    }
}

#[cfg(not(unix))]
fn special_file_kind(_: std::fs::FileType) -> &'static str {
    "a special file"
}

/// Characters of one word (a run without white space) an error printed on a terminal keeps.
pub const MAX_PRINTED_WORD_CHARS: usize = 400;

/// Characters of one line an error printed on a terminal keeps.
pub const MAX_PRINTED_LINE_CHARS: usize = 2_000;

/// An error message as the command line prints it: control characters other than line breaks and
/// tabs escaped, each word cut to [`MAX_PRINTED_WORD_CHARS`] and each line to
/// [`MAX_PRINTED_LINE_CHARS`] characters (with `…`). The last guard for any error that quotes
/// more input than it should.
pub fn printable_error(message: &str) -> String {
    let mut out = String::with_capacity(message.len().min(1 << 16));
    for (i, line) in message.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        // Widths count printed characters: an escaped control character is several.
        let (mut line_chars, mut word_chars) = (0usize, 0usize);
        let mut word_cut = false;
        for c in line.chars() {
            if c.is_whitespace() {
                word_chars = 0;
                word_cut = false;
            }
            if word_cut {
                continue;
            }
            let shown: String =
                if c.is_control() && c != '\t' { c.escape_default().collect() } else { c.to_string() };
            let width = shown.chars().count();
            if line_chars + width > MAX_PRINTED_LINE_CHARS {
                out.push('…');
                break;
            }
            if !c.is_whitespace() && word_chars + width > MAX_PRINTED_WORD_CHARS {
                out.push('…');
                line_chars += 1;
                word_cut = true;
                continue;
            }
            if !c.is_whitespace() {
                word_chars += width;
            }
            out.push_str(&shown);
            line_chars += width;
        }
    }
    out
}

/// `text` with control characters escaped, cut to at most `limit` printed characters (an escape
/// counts at its printed length) and then `…`; true if it was cut.
fn escaped_prefix(text: &str, limit: usize) -> (String, bool) {
    let mut out = String::new();
    let mut printed = 0;
    for c in text.chars() {
        let shown: String = if c.is_control() { c.escape_default().collect() } else { c.to_string() };
        let width = shown.chars().count();
        if printed + width > limit {
            out.push('…');
            return (out, true);
        }
        out.push_str(&shown);
        printed += width;
    }
    (out, false)
}

/// `text` as an error message may quote it: at most [`MAX_QUOTED_CHARS`] printed characters, the
/// rest replaced by `…`, control characters shown escaped (an escape counts at its printed length).
pub fn quote(text: &str) -> String {
    escaped_prefix(text, MAX_QUOTED_CHARS).0
}

/// Most printed characters [`short_error`] keeps of another library's message.
pub const MAX_SOURCE_ERROR_CHARS: usize = 300;

/// A message from another library (a parser that may echo the input it refused) as an error of
/// ours quotes it: its first line only, control characters escaped, at most
/// [`MAX_SOURCE_ERROR_CHARS`] printed characters (then `…`).
pub fn short_error(message: &str) -> String {
    let mut lines = message.lines();
    let (mut out, cut) = escaped_prefix(lines.next().unwrap_or(""), MAX_SOURCE_ERROR_CHARS);
    if !cut && lines.next().is_some() {
        out.push_str(" …");
    }
    out
}

/// `width` capped at [`MAX_REPORT_COLUMN_CHARS`], for `{:<width$}` padding.
pub fn column_width(width: usize) -> usize {
    width.min(MAX_REPORT_COLUMN_CHARS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn devices_fifos_directories_and_kernel_files_are_refused_before_reading() {
        let err = read_capped(Path::new("/dev/zero"), 1 << 10).unwrap_err();
        assert!(matches!(err, CappedReadError::NotRegular { what: "a device", .. }), "{err}");
        assert_eq!(err.to_string(), "/dev/zero: a device, not a regular file");
        let err = read_capped(Path::new("/proc/self/environ"), 1 << 20).unwrap_err();
        assert!(matches!(err, CappedReadError::NotRegular { what: "a kernel pseudo-file", .. }), "{err}");
        let dir = tempfile::tempdir().unwrap();
        let err = read_capped(dir.path(), 10).unwrap_err();
        assert!(matches!(err, CappedReadError::NotRegular { what: "a directory", .. }), "{err}");
        // A FIFO with no writer would block an open for ever: it must be refused before the open.
        let fifo = dir.path().join("pipe");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
        assert!(made.success());
        let err = read_capped(&fifo, 10).unwrap_err();
        assert!(matches!(err, CappedReadError::NotRegular { what: "a FIFO", .. }), "{err}");
        // A link to a kernel file is followed and refused as well.
        let link = dir.path().join("env.txt");
        std::os::unix::fs::symlink("/proc/self/environ", &link).unwrap();
        assert!(matches!(read_capped(&link, 1 << 20), Err(CappedReadError::NotRegular { .. })));
    }

    #[test]
    fn capped_read_stops_a_file_that_grows_past_the_cap() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.txt");
        std::fs::write(&path, "x".repeat(5000)).unwrap();
        let err = read_capped(&path, 1 << 10).unwrap_err();
        assert!(matches!(err, CappedReadError::TooLarge { limit: 1024, .. }), "{err}");
        assert!(err.to_string().contains("big.txt"), "{err}");
    }

    #[test]
    fn capped_read_takes_a_file_at_the_limit_and_refuses_one_byte_more() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f.txt");
        std::fs::write(&path, "abcd").unwrap();
        assert_eq!(read_capped(&path, 4).unwrap(), "abcd");
        assert!(matches!(read_capped(&path, 3), Err(CappedReadError::TooLarge { limit: 3, .. })));
        std::fs::write(&path, [b'a', 0xff, b'b']).unwrap();
        assert!(matches!(read_capped(&path, 10), Err(CappedReadError::NotText { offset: 1, .. })));
    }

    #[test]
    fn printed_errors_are_cut_per_word_and_line_and_escaped() {
        let token = format!("\u{1b}]0;owned\u{7}{}", "x".repeat(50_000));
        let printed = printable_error(&format!("--set p0.{token}=1: unknown\nsecond line"));
        assert!(!printed.contains('\u{1b}') && !printed.contains('\u{7}'), "{printed}");
        assert!(printed.chars().count() < MAX_PRINTED_WORD_CHARS + 100, "{}", printed.len());
        assert!(printed.ends_with("… unknown\nsecond line"), "{printed}");
        let words = vec!["word"; 1000].join(" ");
        assert_eq!(printable_error(&words).chars().count(), MAX_PRINTED_LINE_CHARS + 1);
        assert_eq!(printable_error("a plain\n\tmessage"), "a plain\n\tmessage");
        let nuls = format!("spec variable 1 (w{}) is unknown", "\u{0}".repeat(3000));
        let printed = printable_error(&nuls);
        assert!(printed.chars().count() <= MAX_PRINTED_WORD_CHARS + 40, "{}", printed.chars().count());
        assert!(
            printed.starts_with("spec variable 1 (w\\u{0}") && printed.ends_with("… is unknown"),
            "{printed}"
        );
    }

    #[test]
    fn quotes_are_short_and_escaped() {
        assert_eq!(quote("abc"), "abc");
        assert_eq!(quote("a\nb"), "a\\nb");
        let long = "x".repeat(500);
        let q = quote(&long);
        assert_eq!(q.chars().count(), MAX_QUOTED_CHARS + 1);
        assert!(q.ends_with('…'));
        // Escapes count at their printed length: 500 control characters stay within the limit.
        let q = quote(&"\u{1f}".repeat(500));
        assert!(q.chars().count() <= MAX_QUOTED_CHARS + 1 && q.starts_with("\\u{1f}"), "{q}");
    }

    #[test]
    fn another_librarys_message_is_cut_to_its_first_short_line() {
        assert_eq!(short_error("bad token"), "bad token");
        assert_eq!(short_error("first\nsecond"), "first …");
        let long = short_error(&format!("{}\u{1b}", "|".repeat(1000)));
        assert_eq!(long.chars().count(), MAX_SOURCE_ERROR_CHARS + 1);
        assert!(!short_error("a\u{1b}[2Jb").contains('\u{1b}'));
    }
}
