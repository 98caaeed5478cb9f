//! TI actions to operations, with SMPI's request bookkeeping: in the legacy form `wait` completes
//! the most recent unfinished `isend`/`irecv` (a stack); in the tagged form requests are keyed by
//! (sender, receiver, tag) and `wait <src> <dst> <tag>` completes the one with that key, doing
//! nothing when none is stored (SimGrid assumes an earlier `test` caught it). `waitall` completes
//! every stored request, and a rank's trace ends with an implicit `waitall`, as in SMPI.
//! Communicators other than MPI_COMM_WORLD (hase's own `comm_split <id> <members…>` and
//! `comm <id> <collective…>`, `docs/ti-traces.md`) are kept per rank by number.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::sync::Arc;

use super::error::{TiError, TiErrorKind};
use super::lines::{TiDialect, TiFile, TiLine, rank_token, resolve_dialect};
use super::list::ListBase;
use super::trace::TiTrace;
use crate::mpi::op::{
    Collective, CollectiveKind, Communicator, GroupCall, Op, RequestId, Source, TagSel, VCollective, VKind,
    Work,
};
use crate::workload::program::OpList;
use hase_engine::limits::{MAX_MESSAGE_BYTES, quote};
use hase_engine::time::SimTime;

/// Bytes per element of SMPI's predefined datatypes, by their trace code.
const DATATYPE_BYTES: [u64; 25] =
    [8, 4, 1, 2, 8, 4, 1, 8, 1, 1, 2, 4, 8, 8, 16, 4, 1, 1, 2, 4, 8, 1, 2, 4, 8];

/// One rank's reading state.
struct RankState {
    rank: u32,
    /// Size of the default datatype: bytes, or doubles after `init` with an argument.
    element_bytes: u64,
    stack: Vec<RequestId>,
    keyed: BTreeMap<(u32, u32, i32), VecDeque<RequestId>>,
    next_req: RequestId,
    ops: Vec<(Op, Option<String>)>,
    last_location: Option<String>,
    /// Communicators defined by `comm_split <id> …`, by number.
    comms: BTreeMap<u32, Communicator>,
}

impl RankState {
    fn stored(&self) -> usize {
        self.stack.len() + self.keyed.values().map(VecDeque::len).sum::<usize>()
    }

    fn push(&mut self, op: Op, location: &str) {
        self.ops.push((op, Some(location.to_string())));
    }

    fn start(&mut self, key: (u32, u32, i32), dialect: TiDialect) -> RequestId {
        let id = self.next_req;
        self.next_req += 1;
        if dialect == TiDialect::Legacy {
            self.stack.push(id);
        } else {
            self.keyed.entry(key).or_default().push_back(id);
        }
        id
    }
}

/// Convert parsed files to one operation list per rank.
pub(super) fn convert(files: &[TiFile<'_>], requested: TiDialect) -> Result<TiTrace, TiError> {
    let dialect = resolve_dialect(files, requested)?;
    let size = if files.len() > 1 {
        files.len()
    } else {
        files.iter().flat_map(|f| f.lines.iter()).map(|l| l.rank as usize + 1).max().unwrap_or(0)
    };
    let mut states: Vec<RankState> = (0..size)
        .map(|rank| RankState {
            rank: u32::try_from(rank).unwrap_or(u32::MAX),
            element_bytes: 1,
            stack: Vec::new(),
            keyed: BTreeMap::new(),
            next_req: 0,
            ops: Vec::new(),
            last_location: None,
            comms: BTreeMap::new(),
        })
        .collect();
    for file in files {
        for line in &file.lines {
            let call = Call { file, line, size, comm: None };
            if let Some(state) = states.get_mut(line.rank as usize) {
                call.apply(state, dialect)?;
            }
        }
    }
    let ranks = states
        .into_iter()
        .map(|mut state| {
            if state.stored() > 0 {
                state.ops.push((Op::WaitAll, state.last_location.clone()));
            }
            OpList::located(state.ops)
        })
        .collect();
    Ok(TiTrace { ranks, dialect, found: ListBase::NotAList })
}

/// The actions that may follow `comm <id>`.
const COLLECTIVES: [&str; 13] = [
    "barrier",
    "bcast",
    "reduce",
    "allreduce",
    "alltoall",
    "allgather",
    "gather",
    "scatter",
    "reducescatter",
    "gatherv",
    "scatterv",
    "allgatherv",
    "alltoallv",
];

/// One action line being read.
struct Call<'c, 'a> {
    file: &'c TiFile<'a>,
    line: &'c TiLine<'a>,
    /// Ranks of the communicator the line runs on (the trace's ranks for MPI_COMM_WORLD).
    size: usize,
    /// The communicator of a `comm <id> …` line; `None` is MPI_COMM_WORLD.
    comm: Option<Communicator>,
}

impl Call<'_, '_> {
    fn error(&self, column: usize, kind: TiErrorKind) -> TiError {
        self.file.error(self.line.line, column, kind)
    }

    fn action(&self) -> String {
        quote(self.line.action.text)
    }

    /// Between `min` and `max` arguments.
    fn arity(&self, min: usize, max: usize, usage: &'static str) -> Result<(), TiError> {
        let args = &self.line.args;
        if args.len() < min {
            let end = args.last().unwrap_or(&self.line.action).end_column() + 1;
            return Err(self.error(end, TiErrorKind::MissingArguments { action: self.action(), usage }));
        }
        if let Some(extra) = args.get(max) {
            return Err(self.error(
                extra.column,
                TiErrorKind::ExtraArgument { text: quote(extra.text), action: self.action(), usage },
            ));
        }
        Ok(())
    }

    fn bad(&self, index: usize, expected: &'static str) -> TiError {
        let token = self.line.args[index];
        self.error(token.column, TiErrorKind::BadValue { text: quote(token.text), expected })
    }

    /// A finite number (SimGrid reads sizes and amounts as doubles: `1e6` is fine).
    fn number(&self, index: usize, expected: &'static str) -> Result<f64, TiError> {
        self.line.args[index]
            .text
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .ok_or_else(|| self.bad(index, expected))
    }

    fn amount(&self, index: usize, expected: &'static str) -> Result<f64, TiError> {
        let v = self.number(index, expected)?;
        if v < 0.0 { Err(self.bad(index, expected)) } else { Ok(v) }
    }

    /// Bytes of `count` elements of `element` bytes (the count at argument `index`), at most
    /// [`MAX_MESSAGE_BYTES`].
    fn message_bytes(&self, index: usize, count: f64, element: u64) -> Result<u64, TiError> {
        let bytes = (count * element as f64).round();
        if bytes > MAX_MESSAGE_BYTES as f64 {
            let token = self.line.args[index];
            return Err(self.error(
                token.column,
                TiErrorKind::MessageTooLarge { bytes: format!("{bytes:.3e}"), limit: MAX_MESSAGE_BYTES },
            ));
        }
        Ok(bytes as u64)
    }

    fn peer(&self, index: usize) -> Result<u32, TiError> {
        let token = self.line.args[index];
        let rank = rank_token(token.text).ok_or_else(|| self.bad(index, "a rank such as 3 or p3"))?;
        if rank as usize >= self.size {
            let last = u32::try_from(self.size.saturating_sub(1)).unwrap_or(u32::MAX);
            return Err(self.error(token.column, TiErrorKind::PeerOutOfRange { rank, last }));
        }
        Ok(rank)
    }

    fn tag(&self, index: usize) -> Result<i32, TiError> {
        self.line.args[index].text.parse().map_err(|_| self.bad(index, "a tag (a whole number)"))
    }

    /// Element size of the datatype at `index`, or the rank's default when absent.
    fn datatype(&self, index: usize, default: u64) -> Result<u64, TiError> {
        let Some(token) = self.line.args.get(index) else {
            return Ok(default);
        };
        token
            .text
            .parse::<usize>()
            .ok()
            .and_then(|code| DATATYPE_BYTES.get(code).copied())
            .ok_or_else(|| self.error(token.column, TiErrorKind::UnknownDatatype(quote(token.text))))
    }

    fn optional_root(&self, index: usize) -> Result<u32, TiError> {
        if self.line.args.len() > index { self.peer(index) } else { Ok(0) }
    }

    /// A collective of a fixed-count kind on the line's communicator.
    fn collective(&self, kind: CollectiveKind, root: u32, bytes: u64) -> Op {
        let call = Collective { kind, root, bytes, algorithm: None };
        match &self.comm {
            None => Op::Collective(call),
            Some(c) => Op::Grouped { comm: Some(c.clone()), call: GroupCall::Regular(call) },
        }
    }

    /// `count` amounts from argument `first` on, each × `element` bytes.
    fn counts(&self, first: usize, count: usize, element: u64) -> Result<Vec<u64>, TiError> {
        (first..first + count).map(|i| self.message_bytes(i, self.amount(i, "a count")?, element)).collect()
    }

    /// `comm_split <id> <world rank…>`: the communicator `id` with those members, in order.
    fn define_communicator(&self, state: &mut RankState) -> Result<(), TiError> {
        let id = self.line.args[0]
            .text
            .parse::<u32>()
            .ok()
            .filter(|id| *id > 0)
            .ok_or_else(|| self.bad(0, "a communicator number above 0"))?;
        let members = (1..self.line.args.len()).map(|i| self.peer(i)).collect::<Result<Vec<u32>, _>>()?;
        let problem = if !members.contains(&state.rank) {
            Some(format!("its members do not include rank {}, which defines it", state.rank))
        } else if members.iter().collect::<BTreeSet<_>>().len() != members.len() {
            Some("a rank is listed twice".to_string())
        } else {
            None
        };
        if let Some(problem) = problem {
            return Err(
                self.error(self.line.args[0].column, TiErrorKind::BadCommunicator { comm: id, problem })
            );
        }
        state.comms.insert(id, Communicator { id, members: Arc::from(members) });
        Ok(())
    }

    /// `comm <id> <collective> <args…>`: the collective on communicator `id`.
    fn on_communicator(&self, state: &mut RankState, dialect: TiDialect) -> Result<(), TiError> {
        self.arity(2, usize::MAX, "<communicator> <collective> <arguments…>")?;
        let id = self.line.args[0].text.parse::<u32>().map_err(|_| self.bad(0, "a communicator number"))?;
        let comm = state
            .comms
            .get(&id)
            .cloned()
            .ok_or_else(|| self.error(self.line.args[0].column, TiErrorKind::UnknownCommunicator(id)))?;
        let action = self.line.args[1];
        if !COLLECTIVES.contains(&action.text.to_ascii_lowercase().as_str()) {
            return Err(self.error(action.column, TiErrorKind::NotACollective(quote(action.text))));
        }
        let line =
            TiLine { line: self.line.line, rank: self.line.rank, action, args: self.line.args[2..].to_vec() };
        let inner = Call { file: self.file, line: &line, size: comm.members.len(), comm: Some(comm) };
        inner.apply(state, dialect)
    }

    /// gatherv, scatterv, allgatherv, alltoallv in SimGrid's forms.
    fn vector(&self, kind: VKind, dt: u64) -> Result<Op, TiError> {
        let p = self.size;
        let args = self.line.args.len();
        let (root, send_bytes, recv_bytes) = match kind {
            VKind::Gatherv => {
                self.arity(p + 1, p + 4, "<send> <recv count per rank …> [root [dt [dt]]]")?;
                let send = self.datatype(p + 2, dt)?;
                let recv = self.datatype(p + 3, dt)?;
                let own = self.message_bytes(0, self.amount(0, "a size")?, send)?;
                (self.optional_root(p + 1)?, vec![own], self.counts(1, p, recv)?)
            }
            VKind::Scatterv => {
                self.arity(p + 1, p + 4, "<send count per rank …> <recv> [root [dt [dt]]]")?;
                let send = self.datatype(p + 2, dt)?;
                let recv = self.datatype(p + 3, dt)?;
                let own = self.message_bytes(p, self.amount(p, "a size")?, recv)?;
                (self.optional_root(p + 1)?, self.counts(0, p, send)?, vec![own])
            }
            VKind::Allgatherv => {
                // SimGrid: datatypes and displacements, displacements alone, or datatypes alone.
                self.arity(p + 1, 2 * p + 3, "<send> <recv count per rank …> [dt dt] [displacements …]")?;
                let (send, recv) = if args == 2 * p + 1 {
                    (dt, dt)
                } else {
                    (self.datatype(p + 1, dt)?, self.datatype(p + 2, dt)?)
                };
                let own = self.message_bytes(0, self.amount(0, "a size")?, send)?;
                (0, vec![own], self.counts(1, p, recv)?)
            }
            VKind::Alltoallv => {
                self.arity(
                    2 * p + 2,
                    2 * p + 4,
                    "<send buffer> <send count per rank …> <recv buffer> <recv count per rank …> [dt [dt]]",
                )?;
                let send = self.datatype(2 * p + 2, dt)?;
                let recv = self.datatype(2 * p + 3, dt)?;
                (0, self.counts(1, p, send)?, self.counts(p + 2, p, recv)?)
            }
        };
        Ok(Op::Grouped {
            comm: self.comm.clone(),
            call: GroupCall::Vector(VCollective { kind, root, send_bytes, recv_bytes }),
        })
    }

    fn apply(&self, state: &mut RankState, dialect: TiDialect) -> Result<(), TiError> {
        let location = format!("{}:{}", self.file.file, self.line.line);
        state.last_location = Some(location.clone());
        let me = state.rank;
        let dt = state.element_bytes;
        let collective = |kind, root, bytes| self.collective(kind, root, bytes);
        let tagged = dialect != TiDialect::Legacy;
        let action = self.line.action.text.to_ascii_lowercase();
        match action.as_str() {
            "init" => {
                self.arity(0, 1, "at most one argument")?;
                if !self.line.args.is_empty() {
                    state.element_bytes = 8;
                }
            }
            "finalize" => self.arity(0, 0, "no arguments")?,
            "comm_split" if self.comm.is_none() && self.line.args.len() >= 2 => {
                self.define_communicator(state)?;
            }
            "comm_size" | "comm_split" | "comm_dup" if self.comm.is_none() => {}
            "comm" if self.comm.is_none() => self.on_communicator(state, dialect)?,
            "compute" => {
                self.arity(1, 1, "<flops>")?;
                state.push(Op::Compute(Work::Flops(self.amount(0, "an amount of flops")?)), &location);
            }
            "sleep" => {
                self.arity(1, 1, "<seconds>")?;
                let secs = self.amount(0, "a duration in seconds")?;
                state.push(Op::Compute(Work::Time(SimTime::from_secs_f64(secs))), &location);
            }
            "location" => {
                self.arity(2, 2, "<file> <line>")?;
                let text = format!("{}:{}", self.line.args[0].text, self.line.args[1].text);
                state.push(Op::Comment(text), &location);
            }
            "send" | "isend" | "recv" | "irecv" => {
                let (usage, tag_at, size_at) = if tagged {
                    ("<peer> <tag> <size> [datatype]", Some(1), 2)
                } else {
                    ("<peer> <size> [datatype]", None, 1)
                };
                self.arity(size_at + 1, size_at + 2, usage)?;
                let peer = self.peer(0)?;
                let tag = tag_at.map(|i| self.tag(i)).transpose()?.unwrap_or(0);
                // A receive's size may be -1 (unknown to the receiver); it is not needed for matching.
                let count = self.number(size_at, "a size")?;
                let element = self.datatype(size_at + 1, dt)?;
                if action.ends_with("send") {
                    if count < 0.0 {
                        return Err(self.bad(size_at, "a size"));
                    }
                    let bytes = self.message_bytes(size_at, count, element)?;
                    let op = if action == "isend" {
                        let req = state.start((me, peer, tag), dialect);
                        Op::Isend { dst: peer, bytes, tag, req }
                    } else {
                        Op::Send { dst: peer, bytes, tag }
                    };
                    state.push(op, &location);
                } else {
                    let (src, tag_sel) = (Source::Rank(peer), TagSel::Tag(tag));
                    let op = if action == "irecv" {
                        let req = state.start((peer, me, tag), dialect);
                        Op::Irecv { src, tag: tag_sel, req }
                    } else {
                        Op::Recv { src, tag: tag_sel }
                    };
                    state.push(op, &location);
                }
            }
            "test" => {
                // A test does not block; a later wait on the same request finds it done or waits for it.
                if tagged {
                    self.arity(3, 3, "<src> <dst> <tag>")?;
                } else {
                    self.arity(0, 0, "no arguments")?;
                }
            }
            "wait" => {
                if state.stored() == 0 {
                    return Err(self.error(self.line.action.column, TiErrorKind::WaitWithoutRequest));
                }
                if tagged {
                    self.arity(3, 3, "<src> <dst> <tag>")?;
                    let key = (self.peer(0)?, self.peer(1)?, self.tag(2)?);
                    let found = state.keyed.get_mut(&key).and_then(VecDeque::pop_front);
                    state.keyed.retain(|_, q| !q.is_empty());
                    if let Some(req) = found {
                        state.push(Op::Wait { req }, &location);
                    }
                } else {
                    self.arity(0, 0, "no arguments")?;
                    if let Some(req) = state.stack.pop() {
                        state.push(Op::Wait { req }, &location);
                    }
                }
            }
            "waitall" => {
                self.arity(0, 0, "no arguments")?;
                if state.stored() > 0 {
                    state.stack.clear();
                    state.keyed.clear();
                    state.push(Op::WaitAll, &location);
                }
            }
            "barrier" => {
                self.arity(0, 0, "no arguments")?;
                state.push(collective(CollectiveKind::Barrier, 0, 0), &location);
            }
            "bcast" => {
                self.arity(1, 3, "<size> [root [datatype]]")?;
                let count = self.amount(0, "a size")?;
                let root = self.optional_root(1)?;
                let element = self.datatype(2, dt)?;
                let bytes = self.message_bytes(0, count, element)?;
                state.push(collective(CollectiveKind::Bcast, root, bytes), &location);
            }
            "reduce" | "allreduce" => {
                let reduce = action == "reduce";
                let (usage, max) = if reduce {
                    ("<comm size> <comp size> [root [datatype]]", 4)
                } else {
                    ("<comm size> <comp size> [datatype]", 3)
                };
                self.arity(2, max, usage)?;
                let count = self.amount(0, "a size")?;
                let flops = self.amount(1, "an amount of flops")?;
                let (kind, root, element) = if reduce {
                    (CollectiveKind::Reduce, self.optional_root(2)?, self.datatype(3, dt)?)
                } else {
                    (CollectiveKind::Allreduce, 0, self.datatype(2, dt)?)
                };
                let bytes = self.message_bytes(0, count, element)?;
                state.push(collective(kind, root, bytes), &location);
                if flops > 0.0 {
                    state.push(Op::Compute(Work::Flops(flops)), &location);
                }
            }
            "alltoall" | "allgather" => {
                self.arity(2, 4, "<send size> <recv size> [send datatype [recv datatype]]")?;
                let count = self.amount(0, "a size")?;
                let recv = self.amount(1, "a size")?;
                let element = self.datatype(2, dt)?;
                self.message_bytes(1, recv, self.datatype(3, dt)?)?;
                let kind =
                    if action == "alltoall" { CollectiveKind::Alltoall } else { CollectiveKind::Allgather };
                let bytes = self.message_bytes(0, count, element)?;
                state.push(collective(kind, 0, bytes), &location);
            }
            "gather" | "scatter" => {
                self.arity(2, 5, "<send size> <recv size> [root [send datatype [recv datatype]]]")?;
                let send = self.amount(0, "a size")?;
                let recv = self.amount(1, "a size")?;
                let root = self.optional_root(2)?;
                let send_element = self.datatype(3, dt)?;
                let recv_element = self.datatype(4, dt)?;
                // The block every rank sends (gather) or receives (scatter) is the meaningful size on all ranks.
                let (send, recv) =
                    (self.message_bytes(0, send, send_element)?, self.message_bytes(1, recv, recv_element)?);
                let op = if action == "gather" {
                    collective(CollectiveKind::Gather, root, send)
                } else {
                    collective(CollectiveKind::Scatter, root, recv)
                };
                state.push(op, &location);
            }
            "reducescatter" => {
                // One receive count per rank, then the reduction's flops, then an optional datatype.
                let size = self.size;
                self.arity(size + 1, size + 2, "<recv count per rank …> <comp size> [datatype]")?;
                let mut counts = 0.0;
                for i in 0..size {
                    counts += self.amount(i, "a count")?;
                }
                let flops = self.amount(size, "an amount of flops")?;
                let element = self.datatype(size + 1, dt)?;
                // hase splits the vector into equal blocks; unequal counts keep their total.
                // Too large a total is reported at the first count.
                let bytes = self.message_bytes(0, counts, element)?;
                state.push(collective(CollectiveKind::ReduceScatter, 0, bytes), &location);
                if flops > 0.0 {
                    state.push(Op::Compute(Work::Flops(flops)), &location);
                }
            }
            "gatherv" | "scatterv" | "allgatherv" | "alltoallv" => {
                let kind = VKind::ALL.into_iter().find(|k| k.name() == action).unwrap_or(VKind::Alltoallv);
                let op = self.vector(kind, dt)?;
                state.push(op, &location);
            }
            _ => return Err(self.error(self.line.action.column, TiErrorKind::UnknownAction(self.action()))),
        }
        Ok(())
    }
}
