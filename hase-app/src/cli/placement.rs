//! Rank placement on the command line: `--np N` (the first N processors), `--ranks LIST` (processor
//! ranks, ranges or instance paths in MPI rank order) or `--hostfile FILE` (one processor per line,
//! SimGrid style; with `--np N`, its first N lines, as `smpirun -np N -hostfile FILE` takes them),
//! shared by `hase run`, `hase new` and `hase import`.

use std::path::PathBuf;

use anyhow::Context;
use clap::Args;
use hase_engine::model::Placement;

/// Where the workload's ranks run.
#[derive(Debug, Default, Args)]
pub struct PlacementArgs {
    /// Run the workload on the first N processors only (with `--hostfile`: on the first N hosts
    /// it lists).
    #[arg(long, value_name = "N", conflicts_with = "ranks")]
    pub np: Option<u32>,
    /// Run MPI rank i on the i-th processor listed: processor ranks and ranges (`0,4,8-11`) or
    /// instance paths (`p3,p0`).
    #[arg(long, value_name = "LIST", conflicts_with = "hostfile")]
    pub ranks: Option<String>,
    /// Run MPI rank i on the processor named on the i-th line of this file (SimGrid hostfile; names
    /// are matched as imported: `node-3.cluster` is processor `node-3_cluster`).
    #[arg(long, value_name = "FILE")]
    pub hostfile: Option<PathBuf>,
}

impl PlacementArgs {
    /// The placement asked for, if any.
    pub fn placement(&self) -> anyhow::Result<Option<Placement>> {
        if let Some(n) = self.np {
            anyhow::ensure!(n > 0, "--np must be at least 1");
            if self.hostfile.is_none() {
                return Ok(Some(Placement::First(n)));
            }
        }
        if let Some(list) = &self.ranks {
            return Ok(Some(
                Placement::parse_list(list)
                    .with_context(|| format!("--ranks {}", hase_engine::limits::quote(list)))?,
            ));
        }
        if let Some(path) = &self.hostfile {
            let text = hase_engine::limits::read_text_input(path)
                .with_context(|| format!("cannot read hostfile {}", path.display()))?;
            let placement = Placement::from_hostfile(&text, &path.display().to_string())?;
            return Ok(Some(match (placement, self.np) {
                (Placement::Hosts(mut hosts), Some(n)) => {
                    anyhow::ensure!(
                        hosts.len() >= n as usize,
                        "--np {n}: the hostfile {} lists only {} hosts",
                        path.display(),
                        hosts.len()
                    );
                    hosts.truncate(n as usize);
                    Placement::Hosts(hosts)
                }
                (placement, _) => placement,
            }));
        }
        Ok(None)
    }
}
