//! Tokens of the text trace format: how names, labels and comments are written (bare, or quoted
//! with backslash escapes when they are empty or hold spaces, quotes, backslashes or control
//! characters), and a tokenizer over one line that reports byte positions for error messages.

use std::borrow::Cow;
use std::fmt::Display;
use std::str::FromStr;

use super::error::LineError;
use super::record::TraceValue;

/// True if `s` must be quoted to survive as one token.
fn needs_quotes(s: &str) -> bool {
    s.is_empty()
        || s.starts_with('"')
        || s.chars().any(|c| c == ' ' || c == '"' || c == '\\' || c.is_control())
}

/// Append `s` as one token: bare if it can be, else `"…"` with `\\ \" \n \r \t \u{…}` escapes.
pub(crate) fn push_str_token(out: &mut Vec<u8>, s: &str) {
    if !needs_quotes(s) {
        out.extend_from_slice(s.as_bytes());
        return;
    }
    out.push(b'"');
    for c in s.chars() {
        match c {
            '\\' => out.extend_from_slice(b"\\\\"),
            '"' => out.extend_from_slice(b"\\\""),
            '\n' => out.extend_from_slice(b"\\n"),
            '\r' => out.extend_from_slice(b"\\r"),
            '\t' => out.extend_from_slice(b"\\t"),
            c if c.is_control() => out.extend_from_slice(format!("\\u{{{:x}}}", u32::from(c)).as_bytes()),
            c => {
                let mut utf8 = [0_u8; 4];
                out.extend_from_slice(c.encode_utf8(&mut utf8).as_bytes());
            }
        }
    }
    out.push(b'"');
}

/// Append a value as two tokens: `i <integer>`, `f <real>` or `t <string token>`.
pub(crate) fn push_value(out: &mut Vec<u8>, value: &TraceValue) {
    use std::io::Write as _;
    // Writing into a Vec cannot fail.
    let _ = match value {
        TraceValue::Int(v) => write!(out, "i {v}"),
        // Debug formatting is the shortest text that parses back to the same bits (and uses an
        // exponent for very large or small magnitudes); NaN and infinities print as NaN, inf, -inf.
        TraceValue::Float(v) => write!(out, "f {v:?}"),
        TraceValue::Text(v) => {
            out.extend_from_slice(b"t ");
            push_str_token(out, v);
            Ok(())
        }
    };
}

/// One token of a line and where it starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TraceToken<'a> {
    /// Its text, unescaped.
    pub text: Cow<'a, str>,
    /// Byte position of its first character in the line.
    pub byte: usize,
}

/// Splits one line (without its end-of-line) into tokens separated by spaces or tabs.
pub(crate) struct Tokens<'a> {
    line: &'a str,
    pos: usize,
}

impl<'a> Tokens<'a> {
    pub(crate) fn new(line: &'a str) -> Self {
        Tokens { line, pos: 0 }
    }

    /// The next token, or `None` at the end of the line.
    pub(crate) fn next_token(&mut self) -> Result<Option<TraceToken<'a>>, LineError> {
        let bytes = self.line.as_bytes();
        while self.pos < bytes.len() && (bytes[self.pos] == b' ' || bytes[self.pos] == b'\t') {
            self.pos += 1;
        }
        let start = self.pos;
        if start >= bytes.len() {
            return Ok(None);
        }
        if bytes[start] == b'"' {
            let (text, end) = unquote(self.line, start)?;
            if end < bytes.len() && bytes[end] != b' ' && bytes[end] != b'\t' {
                return Err(LineError::new(end, "expected a space after the closing quote"));
            }
            self.pos = end;
            return Ok(Some(TraceToken { text, byte: start }));
        }
        let mut end = start;
        while end < bytes.len() && bytes[end] != b' ' && bytes[end] != b'\t' {
            end += 1;
        }
        self.pos = end;
        Ok(Some(TraceToken { text: Cow::Borrowed(&self.line[start..end]), byte: start }))
    }

    /// The next token; `expected <what>` if the line ends.
    pub(crate) fn expect(&mut self, what: impl Display) -> Result<TraceToken<'a>, LineError> {
        self.next_token()?.ok_or_else(|| LineError::new(self.pos, format!("expected {what}")))
    }

    /// The next token as a string.
    pub(crate) fn string(&mut self, what: impl Display) -> Result<Cow<'a, str>, LineError> {
        Ok(self.expect(what)?.text)
    }

    /// The next token as a number of type `T`; `expected <what>, found `x`` if it is not one.
    pub(crate) fn number<T: FromStr>(&mut self, what: impl Display) -> Result<(T, usize), LineError> {
        let pos = self.pos;
        let token = self.next_token()?;
        match token {
            None => Err(LineError::new(pos, format!("expected {what}"))),
            Some(t) => match t.text.parse::<T>() {
                Ok(v) => Ok((v, t.byte)),
                Err(_) => Err(LineError::new(t.byte, format!("expected {what}, found `{}`", t.text))),
            },
        }
    }

    /// An unsigned number of type `T`: [`Tokens::number`] with a fast path for a token of plain
    /// decimal digits (anything else, including every error, goes through `number`).
    #[inline]
    pub(crate) fn unsigned<T: FromStr + TryFrom<u64>>(
        &mut self,
        what: impl Display,
    ) -> Result<(T, usize), LineError> {
        let bytes = self.line.as_bytes();
        let mut start = self.pos;
        while start < bytes.len() && (bytes[start] == b' ' || bytes[start] == b'\t') {
            start += 1;
        }
        let mut end = start;
        let mut value = 0_u64;
        // Nineteen digits always fit in a u64.
        while end < bytes.len() && end - start < 19 && bytes[end].is_ascii_digit() {
            value = value * 10 + u64::from(bytes[end] - b'0');
            end += 1;
        }
        if end > start
            && (end == bytes.len() || bytes[end] == b' ' || bytes[end] == b'\t')
            && let Ok(v) = T::try_from(value)
        {
            self.pos = end;
            return Ok((v, start));
        }
        self.number(what)
    }

    /// A number, or `-` meaning none.
    pub(crate) fn optional_number<T: FromStr>(
        &mut self,
        what: impl Display,
    ) -> Result<(Option<T>, usize), LineError> {
        let pos = self.pos;
        match self.next_token()? {
            None => Err(LineError::new(pos, format!("expected {what} or `-`"))),
            Some(t) if t.text == "-" => Ok((None, t.byte)),
            Some(t) => match t.text.parse::<T>() {
                Ok(v) => Ok((Some(v), t.byte)),
                Err(_) => Err(LineError::new(t.byte, format!("expected {what} or `-`, found `{}`", t.text))),
            },
        }
    }

    /// A value written by [`push_value`].
    pub(crate) fn value(&mut self, what: impl Display) -> Result<TraceValue, LineError> {
        let kind = self.expect(format_args!("a value kind (i, f or t) for {what}"))?;
        match kind.text.as_ref() {
            "i" => Ok(TraceValue::Int(self.number(format_args!("an integer for {what}"))?.0)),
            "f" => Ok(TraceValue::Float(self.number(format_args!("a real number for {what}"))?.0)),
            "t" => Ok(TraceValue::Text(self.string(format_args!("a text for {what}"))?.into_owned())),
            other => Err(LineError::new(
                kind.byte,
                format!("expected a value kind (i, f or t) for {what}, found `{other}`"),
            )),
        }
    }

    /// Succeeds if nothing but spaces is left.
    pub(crate) fn end(&mut self, after: impl Display) -> Result<(), LineError> {
        match self.next_token()? {
            None => Ok(()),
            Some(t) => Err(LineError::new(
                t.byte,
                format!("expected the end of the line after {after}, found `{}`", t.text),
            )),
        }
    }
}

/// Parse the quoted token starting at `start` (a `"`); the text and the byte just past the quote.
/// Without escapes (the usual case) the text is borrowed from the line.
fn unquote(line: &str, start: usize) -> Result<(Cow<'_, str>, usize), LineError> {
    let bytes = line.as_bytes();
    let body = start + 1;
    match bytes[body..].iter().position(|&b| b == b'"' || b == b'\\') {
        Some(n) if bytes[body + n] == b'"' => {
            return Ok((Cow::Borrowed(&line[body..body + n]), body + n + 1));
        }
        Some(_) => {}
        None => {
            return Err(LineError::new(line.len(), "expected a closing quote before the end of the line"));
        }
    }
    unescape(line, start).map(|(text, end)| (Cow::Owned(text), end))
}

/// [`unquote`] for a token with backslash escapes.
fn unescape(line: &str, start: usize) -> Result<(String, usize), LineError> {
    let mut text = String::new();
    let mut chars = line[start + 1..].char_indices().map(|(i, c)| (i + start + 1, c));
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Ok((text, i + 1)),
            '\\' => {
                let Some((j, e)) = chars.next() else {
                    return Err(LineError::new(i, "expected an escape after `\\`"));
                };
                match e {
                    '\\' => text.push('\\'),
                    '"' => text.push('"'),
                    'n' => text.push('\n'),
                    'r' => text.push('\r'),
                    't' => text.push('\t'),
                    'u' => {
                        let rest = &line[j + 1..];
                        let close = rest.find('}').filter(|_| rest.starts_with('{'));
                        let decoded = close
                            .and_then(|k| u32::from_str_radix(&rest[1..k], 16).ok())
                            .and_then(char::from_u32);
                        let (Some(k), Some(ch)) = (close, decoded) else {
                            return Err(LineError::new(i, "expected `\\u{hex}` with a valid character"));
                        };
                        text.push(ch);
                        // Skip `{hex}`.
                        for _ in 0..rest[..=k].chars().count() {
                            chars.next();
                        }
                    }
                    other => {
                        return Err(LineError::new(i, format!("unknown escape `\\{other}`")));
                    }
                }
            }
            c => text.push(c),
        }
    }
    Err(LineError::new(line.len(), "expected a closing quote before the end of the line"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn token(s: &str) -> String {
        let mut out = Vec::new();
        push_str_token(&mut out, s);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn bare_and_quoted_forms() {
        assert_eq!(token("procs/p0"), "procs/p0");
        assert_eq!(token("data r0→r5"), "\"data r0→r5\"");
        assert_eq!(token(""), "\"\"");
        assert_eq!(token("a\"b\\c\nd\u{1}"), "\"a\\\"b\\\\c\\nd\\u{1}\"");
        assert_eq!(token("\"x"), "\"\\\"x\"");
    }

    #[test]
    fn tokenizer_splits_and_unescapes() {
        let line = "12 \"a b\\n\" c\t\"\\u{2192}x\"";
        let mut t = Tokens::new(line);
        assert_eq!(t.number::<u64>("n").unwrap(), (12, 0));
        assert_eq!(t.string("s").unwrap(), "a b\n");
        assert_eq!(t.string("s").unwrap(), "c");
        assert_eq!(t.string("s").unwrap(), "→x");
        assert!(t.next_token().unwrap().is_none());
    }

    #[test]
    fn tokenizer_errors_point_at_the_problem() {
        let err = Tokens::new("\"abc").next_token().unwrap_err();
        assert_eq!(err.byte, 4);
        let err = Tokens::new("\"a\"b").next_token().unwrap_err();
        assert_eq!(err.byte, 3);
        let mut t = Tokens::new("7 x");
        t.number::<u32>("entity").unwrap();
        let err = t.number::<u32>("a state").unwrap_err();
        assert_eq!((err.byte, err.message.as_str()), (2, "expected a state, found `x`"));
        let err = t.number::<u32>("a port").unwrap_err();
        assert_eq!((err.byte, err.message.as_str()), (3, "expected a port"));
    }

    #[test]
    fn unsigned_numbers_read_as_the_general_parser_reads_them() {
        let mut t = Tokens::new("007 +7 18446744073709551615 18446744073709551616 70000 7x");
        assert_eq!(t.unsigned::<u64>("a").unwrap(), (7, 0));
        assert_eq!(t.unsigned::<u64>("b").unwrap(), (7, 4));
        assert_eq!(t.unsigned::<u64>("c").unwrap(), (u64::MAX, 7));
        let err = t.unsigned::<u64>("d").unwrap_err();
        assert_eq!((err.byte, err.message.as_str()), (28, "expected d, found `18446744073709551616`"));
        let err = t.unsigned::<u16>("e").unwrap_err();
        assert_eq!((err.byte, err.message.as_str()), (49, "expected e, found `70000`"));
        let err = t.unsigned::<u32>("f").unwrap_err();
        assert_eq!((err.byte, err.message.as_str()), (55, "expected f, found `7x`"));
        let err = t.unsigned::<u32>("g").unwrap_err();
        assert_eq!((err.byte, err.message.as_str()), (57, "expected g"));
    }

    proptest::proptest! {
        /// The fast path gives what `str::parse` gives, value or refusal, for any token.
        #[test]
        fn unsigned_agrees_with_parse(token in "[+0-9]{1,22}|[0-9a-z+-]{1,4}") {
            let line = format!("{token} x");
            let fast = Tokens::new(&line).unsigned::<u32>("n").map(|(v, _)| v);
            let general = Tokens::new(&line).number::<u32>("n").map(|(v, _)| v);
            proptest::prop_assert_eq!(fast, general);
        }

        #[test]
        fn any_string_survives_as_one_token(s in "\\PC*|[ \"\\\\\n\r\t\u{0}-\u{1f}a-z→]*", tail in "[a-z]{1,4}") {
            let mut out = Vec::new();
            push_str_token(&mut out, &s);
            out.push(b' ');
            out.extend_from_slice(tail.as_bytes());
            let line = String::from_utf8(out).unwrap();
            proptest::prop_assert!(!line.contains('\n'));
            let mut t = Tokens::new(&line);
            proptest::prop_assert_eq!(t.string("s").unwrap(), s);
            proptest::prop_assert_eq!(t.string("tail").unwrap(), tail);
            proptest::prop_assert!(t.next_token().unwrap().is_none());
        }
    }
}
