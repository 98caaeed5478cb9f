//! Array tasks and points: task `t` runs points `t·K .. min((t+1)·K, P)` (every repetition of
//! each), so `ceil(P / K)` tasks cover the `P` points. A point belongs to task `point / K`.

use std::ops::Range;

/// Number of array tasks for `points` points at `per_task` points per task (`per_task` ≥ 1).
pub fn array_task_count(points: u64, per_task: u64) -> u64 {
    points.div_ceil(per_task.max(1))
}

/// The points task `task` runs (empty when the task is beyond the last point).
pub fn array_task_points(task: u64, per_task: u64, points: u64) -> Range<u64> {
    let per_task = per_task.max(1);
    let start = task.saturating_mul(per_task).min(points);
    let end = start.saturating_add(per_task).min(points);
    start..end
}

/// The task that runs `point`.
pub fn array_task_of_point(point: u64, per_task: u64) -> u64 {
    point / per_task.max(1)
}

/// An array specification (`0-3,7,9-10`) for sorted task ids.
pub fn array_spec(tasks: &[u64]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < tasks.len() {
        let start = tasks[i];
        let mut end = start;
        while i + 1 < tasks.len() && tasks[i + 1] == end + 1 {
            i += 1;
            end = tasks[i];
        }
        parts.push(if start == end { start.to_string() } else { format!("{start}-{end}") });
        i += 1;
    }
    parts.join(",")
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn twelve_points_three_per_task() {
        assert_eq!(array_task_count(12, 3), 4);
        assert_eq!(array_task_points(0, 3, 12), 0..3);
        assert_eq!(array_task_points(3, 3, 12), 9..12);
        assert_eq!(array_task_points(4, 3, 12), 12..12);
        assert_eq!(array_task_count(13, 3), 5);
        assert_eq!(array_task_points(4, 3, 13), 12..13);
        assert_eq!(array_task_of_point(11, 3), 3);
    }

    #[test]
    fn array_specs_join_runs_of_tasks() {
        assert_eq!(array_spec(&[0, 1, 2, 3]), "0-3");
        assert_eq!(array_spec(&[2, 5, 6, 9]), "2,5-6,9");
        assert_eq!(array_spec(&[]), "");
    }

    proptest! {
        /// The tasks cover every point exactly once, in order, and a point's task runs it.
        #[test]
        fn tasks_partition_the_points(points in 1u64..500, per_task in 1u64..40) {
            let mut next = 0;
            for task in 0..array_task_count(points, per_task) {
                let range = array_task_points(task, per_task, points);
                prop_assert!(!range.is_empty());
                prop_assert_eq!(range.start, next);
                for point in range.clone() {
                    prop_assert_eq!(array_task_of_point(point, per_task), task);
                }
                next = range.end;
            }
            prop_assert_eq!(next, points);
        }
    }
}
