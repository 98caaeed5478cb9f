//! The arguments of one stream instruction: positional words, `key=value` words (`tag=7`,
//! `alg=ring`, with `algorithm=` read as `alg=`) and `AS name`, with the checks every instruction
//! shares (missing, extra and duplicated arguments, unknown keys), each failing at a column.

use super::error::StreamErrorKind;
use super::lex::{self, WorkloadToken};

/// A failure at a column of the current line.
pub(super) type Fail = (usize, StreamErrorKind);

/// The arguments after an instruction word: positional words, `key=value` words and `AS name`.
pub(super) struct Args<'a> {
    instruction: &'static str,
    usage: &'static str,
    pub positional: Vec<WorkloadToken<'a>>,
    keyed: Vec<(&'static str, WorkloadToken<'a>, WorkloadToken<'a>)>,
    name: Option<WorkloadToken<'a>>,
    end_column: usize,
}

impl<'a> Args<'a> {
    /// Split `tokens`; `keys` are the accepted `key=` names (`algorithm=` is read as `alg=`).
    pub fn new(
        instruction: &'static str,
        usage: &'static str,
        tokens: &[WorkloadToken<'a>],
        keys: &[&'static str],
        accepted: &'static str,
        allow_as: bool,
    ) -> Result<Self, Fail> {
        let end_column = tokens.last().map_or(instruction.len() + 2, |t| t.end_column() + 1);
        let mut args =
            Args { instruction, usage, positional: Vec::new(), keyed: Vec::new(), name: None, end_column };
        let mut rest = tokens.iter().skip(1);
        while let Some(&token) = rest.next() {
            if allow_as && token.text.eq_ignore_ascii_case("AS") {
                let Some(&name) = rest.next() else {
                    return Err((
                        end_column,
                        StreamErrorKind::MissingArgument { instruction, what: "a request name after AS" },
                    ));
                };
                if args.name.is_some() {
                    return Err((token.column, StreamErrorKind::Duplicate("AS".into())));
                }
                args.name = Some(name);
            } else if let Some((key, value)) = token.text.split_once('=') {
                let lower = key.to_ascii_lowercase();
                let lower = if lower == "algorithm" { "alg".to_string() } else { lower };
                let Some(&known) = keys.iter().find(|k| **k == lower) else {
                    return Err((
                        token.column,
                        StreamErrorKind::UnknownKey {
                            key: hase_engine::limits::quote(key),
                            instruction,
                            accepted,
                        },
                    ));
                };
                if args.keyed.iter().any(|(k, _, _)| *k == known) {
                    return Err((
                        token.column,
                        StreamErrorKind::Duplicate(hase_engine::limits::quote(known)),
                    ));
                }
                let value_token =
                    WorkloadToken { text: value, column: token.column + key.chars().count() + 1 };
                args.keyed.push((known, token, value_token));
            } else {
                args.positional.push(token);
            }
        }
        Ok(args)
    }

    pub fn required(&self, index: usize, what: &'static str) -> Result<WorkloadToken<'a>, Fail> {
        self.positional.get(index).copied().ok_or((
            self.end_column,
            StreamErrorKind::MissingArgument { instruction: self.instruction, what },
        ))
    }

    /// The optional argument at position `index`, or given as `key=`; not both.
    pub fn slot(&self, index: usize, key: &str) -> Result<Option<WorkloadToken<'a>>, Fail> {
        let keyed = self.keyed.iter().find(|(k, _, _)| *k == key);
        match (self.positional.get(index), keyed) {
            (Some(_), Some((_, key_token, _))) => {
                Err((key_token.column, StreamErrorKind::Duplicate(hase_engine::limits::quote(key))))
            }
            (Some(p), None) => Ok(Some(*p)),
            (None, Some((_, _, value))) => Ok(Some(*value)),
            (None, None) => Ok(None),
        }
    }

    /// Fail on the first positional argument beyond `max`.
    pub fn at_most(&self, max: usize) -> Result<(), Fail> {
        match self.positional.get(max) {
            Some(extra) => Err((
                extra.column,
                StreamErrorKind::UnexpectedArgument {
                    text: hase_engine::limits::quote(extra.text),
                    instruction: self.instruction,
                    usage: self.usage,
                },
            )),
            None => Ok(()),
        }
    }

    pub fn request_name(&self) -> Result<(String, usize), Fail> {
        let token = self.name.ok_or((
            self.end_column,
            StreamErrorKind::MissingArgument {
                instruction: self.instruction,
                what: "`AS <name>` naming the request",
            },
        ))?;
        let name = lex::request_name(token.text).map_err(|e| (token.column, e))?;
        Ok((name, token.column))
    }
}

/// Read `token` with `read`, failing at its column.
pub(super) fn value<T>(
    token: WorkloadToken<'_>,
    read: impl FnOnce(&str) -> Result<T, StreamErrorKind>,
) -> Result<T, Fail> {
    read(token.text).map_err(|e| (token.column, e))
}
