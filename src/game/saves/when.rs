//! A moment as a person reads it, in UTC: the stamp in a save's file name
//! (`2026-12-05-0612`) and the date in words for the menu (`5 December
//! 2026, 06:12 UTC`). Worked out from `SystemTime` alone, so the window
//! needs no calendar crate; UTC because the local zone is the operating
//! system's to know, and a name that says UTC is never wrong.

use std::time::{SystemTime, UNIX_EPOCH};

const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// A moment to the minute, in UTC.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Utc {
    pub year: i64,
    /// 1 to 12.
    pub month: u32,
    /// 1 to 31.
    pub day: u32,
    pub hour: u32,
    pub minute: u32,
}

impl Utc {
    /// The moment `t`, to the minute (a clock set before 1970 reads as
    /// the first minute of 1970: a name, not a record).
    pub fn of(t: SystemTime) -> Utc {
        let secs = t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
        let secs = i64::try_from(secs).unwrap_or(i64::MAX);
        let (year, month, day) = civil_from_days(secs.div_euclid(86_400));
        let of_day = secs.rem_euclid(86_400);
        Utc { year, month, day, hour: (of_day / 3600) as u32, minute: (of_day % 3600 / 60) as u32 }
    }

    /// `2026-12-05-0612`: sorts as the moments do, and is safe in a file
    /// name on every system (no colon).
    pub fn stamp(&self) -> String {
        format!("{:04}-{:02}-{:02}-{:02}{:02}", self.year, self.month, self.day, self.hour, self.minute)
    }

    /// `5 December 2026, 06:12 UTC`.
    pub fn words(&self) -> String {
        let month = MONTHS.get(self.month as usize - 1).copied().unwrap_or("?");
        format!("{} {month} {}, {:02}:{:02} UTC", self.day, self.year, self.hour, self.minute)
    }
}

/// The civil date (year, month, day) of a count of days since 1970-01-01,
/// in the proleptic Gregorian calendar: Howard Hinnant's
/// `civil_from_days`, which counts in 400-year eras starting on 1 March so
/// that the leap day falls at the end of each year.
pub fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn days_since_1970_are_the_calendars_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
        assert_eq!(civil_from_days(20_792), (2026, 12, 5));
        // A leap day, a century that is one (2000) and one that is not (2100).
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(11_017), (2000, 3, 1));
        assert_eq!(civil_from_days(47_541), (2100, 3, 1));
        assert_eq!(civil_from_days(47_540), (2100, 2, 28));
        assert_eq!(civil_from_days(-719_468), (0, 3, 1));
    }

    #[test]
    fn a_moment_is_named_and_said_in_utc() {
        // 2026-12-05 06:12:59 UTC.
        let t = UNIX_EPOCH + Duration::from_secs(1_796_451_179);
        let at = Utc::of(t);
        assert_eq!(at, Utc { year: 2026, month: 12, day: 5, hour: 6, minute: 12 });
        assert_eq!(at.stamp(), "2026-12-05-0612");
        assert_eq!(at.words(), "5 December 2026, 06:12 UTC");
        assert_eq!(Utc::of(UNIX_EPOCH).words(), "1 January 1970, 00:00 UTC");
        assert_eq!(Utc::of(UNIX_EPOCH - Duration::from_secs(60)).stamp(), "1970-01-01-0000", "before 1970");
    }
}
