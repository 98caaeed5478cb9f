//! Stream lexing: a line becomes whitespace-separated tokens with 1-based character columns, or a
//! comment directive (`#! text`, `#line N [file]`); plus the readers for the values tokens hold
//! (ranks, byte counts with K/M/G, tags, amounts of work, request names).

use hase_engine::limits::{MAX_MESSAGE_BYTES, quote};
use hase_engine::units::parse_time;

use super::error::StreamErrorKind;
use crate::mpi::op::{Source, TagSel, Work};
pub(super) use crate::workload::tokens::WorkloadToken;
use crate::workload::tokens::split;

/// What one line holds.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum LineContent<'a> {
    /// Nothing but blanks or a plain `#` comment.
    Empty,
    /// `#! text`: a trace comment with this text.
    TraceComment(String),
    /// `#line N [file]`: the tokens after `#line`.
    LineMarker(Vec<WorkloadToken<'a>>),
    /// An instruction and its arguments.
    Tokens(Vec<WorkloadToken<'a>>),
}

/// Split one line.
pub(super) fn lex_line(line: &str) -> LineContent<'_> {
    let trimmed = line.trim_start();
    if let Some(text) = trimmed.strip_prefix("#!") {
        // As the printer writes it: a carriage return inside the line is a space (found by fuzzing:
        // `#!s\rt` read back as another comment after printing).
        return LineContent::TraceComment(text.replace('\r', " ").trim().to_string());
    }
    if let Some(rest) = trimmed.strip_prefix("#line")
        && rest.chars().next().is_none_or(char::is_whitespace)
    {
        let offset = line.len() - rest.len();
        let column = line[..offset].chars().count() + 1;
        return LineContent::LineMarker(split(rest, column));
    }
    let code = line.find('#').map_or(line, |i| &line[..i]);
    let tokens = split(code, 1);
    if tokens.is_empty() { LineContent::Empty } else { LineContent::Tokens(tokens) }
}

fn bad(text: &str, expected: &'static str) -> StreamErrorKind {
    StreamErrorKind::BadValue { text: quote(text), expected }
}

fn digits(text: &str) -> Option<u64> {
    let clean: String = text.chars().filter(|c| *c != '_').collect();
    if clean.is_empty() || !clean.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    clean.parse().ok()
}

/// A rank: a whole number.
pub(super) fn rank(text: &str) -> Result<u32, StreamErrorKind> {
    digits(text)
        .and_then(|v| u32::try_from(v).ok())
        .ok_or_else(|| bad(text, "a rank (a whole number from 0)"))
}

/// A receive's source: a rank or `ANY`.
pub(super) fn source(text: &str) -> Result<Source, StreamErrorKind> {
    if text.eq_ignore_ascii_case("ANY") {
        return Ok(Source::Any);
    }
    digits(text)
        .and_then(|v| u32::try_from(v).ok())
        .map(Source::Rank)
        .ok_or_else(|| bad(text, "a source rank or ANY"))
}

/// A tag: a whole number from 0 to 2147483647.
pub(super) fn tag(text: &str) -> Result<i32, StreamErrorKind> {
    digits(text)
        .and_then(|v| i32::try_from(v).ok())
        .ok_or_else(|| bad(text, "a tag (a whole number from 0 to 2147483647)"))
}

/// A receive's tag: a tag or `ANY`.
pub(super) fn tag_sel(text: &str) -> Result<TagSel, StreamErrorKind> {
    if text.eq_ignore_ascii_case("ANY") {
        return Ok(TagSel::Any);
    }
    digits(text)
        .and_then(|v| i32::try_from(v).ok())
        .map(TagSel::Tag)
        .ok_or_else(|| bad(text, "a tag (0 to 2147483647) or ANY"))
}

/// A repeat count.
pub(super) fn count(text: &str) -> Result<u64, StreamErrorKind> {
    digits(text).ok_or_else(|| bad(text, "a repeat count (a whole number)"))
}

/// A byte count: a whole number with an optional binary suffix K, M or G (×1024ⁿ) and an optional
/// `B`, read by the one units parser.
pub(super) fn bytes(text: &str) -> Result<u64, StreamErrorKind> {
    let bytes = hase_engine::units::parse_size(text)
        .map_err(|_| bad(text, "a byte count such as 512, 4K, 2M or 1G"))?;
    if bytes > MAX_MESSAGE_BYTES {
        return Err(StreamErrorKind::MessageTooLarge { bytes, limit: MAX_MESSAGE_BYTES });
    }
    Ok(bytes)
}

/// An amount of work: `10us` (a time), `500` or `500 steps` (steps), `2.5e9 flops` (flops).
pub(super) fn work(amount: &str, unit: Option<&str>) -> Result<Work, StreamErrorKind> {
    match unit {
        Some(u) if u.eq_ignore_ascii_case("steps") => {
            digits(amount).map(Work::Steps).ok_or_else(|| bad(amount, "a whole number of steps"))
        }
        Some(u) if u.eq_ignore_ascii_case("flops") => amount
            .parse::<f64>()
            .ok()
            .filter(|f| f.is_finite() && *f >= 0.0)
            .map(Work::Flops)
            .ok_or_else(|| bad(amount, "a number of floating-point operations")),
        Some(u) => Err(bad(u, "`steps` or `flops`")),
        None => {
            if let Some(steps) = digits(amount) {
                return Ok(Work::Steps(steps));
            }
            if amount.parse::<f64>().is_ok() {
                return Err(bad(
                    amount,
                    "an amount of work: give a unit (ps, ns, us, ms, s) or a whole number of steps",
                ));
            }
            parse_time(amount)
                .map(Work::Time)
                .map_err(|_| bad(amount, "an amount of work such as 10us, 2.5ms, 500 (steps) or 1e9 flops"))
        }
    }
}

/// A request name: a letter or `_`, then letters, digits or `_`.
pub(super) fn request_name(text: &str) -> Result<String, StreamErrorKind> {
    let mut chars = text.chars();
    let first_ok = chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
    if first_ok && chars.all(|c| c.is_ascii_alphanumeric() || c == '_') {
        Ok(text.to_string())
    } else {
        Err(bad(text, "a request name (a letter or _, then letters, digits or _)"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hase_engine::time::SimTime;

    fn words(line: &str) -> Vec<(&str, usize)> {
        match lex_line(line) {
            LineContent::Tokens(t) | LineContent::LineMarker(t) => {
                t.iter().map(|t| (t.text, t.column)).collect()
            }
            _ => vec![],
        }
    }

    #[test]
    fn tokens_carry_character_columns() {
        assert_eq!(words("  SEND 3\t4K  # note"), vec![("SEND", 3), ("3", 8), ("4K", 10)]);
        // A multi-byte character before a token counts as one column.
        assert_eq!(words("µ x"), vec![("µ", 1), ("x", 3)]);
        assert_eq!(lex_line("   # only a comment"), LineContent::Empty);
        assert_eq!(lex_line(""), LineContent::Empty);
        assert_eq!(lex_line("  #!  phase 2 "), LineContent::TraceComment("phase 2".into()));
        assert_eq!(words("#line 12 sort.c"), vec![("12", 7), ("sort.c", 10)]);
        // `#linear` is an ordinary comment, not a line marker.
        assert_eq!(lex_line("#linear"), LineContent::Empty);
    }

    #[test]
    fn reads_values() {
        assert_eq!(bytes("4K"), Ok(4096));
        assert_eq!(bytes("2m"), Ok(2 << 20));
        assert_eq!(bytes("1G"), Ok(1 << 30));
        assert_eq!(bytes("1_000B"), Ok(1000));
        assert_eq!(bytes("3KB"), Ok(3072));
        assert_eq!(bytes("4.5K"), Ok(4608));
        assert!(bytes("4.1K").is_err(), "not a whole number of bytes");
        assert!(bytes("-1").is_err());
        assert!(bytes("99999999999999999999G").is_err());
        assert_eq!(source("any"), Ok(Source::Any));
        assert_eq!(tag_sel("7"), Ok(TagSel::Tag(7)));
        assert!(tag("2147483648").is_err());
        assert_eq!(work("10us", None), Ok(Work::Time(SimTime::from_us(10))));
        assert_eq!(work("500", None), Ok(Work::Steps(500)));
        assert_eq!(work("500", Some("STEPS")), Ok(Work::Steps(500)));
        assert_eq!(work("2.5e9", Some("flops")), Ok(Work::Flops(2.5e9)));
        assert!(work("2.5", None).is_err());
        assert!(work("10 parsecs", None).is_err());
        assert!(request_name("r1").is_ok());
        assert!(request_name("1r").is_err());
    }
}
