//! Save times: milliseconds since the Unix epoch in UTC, stored as 8 big-endian bytes and shown as
//! `2024-05-01 12:34:56 UTC` (or RFC 3339 for machines). The calendar is jiff's (proleptic
//! Gregorian, years up to 9999; a later moment, which only a damaged record could hold, shows as
//! the last millisecond of 9999).

use std::fmt;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// A moment in UTC with millisecond resolution.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Timestamp {
    unix_ms: u64,
}

/// A UTC calendar date and time of day, broken into fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UtcDateTime {
    /// Year (e.g. 2024).
    pub year: i64,
    /// Month 1–12.
    pub month: u32,
    /// Day of month 1–31.
    pub day: u32,
    /// Hour 0–23.
    pub hour: u32,
    /// Minute 0–59.
    pub minute: u32,
    /// Second 0–59.
    pub second: u32,
    /// Millisecond 0–999.
    pub millisecond: u32,
}

impl Timestamp {
    /// The current time of the system clock (the epoch if the clock is set before 1970).
    pub fn now() -> Self {
        let since_epoch = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or(Duration::ZERO);
        Timestamp { unix_ms: u64::try_from(since_epoch.as_millis()).unwrap_or(u64::MAX) }
    }

    /// The moment `unix_ms` milliseconds after 1970-01-01 00:00:00 UTC.
    pub const fn from_unix_ms(unix_ms: u64) -> Self {
        Timestamp { unix_ms }
    }

    /// Milliseconds since the Unix epoch.
    pub const fn unix_ms(self) -> u64 {
        self.unix_ms
    }

    /// As a [`SystemTime`] (for `std` consumers).
    pub fn to_system_time(self) -> SystemTime {
        UNIX_EPOCH + Duration::from_millis(self.unix_ms)
    }

    /// Calendar fields in UTC.
    pub fn to_utc(self) -> UtcDateTime {
        let millisecond = i64::try_from(self.unix_ms).unwrap_or(i64::MAX);
        let moment = jiff::Timestamp::from_millisecond(millisecond).unwrap_or(jiff::Timestamp::MAX);
        let t = jiff::tz::Offset::UTC.to_datetime(moment);
        let field = |v: i8| v.unsigned_abs().into();
        UtcDateTime {
            year: t.year().into(),
            month: field(t.month()),
            day: field(t.day()),
            hour: field(t.hour()),
            minute: field(t.minute()),
            second: field(t.second()),
            millisecond: t.millisecond().unsigned_abs().into(),
        }
    }

    /// RFC 3339 with milliseconds, e.g. `2024-05-01T12:34:56.789Z`.
    pub fn to_rfc3339(self) -> String {
        let t = self.to_utc();
        format!(
            "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z",
            t.year, t.month, t.day, t.hour, t.minute, t.second, t.millisecond
        )
    }

    /// The 8 bytes stored in records.
    pub(crate) fn to_be_bytes(self) -> [u8; 8] {
        self.unix_ms.to_be_bytes()
    }

    /// Read the 8 stored bytes.
    pub(crate) fn from_be_bytes(bytes: [u8; 8]) -> Self {
        Timestamp { unix_ms: u64::from_be_bytes(bytes) }
    }
}

impl fmt::Display for Timestamp {
    /// `YYYY-MM-DD HH:MM:SS UTC` — what the GUI's history list shows.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let t = self.to_utc();
        write!(
            f,
            "{:04}-{:02}-{:02} {:02}:{:02}:{:02} UTC",
            t.year, t.month, t.day, t.hour, t.minute, t.second
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_moments_worked_by_hand() {
        assert_eq!(Timestamp::from_unix_ms(0).to_string(), "1970-01-01 00:00:00 UTC");
        // 2000-02-29 is day 11016 (30 years of 365 days + 7 leap days + 31 + 28).
        assert_eq!(Timestamp::from_unix_ms(11_016 * 86_400_000).to_string(), "2000-02-29 00:00:00 UTC");
        // 1 700 000 000 s = 19675 days + 80 000 s = 22:13:20 on 2023-11-14.
        assert_eq!(Timestamp::from_unix_ms(1_700_000_000_123).to_rfc3339(), "2023-11-14T22:13:20.123Z");
        // 2100 is not a leap year: 2100-02-28 is followed by 2100-03-01.
        // 130 years × 365 days + 32 leap days (1972…2096) + 31 (January) + 27.
        let feb_28_2100 = 47_540_u64;
        assert_eq!(Timestamp::from_unix_ms(feb_28_2100 * 86_400_000).to_string(), "2100-02-28 00:00:00 UTC");
        assert_eq!(
            Timestamp::from_unix_ms((feb_28_2100 + 1) * 86_400_000).to_string(),
            "2100-03-01 00:00:00 UTC"
        );
    }

    /// Walk day by day from 1970 to 2400 with a naive calendar (month lengths and the leap rule)
    /// and compare every day with the calendar conversion.
    #[test]
    fn every_day_to_2400_matches_a_naive_calendar() {
        let (mut year, mut month, mut day) = (1970_i64, 1_u32, 1_u32);
        for days in 0..157_000_u64 {
            let t = Timestamp::from_unix_ms(days * 86_400_000).to_utc();
            assert_eq!((t.year, t.month, t.day), (year, month, day), "day {days}");
            let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
            let length = match month {
                2 if leap => 29,
                2 => 28,
                4 | 6 | 9 | 11 => 30,
                _ => 31,
            };
            day += 1;
            if day > length {
                day = 1;
                month += 1;
                if month > 12 {
                    month = 1;
                    year += 1;
                }
            }
        }
        assert_eq!(year, 2399, "the walk should reach the 2300s");
    }

    #[test]
    fn time_of_day_fields() {
        let t = Timestamp::from_unix_ms(86_400_000 + 3_600_000 * 13 + 60_000 * 7 + 9_042).to_utc();
        assert_eq!((t.day, t.hour, t.minute, t.second, t.millisecond), (2, 13, 7, 9, 42));
    }

    #[test]
    fn bytes_round_trip_and_order_like_numbers() {
        let a = Timestamp::from_unix_ms(255);
        let b = Timestamp::from_unix_ms(256);
        assert!(a.to_be_bytes() < b.to_be_bytes());
        assert_eq!(Timestamp::from_be_bytes(b.to_be_bytes()), b);
    }
}
