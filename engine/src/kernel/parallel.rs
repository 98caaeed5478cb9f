//! A run on several threads (`docs/kernel.md`): the model cut into partitions, each on its own
//! named thread, advancing in windows of the lookahead; at each window's barrier the calling thread
//! merges the partitions' logs into the sequential order, writes the records, gives the pushes
//! made for later windows their final numbers and hands them to their partitions. Afterwards
//! everything is taken back into the `Simulation`, as if it had run on one thread.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};
use std::thread::{self, Thread};

use super::agenda::Agenda;
use super::backlog::{Backlog, CHUNK_RECORDS, MAX_WAITING_WINDOWS};
use super::merge::{hand_over, merge_window};
use super::message::Message;
use super::outcome::{Progress, RunControl, RunOutcome};
use super::partition::{MESSAGE_TRACE_PER_MILLE, OnePartition, Partitioning, plan};
use super::sim::Simulation;
use super::store::BehaviourStore;
use super::window::Partition;
use super::window_out::{Deferred, Numbering};
use crate::elaborate::EntityId;
use crate::time::SimTime;
use crate::trace::TraceLevel;

/// Spins before a waiting thread parks (a window usually ends within a few microseconds).
const SPINS: u32 = 2_000;

/// A counter one thread raises and another waits on: spinning first, then parked.
struct Signal {
    value: AtomicU64,
    waiter: OnceLock<Thread>,
}

impl Signal {
    fn new(waiter: Option<Thread>) -> Self {
        let cell = OnceLock::new();
        if let Some(t) = waiter {
            let _ = cell.set(t);
        }
        Signal { value: AtomicU64::new(0), waiter: cell }
    }

    fn raise(&self, value: u64) {
        self.value.store(value, Ordering::Release);
        if let Some(t) = self.waiter.get() {
            t.unpark();
        }
    }

    /// Wait until the value reaches `value`; the waiter must be the current thread.
    fn wait_for(&self, value: u64) {
        for _ in 0..SPINS {
            if self.value.load(Ordering::Acquire) >= value {
                return;
            }
            std::hint::spin_loop();
        }
        while self.value.load(Ordering::Acquire) < value {
            thread::park();
        }
    }
}

/// How the windows run: their width and the run's controls.
struct Windows<'a> {
    lookahead_ps: u64,
    until: Option<SimTime>,
    cancel: Option<&'a AtomicBool>,
    check_every: u64,
}

/// A partition's worker thread and its two signals.
struct Worker {
    /// Raised by the calling thread with the number of the window to run (`u64::MAX`: quit).
    go: Signal,
    /// Raised by the worker with the number of the window it finished.
    done: Signal,
    /// The worker thread started.
    running: AtomicBool,
}

/// Raises a worker's `done` signal to `u64::MAX` when the worker's thread ends, so that the calling
/// thread never waits for a worker that panicked.
struct Unblock<'a>(&'a Signal);

impl Drop for Unblock<'_> {
    fn drop(&mut self) {
        if thread::panicking() {
            self.0.raise(u64::MAX);
        }
    }
}

/// Tells every worker to quit when the calling thread leaves the windows' loop, however it leaves.
struct Release<'a>(&'a [Worker]);

impl Drop for Release<'_> {
    fn drop(&mut self) {
        for worker in self.0.iter().skip(1) {
            worker.go.raise(u64::MAX);
        }
    }
}

/// Wait until `signal` reaches `value`, writing waiting records meanwhile; the waiter must be the
/// current thread. While another thread writes, it looks again for a while (that thread may stop
/// to run its window), then waits for its signal.
fn wait_writing(signal: &Signal, value: u64, backlog: &Backlog) {
    let mut spins = 0;
    while signal.value.load(Ordering::Acquire) < value {
        if backlog.write_some(CHUNK_RECORDS) {
            spins = 0;
        } else if backlog.has_waiting() && spins < SPINS {
            spins += 1;
            std::hint::spin_loop();
        } else {
            signal.wait_for(value);
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl<M: Message, S: BehaviourStore<M>> Simulation<M, S> {
    /// Run as [`Simulation::run`] does, on up to `threads` threads: the trace, the statistics and
    /// the final time are those of the run on one thread, byte for byte. Says how the run was
    /// spread (or why it used one partition: see [`OnePartition`]).
    pub fn run_on(&mut self, threads: usize, control: RunControl<'_>) -> (RunOutcome, Partitioning) {
        let planned = if self.core.stop_requested {
            Err(OnePartition::OneThread)
        } else if self.ties.is_some() {
            Err(OnePartition::ShuffledTies)
        } else {
            let store = &self.store;
            let writing_per_mille =
                if self.core.tracing(TraceLevel::MESSAGES) { MESSAGE_TRACE_PER_MILLE } else { 0 };
            plan(&self.core.model, threads, writing_per_mille, |e| store.get(e))
        };
        let plan = match planned {
            Ok(plan) => plan,
            Err(why) => return (self.run(control), Partitioning::One(why)),
        };
        let Some(stores) = self.store.split(&plan.owner, plan.parts) else {
            return (self.run(control), Partitioning::One(OnePartition::StoreCannotSplit));
        };
        let owner: Arc<[u16]> = plan.owner.into();
        let parts = self.partitions(&owner, stores);
        let RunControl { until, cancel, mut progress, check_every } = control;
        let windows = Windows { lookahead_ps: plan.lookahead_ps, until, cancel, check_every };
        let (ended, numbering) = self.run_partitions(&parts, &windows, &mut progress);
        self.take_back(parts, &owner, numbering.as_deref());
        let outcome = match ended {
            RunOutcome::Completed => self.conclude(progress),
            RunOutcome::ReachedUntil => {
                if let Some(u) = until {
                    self.core.now = self.core.now.max(u);
                }
                RunOutcome::ReachedUntil
            }
            other => other,
        };
        (outcome, Partitioning::Split { partitions: plan.parts, lookahead_ps: plan.lookahead_ps })
    }

    /// One partition per store part, each given the pending events of its entities.
    fn partitions(&mut self, owner: &Arc<[u16]>, stores: Vec<S::Part>) -> Vec<Mutex<Partition<M, S::Part>>> {
        let n = stores.len();
        let first = self.core.queue.counter();
        let mut pending: Vec<Vec<Deferred<M>>> = (0..n).map(|_| Vec::new()).collect();
        let mut agenda = std::mem::replace(&mut self.core.queue, Agenda::new());
        while let Some((time, number, due)) = agenda.pop_numbered_at_or_before(u64::MAX) {
            let p = owner.get(due.target() as usize).map_or(0, |&p| usize::from(p));
            pending[p].push(Deferred { time, number, due });
        }
        self.core.queue.set_counter(first);
        stores
            .into_iter()
            .zip(pending)
            .map(|(store, mut mine)| {
                mine.sort_unstable_by_key(|d| d.number);
                let mut inbox: Vec<Vec<Deferred<M>>> = (0..n).map(|_| Vec::new()).collect();
                let next = mine.iter().map(|d| d.time).min();
                inbox[0] = mine;
                Mutex::new(Partition {
                    core: self.core.for_partition(Arc::clone(owner), n),
                    store,
                    handled: Vec::new(),
                    inbox,
                    numbering: None,
                    first_number: first,
                    limit: 0,
                    next,
                    finals: Vec::new(),
                })
            })
            .collect()
    }

    /// Run the windows until nothing is pending, the until-time is passed, or the run is
    /// cancelled or asked to stop; with the numbering of the last window's pushes, which the
    /// partitions may still hold with their provisional numbers.
    fn run_partitions(
        &mut self,
        parts: &[Mutex<Partition<M, S::Part>>],
        windows: &Windows<'_>,
        progress: &mut Option<&mut dyn FnMut(Progress)>,
    ) -> (RunOutcome, Option<Arc<Numbering>>) {
        let &Windows { lookahead_ps, until, cancel, check_every } = windows;
        let until_ps = until.map_or(u64::MAX, SimTime::as_ps);
        let me = thread::current();
        let shared = Backlog::new(self.core.sink.take(), parts.len());
        let backlog = &shared;
        let workers: Vec<Worker> = (0..parts.len())
            .map(|_| Worker {
                go: Signal::new(None),
                done: Signal::new(Some(me.clone())),
                running: AtomicBool::new(false),
            })
            .collect();
        let mut numbering: Option<Arc<Numbering>> = None;
        let outcome = thread::scope(|scope| {
            for (p, (part, worker)) in parts.iter().zip(&workers).enumerate().skip(1) {
                let started = thread::Builder::new().name(format!("hase-partition-{p}")).spawn_scoped(
                    scope,
                    move || {
                        let _ = worker.go.waiter.set(thread::current());
                        // Should a behaviour panic here, the calling thread stops waiting for
                        // this one; the scope then passes the panic on, as a run on one thread
                        // would.
                        let _unblock = Unblock(&worker.done);
                        let mut window = 1;
                        loop {
                            wait_writing(&worker.go, window, backlog);
                            if worker.go.value.load(Ordering::Acquire) == u64::MAX {
                                break;
                            }
                            lock(part).run_window();
                            worker.done.raise(window);
                            window += 1;
                        }
                    },
                );
                // A partition without its thread is run by the calling thread.
                worker.running.store(started.is_ok(), Ordering::Release);
            }
            // However the loop below ends (a behaviour may panic in it), the workers quit.
            let _release = Release(&workers);
            let mut first = self.core.queue.counter();
            let mut earliest = parts.iter().filter_map(|p| lock(p).next).min();
            let mut window = 0u64;
            let mut reported = self.core.events;
            let outcome = loop {
                if cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
                    break RunOutcome::Cancelled;
                }
                let Some(start) = earliest else { break RunOutcome::Completed };
                if start > until_ps {
                    break RunOutcome::ReachedUntil;
                }
                let end = start.saturating_add(lookahead_ps).min(until_ps.saturating_add(1));
                for part in parts {
                    let mut part = lock(part);
                    part.core.window_end = end;
                    part.limit = end - 1;
                    part.first_number = first;
                }
                window += 1;
                for worker in workers.iter().skip(1).filter(|w| w.running.load(Ordering::Acquire)) {
                    worker.go.raise(window);
                }
                for (part, worker) in parts.iter().zip(&workers) {
                    if !worker.running.load(Ordering::Acquire) {
                        lock(part).run_window();
                    }
                }
                for worker in workers.iter().skip(1).filter(|w| w.running.load(Ordering::Acquire)) {
                    wait_writing(&worker.done, window, backlog);
                    if worker.done.value.load(Ordering::Acquire) == u64::MAX {
                        // The worker panicked: leave the scope, which passes its panic on.
                        return RunOutcome::Cancelled;
                    }
                }
                let mut guards: Vec<MutexGuard<'_, Partition<M, S::Part>>> = parts.iter().map(lock).collect();
                let mut refs: Vec<&mut Partition<M, S::Part>> = guards.iter_mut().map(|g| &mut **g).collect();
                // Every partition has taken in its lists: the last numbering's tables come back
                // for the merge to fill again.
                for part in &mut refs {
                    part.numbering = None;
                }
                if let Some(Ok(last)) = numbering.take().map(Arc::try_unwrap) {
                    for (part, finals) in refs.iter_mut().zip(last.finals) {
                        part.finals = finals;
                    }
                }
                let mut records = backlog.fresh();
                let window_first = first;
                first = merge_window(&mut refs, first, &mut records);
                let handed = hand_over(&mut refs, &mut records);
                let shared = Arc::new(Numbering {
                    first: window_first,
                    finals: refs.iter_mut().map(|p| std::mem::take(&mut p.finals)).collect(),
                });
                for part in &mut refs {
                    part.numbering = Some(Arc::clone(&shared));
                }
                numbering = Some(shared);
                backlog.push(records);
                let traced = self.core.traced && backlog.sink_ok();
                for part in &mut refs {
                    part.core.traced = traced;
                }
                earliest = refs.iter().filter_map(|p| p.next).chain(handed).min();
                let events = self.core.events + refs.iter().map(|p| p.core.events).sum::<u64>();
                if events - reported >= check_every.max(1) {
                    reported = events;
                    let now = refs.iter().map(|p| p.core.now).max().unwrap_or(self.core.now);
                    let pending = refs.iter().map(|p| p.core.queue.len()).sum();
                    if let Some(report) = progress.as_mut() {
                        report(Progress { events, now, pending });
                    }
                }
                if refs.iter().any(|p| p.core.stop_requested) {
                    break RunOutcome::Cancelled;
                }
                drop(refs);
                drop(guards);
                // The writing trails the windows by at most so many.
                backlog.write_until(MAX_WAITING_WINDOWS);
            };
            self.core.queue.set_counter(first);
            outcome
        });
        let (sink, error) = shared.finish();
        self.core.sink = sink;
        if let Some(e) = error {
            self.core.trace_error.get_or_insert(e);
            self.core.traced = false;
        }
        (outcome, numbering)
    }

    /// Take back what the partitions hold: their behaviours, pending events (given their final
    /// numbers by the last window's `numbering`), the link directions and statistics of the
    /// entities each owns, and the counters.
    fn take_back(
        &mut self,
        parts: Vec<Mutex<Partition<M, S::Part>>>,
        owner: &[u16],
        numbering: Option<&Numbering>,
    ) {
        let mut parts: Vec<Partition<M, S::Part>> =
            parts.into_iter().map(|m| m.into_inner().unwrap_or_else(PoisonError::into_inner)).collect();
        let mut pending: Vec<Deferred<M>> = Vec::new();
        let final_of = |from: usize, number: u64| numbering.map_or(number, |n| n.final_of(from, number));
        for (p, part) in parts.iter_mut().enumerate() {
            self.core.events += part.core.events;
            self.core.dropped += part.core.dropped;
            self.core.now = self.core.now.max(part.core.now);
            self.core.stop_requested |= part.core.stop_requested;
            while let Some((time, number, due)) = part.core.queue.pop_numbered_at_or_before(u64::MAX) {
                // Left in the agenda with a provisional number only by a window cut short by a
                // stop request.
                pending.push(Deferred { time, number: final_of(p, number), due });
            }
            for (from, list) in part.inbox.iter_mut().enumerate() {
                pending.extend(list.drain(..).map(|d| Deferred { number: final_of(from, d.number), ..d }));
            }
        }
        pending.sort_unstable_by_key(|d| d.number);
        let counter = self.core.queue.counter();
        for Deferred { time, number, due } in pending {
            self.core.queue.push_numbered(number, SimTime(time), due);
        }
        self.core.queue.set_counter(counter);
        for (entity, &p) in owner.iter().enumerate() {
            let Some(part) = parts.get(usize::from(p)) else { continue };
            for port in self.core.ports_of(entity as EntityId) {
                let dir = self.core.bindings.get(port).map_or(u32::MAX, |b| b.link_dir) as usize;
                if let (Some(mine), Some(theirs)) =
                    (self.core.link_dirs.get_mut(dir), part.core.link_dirs.get(dir))
                {
                    *mine = *theirs;
                }
            }
        }
        for (p, part) in parts.iter().enumerate() {
            self.core
                .stats
                .absorb(&part.core.stats, |e| owner.get(e as usize).is_some_and(|&o| usize::from(o) == p));
        }
        let stores = parts.into_iter().map(|part| part.store).collect();
        self.store.join(stores, owner);
    }
}
