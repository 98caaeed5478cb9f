//! Test-only symbolic executor: runs every rank's schedule together, with no notion of time, and
//! reports what a real run would trip over — deadlocks (a wait that can never complete), sends or
//! receives left unmatched, size mismatches, bad peers and handles, requests never waited for, and
//! combines of data that never arrived.
//!
//! Matching is FIFO per (source, destination) pair, as MPI's non-overtaking rule makes it for one
//! tag and communicator. Two protocols: `Eager` (unbounded buffering: a send completes when posted)
//! and `Rendezvous` (a send completes only once a matching receive has been posted), the latter
//! catching schedules that rely on buffering.
//!
//! Causality: each rank carries the set of ranks whose contribution it holds (initially itself). A
//! message carries its sender's set as it was when the send was posted; waiting on a completed
//! receive merges the message's set into the receiver's.

use std::collections::{BTreeMap, VecDeque};

use super::MicroOp;

/// When a send completes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Protocol {
    /// On posting (unbounded buffering).
    Eager,
    /// Once the receiver has posted the matching receive.
    Rendezvous,
}

/// What went wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum ExecError {
    /// No rank can move; each blocked rank with its step index and step.
    Deadlock { blocked: Vec<(u32, usize, MicroOp)> },
    /// A send no receive ever matched.
    UnmatchedSend { src: u32, dst: u32, bytes: u64 },
    /// A receive no send ever matched.
    UnmatchedRecv { src: u32, dst: u32, bytes: u64 },
    /// Matched send and receive disagree on the size.
    SizeMismatch {
        src: u32,
        dst: u32,
        sent: u64,
        expected: u64,
    },
    /// A peer outside the communicator, or the rank itself.
    BadPeer { rank: u32, peer: u32 },
    /// A wait on a handle not yet posted.
    BadHandle { rank: u32, handle: u32 },
    /// A handle waited for twice.
    WaitedTwice { rank: u32, handle: u32 },
    /// A request the schedule never waited for.
    NeverWaited { rank: u32, handle: u32 },
    /// More bytes combined than received and not yet combined.
    CombineWithoutData { rank: u32, bytes: u64, available: u64 },
}

/// What a successful run leaves behind.
#[derive(Clone, Debug, Default)]
pub(super) struct Outcome {
    /// Per rank, the set of ranks whose contribution it holds (bit r = rank r).
    pub(super) knows: Vec<u64>,
    /// Per rank, its sends in posting order: (destination, bytes).
    pub(super) sends: Vec<Vec<(u32, u64)>>,
    /// Per rank, bytes received.
    pub(super) received_bytes: Vec<u64>,
    /// Per rank, bytes combined.
    pub(super) combined_bytes: Vec<u64>,
}

#[derive(Clone, Debug)]
struct Request {
    send: bool,
    bytes: u64,
    done: bool,
    waited: bool,
    payload: u64,
}

#[derive(Clone, Debug)]
struct InFlight {
    bytes: u64,
    knows: u64,
    handle: u32,
}

struct Machine<'a> {
    schedules: &'a [Vec<MicroOp>],
    protocol: Protocol,
    pc: Vec<usize>,
    requests: Vec<Vec<Request>>,
    uncombined: Vec<u64>,
    in_flight: BTreeMap<(u32, u32), VecDeque<InFlight>>,
    posted: BTreeMap<(u32, u32), VecDeque<u32>>,
    out: Outcome,
}

/// Run `schedules[r]` for every rank r (at most 64 ranks).
pub(super) fn execute(schedules: &[Vec<MicroOp>], protocol: Protocol) -> Result<Outcome, ExecError> {
    let size = schedules.len();
    assert!(size <= 64, "the executor tracks causality in a u64");
    let mut m = Machine {
        schedules,
        protocol,
        pc: vec![0; size],
        requests: vec![Vec::new(); size],
        uncombined: vec![0; size],
        in_flight: BTreeMap::new(),
        posted: BTreeMap::new(),
        out: Outcome {
            knows: (0..size).map(|r| 1_u64 << r).collect(),
            sends: vec![Vec::new(); size],
            received_bytes: vec![0; size],
            combined_bytes: vec![0; size],
        },
    };
    loop {
        let mut progressed = false;
        for rank in 0..size as u32 {
            while m.step(rank)? {
                progressed = true;
            }
        }
        if !progressed {
            break;
        }
    }
    m.finish()
}

impl Machine<'_> {
    /// Try to run `rank`'s next step; `Ok(true)` if it ran.
    fn step(&mut self, rank: u32) -> Result<bool, ExecError> {
        let r = rank as usize;
        let Some(op) = self.schedules[r].get(self.pc[r]) else {
            return Ok(false);
        };
        match op {
            &MicroOp::Isend { peer, bytes } | &MicroOp::Irecv { peer, bytes } => {
                if peer as usize >= self.schedules.len() || peer == rank {
                    return Err(ExecError::BadPeer { rank, peer });
                }
                let send = matches!(op, MicroOp::Isend { .. });
                let handle = self.requests[r].len() as u32;
                self.requests[r].push(Request {
                    send,
                    bytes,
                    done: send && self.protocol == Protocol::Eager,
                    waited: false,
                    payload: 0,
                });
                if send {
                    self.out.sends[r].push((peer, bytes));
                    let message = InFlight {
                        bytes,
                        knows: self.out.knows[r],
                        handle,
                    };
                    self.in_flight.entry((rank, peer)).or_default().push_back(message);
                    self.match_pair(rank, peer)?;
                } else {
                    self.posted.entry((peer, rank)).or_default().push_back(handle);
                    self.match_pair(peer, rank)?;
                }
            }
            MicroOp::Wait(handles) => {
                for &handle in handles {
                    match self.requests[r].get(handle as usize) {
                        None => return Err(ExecError::BadHandle { rank, handle }),
                        Some(request) if request.waited => {
                            return Err(ExecError::WaitedTwice { rank, handle });
                        }
                        Some(request) if !request.done => return Ok(false),
                        Some(_) => {}
                    }
                }
                for &handle in handles {
                    let request = &mut self.requests[r][handle as usize];
                    request.waited = true;
                    if !request.send {
                        self.out.knows[r] |= request.payload;
                        self.out.received_bytes[r] += request.bytes;
                        self.uncombined[r] += request.bytes;
                    }
                }
            }
            &MicroOp::Combine { bytes } => {
                if bytes > self.uncombined[r] {
                    return Err(ExecError::CombineWithoutData {
                        rank,
                        bytes,
                        available: self.uncombined[r],
                    });
                }
                self.uncombined[r] -= bytes;
                self.out.combined_bytes[r] += bytes;
            }
        }
        self.pc[r] += 1;
        Ok(true)
    }

    /// Match queued sends from `src` to `dst` with `dst`'s posted receives from `src`, in order.
    fn match_pair(&mut self, src: u32, dst: u32) -> Result<(), ExecError> {
        loop {
            let key = (src, dst);
            let ready = self.in_flight.get(&key).is_some_and(|q| !q.is_empty())
                && self.posted.get(&key).is_some_and(|q| !q.is_empty());
            if !ready {
                return Ok(());
            }
            let message = self.in_flight.get_mut(&key).and_then(VecDeque::pop_front);
            let handle = self.posted.get_mut(&key).and_then(VecDeque::pop_front);
            let (Some(message), Some(handle)) = (message, handle) else {
                unreachable!("both queues were non-empty");
            };
            let receive = &mut self.requests[dst as usize][handle as usize];
            if receive.bytes != message.bytes {
                return Err(ExecError::SizeMismatch {
                    src,
                    dst,
                    sent: message.bytes,
                    expected: receive.bytes,
                });
            }
            receive.done = true;
            receive.payload = message.knows;
            self.requests[src as usize][message.handle as usize].done = true;
        }
    }

    fn finish(self) -> Result<Outcome, ExecError> {
        let blocked: Vec<(u32, usize, MicroOp)> = (0..self.schedules.len())
            .filter(|&r| self.pc[r] < self.schedules[r].len())
            .map(|r| (r as u32, self.pc[r], self.schedules[r][self.pc[r]].clone()))
            .collect();
        if !blocked.is_empty() {
            return Err(ExecError::Deadlock { blocked });
        }
        for (&(src, dst), queue) in &self.in_flight {
            if let Some(message) = queue.front() {
                let bytes = message.bytes;
                return Err(ExecError::UnmatchedSend { src, dst, bytes });
            }
        }
        for (&(src, dst), queue) in &self.posted {
            if let Some(&handle) = queue.front() {
                let bytes = self.requests[dst as usize][handle as usize].bytes;
                return Err(ExecError::UnmatchedRecv { src, dst, bytes });
            }
        }
        for (rank, requests) in self.requests.iter().enumerate() {
            if let Some(handle) = requests.iter().position(|q| !q.waited) {
                let (rank, handle) = (rank as u32, handle as u32);
                return Err(ExecError::NeverWaited { rank, handle });
            }
        }
        Ok(self.out)
    }
}
