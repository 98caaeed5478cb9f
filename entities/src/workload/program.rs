//! A rank's program: a source of operations that may depend on what the last receive delivered
//! (a task farm's master answers whichever worker reported first) and on the rank's random stream.

use hase_engine::kernel::EntityRng;
use hase_engine::time::SimTime;

use crate::mpi::op::{Op, RecvStatus};

/// What a program sees when asked for its next operation.
pub struct ProgramCtx<'a> {
    /// This rank.
    pub rank: u32,
    /// Number of ranks.
    pub size: u32,
    /// Current simulated time.
    pub now: SimTime,
    /// The last completed receive, if any.
    pub last_recv: Option<RecvStatus>,
    /// This rank's random stream (seeded from the run seed and the processor's path).
    pub rng: &'a mut EntityRng,
}

/// The program one rank runs.
pub trait RankProgram: Send {
    /// The next operation, or `None` when the rank is done.
    fn next(&mut self, ctx: &mut ProgramCtx<'_>) -> Option<Op>;

    /// Where the operation last returned came from (`p3.txt:12`), for trace comments and errors.
    fn location(&self) -> Option<String> {
        None
    }
}

/// A fixed list of operations, each with an optional source location.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OpList {
    ops: Vec<(Op, Option<String>)>,
    next: usize,
}

impl OpList {
    /// A list without locations.
    pub fn new(ops: Vec<Op>) -> Self {
        OpList { ops: ops.into_iter().map(|o| (o, None)).collect(), next: 0 }
    }
    /// A list with locations.
    pub fn located(ops: Vec<(Op, Option<String>)>) -> Self {
        OpList { ops, next: 0 }
    }
    /// The operations.
    pub fn ops(&self) -> impl Iterator<Item = &Op> {
        self.ops.iter().map(|(o, _)| o)
    }
    /// The operations with their source locations (`p3.txt:12`), in order.
    pub fn located_ops(&self) -> impl Iterator<Item = (&Op, Option<&str>)> {
        self.ops.iter().map(|(o, l)| (o, l.as_deref()))
    }
    /// Number of operations.
    pub fn len(&self) -> usize {
        self.ops.len()
    }
    /// True if empty.
    pub fn is_empty(&self) -> bool {
        self.ops.is_empty()
    }
}

impl RankProgram for OpList {
    fn next(&mut self, _ctx: &mut ProgramCtx<'_>) -> Option<Op> {
        let op = self.ops.get(self.next).map(|(o, _)| o.clone());
        if op.is_some() {
            self.next += 1;
        }
        op
    }

    fn location(&self) -> Option<String> {
        self.next.checked_sub(1).and_then(|i| self.ops.get(i)).and_then(|(_, l)| l.clone())
    }
}
