//! A program of the shape most deterministic workloads have: a prologue, a body repeated a number
//! of times, an epilogue. Operations are produced one at a time, so a million iterations cost no
//! memory. Request ids in the body may repeat between iterations: the body completes its requests
//! (`WAITALL`) before the next iteration starts them again, as an MPI program reuses its handles.

use crate::mpi::op::Op;
use crate::workload::program::{ProgramCtx, RankProgram};

/// Prologue, body × iterations, epilogue.
pub(super) struct Looped {
    name: &'static str,
    prologue: Vec<Op>,
    body: Vec<Op>,
    iterations: u64,
    epilogue: Vec<Op>,
    /// Index of the next operation in the unrolled sequence.
    position: u128,
}

impl Looped {
    /// A program named `name` (used in locations: `halo2d iteration 3`).
    pub fn new(
        name: &'static str,
        mut prologue: Vec<Op>,
        mut body: Vec<Op>,
        iterations: u64,
        mut epilogue: Vec<Op>,
    ) -> Self {
        // One program per rank lives for the whole run: the spare room left by building the lists
        // with `push` (up to half of it; 192 of a halo rank's 512 bytes) is given back.
        for ops in [&mut prologue, &mut body, &mut epilogue] {
            ops.shrink_to_fit();
        }
        Looped { name, prologue, body, iterations, epilogue, position: 0 }
    }

    /// A program that only repeats `body`.
    pub fn repeat(name: &'static str, body: Vec<Op>, iterations: u64) -> Self {
        Self::new(name, Vec::new(), body, iterations, Vec::new())
    }

    /// The operation at `position` and the iteration it belongs to (`None` outside the body).
    fn at(&self, position: u128) -> Option<(&Op, Option<u128>)> {
        let prologue = self.prologue.len() as u128;
        let body = self.body.len() as u128;
        let looped = body * u128::from(self.iterations);
        if position < prologue {
            return self.prologue.get(position as usize).map(|op| (op, None));
        }
        let in_loop = position - prologue;
        if in_loop < looped {
            return self.body.get((in_loop % body) as usize).map(|op| (op, Some(in_loop / body)));
        }
        self.epilogue.get((in_loop - looped) as usize).map(|op| (op, None))
    }
}

impl RankProgram for Looped {
    fn next(&mut self, _ctx: &mut ProgramCtx<'_>) -> Option<Op> {
        let op = self.at(self.position).map(|(op, _)| op.clone())?;
        self.position += 1;
        Some(op)
    }

    fn location(&self) -> Option<String> {
        let last = self.position.checked_sub(1)?;
        match self.at(last)? {
            (_, Some(iteration)) => Some(format!("{} iteration {}", self.name, iteration + 1)),
            (_, None) => Some(self.name.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mpi::op::Work;
    use hase_engine::kernel::entity_rng;
    use hase_engine::time::SimTime;

    #[test]
    fn unrolls_in_order_with_iteration_locations() {
        let step = |n| Op::Compute(Work::Steps(n));
        let mut program = Looped::new("demo", vec![step(1)], vec![step(2), step(3)], 2, vec![step(4)]);
        let mut rng = entity_rng(0, "p0");
        let mut ctx = ProgramCtx { rank: 0, size: 1, now: SimTime::ZERO, last_recv: None, rng: &mut rng };
        let mut seen = Vec::new();
        while let Some(op) = program.next(&mut ctx) {
            seen.push((op, program.location().unwrap()));
        }
        let expected: Vec<(Op, String)> = vec![
            (step(1), "demo".into()),
            (step(2), "demo iteration 1".into()),
            (step(3), "demo iteration 1".into()),
            (step(2), "demo iteration 2".into()),
            (step(3), "demo iteration 2".into()),
            (step(4), "demo".into()),
        ];
        assert_eq!(seen, expected);
        assert_eq!(program.next(&mut ctx), None);
    }
}
