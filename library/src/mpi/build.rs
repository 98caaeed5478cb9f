//! Building the bundled C with `mpicc`, at run time, into a cache: `<cache>/mpi/<name>-<hash>/`,
//! where the hash covers the source, the shared header, the flags and `mpicc --version`, so a
//! changed source or compiler builds afresh and an unchanged one is reused. A build writes to a
//! temporary name and renames, so concurrent builds of the same tool are safe.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::error::MpiError;

const SHIM_HEADER: &str = include_str!("../../../assets/mpi/shim/hase_shim.h");

/// A bundled C program or shim.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CTool {
    /// Name of the built file (`hase_bench`, `libhase_record.so`).
    pub name: &'static str,
    /// Its source file under `assets/mpi/`.
    pub source_path: &'static str,
    /// The source text.
    pub source: &'static str,
    /// A shared library to preload rather than a program.
    pub shared: bool,
}

/// The benchmark of `hase mpi bench`.
pub const BENCH: CTool = CTool {
    name: "hase_bench",
    source_path: "assets/mpi/bench/hase_bench.c",
    source: include_str!("../../../assets/mpi/bench/hase_bench.c"),
    shared: false,
};

/// The PMPI logger of `hase mpi record`.
pub const RECORDER: CTool = CTool {
    name: "libhase_record.so",
    source_path: "assets/mpi/shim/hase_record.c",
    source: include_str!("../../../assets/mpi/shim/hase_record.c"),
    shared: true,
};

/// The reverse profiler of `hase mpi predict`.
pub const PREDICTOR: CTool = CTool {
    name: "libhase_predict.so",
    source_path: "assets/mpi/shim/hase_predict.c",
    source: include_str!("../../../assets/mpi/shim/hase_predict.c"),
    shared: true,
};

/// A bundled sample program, `assets/mpi/samples/NAME.c`.
macro_rules! sample_tool {
    ($name:literal) => {
        CTool {
            name: $name,
            source_path: concat!("assets/mpi/samples/", $name, ".c"),
            source: include_str!(concat!("../../../assets/mpi/samples/", $name, ".c")),
            shared: false,
        }
    };
}

/// The sample programs (`hase mpi sample NAME` builds one and prints its path).
/// The first four are compute-bound programs; the next five exercise the network and time their own
/// communication (`hase-time` lines, read by [`super::timings`]); `sample_sort` uses v-collectives,
/// `Comm_split` halves and `MPI_PROC_NULL` neighbours.
pub const SAMPLES: [CTool; 10] = [
    sample_tool!("merge_sort"),
    sample_tool!("halo2d"),
    sample_tool!("pipeline"),
    sample_tool!("task_farm"),
    sample_tool!("pingpong"),
    sample_tool!("exchange"),
    sample_tool!("allreduce_loop"),
    sample_tool!("alltoall_loop"),
    sample_tool!("halo_comm"),
    sample_tool!("sample_sort"),
];

/// A sample program by name.
pub fn sample(name: &str) -> Result<CTool, MpiError> {
    SAMPLES.iter().copied().find(|s| s.name == name).ok_or_else(|| {
        let known: Vec<&str> = SAMPLES.iter().map(|s| s.name).collect();
        MpiError::Argument(format!("no sample program `{name}`; samples: {}", known.join(", ")))
    })
}

/// Environment variable naming the cache directory (default: the platform's cache, e.g.
/// `~/.cache/hase`).
pub const CACHE_DIR_ENV: &str = "HASE_CACHE_DIR";

/// Where built tools are kept: `$HASE_CACHE_DIR`, else the platform cache directory for hase,
/// else `hase-cache` in the system temporary directory.
pub fn cache_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os(CACHE_DIR_ENV).filter(|v| !v.is_empty()) {
        return PathBuf::from(dir);
    }
    directories::ProjectDirs::from("org", "hase", "hase")
        .map_or_else(|| std::env::temp_dir().join("hase-cache"), |d| d.cache_dir().to_path_buf())
}

/// A built tool.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolBuild {
    /// The built program or library.
    pub path: PathBuf,
    /// True if it was built now (false: found in the cache).
    pub built: bool,
    /// Compiler warnings (the bundled sources have none; a test checks).
    pub warnings: String,
}

fn flags(tool: &CTool) -> Vec<&'static str> {
    let mut f = vec!["-O2", "-Wall", "-Wextra"];
    if tool.shared {
        f.extend(["-shared", "-fPIC"]);
    }
    f
}

fn mpicc_version(mpicc: &str) -> Result<String, MpiError> {
    let out = Command::new(mpicc)
        .arg("--version")
        .output()
        .map_err(|e| MpiError::Tool { program: mpicc.to_string(), source: e })?;
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Build `tool` with `mpicc` (the `MPICC` environment variable overrides the name) into
/// `cache`, or find it already built.
pub fn build_tool(tool: &CTool, cache: &Path) -> Result<ToolBuild, MpiError> {
    let mpicc = std::env::var("MPICC").unwrap_or_else(|_| "mpicc".into());
    let version = mpicc_version(&mpicc)?;
    let mut hasher = blake3::Hasher::new();
    for part in [tool.source, SHIM_HEADER, &flags(tool).join(" "), &version, &mpicc] {
        hasher.update(part.as_bytes());
        hasher.update(&[0]);
    }
    let hash = hasher.finalize().to_hex();
    let dir = cache.join("mpi").join(format!("{}-{}", tool.name.trim_end_matches(".so"), &hash[..16]));
    let path = dir.join(tool.name);
    if path.is_file() {
        return Ok(ToolBuild { path, built: false, warnings: String::new() });
    }
    std::fs::create_dir_all(&dir).map_err(|e| MpiError::io(&dir, e))?;
    let file_name = Path::new(tool.source_path)
        .file_name()
        .map_or_else(|| "tool.c".into(), std::borrow::ToOwned::to_owned);
    let source = dir.join(file_name);
    let header = dir.join("hase_shim.h");
    for (file, text) in [(&source, tool.source), (&header, SHIM_HEADER)] {
        std::fs::write(file, text).map_err(|e| MpiError::io(file, e))?;
    }
    let tmp = dir.join(format!(".{}.{}.tmp", tool.name, std::process::id()));
    let out = Command::new(&mpicc)
        .args(flags(tool))
        .arg("-I")
        .arg(&dir)
        .arg(&source)
        .arg("-o")
        .arg(&tmp)
        .arg("-lm")
        .output()
        .map_err(|e| MpiError::Tool { program: mpicc.clone(), source: e })?;
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    if !out.status.success() {
        let _ = std::fs::remove_file(&tmp);
        return Err(MpiError::Compile { source_name: tool.source_path.to_string(), stderr });
    }
    std::fs::rename(&tmp, &path).map_err(|e| MpiError::io(&path, e))?;
    Ok(ToolBuild { path, built: true, warnings: stderr })
}
