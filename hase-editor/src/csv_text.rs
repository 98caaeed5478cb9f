//! Tables as CSV text (the `csv` crate's quoting: a field with a comma, a quote or a line break is
//! quoted, quotes doubled), for the files the views export.

/// `rows` as CSV, one line each, `\n` line ends.
pub fn csv_text<R: AsRef<[String]>>(rows: &[R]) -> String {
    let mut writer =
        csv::WriterBuilder::new().terminator(csv::Terminator::Any(b'\n')).from_writer(Vec::new());
    for row in rows {
        // Writing into memory cannot fail.
        let _ = writer.write_record(row.as_ref());
    }
    writer.into_inner().ok().and_then(|bytes| String::from_utf8(bytes).ok()).unwrap_or_default()
}
