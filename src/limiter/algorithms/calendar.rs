//! Windows on the calendar for a fixed window (`withAnchor()`,
//! `withCalendar()`): where the windows start, as the algorithms'
//! arguments (core's `calendar_window`, lua/algorithms/calendar_window.lua).
//!
//! An anchored window needs nothing but the anchor: the server works out
//! `anchor + k × window` on its own clock. A calendar unit in a time zone
//! (hours, days, ISO weeks, months, with their DST changes and month
//! lengths) needs the time zone database, which only the client has: it
//! works out, on each call, the edges of the unit before the one its own
//! clock is in, that one, and the next, and the server picks the window that
//! holds its own clock among them (so the decision stays on the server's
//! clock; a client clock more than a unit off is refused by the server).
//! The database is jiff's, compiled into the extension: PHP's official
//! Docker images have no /usr/share/zoneinfo, and a database read from the
//! system could differ from machine to machine in one fleet.

use jiff::tz::TimeZone;
use jiff::{Timestamp, ToSpan, Zoned};

use crate::error::{Error, Result};

/// A date computation that jiff refused (an instant outside its range):
/// thrown as a failure of the call, in the same words wherever it happens.
fn failed(e: jiff::Error) -> Error {
    Error::Redis(format!("calendar window: {e}"))
}

/// A calendar unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    Hour,
    Day,
    /// ISO 8601: from Monday 00:00.
    Week,
    Month,
}

/// `withCalendar($unit, $timeZone)`: each window is one `unit` in `zone`.
#[derive(Debug, Clone, PartialEq)]
pub struct Calendar {
    pub unit: Unit,
    pub zone: TimeZone,
    /// The time zone's name, as given (`var_dump()`).
    pub zone_name: String,
}

impl Calendar {
    /// `$unit` and `$timeZone` as given; a `ValueError` naming the one that is unknown.
    pub fn new(unit: &str, zone: &str) -> Result<Calendar> {
        let unit = match unit {
            "hour" => Unit::Hour,
            "day" => Unit::Day,
            "week" => Unit::Week,
            "month" => Unit::Month,
            _ => return Err(Error::value("unit", "must be one of 'hour', 'day', 'week', 'month'")),
        };
        let tz = TimeZone::get(zone)
            .map_err(|_| Error::value("timeZone", format!("must be a time zone name such as 'UTC' or 'Europe/Paris', '{zone}' given")))?;
        Ok(Calendar { unit, zone: tz, zone_name: zone.to_string() })
    }

    /// The start of the unit that holds `z`.
    fn start(&self, z: &Zoned) -> Result<Zoned> {
        match self.unit {
            Unit::Hour => z.with().minute(0).second(0).subsec_nanosecond(0).build().map_err(failed),
            Unit::Day => z.start_of_day().map_err(failed),
            Unit::Week => {
                let back = i64::from(z.weekday().to_monday_zero_offset());
                z.checked_sub(back.days()).and_then(|d| d.start_of_day()).map_err(failed)
            }
            Unit::Month => z.first_of_month().and_then(|d| d.start_of_day()).map_err(failed),
        }
    }

    /// The start of the unit after the one that starts at `start`.
    fn next(&self, start: &Zoned) -> Result<Zoned> {
        let later = match self.unit {
            // An hour later on the timeline, then its hour's start: a DST change moves local hours, not their length.
            Unit::Hour => start.checked_add(90.minutes()),
            Unit::Day => start.checked_add(36.hours()),
            Unit::Week => start.checked_add(7.days().hours(12)),
            Unit::Month => start.checked_add(1.month().days(1)),
        }
        .map_err(failed)?;
        self.start(&later)
    }

    /// The unit before the one that starts at `start`.
    fn previous(&self, start: &Zoned) -> Result<Zoned> {
        let earlier = start.checked_sub(1.nanosecond()).map_err(failed)?;
        self.start(&earlier)
    }

    /// The 4 edges (ms since the Unix epoch) of the unit before the one
    /// that holds `now_ms`, that one, and the next.
    pub fn edges(&self, now_ms: i64) -> Result<[i64; 4]> {
        let now = Timestamp::from_millisecond(now_ms).map_err(failed)?;
        let current = self.start(&now.to_zoned(self.zone.clone()))?;
        let before = self.previous(&current)?;
        let next = self.next(&current)?;
        let after = self.next(&next)?;
        Ok([before, current, next, after].map(|z| z.timestamp().as_millisecond()))
    }
}

/// The client's clock in ms (a calendar window's edges are worked out around it).
pub fn now_ms() -> i64 {
    Timestamp::now().as_millisecond()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(s: &str) -> i64 {
        s.parse::<Timestamp>().unwrap().as_millisecond()
    }

    fn edges(unit: &str, zone: &str, at: &str) -> Vec<String> {
        Calendar::new(unit, zone).unwrap().edges(ms(at)).unwrap().iter().map(|&e| Timestamp::from_millisecond(e).unwrap().to_string()).collect()
    }

    #[test]
    fn months_have_their_lengths() {
        assert_eq!(
            edges("month", "UTC", "2024-02-29T23:59:59Z"),
            ["2024-01-01T00:00:00Z", "2024-02-01T00:00:00Z", "2024-03-01T00:00:00Z", "2024-04-01T00:00:00Z"]
        );
        // Across a year's end, in a zone ahead of UTC.
        assert_eq!(
            edges("month", "Europe/Paris", "2025-12-31T23:30:00Z"),
            ["2025-11-30T23:00:00Z", "2025-12-31T23:00:00Z", "2026-01-31T23:00:00Z", "2026-02-28T23:00:00Z"]
        );
    }

    #[test]
    fn days_across_a_dst_change_are_23_and_25_hours() {
        // Europe/Paris: 2026-03-29 has 23 hours, 2026-10-25 has 25.
        assert_eq!(
            edges("day", "Europe/Paris", "2026-03-29T12:00:00Z"),
            ["2026-03-27T23:00:00Z", "2026-03-28T23:00:00Z", "2026-03-29T22:00:00Z", "2026-03-30T22:00:00Z"]
        );
        assert_eq!(
            edges("day", "Europe/Paris", "2026-10-25T12:00:00Z"),
            ["2026-10-23T22:00:00Z", "2026-10-24T22:00:00Z", "2026-10-25T23:00:00Z", "2026-10-26T23:00:00Z"]
        );
    }

    #[test]
    fn hours_follow_the_local_clock_and_weeks_start_on_monday() {
        // The hour after 01:00 CET on the night clocks go forward is 03:00 CEST: one hour later on the timeline.
        assert_eq!(
            edges("hour", "Europe/Paris", "2026-03-29T00:30:00Z"),
            ["2026-03-28T23:00:00Z", "2026-03-29T00:00:00Z", "2026-03-29T01:00:00Z", "2026-03-29T02:00:00Z"]
        );
        // A zone half an hour off UTC: its hours start at :30 UTC.
        assert_eq!(
            edges("hour", "Asia/Kolkata", "2026-01-01T10:45:00Z"),
            ["2026-01-01T09:30:00Z", "2026-01-01T10:30:00Z", "2026-01-01T11:30:00Z", "2026-01-01T12:30:00Z"]
        );
        // 2026-01-01 is a Thursday: its ISO week began on Monday 2025-12-29.
        assert_eq!(
            edges("week", "UTC", "2026-01-01T10:00:00Z"),
            ["2025-12-22T00:00:00Z", "2025-12-29T00:00:00Z", "2026-01-05T00:00:00Z", "2026-01-12T00:00:00Z"]
        );
    }

    #[test]
    fn unknown_units_and_zones_are_value_errors() {
        assert_eq!(Calendar::new("year", "UTC").unwrap_err().param(), Some("unit"));
        assert_eq!(Calendar::new("day", "Mars/Olympus").unwrap_err().param(), Some("timeZone"));
        assert!(Calendar::new("day", "America/New_York").is_ok());
    }
}
