//! What a job posting's own words say of the job: the role and the company, read from its heading
//! ("Senior Engineer — Hooli, Palo Alto", "Backend Developer at Initech"), its labels ("Company: Hooli")
//! or its first sentence ("Hooli is hiring a Senior Engineer"). A posting is text from the web: what is
//! read here is only ever a short line of it, kept as text; when nothing reads clearly, nothing is said.

/// The longest role or company name taken from a posting, in characters.
const MAX_NAME_CHARS: usize = 80;

/// The job a posting is for, as far as its words say (either may be empty).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Job {
    /// The role ("Senior Compression Engineer").
    pub role: String,
    /// The company ("Hooli").
    pub company: String,
}

/// The role and company `posting` names.
pub fn job(posting: &str) -> Job {
    let lines: Vec<&str> = posting
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .take(40)
        .collect();
    let mut job = labelled(&lines);
    let heading = lines.first().map_or(Job::default(), |l| from_heading(l));
    let sentence = lines.iter().find_map(|l| hiring(l)).unwrap_or_default();
    for found in [heading, sentence] {
        if job.role.is_empty() {
            job.role = found.role;
        }
        if job.company.is_empty() {
            job.company = found.company;
        }
    }
    job
}

/// "Company: Hooli", "Role: …", "Position: …", "Job title: …" among the first lines.
fn labelled(lines: &[&str]) -> Job {
    let mut job = Job::default();
    for line in lines {
        let Some((label, value)) = line.split_once(':') else {
            continue;
        };
        let value = name(value);
        match label.trim().to_lowercase().as_str() {
            "company" | "employer" | "organization" | "organisation" if job.company.is_empty() => {
                job.company = value
            }
            "role" | "position" | "job title" | "title" | "job" if job.role.is_empty() => {
                job.role = value
            }
            _ => {}
        }
    }
    job
}

/// A heading that puts the role before the company: "Role — Company, Place", "Role at Company",
/// "Role | Company". A heading with none of these is a role alone when it is short.
fn from_heading(line: &str) -> Job {
    for separator in [" — ", " – ", " - ", " | ", " at ", " @ "] {
        if let Some((role, company)) = line.split_once(separator) {
            let company = company
                .split([',', '(', '|', '—', '–'])
                .next()
                .unwrap_or("");
            return Job {
                role: name(role),
                company: name(company),
            };
        }
    }
    let short = line.split_whitespace().count() <= 6 && !line.ends_with('.');
    Job {
        role: if short { name(line) } else { String::new() },
        company: String::new(),
    }
}

/// "Hooli is hiring a Senior Compression Engineer." and "Initech needs a Backend Developer to …".
fn hiring(line: &str) -> Option<Job> {
    for verb in [
        " is hiring ",
        " are hiring ",
        " is looking for ",
        " needs ",
        " seeks ",
    ] {
        let Some((before, after)) = line.split_once(verb) else {
            continue;
        };
        let company = before.rsplit(['.', '!', '?']).next().unwrap_or(before);
        let after = ["an ", "a ", "the "]
            .iter()
            .find_map(|a| after.strip_prefix(a))
            .unwrap_or(after);
        let ends = [
            ".", ",", " to ", " who ", " with ", " in ", " for ", " that ", "!", ";",
        ];
        let cut = ends
            .iter()
            .filter_map(|e| after.find(e))
            .min()
            .unwrap_or(after.len());
        let role = &after[..cut];
        // A role is a name: its words begin with capitals ("Backend Developer", not "someone great").
        let named = role
            .split_whitespace()
            .all(|w| w.chars().next().is_some_and(|c| !c.is_lowercase()));
        if named && company.split_whitespace().count() <= 5 {
            return Some(Job {
                role: name(role),
                company: name(company),
            });
        }
    }
    None
}

/// `text` as a name: trimmed of spaces and stray punctuation, empty when longer than any name.
fn name(text: &str) -> String {
    let text = text
        .trim()
        .trim_matches(|c: char| c.is_ascii_punctuation() && c != '.' && c != '+' && c != '#');
    let text = text.trim();
    match text.chars().count() <= MAX_NAME_CHARS && !text.contains(['\u{0}', '<', '>', '{', '}']) {
        true => text.to_owned(),
        false => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(posting: &str) -> (String, String) {
        let job = job(posting);
        (job.role, job.company)
    }

    #[test]
    fn a_heading_names_the_role_then_the_company() {
        let cases = [
            (
                "Senior Compression Engineer — Hooli, Palo Alto\n\nText.",
                ("Senior Compression Engineer", "Hooli"),
            ),
            (
                "Backend Developer at Initech (Austin, TX)",
                ("Backend Developer", "Initech"),
            ),
            (
                "Data Analyst - Globex Corporation",
                ("Data Analyst", "Globex Corporation"),
            ),
            (
                "Site Reliability Engineer | Acme",
                ("Site Reliability Engineer", "Acme"),
            ),
        ];
        for (posting, (role, company)) in cases {
            assert_eq!(
                read(posting),
                (role.to_owned(), company.to_owned()),
                "{posting}"
            );
        }
    }

    #[test]
    fn labels_and_a_hiring_sentence_are_read_when_the_heading_says_less() {
        assert_eq!(
            read("About the job\nCompany: Umbrella Corp\nPosition: Lab Technician\n"),
            ("Lab Technician".to_owned(), "Umbrella Corp".to_owned())
        );
        assert_eq!(
            read(
                "We build things, and we would love to meet you. Initech needs a Backend Developer to build web services."
            ),
            ("Backend Developer".to_owned(), "Initech".to_owned())
        );
        assert_eq!(
            read("Platform Engineer\n\nHooli is hiring a Platform Engineer who loves Rust."),
            ("Platform Engineer".to_owned(), "Hooli".to_owned())
        );
    }

    #[test]
    fn nothing_is_said_when_nothing_reads_clearly() {
        assert_eq!(
            read("We are a fast growing team and we want someone great to join us in our mission."),
            (String::new(), String::new())
        );
        assert_eq!(read(""), (String::new(), String::new()));
        let long = format!("{} — Hooli", "Engineer ".repeat(40));
        assert_eq!(read(&long), (String::new(), "Hooli".to_owned()));
    }
}
