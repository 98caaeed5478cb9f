//! The global definitions of an OTF2 export and their records: the string table, the system tree
//! (the project, then one node per compound group), one process-type location group and one
//! location per entity, the regions (one per state name; the MPI calls of a processor's states get
//! MPI regions), the communicators (every entity for the messages on links, the ranks for
//! collectives), and one metric per live value. Everything here is sized by the trace header, not
//! by the number of records. Record layouts follow the OTF2 library 3.0's global definition writer,
//! including the fields it keeps for older readers (a region's and a group's former type).

use std::collections::BTreeMap;

use super::otf2_encode::{ChunkedFile, put_str, put_u32, put_u64, record};
use super::record::TraceHeader;

/// Region role "function" (states that are not MPI calls).
const ROLE_FUNCTION: u8 = 1;
/// Region role "point-to-point".
const ROLE_POINT2POINT: u8 = 28;
/// Region role "barrier".
const ROLE_BARRIER: u8 = 15;
/// Region role "collective, one to all".
const ROLE_ONE2ALL: u8 = 23;
/// Region role "collective, all to one".
const ROLE_ALL2ONE: u8 = 24;
/// Region role "collective, all to all".
const ROLE_ALL2ALL: u8 = 25;
/// Region role "other collective".
const ROLE_COLL_OTHER: u8 = 26;
/// Paradigm "user".
const PARADIGM_USER: u8 = 1;
/// Paradigm "MPI".
const PARADIGM_MPI: u8 = 4;

/// A processor state that is an MPI call: the state, the call's name, its region role and, for a
/// collective, the OTF2 collective operation.
struct MpiCall {
    state: &'static str,
    call: &'static str,
    role: u8,
    collective: Option<u8>,
}

const fn call(state: &'static str, call: &'static str, role: u8, collective: Option<u8>) -> MpiCall {
    MpiCall { state, call, role, collective }
}

/// The states of hase's processors that are MPI calls.
const MPI_CALLS: &[MpiCall] = &[
    call("SEND", "MPI_Send", ROLE_POINT2POINT, None),
    call("RECV", "MPI_Recv", ROLE_POINT2POINT, None),
    call("WAIT", "MPI_Wait", ROLE_POINT2POINT, None),
    call("BARRIER", "MPI_Barrier", ROLE_BARRIER, Some(0)),
    call("BCAST", "MPI_Bcast", ROLE_ONE2ALL, Some(1)),
    call("GATHER", "MPI_Gather", ROLE_ALL2ONE, Some(2)),
    call("SCATTER", "MPI_Scatter", ROLE_ONE2ALL, Some(4)),
    call("ALLGATHER", "MPI_Allgather", ROLE_ALL2ALL, Some(6)),
    call("ALLTOALL", "MPI_Alltoall", ROLE_ALL2ALL, Some(8)),
    call("ALLREDUCE", "MPI_Allreduce", ROLE_ALL2ALL, Some(11)),
    call("REDUCE", "MPI_Reduce", ROLE_ALL2ONE, Some(12)),
    call("REDUCE_SCATTER", "MPI_Reduce_scatter", ROLE_ALL2ALL, Some(13)),
    call("SCAN", "MPI_Scan", ROLE_COLL_OTHER, Some(14)),
];

/// The MPI call a state named `state` is.
fn mpi_call(state: &str) -> Option<&'static MpiCall> {
    MPI_CALLS.iter().find(|c| c.state == state)
}

/// True if a state named `state` is a collective MPI call.
pub(crate) fn is_collective_state(state: &str) -> bool {
    mpi_call(state).is_some_and(|c| c.collective.is_some())
}

/// The communicator of the messages on links (every entity is a rank of it).
pub(crate) const LINKS_COMM: u32 = 0;
/// The communicator of the collectives (the entities whose states are MPI calls).
pub(crate) const RANKS_COMM: u32 = 1;

/// One region: its name and its role, paradigm and collective operation.
#[derive(Clone, Debug)]
struct Region {
    name: String,
    role: u8,
    paradigm: u8,
}

/// What one entity's state is in the export: its region and, for a collective, the operation.
#[derive(Clone, Copy, Debug)]
pub(crate) struct StateRegion {
    /// Region id.
    pub region: u32,
    /// OTF2 collective operation, for a collective call.
    pub collective: Option<u8>,
}

/// The definitions of one export.
pub(crate) struct Definitions {
    strings: BTreeMap<String, u32>,
    regions: Vec<Region>,
    /// Per entity, per state: its region.
    pub(crate) state_regions: Vec<Vec<StateRegion>>,
    /// Entities that are MPI ranks (some state is an MPI call).
    ranks: Vec<u64>,
    /// Metrics by (name, whether the values are reals), numbered in order of first use.
    metrics: BTreeMap<(String, bool), u32>,
}

impl Definitions {
    /// The regions and ranks of `header`.
    pub(crate) fn new(header: &TraceHeader) -> Self {
        let mut defs = Definitions {
            strings: BTreeMap::new(),
            regions: Vec::new(),
            state_regions: Vec::new(),
            ranks: Vec::new(),
            metrics: BTreeMap::new(),
        };
        defs.string("");
        let mut by_name: BTreeMap<String, u32> = BTreeMap::new();
        for (e, entity) in header.entities.iter().enumerate() {
            let mut regions = Vec::with_capacity(entity.states.len());
            let mut rank = false;
            for state in entity.states.iter() {
                let mpi = mpi_call(state);
                rank |= mpi.is_some();
                let (name, role, paradigm) = match mpi {
                    Some(c) => (c.call.to_string(), c.role, PARADIGM_MPI),
                    None => (state.clone(), ROLE_FUNCTION, PARADIGM_USER),
                };
                let next = defs.regions.len() as u32;
                let region = *by_name.entry(name.clone()).or_insert_with(|| {
                    defs.regions.push(Region { name, role, paradigm });
                    next
                });
                regions.push(StateRegion { region, collective: mpi.and_then(|c| c.collective) });
            }
            if rank {
                defs.ranks.push(e as u64);
            }
            defs.state_regions.push(regions);
        }
        defs
    }

    fn string(&mut self, text: &str) -> u32 {
        let next = self.strings.len() as u32;
        *self.strings.entry(text.to_string()).or_insert(next)
    }

    /// The metric for live value `name` with integer or real values.
    pub(crate) fn metric(&mut self, name: &str, real: bool) -> u32 {
        let next = self.metrics.len() as u32;
        *self.metrics.entry((name.to_string(), real)).or_insert(next)
    }

    /// Write every definition to `file` (the global definitions); `events` are the event counts
    /// per location and `end_ps` the trace's length.
    pub(crate) fn write(
        mut self,
        header: &TraceHeader,
        events: &[u64],
        end_ps: u64,
        file: &mut ChunkedFile,
    ) -> std::io::Result<()> {
        // Strings first (every name is interned before any record refers to it).
        let project = self.string(&header.project);
        let machine = self.string("machine");
        let group_class = self.string("compound");
        let groups: Vec<u32> = header.groups.iter().map(|g| self.string(&g.path)).collect();
        let entities: Vec<u32> = header.entities.iter().map(|e| self.string(&e.path)).collect();
        let region_names: Vec<u32> = self.regions.clone().iter().map(|r| self.string(&r.name)).collect();
        let links_name = self.string("links");
        let ranks_name = self.string("ranks");
        let metrics: Vec<((String, bool), u32)> = self.metrics.clone().into_iter().collect();
        let mut metric_names: BTreeMap<u32, (u32, bool)> = BTreeMap::new();
        for ((name, real), id) in &metrics {
            let s = self.string(name);
            metric_names.insert(*id, (s, *real));
        }

        let mut f = Vec::new();
        // Clock: picoseconds.
        put_u64(&mut f, 1_000_000_000_000);
        put_u64(&mut f, 0);
        put_u64(&mut f, end_ps);
        put_u64(&mut f, u64::MAX);
        file.definition(&record(5, &f))?;

        let mut strings: Vec<(&String, &u32)> = self.strings.iter().collect();
        strings.sort_by_key(|(_, id)| **id);
        for (text, id) in strings {
            let mut f = Vec::new();
            put_u32(&mut f, *id);
            put_str(&mut f, text);
            file.definition(&record(10, &f))?;
        }

        // System tree: node 0 the project, node g + 1 compound group g.
        let tree = |f: &mut Vec<u8>, id: u32, name: u32, class: u32, parent: u32| {
            put_u32(f, id);
            put_u32(f, name);
            put_u32(f, class);
            put_u32(f, parent);
        };
        let mut f = Vec::new();
        tree(&mut f, 0, project, machine, u32::MAX);
        file.definition(&record(12, &f))?;
        for (g, (info, name)) in header.groups.iter().zip(&groups).enumerate() {
            let mut f = Vec::new();
            tree(&mut f, g as u32 + 1, *name, group_class, info.parent.map_or(0, |p| p + 1));
            file.definition(&record(12, &f))?;
        }

        // One process per entity, one thread per process.
        for (e, (info, name)) in header.entities.iter().zip(&entities).enumerate() {
            let mut f = Vec::new();
            put_u32(&mut f, e as u32);
            put_u32(&mut f, *name);
            f.push(1); // process
            put_u32(&mut f, info.group.map_or(0, |g| g + 1));
            put_u32(&mut f, u32::MAX);
            file.definition(&record(13, &f))?;
        }
        for (e, name) in entities.iter().enumerate() {
            let mut f = Vec::new();
            put_u64(&mut f, e as u64);
            put_u32(&mut f, *name);
            f.push(1); // CPU thread
            put_u64(&mut f, events.get(e).copied().unwrap_or(0));
            put_u32(&mut f, e as u32);
            file.definition(&record(14, &f))?;
        }

        for (id, (region, name)) in self.regions.iter().zip(&region_names).enumerate() {
            let mut f = Vec::new();
            put_u32(&mut f, id as u32);
            put_u32(&mut f, *name);
            put_u32(&mut f, 0); // description
            f.push(if region.role == ROLE_FUNCTION { 3 } else { 0 }); // former region type
            put_u32(&mut f, 0); // source file
            put_u32(&mut f, 0); // first line
            put_u32(&mut f, 0); // last line
            put_u32(&mut f, *name); // canonical name
            f.push(region.role);
            f.push(region.paradigm);
            put_u32(&mut f, 0); // flags
            file.definition(&record(15, &f))?;
        }

        // Groups: 0 maps MPI ranks to locations (every entity), 1 the links communicator's ranks,
        // 2 the ranks communicator's.
        let all: Vec<u64> = (0..header.entities.len() as u64).collect();
        let group = |f: &mut Vec<u8>, id: u32, name: u32, former: u8, members: &[u64], kind: u8| {
            put_u32(f, id);
            put_u32(f, name);
            f.push(former);
            put_u32(f, members.len() as u32);
            for m in members {
                put_u64(f, *m);
            }
            f.push(kind);
            f.push(PARADIGM_MPI);
            put_u32(f, 0); // flags
        };
        for (id, name, former, members, kind) in
            [(0, links_name, 6, &all, 4), (1, links_name, 4, &all, 5), (2, ranks_name, 4, &self.ranks, 5)]
        {
            let mut f = Vec::new();
            group(&mut f, id, name, former, members, kind);
            file.definition(&record(18, &f))?;
        }
        for (id, name, group) in [(LINKS_COMM, links_name, 1), (RANKS_COMM, ranks_name, 2)] {
            let mut f = Vec::new();
            put_u32(&mut f, id);
            put_u32(&mut f, name);
            put_u32(&mut f, group);
            put_u32(&mut f, u32::MAX); // parent
            put_u32(&mut f, 0); // flags
            file.definition(&record(22, &f))?;
        }

        for (id, (name, real)) in &metric_names {
            let mut f = Vec::new();
            put_u32(&mut f, *id);
            put_u32(&mut f, *name);
            put_u32(&mut f, *name); // description
            f.push(3); // user metric
            f.push(0x11); // absolute value at a point in time
            f.push(if *real { 10 } else { 8 }); // double or int64
            f.push(1); // decimal
            put_u64(&mut f, 0); // exponent
            put_u32(&mut f, 0); // unit
            file.definition(&record(19, &f))?;
        }
        for id in metric_names.keys() {
            let mut f = Vec::new();
            put_u32(&mut f, *id);
            f.push(1);
            put_u32(&mut f, *id);
            f.push(2); // asynchronous
            f.push(1); // abstract recorder
            file.definition(&record(20, &f))?;
        }
        Ok(())
    }
}
