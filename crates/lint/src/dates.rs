//! The rules on dates (an end before its start, a date in the future, a gap between jobs) and on contact
//! details (an e-mail address or a phone number missing).
//!
//! JSON Resume writes dates as `YYYY`, `YYYY-MM` or `YYYY-MM-DD`; two dates are compared at the precision
//! of the less precise one, so `2020` is neither before nor after `2020-06`.

use serde::Serialize;
use serde_json::Value;

use crate::{Field, Finding, RuleId};

/// A gap between jobs longer than this many months is named.
const GAP_MONTHS: i64 = 6;

/// A day, or a month or a year where the date says no more.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Date {
    pub year: i32,
    /// 1–12, when the date has a month.
    pub month: Option<u8>,
    /// 1–31, when the date has a day.
    pub day: Option<u8>,
}

impl Date {
    /// A JSON Resume date (`2020`, `2020-06`, `2020-06-30`); `None` for anything else.
    pub fn parse(text: &str) -> Option<Date> {
        let mut parts = text.trim().split('-');
        let year = parts.next().filter(|y| y.len() == 4)?.parse().ok()?;
        let number = |part: Option<&str>, max: u8| -> Result<Option<u8>, ()> {
            match part {
                None => Ok(None),
                Some(p) if p.len() == 2 => p
                    .parse()
                    .ok()
                    .filter(|n| (1..=max).contains(n))
                    .map(Some)
                    .ok_or(()),
                Some(_) => Err(()),
            }
        };
        let month = number(parts.next(), 12).ok()?;
        let day = number(parts.next(), 31).ok()?;
        (parts.next().is_none() && (day.is_none() || month.is_some())).then_some(Date {
            year,
            month,
            day,
        })
    }

    /// The day `days` days after 1970-01-01 (the civil calendar; Howard Hinnant's `civil_from_days`).
    pub fn from_unix_days(days: i64) -> Date {
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z.rem_euclid(146_097);
        let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = doy - (153 * mp + 2) / 5 + 1;
        let month = if mp < 10 { mp + 3 } else { mp - 9 };
        let year = yoe + era * 400 + i64::from(month <= 2);
        Date {
            year: i32::try_from(year).unwrap_or(i32::MAX),
            month: u8::try_from(month).ok(),
            day: u8::try_from(day).ok(),
        }
    }

    /// `self` against `other` at the precision both have.
    fn compare(self, other: Date) -> std::cmp::Ordering {
        let (a, b) = match (self.month.zip(other.month), self.day.zip(other.day)) {
            (None, _) => ((self.year, 0, 0), (other.year, 0, 0)),
            (Some((m, n)), None) => ((self.year, m, 0), (other.year, n, 0)),
            (Some((m, n)), Some((d, e))) => ((self.year, m, d), (other.year, n, e)),
        };
        a.cmp(&b)
    }

    /// Months since year 0, a missing month taken as `month_if_none`.
    fn months(self, month_if_none: u8) -> i64 {
        i64::from(self.year) * 12 + i64::from(self.month.unwrap_or(month_if_none)) - 1
    }
}

/// The sections whose entries have a start and an end.
const SPANS: [&str; 4] = ["work", "volunteer", "education", "projects"];

/// The date fields of each section, for dates in the future.
const DATED: [(&str, &[&str]); 7] = [
    ("work", &["startDate", "endDate"]),
    ("volunteer", &["startDate", "endDate"]),
    ("education", &["startDate", "endDate"]),
    ("projects", &["startDate", "endDate"]),
    ("awards", &["date"]),
    ("certificates", &["date"]),
    ("publications", &["releaseDate"]),
];

/// The date and contact findings of `resume`; dates in the future only when `today` is known.
pub(crate) fn check(resume: &Value, today: Option<Date>, findings: &mut Vec<Finding>) {
    for section in SPANS {
        for (i, entry) in resume[section].as_array().into_iter().flatten().enumerate() {
            let (Some(start), Some(end)) =
                (date_of(&entry["startDate"]), date_of(&entry["endDate"]))
            else {
                continue;
            };
            if end.compare(start).is_lt() {
                let field = whole(format!("/{section}/{i}/endDate"), &entry["endDate"]);
                let message =
                    "This entry ends before it starts; one of its dates is wrong.".to_owned();
                findings.push(field.finding(
                    RuleId::DatesEndBeforeStart,
                    span(&field),
                    message,
                    None,
                ));
            }
        }
    }
    if let Some(today) = today {
        future(resume, today, findings);
    }
    gaps(resume, findings);
    contact(resume, findings);
}

fn date_of(value: &Value) -> Option<Date> {
    value.as_str().and_then(Date::parse)
}

fn whole(path: String, value: &Value) -> Field<'_> {
    Field {
        path,
        text: value.as_str().unwrap_or(""),
    }
}

fn span(field: &Field<'_>) -> (usize, usize) {
    (0, field.text.chars().count())
}

fn future(resume: &Value, today: Date, findings: &mut Vec<Finding>) {
    for (section, keys) in DATED {
        for (i, entry) in resume[section].as_array().into_iter().flatten().enumerate() {
            for key in keys {
                if date_of(&entry[key]).is_some_and(|d| d.compare(today).is_gt()) {
                    let field = whole(format!("/{section}/{i}/{key}"), &entry[key]);
                    let message = format!("{} is in the future; is it a typo?", field.text);
                    findings.push(field.finding(RuleId::DatesFuture, span(&field), message, None));
                }
            }
        }
    }
}

/// Jobs in order of their start; a job that starts more than [`GAP_MONTHS`] after every earlier one has
/// ended is named (a job with no end covers everything after it).
fn gaps(resume: &Value, findings: &mut Vec<Finding>) {
    let jobs = resume["work"].as_array().into_iter().flatten().enumerate();
    let mut dated: Vec<(usize, Date, Option<Date>)> = jobs
        .filter_map(|(i, job)| {
            let (start, end) = (date_of(&job["startDate"])?, date_of(&job["endDate"]));
            // A span whose end is before its start (named by its own rule) still covers its months.
            Some(match end {
                Some(end) if end.compare(start).is_lt() => (i, end, Some(start)),
                end => (i, start, end),
            })
        })
        .collect();
    dated.sort_by_key(|(i, start, _)| (start.months(1), *i));
    let mut covered: Option<i64> = None;
    for (i, start, end) in dated {
        let begins = start.months(12);
        if let Some(until) = covered.filter(|until| begins - until > GAP_MONTHS) {
            let field = whole(
                format!("/work/{i}/startDate"),
                &resume["work"][i]["startDate"],
            );
            let months = begins - until;
            let message = format!(
                "{months} months pass between this job and the one before; a recruiter may ask about them."
            );
            findings.push(field.finding(RuleId::DatesGap, span(&field), message, None));
        }
        let until = end.map_or(i64::MAX, |e| e.months(1));
        covered = Some(covered.map_or(until, |c| c.max(until)));
    }
}

fn contact(resume: &Value, findings: &mut Vec<Finding>) {
    for (key, rule, what) in [
        ("email", RuleId::ContactEmailMissing, "e-mail address"),
        ("phone", RuleId::ContactPhoneMissing, "phone number"),
    ] {
        let value = &resume["basics"][key];
        if value.as_str().is_none_or(|v| v.trim().is_empty()) {
            let field = whole(format!("/basics/{key}"), value);
            let message = format!("The resume has no {what}; a recruiter needs one to reach you.");
            findings.push(field.finding(rule, (0, 0), message, None));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_parse_at_their_precision() {
        assert_eq!(
            Date::parse("2020").map(|d| (d.month, d.day)),
            Some((None, None))
        );
        assert_eq!(Date::parse("2020-06-30").and_then(|d| d.day), Some(30));
        for bad in [
            "20",
            "2020-13",
            "2020-6",
            "2020-06-32",
            "June 2020",
            "2020-06-30-1",
        ] {
            assert_eq!(Date::parse(bad), None, "{bad}");
        }
        let (year, month) = (
            Date::parse("2020").unwrap(),
            Date::parse("2020-06").unwrap(),
        );
        assert!(year.compare(month).is_eq());
    }

    #[test]
    fn unix_days_are_civil_dates() {
        assert_eq!(Date::from_unix_days(0), Date::parse("1970-01-01").unwrap());
        assert_eq!(
            Date::from_unix_days(19_782),
            Date::parse("2024-02-29").unwrap()
        );
        assert_eq!(Date::from_unix_days(-1), Date::parse("1969-12-31").unwrap());
    }
}
