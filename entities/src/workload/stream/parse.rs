//! Stream parsing: each line's tokens become a statement (with the column of anything a later
//! pass may complain about), and `REPEAT … END` lines nest the statements into a tree.

use super::args::{Args, Fail, value};
use super::error::{StreamError, StreamErrorKind};
use super::lex::{self, LineContent, WorkloadToken};
use crate::mpi::op::{Algorithm, Collective, CollectiveKind, Op};
use hase_engine::limits::{MAX_NESTING_DEPTH, quote};

/// A statement; request names are bound to ids later, when the tree is unrolled.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Stmt {
    /// An operation that involves no request name (`WAITALL` included).
    Plain(Op),
    /// `ISEND`/`IRECV`: the operation (its `req` is filled in later) and the request's name.
    Start {
        /// The operation.
        op: Op,
        /// The request's name.
        name: String,
    },
    /// `WAIT name`.
    Wait {
        /// The request's name.
        name: String,
    },
}

/// A statement or a repeated block, with its line.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Node {
    /// One statement; `column` points at its request name, or at the instruction.
    Stmt {
        /// The statement.
        stmt: Stmt,
        /// Line, from 1.
        line: usize,
        /// Column of the request name (or of the instruction when there is none).
        column: usize,
    },
    /// `REPEAT count` … `END`.
    Repeat {
        /// How many times.
        count: u64,
        /// The repeated statements.
        body: Vec<Node>,
        /// Line of the `REPEAT`.
        line: usize,
        /// Column of the `REPEAT`.
        column: usize,
    },
}

enum Parsed {
    Stmt(Stmt, usize),
    Repeat(u64),
    End,
}

struct Frame {
    nodes: Vec<Node>,
    count: u64,
    line: usize,
    column: usize,
}

/// Parse the whole text into a tree of statements.
pub(super) fn parse_tree(text: &str, file: &str) -> Result<Vec<Node>, StreamError> {
    let mut frames = vec![Frame { nodes: Vec::new(), count: 1, line: 0, column: 0 }];
    for (index, text_line) in text.lines().enumerate() {
        let line = index + 1;
        let error = |(column, kind): Fail| StreamError::at(file, line, column, kind);
        let parsed = match lex::lex_line(text_line) {
            LineContent::Empty => continue,
            LineContent::TraceComment(comment) => Parsed::Stmt(Stmt::Plain(Op::Comment(comment)), 1),
            LineContent::LineMarker(tokens) => line_marker(&tokens, text_line).map_err(error)?,
            LineContent::Tokens(tokens) => statement(&tokens).map_err(error)?,
        };
        match parsed {
            Parsed::Stmt(stmt, column) => {
                if let Some(frame) = frames.last_mut() {
                    frame.nodes.push(Node::Stmt { stmt, line, column });
                }
            }
            Parsed::Repeat(count) => {
                if frames.len() > MAX_NESTING_DEPTH {
                    let kind = StreamErrorKind::TooDeep { limit: MAX_NESTING_DEPTH };
                    return Err(error((first_column(text_line), kind)));
                }
                frames.push(Frame { nodes: Vec::new(), count, line, column: first_column(text_line) });
            }
            Parsed::End => {
                if frames.len() < 2 {
                    return Err(error((first_column(text_line), StreamErrorKind::UnmatchedEnd)));
                }
                if let (Some(done), Some(parent)) = (frames.pop(), frames.last_mut()) {
                    parent.nodes.push(Node::Repeat {
                        count: done.count,
                        body: done.nodes,
                        line: done.line,
                        column: done.column,
                    });
                }
            }
        }
    }
    if frames.len() > 1
        && let Some(open) = frames.last()
    {
        return Err(StreamError::at(file, open.line, open.column, StreamErrorKind::UnclosedRepeat));
    }
    Ok(frames.pop().map(|f| f.nodes).unwrap_or_default())
}

fn first_column(line: &str) -> usize {
    line.chars().take_while(|c| c.is_whitespace()).count() + 1
}

fn line_marker(tokens: &[WorkloadToken<'_>], text_line: &str) -> Result<Parsed, Fail> {
    let Some(number) = tokens.first() else {
        let column = text_line.trim_end().chars().count() + 2;
        return Err((
            column,
            StreamErrorKind::MissingArgument { instruction: "#line", what: "a line number" },
        ));
    };
    let line: u64 = lex::count(number.text).map_err(|_| {
        (number.column, StreamErrorKind::BadValue { text: quote(number.text), expected: "a line number" })
    })?;
    if let Some(extra) = tokens.get(2) {
        return Err((
            extra.column,
            StreamErrorKind::UnexpectedArgument {
                text: extra.text.to_string(),
                instruction: "#line",
                usage: "<line> [file]",
            },
        ));
    }
    let text = match tokens.get(1) {
        Some(file) => format!("{}:{line}", file.text),
        None => format!("line {line}"),
    };
    Ok(Parsed::Stmt(Stmt::Plain(Op::Comment(text)), 1))
}

fn algorithm(token: Option<WorkloadToken<'_>>, kind: CollectiveKind) -> Result<Option<Algorithm>, Fail> {
    let Some(token) = token else { return Ok(None) };
    if token.text.eq_ignore_ascii_case("default") {
        return Ok(None);
    }
    let choices = Algorithm::for_kind(kind).iter().map(|a| a.name()).collect::<Vec<_>>().join(", ");
    let instruction = kind.state_name();
    match Algorithm::from_name(token.text) {
        None => Err((
            token.column,
            StreamErrorKind::UnknownAlgorithm { name: quote(token.text), instruction, choices },
        )),
        Some(a) if !a.applies_to(kind) => Err((
            token.column,
            StreamErrorKind::AlgorithmNotApplicable { name: quote(token.text), instruction, choices },
        )),
        Some(a) => Ok(Some(a)),
    }
}

fn statement(tokens: &[WorkloadToken<'_>]) -> Result<Parsed, Fail> {
    let word = tokens[0];
    let keyword = word.text.to_ascii_uppercase();
    let plain = |op: Op| Ok(Parsed::Stmt(Stmt::Plain(op), word.column));
    match keyword.as_str() {
        "COMPUTE" => {
            let args =
                Args::new("COMPUTE", "<time> | <steps> [steps] | <n> flops", tokens, &[], "none", false)?;
            let amount = args.required(0, "an amount of work (10us, 500, 1e9 flops)")?;
            args.at_most(2)?;
            let unit = args.positional.get(1).copied();
            if let Some(u) = unit
                && !u.text.eq_ignore_ascii_case("steps")
                && !u.text.eq_ignore_ascii_case("flops")
            {
                let kind = StreamErrorKind::BadValue { text: quote(u.text), expected: "`steps` or `flops`" };
                return Err((u.column, kind));
            }
            let work = value(amount, |a| lex::work(a, unit.map(|u| u.text)))?;
            plain(Op::Compute(work))
        }
        "SEND" | "ISEND" => {
            let nonblocking = keyword == "ISEND";
            let (instruction, usage) = if nonblocking {
                ("ISEND", "<dst> <bytes> [tag] AS <name>")
            } else {
                ("SEND", "<dst> <bytes> [tag]")
            };
            let args = Args::new(instruction, usage, tokens, &["tag"], "tag=", nonblocking)?;
            let dst = value(args.required(0, "a destination rank")?, lex::rank)?;
            let bytes = value(args.required(1, "a byte count")?, lex::bytes)?;
            let tag = args.slot(2, "tag")?.map(|t| value(t, lex::tag)).transpose()?.unwrap_or(0);
            args.at_most(3)?;
            if nonblocking {
                let (name, column) = args.request_name()?;
                let op = Op::Isend { dst, bytes, tag, req: 0 };
                Ok(Parsed::Stmt(Stmt::Start { op, name }, column))
            } else {
                plain(Op::Send { dst, bytes, tag })
            }
        }
        "RECV" | "IRECV" => {
            let nonblocking = keyword == "IRECV";
            let (instruction, usage) = if nonblocking {
                ("IRECV", "<src|ANY> [tag|ANY] AS <name>")
            } else {
                ("RECV", "<src|ANY> [tag|ANY]")
            };
            let args = Args::new(instruction, usage, tokens, &["tag"], "tag=", nonblocking)?;
            let src = value(args.required(0, "a source rank or ANY")?, lex::source)?;
            let tag = args
                .slot(1, "tag")?
                .map(|t| value(t, lex::tag_sel))
                .transpose()?
                .unwrap_or(crate::mpi::op::TagSel::Any);
            args.at_most(2)?;
            if nonblocking {
                let (name, column) = args.request_name()?;
                Ok(Parsed::Stmt(Stmt::Start { op: Op::Irecv { src, tag, req: 0 }, name }, column))
            } else {
                plain(Op::Recv { src, tag })
            }
        }
        "WAIT" => {
            let args = Args::new("WAIT", "<name>", tokens, &[], "none", false)?;
            let token = args.required(0, "the name of a request")?;
            args.at_most(1)?;
            let name = value(token, lex::request_name)?;
            Ok(Parsed::Stmt(Stmt::Wait { name }, token.column))
        }
        "WAITALL" | "END" => {
            let instruction = if keyword == "END" { "END" } else { "WAITALL" };
            let args = Args::new(instruction, "no arguments", tokens, &[], "none", false)?;
            args.at_most(0)?;
            if keyword == "END" { Ok(Parsed::End) } else { plain(Op::WaitAll) }
        }
        "REPEAT" => {
            let args = Args::new("REPEAT", "<count>", tokens, &[], "none", false)?;
            let count = value(args.required(0, "a repeat count")?, lex::count)?;
            args.at_most(1)?;
            Ok(Parsed::Repeat(count))
        }
        _ => match CollectiveKind::from_name(&keyword) {
            Some(kind) => collective(kind, tokens).and_then(plain),
            None => Err((word.column, StreamErrorKind::UnknownInstruction(quote(word.text)))),
        },
    }
}

fn collective(kind: CollectiveKind, tokens: &[WorkloadToken<'_>]) -> Result<Op, Fail> {
    let usage = match (kind == CollectiveKind::Barrier, kind.has_root()) {
        (true, _) => "[algorithm]",
        (false, true) => "<root> <bytes> [algorithm]",
        (false, false) => "<bytes> [algorithm]",
    };
    let args = Args::new(kind.state_name(), usage, tokens, &["alg"], "alg=", false)?;
    let mut next = 0;
    let mut root = 0;
    if kind.has_root() {
        root = value(args.required(0, "a root rank")?, lex::rank)?;
        next = 1;
    }
    let mut bytes = 0;
    if kind != CollectiveKind::Barrier {
        bytes = value(args.required(next, "a byte count")?, lex::bytes)?;
        next += 1;
    }
    let algorithm = algorithm(args.slot(next, "alg")?, kind)?;
    args.at_most(next + 1)?;
    Ok(Op::Collective(Collective { kind, root, bytes, algorithm }))
}
