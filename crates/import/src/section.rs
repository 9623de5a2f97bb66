//! The parts of JSON Resume the importer fills, named by what they hold: a section's key is a string only
//! where the document is written ([`Section::key`]).

/// One of JSON Resume's top-level parts: the basics, or a section of entries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Section {
    Basics,
    Work,
    Volunteer,
    Education,
    Awards,
    Certificates,
    Publications,
    Skills,
    Languages,
    Interests,
    References,
    Projects,
}

impl Section {
    /// The sections of entries, in the order a reader meets them (that of
    /// [`redline_resume::words::SECTIONS`], and of each language's headings).
    pub const LISTED: [Section; 11] = [
        Section::Work,
        Section::Volunteer,
        Section::Education,
        Section::Awards,
        Section::Certificates,
        Section::Publications,
        Section::Skills,
        Section::Languages,
        Section::Interests,
        Section::References,
        Section::Projects,
    ];

    /// Its key in a JSON Resume document.
    pub fn key(self) -> &'static str {
        match self {
            Section::Basics => "basics",
            Section::Work => "work",
            Section::Volunteer => "volunteer",
            Section::Education => "education",
            Section::Awards => "awards",
            Section::Certificates => "certificates",
            Section::Publications => "publications",
            Section::Skills => "skills",
            Section::Languages => "languages",
            Section::Interests => "interests",
            Section::References => "references",
            Section::Projects => "projects",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sections_of_entries_are_json_resume_s_in_its_order() {
        assert_eq!(
            Section::LISTED.map(Section::key),
            redline_resume::words::SECTIONS
        );
    }
}
