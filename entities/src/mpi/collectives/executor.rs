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

use super::micro_op::MicroOp;

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
    SizeMismatch { src: u32, dst: u32, sent: u64, expected: u64 },
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
pub(super) struct SymbolicRun {
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
    out: SymbolicRun,
}

/// Run `schedules[r]` for every rank r (at most 64 ranks).
pub(super) fn execute(schedules: &[Vec<MicroOp>], protocol: Protocol) -> Result<SymbolicRun, ExecError> {
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
        out: SymbolicRun {
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
                    let message = InFlight { bytes, knows: self.out.knows[r], handle };
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
                    return Err(ExecError::CombineWithoutData { rank, bytes, available: self.uncombined[r] });
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

    fn finish(self) -> Result<SymbolicRun, ExecError> {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn send(peer: u32, bytes: u64) -> [MicroOp; 2] {
        [MicroOp::Isend { peer, bytes }, MicroOp::Wait(vec![0])]
    }

    #[test]
    fn executor_detects_deadlocks_and_mismatches() {
        use MicroOp::{Irecv, Isend, Wait};
        // Both receive first: deadlock under either protocol.
        let head_on = vec![
            vec![Irecv { peer: 1, bytes: 0 }, Wait(vec![0]), Isend { peer: 1, bytes: 0 }, Wait(vec![1])],
            vec![Irecv { peer: 0, bytes: 0 }, Wait(vec![0]), Isend { peer: 0, bytes: 0 }, Wait(vec![1])],
        ];
        for protocol in [Protocol::Eager, Protocol::Rendezvous] {
            let Err(ExecError::Deadlock { blocked }) = execute(&head_on, protocol) else {
                panic!("deadlock not found")
            };
            assert_eq!(blocked.len(), 2);
            assert_eq!(blocked[0], (0, 1, Wait(vec![0])));
        }
        // Both send first with blocking sends: fine with buffering, deadlock under rendezvous.
        let send_first = vec![
            vec![Isend { peer: 1, bytes: 8 }, Wait(vec![0]), Irecv { peer: 1, bytes: 8 }, Wait(vec![1])],
            vec![Isend { peer: 0, bytes: 8 }, Wait(vec![0]), Irecv { peer: 0, bytes: 8 }, Wait(vec![1])],
        ];
        assert!(execute(&send_first, Protocol::Eager).is_ok());
        assert!(matches!(execute(&send_first, Protocol::Rendezvous), Err(ExecError::Deadlock { .. })));
        // Unmatched send, size mismatch, bad peer, bad handle, double wait, no wait, combine.
        let lonely = vec![send(1, 4).to_vec(), vec![]];
        assert_eq!(
            execute(&lonely, Protocol::Eager).unwrap_err(),
            ExecError::UnmatchedSend { src: 0, dst: 1, bytes: 4 }
        );
        let unreceived = vec![vec![], vec![Irecv { peer: 0, bytes: 4 }]];
        assert_eq!(
            execute(&unreceived, Protocol::Eager).unwrap_err(),
            ExecError::UnmatchedRecv { src: 0, dst: 1, bytes: 4 }
        );
        let mismatch = vec![send(1, 4).to_vec(), vec![Irecv { peer: 0, bytes: 5 }, Wait(vec![0])]];
        assert!(matches!(
            execute(&mismatch, Protocol::Eager),
            Err(ExecError::SizeMismatch { sent: 4, expected: 5, .. })
        ));
        let to_self = vec![send(0, 4).to_vec()];
        assert!(matches!(execute(&to_self, Protocol::Eager), Err(ExecError::BadPeer { .. })));
        let bad_handle = vec![vec![Wait(vec![0])]];
        assert!(matches!(execute(&bad_handle, Protocol::Eager), Err(ExecError::BadHandle { .. })));
        let twice = vec![
            [send(1, 1).as_slice(), &[Wait(vec![0])]].concat(),
            vec![Irecv { peer: 0, bytes: 1 }, Wait(vec![0])],
        ];
        assert!(matches!(execute(&twice, Protocol::Eager), Err(ExecError::WaitedTwice { .. })));
        let unwaited =
            vec![vec![Isend { peer: 1, bytes: 1 }], vec![Irecv { peer: 0, bytes: 1 }, Wait(vec![0])]];
        assert!(matches!(
            execute(&unwaited, Protocol::Eager),
            Err(ExecError::NeverWaited { rank: 0, handle: 0 })
        ));
        let greedy = vec![
            send(1, 4).to_vec(),
            vec![Irecv { peer: 0, bytes: 4 }, Wait(vec![0]), MicroOp::Combine { bytes: 5 }],
        ];
        assert!(matches!(
            execute(&greedy, Protocol::Eager),
            Err(ExecError::CombineWithoutData { bytes: 5, available: 4, .. })
        ));
    }

    #[test]
    fn messages_carry_the_senders_set_at_send_time() {
        use MicroOp::{Irecv, Isend, Wait};
        // Rank 1 forwards to 2 before waiting for 0's message: 2 must not learn about 0.
        let early = vec![
            send(1, 0).to_vec(),
            vec![Irecv { peer: 0, bytes: 0 }, Isend { peer: 2, bytes: 0 }, Wait(vec![0, 1])],
            vec![Irecv { peer: 1, bytes: 0 }, Wait(vec![0])],
        ];
        assert_eq!(execute(&early, Protocol::Eager).unwrap().knows, [0b001, 0b011, 0b110]);
        // Waiting first makes the chain carry rank 0's contribution through.
        let late = vec![
            send(1, 0).to_vec(),
            vec![Irecv { peer: 0, bytes: 0 }, Wait(vec![0]), Isend { peer: 2, bytes: 0 }, Wait(vec![1])],
            vec![Irecv { peer: 1, bytes: 0 }, Wait(vec![0])],
        ];
        assert_eq!(execute(&late, Protocol::Eager).unwrap().knows, [0b001, 0b011, 0b111]);
    }
}
