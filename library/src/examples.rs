//! The example projects shipped in `projects/`, defined here in code so they can be regenerated and
//! checked: the end-to-end tests compare every committed file with what this module builds, then run
//! each one against its golden trace fingerprint.

use std::collections::BTreeMap;

use hase_engine::model::{ParamValue, Project, StreamSource, Workload};
use hase_engine::time::SimTime;
use hase_templates::{ProjectForm, TemplateError, TemplateSpec, Topology, template_project};

use crate::catalogue::registry_for;

/// One example: its file name in `projects/`, the project, and any files it refers to.
#[derive(Clone, Debug)]
pub struct Example {
    /// File name, e.g. `fat_tree_allreduce.ron`.
    pub file: &'static str,
    /// What it shows.
    pub summary: &'static str,
    /// The project.
    pub project: Project,
    /// Extra files (path relative to `projects/`, contents), e.g. instruction streams.
    pub extra_files: Vec<(String, String)>,
}

fn program(name: &str, params: &[(&str, ParamValue)]) -> Workload {
    Workload::Program {
        name: name.to_string(),
        params: params.iter().map(|(k, v)| ((*k).to_string(), v.clone())).collect::<BTreeMap<_, _>>(),
    }
}

fn generate(topology: Topology, name: &str, form: &ProjectForm) -> Result<Project, TemplateError> {
    let spec = TemplateSpec::new(topology);
    let registry = registry_for(&Project::new(name));
    template_project(&spec, &registry, name, form)
}

/// The allreduce both tree examples run: recursive doubling on 64 KiB, twice, 10 µs apart.
fn allreduce_workload() -> Workload {
    program(
        "collective_loop",
        &[
            ("operation", ParamValue::Text("allreduce".into())),
            ("algorithm", ParamValue::Text("recursive_doubling".into())),
            ("message_bytes", ParamValue::Int(64 * 1024)),
            ("iterations", ParamValue::Int(2)),
            ("compute_time", ParamValue::Time(SimTime::from_us(10))),
        ],
    )
}

/// The thesis demonstration, fat tree half: 8 processors on a 2-ary 3-tree.
pub fn fat_tree_allreduce() -> Result<Example, TemplateError> {
    let mut project =
        generate(Topology::FatTree { arity: 2, levels: 3 }, "Allreduce on a fat tree", &ProjectForm::Flat)?;
    project.description = "Recursive-doubling allreduce of 64 KiB on 8 processors joined by a 2-ary 3-tree \
        (fat tree). Every level has as many links as processors, so the exchanges of each round never share \
        a link: compare with the binary tree, whose root links carry half of all traffic."
        .into();
    project.workload = allreduce_workload();
    Ok(Example {
        file: "fat_tree_allreduce.ron",
        summary: "allreduce on an 8-processor fat tree (the thesis demonstration)",
        project,
        extra_files: vec![],
    })
}

/// The thesis demonstration, binary tree half: the same allreduce on a binary tree.
pub fn binary_tree_allreduce() -> Result<Example, TemplateError> {
    let mut project =
        generate(Topology::BinaryTree { levels: 3 }, "Allreduce on a binary tree", &ProjectForm::Flat)?;
    project.description = "The same recursive-doubling allreduce of 64 KiB on 8 processors joined by a \
        binary tree of switches. In the last round every processor exchanges with the other half of the \
        tree, so all traffic crosses the two root links: the run takes about twice as long as on the fat tree."
        .into();
    project.workload = allreduce_workload();
    Ok(Example {
        file: "binary_tree_allreduce.ron",
        summary: "allreduce on an 8-processor binary tree (the root links are the bottleneck)",
        project,
        extra_files: vec![],
    })
}

/// One rank's stream in the 4×4 wavefront: wait for west and north, compute, pass east and south.
fn wavefront_stream(rank: u32, side: u32) -> String {
    let (x, y) = (rank % side, rank / side);
    let mut s = format!(
        "# Rank {rank} at column {x}, row {y} of a {side}x{side} wavefront sweep.\n\
         # Wait for the west and north neighbours, compute, then pass results east and south.\n\
         REPEAT 3\n"
    );
    let mut line = |text: String| {
        s.push_str(&text);
        s.push('\n');
    };
    if x > 0 {
        line(format!("  RECV {} 1", rank - 1));
    }
    if y > 0 {
        line(format!("  RECV {} 1", rank - side));
    }
    line("  COMPUTE 20us".into());
    if x + 1 < side {
        line(format!("  SEND {} 2K 1", rank + 1));
    }
    if y + 1 < side {
        line(format!("  SEND {} 2K 1", rank + side));
    }
    s += "END\n# Agree on a residual and finish together.\nALLREDUCE 8\nBARRIER\n";
    s
}

/// A 4×4 mesh driven by one instruction-stream file per processor.
pub fn mesh_streams() -> Result<Example, TemplateError> {
    let mut project =
        generate(Topology::Mesh2D { x: 4, y: 4 }, "Wavefront on a 4x4 mesh", &ProjectForm::Flat)?;
    project.description = "A 4x4 mesh of routers and processors driven by HASE-style instruction streams \
        (projects/mesh_streams/rank*.txt): three wavefront sweeps from the top-left corner, then an \
        allreduce and a barrier."
        .into();
    let mut streams = BTreeMap::new();
    let mut files = Vec::new();
    for rank in 0..16 {
        let path = format!("mesh_streams/rank{rank:02}.txt");
        files.push((path.clone(), wavefront_stream(rank, 4)));
        streams.insert(rank, StreamSource::File(path));
    }
    project.workload = Workload::Streams { streams };
    Ok(Example {
        file: "mesh_streams.ron",
        summary: "a 4x4 mesh driven by instruction streams",
        project,
        extra_files: files,
    })
}

/// An 8-input omega network under an all-to-all.
pub fn omega8() -> Result<Example, TemplateError> {
    let mut project =
        generate(Topology::Omega { stages: 3 }, "All-to-all on an omega network", &ProjectForm::Flat)?;
    project.description = "8 processors send to 8 processors through three stages of 2x2 switches \
        (destination-tag routing). A pairwise all-to-all of 4 KiB blocks shows the internal blocking of \
        the omega network."
        .into();
    project.workload = program(
        "collective_loop",
        &[
            ("operation", ParamValue::Text("alltoall".into())),
            ("algorithm", ParamValue::Text("pairwise".into())),
            ("message_bytes", ParamValue::Int(4096)),
            ("iterations", ParamValue::Int(1)),
        ],
    );
    Ok(Example {
        file: "omega8.ron",
        summary: "an 8-input omega network running an all-to-all",
        project,
        extra_files: vec![],
    })
}

/// A 3D torus running the ATM2D halo exchange.
pub fn torus3d_halo() -> Result<Example, TemplateError> {
    let mut project =
        generate(Topology::Torus3D { x: 4, y: 4, z: 2 }, "Halo exchange on a 3D torus", &ProjectForm::Flat)?;
    project.description = "32 processors on a 4x4x2 torus run the ATM2D halo exchange of seed 004: an 8x4 \
        periodic grid of ranks trading 8 KiB faces with their four neighbours after each compute phase."
        .into();
    project.workload = program(
        "halo2d",
        &[
            ("grid_x", ParamValue::Int(8)),
            ("grid_y", ParamValue::Int(4)),
            ("periodic", ParamValue::Bool(true)),
            ("face_bytes", ParamValue::Int(8192)),
            ("iterations", ParamValue::Int(4)),
            ("compute_time", ParamValue::Time(SimTime::from_us(50))),
        ],
    );
    Ok(Example {
        file: "torus3d_halo.ron",
        summary: "a 3D torus running a halo exchange",
        project,
        extra_files: vec![],
    })
}

/// A task farm with random task times on a 2D torus.
pub fn task_farm() -> Result<Example, TemplateError> {
    let mut project = generate(Topology::Torus2D { x: 4, y: 4 }, "Task farm", &ProjectForm::Flat)?;
    project.description = "Rank 0 hands out 60 tasks to 15 workers on a 4x4 torus. Task times are drawn \
        from an exponential distribution (mean 100 us) from each worker's seeded stream; the master answers \
        whichever worker reports first (ANY_SOURCE), so the schedule changes with the seed."
        .into();
    project.workload = program(
        "task_farm",
        &[
            ("tasks", ParamValue::Int(60)),
            ("distribution", ParamValue::Text("exponential".into())),
            ("mean_time", ParamValue::Time(SimTime::from_us(100))),
            ("task_bytes", ParamValue::Int(1024)),
            ("result_bytes", ParamValue::Int(256)),
        ],
    );
    project.settings.seed = 7;
    Ok(Example {
        file: "task_farm.ron",
        summary: "a task farm with random task times",
        project,
        extra_files: vec![],
    })
}

/// A compound network whose abstraction toggle gives matching results on a contention-free workload.
pub fn abstraction_toggle() -> Result<Example, TemplateError> {
    let topology = Topology::FatTree { arity: 2, levels: 3 };
    let form = ProjectForm::Compound { type_name: topology.type_name() };
    let mut project = generate(topology, "Abstraction toggle", &form)?;
    project.description = "The fat tree is one compound instance, `fabric`. Its inspector toggles between \
        the detailed level (switches and links) and the behavioural level (one hop-count model). A ping-pong \
        never contends, so both levels give the same times; switch a contended workload in to see them differ."
        .into();
    project.workload = program(
        "ping_pong",
        &[("message_bytes", ParamValue::Int(16 * 1024)), ("iterations", ParamValue::Int(4))],
    );
    Ok(Example {
        file: "abstraction_toggle.ron",
        summary: "a compound network with a detailed/behavioural toggle",
        project,
        extra_files: vec![],
    })
}

/// The project of the shipped experiment (`projects/experiments/allreduce_trees.sweep.ron`): one
/// allreduce on a fat tree, whose spec also regenerates it as a binary tree and sweeps the message
/// size and the algorithm. Contention shows on the binary tree as the messages grow.
pub fn experiment_allreduce_trees() -> Result<Example, TemplateError> {
    let mut project = generate(
        Topology::FatTree { arity: 2, levels: 3 },
        "Allreduce: fat tree vs binary tree",
        &ProjectForm::Flat,
    )?;
    project.description = "The project of the example experiment experiments/allreduce_trees.sweep.ron: one \
        allreduce on 8 processors of a 2-ary 3-tree. The experiment regenerates the network as a binary tree \
        from the generator recipe and sweeps the message size (1 KiB to 1 MiB) and the allreduce algorithm."
        .into();
    project.workload = program(
        "collective_loop",
        &[
            ("operation", ParamValue::Text("allreduce".into())),
            ("algorithm", ParamValue::Text("recursive_doubling".into())),
            ("message_bytes", ParamValue::Int(64 * 1024)),
            ("iterations", ParamValue::Int(1)),
        ],
    );
    Ok(Example {
        file: "experiments/allreduce_trees.ron",
        summary: "the project of the example experiment (fat tree vs binary tree)",
        project,
        extra_files: vec![],
    })
}

/// Every example, in a stable order.
pub fn all() -> Result<Vec<Example>, TemplateError> {
    Ok(vec![
        fat_tree_allreduce()?,
        binary_tree_allreduce()?,
        mesh_streams()?,
        omega8()?,
        torus3d_halo()?,
        task_farm()?,
        abstraction_toggle()?,
        experiment_allreduce_trees()?,
    ])
}
