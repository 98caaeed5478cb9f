//! The ATM2D halo exchange (seed 004): ranks on a `grid_x` × `grid_y` grid (rank = y·grid_x + x),
//! each iteration computing on its block and then trading a face with its north, south, west and
//! east neighbours using non-blocking receives and sends and one `WAITALL`. With `periodic` the
//! grid wraps into a torus; without it, edge ranks have fewer neighbours.

use hase_engine::model::{ParamDef, ParamKind, ParamValue};
use hase_engine::time::SimTime;

use super::entry::{Entry, Params, count_param, time_param};
use super::error::ProgramError;
use crate::mpi::op::{Op, Source, TagSel, Work};
use crate::workload::program::{ProgramCtx, RankProgram};

pub(super) const ENTRY: Entry = Entry {
    name: "halo2d",
    description: "ATM2D-style 2-D halo exchange: compute, then swap faces with the four grid neighbours \
                  (non-blocking receives and sends, then wait for all).",
    params,
    build,
};

fn params() -> Vec<ParamDef> {
    vec![
        count_param(
            "grid_x",
            0,
            0,
            "ranks",
            "Ranks along x; 0 chooses a near-square grid from the number of ranks.",
        ),
        count_param(
            "grid_y",
            0,
            0,
            "ranks",
            "Ranks along y; 0 chooses it from grid_x and the number of ranks.",
        ),
        ParamDef::new("periodic", ParamKind::Bool, ParamValue::Bool(false))
            .describe("Wrap the grid into a torus."),
        count_param("face_bytes", 0, 4096, "bytes", "Bytes sent to each neighbour per iteration."),
        count_param("iterations", 0, 10, "", "Number of time steps."),
        time_param("compute_time", SimTime::from_us(100), "Computation per time step."),
    ]
}

/// Why a grid does not suit the run's ranks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub(super) enum GridError {
    /// One side given that does not divide the ranks.
    #[error("a side of {side} does not divide {size} ranks")]
    SideDoesNotDivide { side: u32, size: u32 },
    /// Both sides given, whose product is not the ranks.
    #[error("a {x} × {y} grid does not hold {size} ranks")]
    DoesNotHold { x: u32, y: u32, size: u32 },
}

/// The grid for `size` ranks: both given, one given, or neither (the most nearly square, x ≥ y).
pub(super) fn grid(size: u32, grid_x: u32, grid_y: u32) -> Result<(u32, u32), GridError> {
    match (grid_x, grid_y) {
        (0, 0) => {
            let y = (1..=size)
                .take_while(|y| u64::from(*y) * u64::from(*y) <= u64::from(size))
                .filter(|y| size.is_multiple_of(*y))
                .max()
                .unwrap_or(1);
            Ok((size / y, y))
        }
        (x, 0) | (0, x) if !size.is_multiple_of(x) => Err(GridError::SideDoesNotDivide { side: x, size }),
        (x, 0) => Ok((x, size / x)),
        (0, y) => Ok((size / y, y)),
        (x, y) if x.checked_mul(y) == Some(size) => Ok((x, y)),
        (x, y) => Err(GridError::DoesNotHold { x, y, size }),
    }
}

/// Directions, each with the tag of the messages travelling that way.
const NORTH: i32 = 1;
const SOUTH: i32 = 2;
const WEST: i32 = 3;
const EAST: i32 = 4;

/// The neighbour of `rank` one step in `direction`, if there is one and it is not `rank` itself.
pub(super) fn neighbour(rank: u32, (gx, gy): (u32, u32), periodic: bool, direction: i32) -> Option<u32> {
    let (x, y) = (rank % gx, rank / gx);
    let step = |v: u32, len: u32, forward: bool| -> Option<u32> {
        match (forward, periodic) {
            (true, _) if v + 1 < len => Some(v + 1),
            (true, true) => Some(0),
            (false, _) if v > 0 => Some(v - 1),
            (false, true) => Some(len - 1),
            _ => None,
        }
    };
    let (nx, ny) = match direction {
        NORTH => (Some(x), step(y, gy, false)),
        SOUTH => (Some(x), step(y, gy, true)),
        WEST => (step(x, gx, false), Some(y)),
        _ => (step(x, gx, true), Some(y)),
    };
    let other = ny? * gx + nx?;
    (other != rank).then_some(other)
}

fn opposite(direction: i32) -> i32 {
    match direction {
        NORTH => SOUTH,
        SOUTH => NORTH,
        WEST => EAST,
        _ => WEST,
    }
}

fn build(p: &Params, rank: u32, size: u32) -> Result<Box<dyn RankProgram>, ProgramError> {
    let side = |name| p.count(name).map(|v| u32::try_from(v).unwrap_or(u32::MAX));
    let shape = grid(size, side("grid_x")?, side("grid_y")?).map_err(|reason| p.unsuitable(reason))?;
    let periodic = p.flag("periodic")?;
    let (mut others, mut directions) = ([0; 4], [0; 4]);
    let mut count = 0;
    for direction in [NORTH, SOUTH, WEST, EAST] {
        if let Some(other) = neighbour(rank, shape, periodic, direction) {
            (others[count], directions[count]) = (other, direction as u8);
            count += 1;
        }
    }
    Ok(Box::new(Halo {
        others,
        directions,
        count: count as u8,
        bytes: p.count("face_bytes")?,
        compute: p.time("compute_time")?,
        iterations: p.count("iterations")?,
        iteration: 0,
        step: 0,
    }))
}

/// One rank's halo exchange, made operation by operation instead of kept as a list: a rank keeps
/// its neighbours and where it is (56 bytes), where a list of its ten operations took about 400
/// (the 256×256 torus has 65,536 ranks; the 512×1024 one, 524,288). Each iteration is: compute (if
/// any), a receive from each neighbour (`req` 0, 1, …), a send to each (numbered on from there),
/// and one `WAITALL` (if there is a neighbour).
struct Halo {
    /// The `count` neighbours there are, in the order north, south, west, east, and the direction
    /// of each (the tag of what is sent that way).
    others: [u32; 4],
    directions: [u8; 4],
    count: u8,
    bytes: u64,
    compute: SimTime,
    iterations: u64,
    /// The iteration under way and the step within it of the next operation.
    iteration: u64,
    step: u8,
}

impl Halo {
    /// Operations in one iteration.
    fn steps(&self) -> u8 {
        u8::from(self.compute > SimTime::ZERO) + 2 * self.count + u8::from(self.count > 0)
    }

    /// Operation `step` of an iteration.
    fn op(&self, step: u8) -> Op {
        let mut k = step;
        if self.compute > SimTime::ZERO {
            if k == 0 {
                return Op::Compute(Work::Time(self.compute));
            }
            k -= 1;
        }
        let n = self.count;
        let neighbour = |i: u8| (self.others[usize::from(i)], i32::from(self.directions[usize::from(i)]));
        if k < n {
            let (other, direction) = neighbour(k);
            // What arrives from the north neighbour travelled south.
            Op::Irecv { src: Source::Rank(other), tag: TagSel::Tag(opposite(direction)), req: u32::from(k) }
        } else if k < 2 * n {
            let (other, direction) = neighbour(k - n);
            Op::Isend { dst: other, bytes: self.bytes, tag: direction, req: u32::from(k) }
        } else {
            Op::WaitAll
        }
    }
}

impl RankProgram for Halo {
    fn next(&mut self, _ctx: &mut ProgramCtx<'_>) -> Option<Op> {
        let steps = self.steps();
        if steps == 0 || self.iteration >= self.iterations {
            return None;
        }
        let op = self.op(self.step);
        self.step += 1;
        if self.step == steps {
            (self.iteration, self.step) = (self.iteration + 1, 0);
        }
        Some(op)
    }

    fn location(&self) -> Option<String> {
        // The iteration of the operation last returned: the one before `step`.
        let iteration = if self.step == 0 { self.iteration.checked_sub(1)? } else { self.iteration };
        Some(format!("{} iteration {}", ENTRY.name, iteration + 1))
    }
}

#[cfg(test)]
mod tests {
    use super::super::looped::Looped;
    use super::*;
    use hase_engine::kernel::entity_rng;

    #[test]
    fn chooses_near_square_grids() {
        assert_eq!(grid(8, 0, 0), Ok((4, 2)));
        assert_eq!(grid(12, 0, 0), Ok((4, 3)));
        assert_eq!(grid(16, 0, 0), Ok((4, 4)));
        assert_eq!(grid(7, 0, 0), Ok((7, 1)));
        assert_eq!(grid(1, 0, 0), Ok((1, 1)));
        assert_eq!(grid(12, 2, 0), Ok((2, 6)));
        assert_eq!(grid(12, 0, 2), Ok((6, 2)));
        assert_eq!(grid(12, 3, 4), Ok((3, 4)));
        assert!(grid(12, 5, 0).is_err());
        assert!(grid(12, 3, 3).is_err());
    }

    /// The list the exchange was kept as before it was generated: built from the same neighbours
    /// and repeated by `Looped`, the oracle for the generator.
    fn as_a_list(
        rank: u32,
        shape: (u32, u32),
        periodic: bool,
        bytes: u64,
        compute: SimTime,
        iterations: u64,
    ) -> Looped {
        let mut body = Vec::new();
        if compute > SimTime::ZERO {
            body.push(Op::Compute(Work::Time(compute)));
        }
        let mut sends = Vec::new();
        let mut req = 0;
        for direction in [NORTH, SOUTH, WEST, EAST] {
            let Some(other) = neighbour(rank, shape, periodic, direction) else { continue };
            body.push(Op::Irecv { src: Source::Rank(other), tag: TagSel::Tag(opposite(direction)), req });
            sends.push((other, direction));
            req += 1;
        }
        for (other, direction) in sends {
            body.push(Op::Isend { dst: other, bytes, tag: direction, req });
            req += 1;
        }
        if req > 0 {
            body.push(Op::WaitAll);
        }
        Looped::repeat(ENTRY.name, body, iterations)
    }

    /// Every operation and its location, as the program gives them.
    fn unrolled(program: &mut dyn RankProgram) -> Vec<(Op, Option<String>)> {
        let mut rng = entity_rng(0, "p");
        let mut ctx = ProgramCtx { rank: 0, size: 1, now: SimTime::ZERO, last_recv: None, rng: &mut rng };
        let mut seen = vec![(Op::WaitAll, program.location())];
        while let Some(op) = program.next(&mut ctx) {
            seen.push((op, program.location()));
        }
        seen.push((Op::WaitAll, program.location()));
        seen
    }

    #[test]
    fn the_generated_exchange_is_the_list_it_replaced() {
        let grids = [(1, 1), (1, 3), (2, 1), (2, 2), (3, 2), (4, 4), (5, 3)];
        for (gx, gy) in grids {
            for periodic in [false, true] {
                for (compute, iterations) in
                    [(SimTime::from_us(3), 3), (SimTime::ZERO, 2), (SimTime::from_ns(1), 0)]
                {
                    let size = gx * gy;
                    let values = [
                        ("grid_x", ParamValue::Int(i64::from(gx))),
                        ("grid_y", ParamValue::Int(i64::from(gy))),
                        ("periodic", ParamValue::Bool(periodic)),
                        ("face_bytes", ParamValue::Int(512)),
                        ("iterations", ParamValue::Int(iterations as i64)),
                        ("compute_time", ParamValue::Time(compute)),
                    ];
                    let params = Params {
                        program: ENTRY.name,
                        values: values.into_iter().map(|(k, v)| (k.to_string(), v)).collect(),
                        shared: std::sync::OnceLock::new(),
                    };
                    for rank in 0..size {
                        let mut generated = build(&params, rank, size).unwrap();
                        let mut list = as_a_list(rank, (gx, gy), periodic, 512, compute, iterations);
                        assert_eq!(
                            unrolled(generated.as_mut()),
                            unrolled(&mut list),
                            "{gx}x{gy} periodic {periodic}, compute {compute:?}, {iterations} iterations, rank {rank}"
                        );
                    }
                }
            }
        }
        assert_eq!(std::mem::size_of::<Halo>(), 56);
    }

    #[test]
    fn finds_neighbours_on_a_3x2_grid() {
        // 0 1 2
        // 3 4 5
        let shape = (3, 2);
        let all = |r, periodic| [NORTH, SOUTH, WEST, EAST].map(|d| neighbour(r, shape, periodic, d));
        assert_eq!(all(0, false), [None, Some(3), None, Some(1)]);
        assert_eq!(all(4, false), [Some(1), None, Some(3), Some(5)]);
        assert_eq!(all(0, true), [Some(3), Some(3), Some(2), Some(1)]);
        assert_eq!(all(5, true), [Some(2), Some(2), Some(4), Some(3)]);
        // A 1-wide torus has no east/west neighbours: they would be the rank itself.
        assert_eq!(neighbour(1, (1, 3), true, EAST), None);
    }
}
