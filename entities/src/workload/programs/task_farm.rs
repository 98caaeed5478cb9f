//! The task farm (seed 002 §6.5.2): rank 0, the master, hands one task to each worker, then
//! receives results from any source and answers whoever reported with the next task, or with a
//! stop message once all tasks are out. Workers draw each task's time from their own random
//! stream, so the order is non-deterministic in the model and reproducible under a seed.

use hase_engine::model::ParamDef;
use hase_engine::time::SimTime;
use rand::RngExt;
use rand_distr::{Distribution, Exp1};

use super::entry::{Entry, Params, count_param, enum_param, time_param};
use super::error::ProgramError;
use crate::mpi::op::{Op, Source, TagSel, Work};
use crate::workload::program::{ProgramCtx, RankProgram};

pub(super) const ENTRY: Entry = Entry {
    name: "task_farm",
    description: "Rank 0 hands out tasks and answers whichever worker returns a result first; workers take \
                  random times (exponential or uniform) per task.",
    params,
    build,
};

/// Tag of a message carrying a task (master → worker).
pub(super) const TAG_TASK: i32 = 1;
/// Tag of a message carrying a result (worker → master).
pub(super) const TAG_RESULT: i32 = 2;
/// Tag of the message telling a worker to finish.
pub(super) const TAG_STOP: i32 = 3;

fn params() -> Vec<ParamDef> {
    vec![
        count_param("tasks", 0, 32, "", "Number of tasks."),
        enum_param("distribution", &["exponential", "uniform"], "exponential", "Distribution of task times."),
        time_param("mean_time", SimTime::from_us(100), "Mean task time (exponential)."),
        time_param("min_time", SimTime::from_us(50), "Shortest task time (uniform)."),
        time_param("max_time", SimTime::from_us(150), "Longest task time (uniform)."),
        count_param("task_bytes", 0, 256, "bytes", "Size of a task message."),
        count_param("result_bytes", 0, 256, "bytes", "Size of a result message."),
    ]
}

fn build(p: &Params, rank: u32, size: u32) -> Result<Box<dyn RankProgram>, ProgramError> {
    if size < 2 {
        return Err(
            p.unsuitable(format!("it needs a master and at least one worker, the run has {size} rank"))
        );
    }
    if rank == 0 {
        return Ok(Box::new(Master {
            size,
            tasks: p.count("tasks")?,
            handed_out: 0,
            results: 0,
            next_worker: 1,
            awaiting_result: false,
            task_bytes: p.count("task_bytes")?,
        }));
    }
    let times = match p.text("distribution")?.as_str() {
        "uniform" => {
            let (min, max) = (p.time("min_time")?, p.time("max_time")?);
            if min > max {
                return Err(p.unsuitable(format!("min_time {min} is longer than max_time {max}")));
            }
            TaskTimes::Uniform { min, max }
        }
        _ => TaskTimes::Exponential { mean: p.time("mean_time")? },
    };
    Ok(Box::new(Worker { times, result_bytes: p.count("result_bytes")?, state: WorkerState::AwaitOrder }))
}

struct Master {
    size: u32,
    tasks: u64,
    handed_out: u64,
    results: u64,
    /// The next worker to serve in the opening round (all served once it reaches `size`).
    next_worker: u32,
    awaiting_result: bool,
    task_bytes: u64,
}

impl Master {
    /// The next task for `worker`, or the stop message once every task is out.
    fn order(&mut self, worker: u32) -> Op {
        if self.handed_out < self.tasks {
            self.handed_out += 1;
            Op::Send { dst: worker, bytes: self.task_bytes, tag: TAG_TASK }
        } else {
            Op::Send { dst: worker, bytes: 0, tag: TAG_STOP }
        }
    }
}

impl RankProgram for Master {
    fn next(&mut self, ctx: &mut ProgramCtx<'_>) -> Option<Op> {
        if self.next_worker < self.size {
            let worker = self.next_worker;
            self.next_worker += 1;
            return Some(self.order(worker));
        }
        if self.awaiting_result {
            self.awaiting_result = false;
            self.results += 1;
            let worker = ctx.last_recv?.source;
            return Some(self.order(worker));
        }
        if self.results < self.tasks {
            self.awaiting_result = true;
            return Some(Op::Recv { src: Source::Any, tag: TagSel::Tag(TAG_RESULT) });
        }
        None
    }

    fn location(&self) -> Option<String> {
        Some(format!("task_farm master, {} of {} results in", self.results, self.tasks))
    }
}

#[derive(Clone, Copy, Debug)]
enum TaskTimes {
    Exponential { mean: SimTime },
    Uniform { min: SimTime, max: SimTime },
}

impl TaskTimes {
    fn draw(self, rng: &mut hase_engine::kernel::EntityRng) -> SimTime {
        match self {
            TaskTimes::Exponential { mean } => {
                let unit: f64 = Exp1.sample(rng);
                SimTime::from_f64_ps(unit * mean.as_ps() as f64)
            }
            TaskTimes::Uniform { min, max } => SimTime(rng.random_range(min.as_ps()..=max.as_ps())),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum WorkerState {
    /// Next: receive an order from the master.
    AwaitOrder,
    /// An order arrived: compute if it is a task, finish if it is a stop.
    Ordered,
    /// The task is computed: return the result.
    Computed,
}

struct Worker {
    times: TaskTimes,
    result_bytes: u64,
    state: WorkerState,
}

impl RankProgram for Worker {
    fn next(&mut self, ctx: &mut ProgramCtx<'_>) -> Option<Op> {
        match self.state {
            WorkerState::AwaitOrder => {
                self.state = WorkerState::Ordered;
                Some(Op::Recv { src: Source::Rank(0), tag: TagSel::Any })
            }
            WorkerState::Ordered => {
                if ctx.last_recv?.tag != TAG_TASK {
                    return None;
                }
                self.state = WorkerState::Computed;
                Some(Op::Compute(Work::Time(self.times.draw(ctx.rng))))
            }
            WorkerState::Computed => {
                self.state = WorkerState::AwaitOrder;
                Some(Op::Send { dst: 0, bytes: self.result_bytes, tag: TAG_RESULT })
            }
        }
    }

    fn location(&self) -> Option<String> {
        Some("task_farm worker".to_string())
    }
}
