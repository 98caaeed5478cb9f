//! Unrolling a parsed stream: `REPEAT` blocks are expanded, every `ISEND`/`IRECV` gets a fresh
//! request id bound to its name, `WAIT name` resolves to the latest pending request of that name
//! and `WAITALL` completes them all. A request still pending at the end of the stream is an error.

use std::collections::BTreeMap;

use super::error::{StreamError, StreamErrorKind};
use super::parse::{Node, Stmt};
use crate::mpi::op::{Op, RequestId};
use crate::workload::program::OpList;
use hase_engine::limits::MAX_EXPANDED_OPS;

struct Expander<'f> {
    file: &'f str,
    ops: Vec<(Op, Option<String>)>,
    /// Name → the request it currently names.
    bound: BTreeMap<String, RequestId>,
    /// Pending requests → (name, line, column) of the statement that started them.
    pending: BTreeMap<RequestId, (String, usize, usize)>,
    next_id: RequestId,
}

/// Unroll `tree` into an operation list located at `file:line`.
pub(super) fn expand(tree: &[Node], file: &str) -> Result<OpList, StreamError> {
    let mut expander =
        Expander { file, ops: Vec::new(), bound: BTreeMap::new(), pending: BTreeMap::new(), next_id: 0 };
    expander.walk(tree)?;
    if let Some((name, line, column)) = expander.pending.values().next() {
        return Err(expander.error(*line, *column, StreamErrorKind::RequestNeverWaited(name.clone())));
    }
    Ok(OpList::located(expander.ops))
}

/// How many operations `nodes` unroll to (saturating).
fn unrolled_len(nodes: &[Node]) -> usize {
    nodes.iter().fold(0usize, |total, node| {
        let n = match node {
            Node::Stmt { .. } => 1,
            Node::Repeat { count, body, .. } => {
                usize::try_from(*count).unwrap_or(usize::MAX).saturating_mul(unrolled_len(body))
            }
        };
        total.saturating_add(n)
    })
}

impl Expander<'_> {
    fn error(&self, line: usize, column: usize, kind: StreamErrorKind) -> StreamError {
        StreamError::at(self.file, line, column, kind)
    }

    fn walk(&mut self, nodes: &[Node]) -> Result<(), StreamError> {
        for node in nodes {
            match node {
                Node::Stmt { stmt, line, column } => self.statement(stmt, *line, *column)?,
                Node::Repeat { count, body, line, column } => {
                    let body_len = unrolled_len(body);
                    if body_len == 0 {
                        continue;
                    }
                    let total = usize::try_from(*count)
                        .unwrap_or(usize::MAX)
                        .saturating_mul(body_len)
                        .saturating_add(self.ops.len());
                    if total > MAX_EXPANDED_OPS {
                        return Err(self.error(
                            *line,
                            *column,
                            StreamErrorKind::TooManyOperations { limit: MAX_EXPANDED_OPS },
                        ));
                    }
                    for _ in 0..*count {
                        self.walk(body)?;
                    }
                }
            }
        }
        Ok(())
    }

    fn statement(&mut self, stmt: &Stmt, line: usize, column: usize) -> Result<(), StreamError> {
        if self.ops.len() >= MAX_EXPANDED_OPS {
            return Err(self.error(
                line,
                column,
                StreamErrorKind::TooManyOperations { limit: MAX_EXPANDED_OPS },
            ));
        }
        let op = match stmt {
            Stmt::Plain(Op::WaitAll) => {
                self.bound.clear();
                self.pending.clear();
                Op::WaitAll
            }
            Stmt::Plain(op) => op.clone(),
            Stmt::Start { op, name } => {
                let id = self.next_id;
                self.next_id += 1;
                self.bound.insert(name.clone(), id);
                self.pending.insert(id, (name.clone(), line, column));
                with_request(op, id)
            }
            Stmt::Wait { name } => {
                let id = self.bound.remove(name).filter(|id| self.pending.remove(id).is_some()).ok_or_else(
                    || self.error(line, column, StreamErrorKind::RequestNotPending(name.clone())),
                )?;
                Op::Wait { req: id }
            }
        };
        self.ops.push((op, Some(format!("{}:{line}", self.file))));
        Ok(())
    }
}

fn with_request(op: &Op, id: RequestId) -> Op {
    match op {
        Op::Isend { dst, bytes, tag, .. } => Op::Isend { dst: *dst, bytes: *bytes, tag: *tag, req: id },
        Op::Irecv { src, tag, .. } => Op::Irecv { src: *src, tag: *tag, req: id },
        other => other.clone(),
    }
}
