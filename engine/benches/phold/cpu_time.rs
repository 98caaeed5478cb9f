//! A criterion measurement of the benchmark thread's CPU time instead of wall time.
//!
//! The machine the figures come from is shared: wall time counts the time other processes hold
//! the core, CPU time does not (other processes still share the caches, so a loaded machine reads
//! a little slower). The scheduler's per-thread run time, `/proc/thread-self/schedstat`, counts
//! nanoseconds.

use criterion::measurement::{Measurement, ValueFormatter, WallTime};

/// CPU time of the calling thread, in nanoseconds (Linux).
pub struct ThreadCpuTime;

/// Nanoseconds the calling thread has run on a CPU.
fn thread_cpu_ns() -> u64 {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").unwrap();
    text.split_whitespace().next().and_then(|ns| ns.parse().ok()).unwrap()
}

/// Formats like wall time: both are nanoseconds.
static FORMAT: WallTime = WallTime;

impl Measurement for ThreadCpuTime {
    type Intermediate = u64;
    type Value = u64;

    fn start(&self) -> u64 {
        thread_cpu_ns()
    }
    fn end(&self, start: u64) -> u64 {
        thread_cpu_ns() - start
    }
    fn add(&self, a: &u64, b: &u64) -> u64 {
        a + b
    }
    fn zero(&self) -> u64 {
        0
    }
    fn to_f64(&self, ns: &u64) -> f64 {
        *ns as f64
    }
    fn formatter(&self) -> &dyn ValueFormatter {
        FORMAT.formatter()
    }
}
