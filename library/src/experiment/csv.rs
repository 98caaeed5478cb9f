//! Results as CSV: one row per run, in (point, repetition) order. Columns: `point`, every variable
//! (canonical values: integers in full, times in picoseconds), `repetition`, `seed`, `outcome`,
//! then the metrics (empty where not measured). The text depends only on the records, so it is
//! byte-identical for any number of worker threads (unless a wall-time metric is recorded).

use super::record::RunRecord;

/// The CSV text of `records` (sorted here by run key).
pub fn csv_text(variables: &[String], metrics: &[String], records: &[RunRecord]) -> String {
    let mut sorted: Vec<&RunRecord> = records.iter().collect();
    sorted.sort_by_key(|r| r.key);
    let mut writer =
        csv::WriterBuilder::new().terminator(csv::Terminator::Any(b'\n')).from_writer(Vec::new());
    let mut header = vec!["point".to_string()];
    header.extend(variables.iter().cloned());
    header.extend(["repetition", "seed", "outcome"].map(str::to_string));
    header.extend(metrics.iter().cloned());
    // Writing to memory cannot fail; the `csv` writer only fails on I/O.
    let _ = writer.write_record(&header);
    for r in sorted {
        let mut row = vec![r.key.point.to_string()];
        row.extend((0..variables.len()).map(|i| r.values.get(i).cloned().unwrap_or_default()));
        row.extend([r.key.repetition.to_string(), r.seed.to_string(), r.status.word().to_string()]);
        row.extend(
            (0..metrics.len())
                .map(|i| r.metrics.get(i).copied().flatten().map(|m| m.to_string()).unwrap_or_default()),
        );
        let _ = writer.write_record(&row);
    }
    let bytes = writer.into_inner().unwrap_or_default();
    String::from_utf8(bytes).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::record::{MetricValue, RunKey, RunStatus};

    fn record(point: u64, repetition: u32, status: RunStatus) -> RunRecord {
        RunRecord {
            key: RunKey { point, repetition },
            seed: 7,
            values: vec![format!("{}", 1024 << point), "a, \"quoted\" value".into()],
            status,
            detail: String::new(),
            metrics: vec![
                Some(MetricValue::Int(5)),
                if status.is_success() { Some(MetricValue::Float(0.5)) } else { None },
            ],
            trace: None,
        }
    }

    #[test]
    fn rows_in_run_order_with_quoting_and_empty_cells() {
        let records = [
            record(1, 0, RunStatus::Failed),
            record(0, 1, RunStatus::Completed),
            record(0, 0, RunStatus::Deadlock),
        ];
        let text = csv_text(&["bytes".into(), "label".into()], &["events".into(), "util".into()], &records);
        assert_eq!(
            text,
            "point,bytes,label,repetition,seed,outcome,events,util\n\
             0,1024,\"a, \"\"quoted\"\" value\",0,7,deadlock,5,\n\
             0,1024,\"a, \"\"quoted\"\" value\",1,7,completed,5,0.5\n\
             1,2048,\"a, \"\"quoted\"\" value\",0,7,failed,5,\n"
        );
    }
}
