//! The processor's live values, traced at level 3 for the animator and the timing diagram (names
//! and order in `catalogue::PROCESSOR_LIVE`): the operation being run, messages and bytes posted
//! for sending, messages received, and per source rank the arrived messages no receive has matched
//! yet (read whenever a posted receive searches them). Nothing is computed unless level-3 records
//! are kept.

use hase_engine::Ctx;
use hase_engine::trace::{TraceLevel, TraceValue};

use super::mpi::Mpi;
use crate::message::NetMsg;
use crate::mpi::op::{GroupCall, Op, Source, Work};

const OP: u16 = 0;
const SENT_MSGS: u16 = 1;
const RECV_MSGS: u16 = 2;
const SENT_BYTES: u16 = 3;
const UNEXPECTED: u16 = 4;

/// What the trace shows of the unexpected-message queue, to trace only the elements that change.
#[derive(Debug, Default)]
pub(crate) struct Live {
    unexpected_shown: Vec<u32>,
    /// Elements of `unexpected` the trace has a value for.
    traced: Vec<bool>,
}

/// `send 1024 B → 3`, `recv ← any`, `allreduce`: the operation in a few words.
pub(crate) fn describe_op(op: &Op) -> String {
    let from = |src: &Source| match src {
        Source::Rank(r) => r.to_string(),
        Source::Any => "any".into(),
    };
    match op {
        Op::Compute(Work::Time(t)) => format!("compute {t}"),
        Op::Compute(Work::Steps(n)) => format!("compute {n} steps"),
        Op::Compute(Work::Flops(f)) => format!("compute {f} flop"),
        Op::Send { dst, bytes, .. } => format!("send {bytes} B → {dst}"),
        Op::Isend { dst, bytes, .. } => format!("isend {bytes} B → {dst}"),
        Op::Recv { src, .. } => format!("recv ← {}", from(src)),
        Op::Irecv { src, .. } => format!("irecv ← {}", from(src)),
        Op::Wait { req } => format!("wait {req}"),
        Op::WaitAll => "waitall".into(),
        Op::Collective(c) | Op::Grouped { call: GroupCall::Regular(c), .. } => {
            c.kind.state_name().to_lowercase()
        }
        Op::Grouped { call: GroupCall::Vector(v), .. } => v.kind.name().into(),
        Op::Comment(_) => "comment".into(),
    }
}

impl Live {
    /// `live`, made on first use, if level-3 records are kept; `None` otherwise.
    pub(crate) fn when_traced<'a>(
        live: &'a mut Option<Box<Live>>,
        ctx: &Ctx<'_, NetMsg>,
    ) -> Option<&'a mut Live> {
        ctx.tracing(TraceLevel::UPDATES).then(|| &mut **live.get_or_insert_with(Box::default))
    }

    /// Counters start at zero (so a displayed value shows from the start of the run).
    pub(crate) fn start(ctx: &mut Ctx<'_, NetMsg>) {
        if ctx.tracing(TraceLevel::UPDATES) {
            for param in [SENT_MSGS, RECV_MSGS, SENT_BYTES] {
                ctx.set_param(param, TraceValue::Int(0));
            }
        }
    }

    /// The program moved on to `op` (its text only, so that the timing diagram's row of a long
    /// run has few distinct labels).
    pub(crate) fn operation(ctx: &mut Ctx<'_, NetMsg>, op: &Op) {
        if ctx.tracing(TraceLevel::UPDATES) {
            ctx.set_param(OP, TraceValue::Text(describe_op(op)));
        }
    }

    /// Totals after a send was posted.
    pub(crate) fn sent(ctx: &mut Ctx<'_, NetMsg>, messages: u64, bytes: u64) {
        if ctx.tracing(TraceLevel::UPDATES) {
            ctx.set_param(SENT_MSGS, TraceValue::Int(messages as i64));
            ctx.set_param(SENT_BYTES, TraceValue::Int(bytes as i64));
        }
    }

    /// Total after messages were received.
    pub(crate) fn received(ctx: &mut Ctx<'_, NetMsg>, messages: u64) {
        ctx.set_param(RECV_MSGS, TraceValue::Int(messages as i64));
    }

    /// A receive from `src` is about to search the unexpected messages: read the elements it
    /// looks at (every source with messages waiting, for `Any`).
    pub(crate) fn searching(&mut self, ctx: &mut Ctx<'_, NetMsg>, src: Source) {
        if !ctx.tracing(TraceLevel::UPDATES) {
            return;
        }
        match src {
            Source::Rank(r) => {
                // An element first looked at before any message from `r` waited: show it as 0.
                let r_index = r as usize;
                if self.unexpected_shown.len() <= r_index {
                    self.unexpected_shown.resize(r_index + 1, 0);
                }
                if !self.traced.get(r_index).copied().unwrap_or(false) {
                    self.mark_traced(r_index);
                    ctx.set_array(UNEXPECTED, r, TraceValue::Int(i64::from(self.unexpected_shown[r_index])));
                }
                ctx.read_array(UNEXPECTED, r);
            }
            Source::Any => {
                for (r, n) in self.unexpected_shown.iter().enumerate() {
                    if *n > 0 {
                        ctx.read_array(UNEXPECTED, r as u32);
                    }
                }
            }
        }
    }

    fn mark_traced(&mut self, r: usize) {
        if self.traced.len() <= r {
            self.traced.resize(r + 1, false);
        }
        self.traced[r] = true;
    }

    /// Trace the unexpected-message counts that changed since the last call.
    pub(crate) fn unexpected(&mut self, ctx: &mut Ctx<'_, NetMsg>, mpi: &Mpi) {
        if !ctx.tracing(TraceLevel::UPDATES) {
            return;
        }
        let now = mpi.unexpected_by_source();
        let len = now.len().max(self.unexpected_shown.len());
        self.unexpected_shown.resize(len, 0);
        for (r, shown) in self.unexpected_shown.iter_mut().enumerate() {
            let count = now.get(r).copied().unwrap_or(0);
            if count != *shown {
                *shown = count;
                if self.traced.len() <= r {
                    self.traced.resize(r + 1, false);
                }
                self.traced[r] = true;
                ctx.set_array(UNEXPECTED, r as u32, TraceValue::Int(i64::from(count)));
            }
        }
    }
}
