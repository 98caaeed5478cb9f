//! The date a Paraver `.prv` header carries: the run's date, given by the caller so that the same
//! trace always exports to the same bytes.

/// The date in a `.prv` header.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ParaverDate {
    /// Day of month 1–31 (0 stands for the default 01/01/70).
    pub day: u32,
    /// Month 1–12.
    pub month: u32,
    /// Year, e.g. 2025.
    pub year: i64,
    /// Hour 0–23.
    pub hour: u32,
    /// Minute 0–59.
    pub minute: u32,
}

impl ParaverDate {
    /// As the `.prv` header writes it: `dd/mm/yy at hh:mm`.
    pub(crate) fn text(self) -> String {
        if self.day == 0 {
            return "01/01/70 at 00:00".into();
        }
        format!(
            "{:02}/{:02}/{:02} at {:02}:{:02}",
            self.day,
            self.month,
            self.year.rem_euclid(100),
            self.hour,
            self.minute
        )
    }
}
