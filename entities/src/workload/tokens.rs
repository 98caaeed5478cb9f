//! Whitespace-separated words with the 1-based character column where each starts, shared by the
//! instruction-stream and time-independent-trace readers so both report `file:line:column`.

/// One word of a line and the column (in characters, from 1) where it starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct WorkloadToken<'a> {
    /// The word.
    pub text: &'a str,
    /// Its first column.
    pub column: usize,
}

impl WorkloadToken<'_> {
    /// The column just after the token.
    pub fn end_column(&self) -> usize {
        self.column + self.text.chars().count()
    }
}

/// Whitespace-separated words of `text`, whose first character is at `first_column`.
pub(crate) fn split(text: &str, first_column: usize) -> Vec<WorkloadToken<'_>> {
    let mut tokens = Vec::new();
    let mut start: Option<(usize, usize)> = None;
    for (column, (i, c)) in (first_column..).zip(text.char_indices()) {
        if c.is_whitespace() {
            if let Some((s, col)) = start.take() {
                tokens.push(WorkloadToken { text: &text[s..i], column: col });
            }
        } else if start.is_none() {
            start = Some((i, column));
        }
    }
    if let Some((s, col)) = start {
        tokens.push(WorkloadToken { text: &text[s..], column: col });
    }
    tokens
}
