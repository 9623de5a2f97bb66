//! The choices an export is made with: its look (a built-in design, [`Template`]) and its paper ([`Page`]),
//! each with its names on the command line and over IPC, and the error for a name that is none of them.
//! The designs' options ([`crate::design`]) and every writer ([`crate::export`], [`crate::docx`]) read them.

/// An export's look: a built-in design. Each has its own fonts, spacing and heading style; the options a
/// resume keeps in `/meta/design` ([`crate::design`]) change them within bounds.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize, ts_rs::TS,
)]
#[serde(rename_all = "lowercase")]
pub enum Template {
    /// Serif, one column, centred header.
    Classic,
    /// Sans-serif, one column, an accent colour and a header band.
    Modern,
    /// Two columns: the person and their contacts in a coloured sidebar, the sections beside it.
    Sidebar,
    /// Dense and small, for a long career on one page.
    Compact,
    /// An academic CV: education and publications first, serif, numbered headings.
    Academic,
    /// In the manner of RenderCV's `engineeringresumes`: plain, ruled, left-aligned, dense.
    Engineering,
    /// A Garamond serif, centred, letter-spaced headings between thin rules.
    Elegant,
    /// A full-width coloured banner with the name in white.
    Banner,
}

impl Template {
    /// Every template, for tests and menus.
    pub const ALL: [Template; 8] = [
        Template::Classic,
        Template::Modern,
        Template::Sidebar,
        Template::Compact,
        Template::Academic,
        Template::Engineering,
        Template::Elegant,
        Template::Banner,
    ];

    /// How a menu names it.
    pub fn label(self) -> &'static str {
        match self {
            Template::Classic => "Classic",
            Template::Modern => "Modern",
            Template::Sidebar => "Sidebar",
            Template::Compact => "Compact",
            Template::Academic => "Academic CV",
            Template::Engineering => "Engineering",
            Template::Elegant => "Elegant",
            Template::Banner => "Banner",
        }
    }

    /// What it looks like, for the command line's help.
    pub fn about(self) -> &'static str {
        match self {
            Template::Classic => "serif, one column, centred header",
            Template::Modern => "sans-serif, one column, an accent colour and a header band",
            Template::Sidebar => "two columns: name and contacts in a coloured sidebar",
            Template::Compact => "small and dense, for a long career on one page",
            Template::Academic => "an academic CV: education and publications first",
            Template::Engineering => {
                "plain and ruled, in the manner of RenderCV's engineeringresumes"
            }
            Template::Elegant => {
                "Garamond serif, a centred header, letter-spaced headings over thin rules"
            }
            Template::Banner => "a full-width coloured banner with the name in white",
        }
    }

    /// Its name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Template::Classic => "classic",
            Template::Modern => "modern",
            Template::Sidebar => "sidebar",
            Template::Compact => "compact",
            Template::Academic => "academic",
            Template::Engineering => "engineering",
            Template::Elegant => "elegant",
            Template::Banner => "banner",
        }
    }

    /// The template called `name`.
    pub fn parse(name: &str) -> Result<Template, UnknownName> {
        Template::ALL
            .into_iter()
            .find(|t| t.name() == name)
            .ok_or_else(|| {
                UnknownName::new(
                    "template",
                    name,
                    "classic, modern, sidebar, compact, academic, engineering, elegant or banner",
                )
            })
    }

    /// Whether its HTML and Word exports take the serif look (the classic one) rather than the sans-serif
    /// one with an accent colour: the HTML export has the two looks; the designs are the PDF's.
    pub fn serif(self) -> bool {
        matches!(
            self,
            Template::Classic | Template::Academic | Template::Elegant
        )
    }
}

/// A name that is no export format, template or page size: what it was meant to be, and the choices.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownName {
    /// `format`, `template` or `page size`.
    pub what: &'static str,
    /// The name given (at most 40 characters of it).
    pub name: String,
    /// The names there are, in words.
    pub choices: &'static str,
}

impl UnknownName {
    pub(crate) fn new(what: &'static str, name: &str, choices: &'static str) -> UnknownName {
        UnknownName {
            what,
            name: crate::shorten(name, 40),
            choices,
        }
    }

    /// What kind of failure it is: a request that was wrong.
    pub fn kind(&self) -> redline_error_kind::ErrorKind {
        redline_error_kind::ErrorKind::Invalid
    }
}

impl std::fmt::Display for UnknownName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let UnknownName {
            what,
            name,
            choices,
        } = self;
        write!(f, "there is no {what} “{name}”; choose {choices}")
    }
}

impl std::error::Error for UnknownName {}

/// The paper size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize, ts_rs::TS)]
#[serde(rename_all = "lowercase")]
pub enum Page {
    A4,
    #[serde(alias = "us-letter")]
    Letter,
}

impl Page {
    /// Every paper size, in the order menus list them.
    pub const ALL: [Page; 2] = [Page::A4, Page::Letter];

    /// Its name on the command line and over IPC.
    pub fn name(self) -> &'static str {
        match self {
            Page::A4 => "a4",
            Page::Letter => "letter",
        }
    }

    /// How a menu names it.
    pub fn label(self) -> &'static str {
        match self {
            Page::A4 => "A4",
            Page::Letter => "US Letter",
        }
    }

    /// The other names it is known by (`us-letter`).
    pub fn aliases(self) -> &'static [&'static str] {
        match self {
            Page::Letter => &["us-letter"],
            Page::A4 => &[],
        }
    }

    /// Its size, for the command line's help.
    pub fn about(self) -> &'static str {
        match self {
            Page::A4 => "210 × 297 mm",
            Page::Letter => "8.5 × 11 in",
        }
    }

    /// The page called `name` (`a4`, `letter`).
    pub fn parse(name: &str) -> Result<Page, UnknownName> {
        match name.to_ascii_lowercase().as_str() {
            "a4" => Ok(Page::A4),
            "letter" | "us-letter" => Ok(Page::Letter),
            _ => Err(UnknownName::new("page size", name, "a4 or letter")),
        }
    }

    /// Its name in CSS's `@page { size }`.
    pub(crate) fn css(self) -> &'static str {
        match self {
            Page::A4 => "A4",
            Page::Letter => "letter",
        }
    }
}
