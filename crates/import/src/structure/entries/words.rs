//! The words an entry's lines are read by: the labels its lists are set under, the separators between a
//! title's parts on one line, and the words that come before "by" and an organisation.

/// Labels an entry's lists are set under, by their key: highlights, courses, keywords.
pub(crate) const ENTRY_LABELS: &[&str] = &[
    "highlights",
    "keyachievements",
    "achievements",
    "courses",
    "majorcourses",
    "coursework",
    "relevantcoursework",
    "skills",
    "keywords",
    "technologies",
    "tools",
    "stack",
    "techstack",
];

/// The separators between a title's parts on one line.
pub(crate) const SEPARATORS: &[&str] = &[
    " · ", " | ", " • ", " ∙ ", " — ", " – ", " @ ", " at ", "  ",
];

/// The words before "by" and the organisation: "Published by Hooli", "Awarded by Techcrunch".
pub(crate) const BY_LABELS: &[&str] = &["Published", "Awarded", "Issued"];
