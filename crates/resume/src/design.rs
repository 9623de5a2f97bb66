//! How a resume looks, kept in the resume itself at `/meta/design` (JSON Resume's `meta` is where
//! "tooling configuration lives"): the design and its options, so that choosing them is a revision like any
//! other edit, undoable and carried into a tailored copy.
//!
//! Every option is optional: an absent one takes the design's own value ([`Style::of`]). Unknown keys are
//! ignored (a later Redline may add some); a value out of its bounds is refused in words, so that neither a
//! model nor a hand edit can make a resume unreadable (a size of 3 pt, a colour that is no colour, white
//! headings on white paper).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::choices::{Page, Template};
use crate::outline::{Header, Section};
use crate::words::{Dates, SECTIONS};

/// Where the design lives in a resume.
pub const POINTER: &str = "/meta/design";

/// The smallest and largest text size, in points: below 9 a printed resume is hard to read; above 12 it is
/// a poster.
pub const SIZE: (f64, f64) = (9.0, 12.0);
/// The narrowest and widest page margins, in millimetres: printers clip under 8.
pub const MARGINS: (f64, f64) = (8.0, 30.0);
/// How much the design's own spacing between blocks and lines may shrink or grow.
pub const SPACING: (f64, f64) = (0.6, 1.5);
/// The least contrast an accent colour must have against white paper (WCAG's 3:1, for headings and rules).
pub const MIN_CONTRAST: f64 = 3.0;

/// A bundled font family a design may be set in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "kebab-case")]
pub enum Font {
    /// DejaVu Sans: wide coverage, sans-serif.
    DejavuSans,
    /// DejaVu Serif: wide coverage, serif.
    DejavuSerif,
    /// Carlito: a humanist sans-serif, narrow (Calibri's metrics).
    Carlito,
    /// EB Garamond: an old-style serif.
    EbGaramond,
}

impl Font {
    /// Every bundled family.
    pub const ALL: [Font; 4] = [
        Font::DejavuSans,
        Font::DejavuSerif,
        Font::Carlito,
        Font::EbGaramond,
    ];

    /// Its family name as the font file gives it (what Typst asks for).
    pub fn family(self) -> &'static str {
        match self {
            Font::DejavuSans => "DejaVu Sans",
            Font::DejavuSerif => "DejaVu Serif",
            Font::Carlito => "Carlito",
            Font::EbGaramond => "EB Garamond 12",
        }
    }

    /// Its name in `/meta/design/font`.
    pub fn name(self) -> &'static str {
        match self {
            Font::DejavuSans => "dejavu-sans",
            Font::DejavuSerif => "dejavu-serif",
            Font::Carlito => "carlito",
            Font::EbGaramond => "eb-garamond",
        }
    }

    /// True for a serif face: its fallback for letters it lacks is DejaVu Serif, not Sans.
    pub fn serif(self) -> bool {
        matches!(self, Font::DejavuSerif | Font::EbGaramond)
    }
}

/// Which sections show, and in what order.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[serde(default)]
pub struct Sections {
    /// Section keys (`education`, `work`, …) to put first, in this order; the others follow in the design's.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[ts(as = "Option<Vec<String>>", optional)]
    pub order: Vec<String>,
    /// Section keys not to show.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[ts(as = "Option<Vec<String>>", optional)]
    pub hide: Vec<String>,
}

/// The design options a resume keeps at [`POINTER`]; `None` is the design's own value.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, ts_rs::TS)]
#[serde(default)]
pub struct Design {
    /// The built-in design.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub template: Option<Template>,
    /// The accent colour, `#rrggbb`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub accent: Option<String>,
    /// The font family.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub font: Option<Font>,
    /// The body text's size in points ([`SIZE`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub size: Option<f64>,
    /// The page margins in millimetres ([`MARGINS`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub margins: Option<f64>,
    /// The design's spacing times this ([`SPACING`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub spacing: Option<f64>,
    /// Which sections show, in what order.
    #[serde(skip_serializing_if = "sections_default")]
    #[ts(as = "Option<Sections>", optional)]
    pub sections: Sections,
    /// The paper size.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub page: Option<Page>,
    /// How dates are written.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub dates: Option<Dates>,
    /// Whether the photo at `basics.image` shows (`None`: it does, when there is one to show).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub photo: Option<bool>,
}

fn sections_default(s: &Sections) -> bool {
    *s == Sections::default()
}

/// Why a design was refused, in the user's words.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum DesignError {
    /// The value is not a design's shape (a size that is a word, an unknown design or font).
    #[error("the design at /meta/design could not be read: {0}")]
    Shape(String),
    /// The accent is not a colour.
    #[error("the accent colour {0:?} is not a colour written #rrggbb")]
    NotAColour(String),
    /// The accent would not show on white paper.
    #[error(
        "the accent colour {colour} is too light to read on white paper (contrast {contrast:.1}:1; at least 3:1 is needed)"
    )]
    TooLight { colour: String, contrast: f64 },
    /// A number out of its bounds.
    #[error("the {what} {value} is outside what stays readable ({min} to {max})")]
    OutOfBounds {
        what: &'static str,
        value: f64,
        min: f64,
        max: f64,
    },
    /// A section key that is no section.
    #[error("{0:?} is not a section of a resume (the sections are work, education, skills, …)")]
    NoSuchSection(String),
}

impl DesignError {
    /// What kind of failure it is: a value that was wrong.
    pub fn kind(&self) -> redline_error_kind::ErrorKind {
        redline_error_kind::ErrorKind::Invalid
    }
}

/// A colour's relative luminance (WCAG 2.1), from `#rrggbb`.
fn luminance(rgb: [u8; 3]) -> f64 {
    let channel = |c: u8| {
        let c = f64::from(c) / 255.0;
        if c <= 0.039_28 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * channel(rgb[0]) + 0.7152 * channel(rgb[1]) + 0.0722 * channel(rgb[2])
}

/// `#rrggbb` as its three channels.
pub fn parse_colour(colour: &str) -> Option<[u8; 3]> {
    let hex = colour.strip_prefix('#')?;
    if hex.len() != 6 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).ok();
    Some([byte(0)?, byte(2)?, byte(4)?])
}

fn bounded(
    what: &'static str,
    value: Option<f64>,
    (min, max): (f64, f64),
) -> Result<(), DesignError> {
    match value {
        Some(v) if !(min..=max).contains(&v) => Err(DesignError::OutOfBounds {
            what,
            value: v,
            min,
            max,
        }),
        _ => Ok(()),
    }
}

impl Design {
    /// The design a resume keeps, or the default one when it keeps none or one that cannot be used (the
    /// policy refuses such an edit; a resume imported with one still exports).
    pub fn of(resume: &Value) -> Design {
        resume
            .pointer(POINTER)
            .and_then(|v| Design::read(v).ok())
            .unwrap_or_default()
    }

    /// Reads and checks a design value: unknown keys ignored, bounds enforced.
    pub fn read(value: &Value) -> Result<Design, DesignError> {
        let design: Design = serde_json::from_value(value.clone())
            .map_err(|e| DesignError::Shape(crate::shorten(&e.to_string(), 200)))?;
        design.check()?;
        Ok(design)
    }

    /// Checks every option against its bounds.
    pub fn check(&self) -> Result<(), DesignError> {
        if let Some(accent) = &self.accent {
            let rgb = parse_colour(accent)
                .ok_or_else(|| DesignError::NotAColour(crate::shorten(accent, 40)))?;
            let contrast = 1.05 / (luminance(rgb) + 0.05);
            if contrast < MIN_CONTRAST {
                return Err(DesignError::TooLight {
                    colour: accent.clone(),
                    contrast,
                });
            }
        }
        bounded("text size (pt)", self.size, SIZE)?;
        bounded("margin (mm)", self.margins, MARGINS)?;
        bounded("spacing", self.spacing, SPACING)?;
        for key in self.sections.order.iter().chain(&self.sections.hide) {
            if !SECTIONS.contains(&key.as_str()) {
                return Err(DesignError::NoSuchSection(crate::shorten(key, 40)));
            }
        }
        Ok(())
    }

    /// The design and page to show the resume in: the ones asked for, else the ones it keeps, else classic
    /// on A4. (A caller that names none, such as a Page view with no choice made, takes the resume's.)
    pub fn chosen(&self, template: Option<Template>, page: Option<Page>) -> (Template, Page) {
        (
            template.or(self.template).unwrap_or(Template::Classic),
            page.or(self.page).unwrap_or(Page::A4),
        )
    }

    /// The design as it is written at [`POINTER`].
    pub fn to_value(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    /// What the resume looks like in `template` (its own, or one named): the design's values, with the
    /// resume's options over them.
    pub fn style(&self, template: Template) -> Style {
        let mut style = Style::of(template);
        if let Some(accent) = &self.accent {
            style.accent.clone_from(accent);
        }
        style.font = self.font.unwrap_or(style.font);
        style.size = self.size.unwrap_or(style.size);
        style.margins = self.margins.unwrap_or(style.margins);
        style.spacing = self.spacing.unwrap_or(style.spacing);
        if !self.sections.order.is_empty() {
            style.order = self.sections.order.clone();
        }
        style.hide = self.sections.hide.clone();
        style.photo = self.photo.unwrap_or(true);
        style
    }
}

/// The design's options in a few lines, for a model's prompt: what may be written at [`POINTER`] and within
/// which bounds ("make the headings dark blue", "put education first", "fit it on one page").
pub fn shape() -> String {
    let names = |all: &mut dyn Iterator<Item = &'static str>| all.collect::<Vec<_>>().join(" | ");
    [
        format!("How the resume looks is kept at {POINTER} (an option left out is the design's own):"),
        format!("template: {}", names(&mut Template::ALL.iter().map(|t| t.name()))),
        "accent: \"#rrggbb\", dark enough to read on white paper".to_owned(),
        format!("font: {}", names(&mut Font::ALL.iter().map(|f| f.name()))),
        format!("size: text size in points, {} to {}", SIZE.0, SIZE.1),
        format!("margins: millimetres, {} to {}", MARGINS.0, MARGINS.1),
        format!("spacing: {} to {} (1 is the design's own)", SPACING.0, SPACING.1),
        format!(
            "sections: {{\"order\": [keys to put first], \"hide\": [keys not to show]}}; the keys: {}",
            SECTIONS.join(", ")
        ),
        "dates: month | numeric | year".to_owned(),
        "page: a4 | letter".to_owned(),
        "photo: true | false".to_owned(),
        format!("To change one option, add it at {POINTER}/OPTION."),
    ]
    .join("\n")
}

/// A design's look with every value set: what the PDF templates read.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Style {
    /// The accent colour, `#rrggbb`.
    pub accent: String,
    /// The font family.
    pub font: Font,
    /// Body text size, pt.
    pub size: f64,
    /// Page margins, mm.
    pub margins: f64,
    /// Spacing factor.
    pub spacing: f64,
    /// Sections put first, in order.
    pub order: Vec<String>,
    /// Sections not shown.
    pub hide: Vec<String>,
    /// Whether the photo shows, when the resume has one ([`crate::photo`]).
    pub photo: bool,
}

impl Style {
    /// A built-in design's own look.
    pub fn of(template: Template) -> Style {
        let (accent, font, size, margins) = match template {
            Template::Classic => ("#1d2230", Font::DejavuSerif, 10.0, 18.0),
            Template::Modern => ("#c0392b", Font::DejavuSans, 9.5, 16.0),
            Template::Sidebar => ("#1f5f6b", Font::Carlito, 9.5, 14.0),
            Template::Compact => ("#2b4c7e", Font::Carlito, 9.0, 9.0),
            Template::Academic => ("#3b3b3b", Font::DejavuSerif, 10.0, 20.0),
            Template::Engineering => ("#004f90", Font::Carlito, 10.0, 13.0),
            Template::Elegant => ("#7a5c2e", Font::EbGaramond, 11.0, 20.0),
            Template::Banner => ("#2c3e70", Font::Carlito, 10.0, 16.0),
        };
        let order = match template {
            Template::Academic => vec!["education".to_owned(), "publications".to_owned()],
            _ => Vec::new(),
        };
        Style {
            accent: accent.to_owned(),
            font,
            size,
            margins,
            spacing: 1.0,
            order,
            hide: Vec::new(),
            photo: true,
        }
    }

    /// The outline's sections as this design shows them: the hidden ones left out, the ones it puts first
    /// first, the rest in the resume's order.
    pub fn arrange(&self, sections: Vec<Section>) -> Vec<Section> {
        let mut rest: Vec<Section> = sections
            .into_iter()
            .filter(|s| !self.hide.iter().any(|h| h == s.id))
            .collect();
        let mut out = Vec::with_capacity(rest.len());
        for key in &self.order {
            if let Some(at) = rest.iter().position(|s| s.id == key) {
                out.push(rest.remove(at));
            }
        }
        out.extend(rest);
        out
    }
}

/// The resume as a reader meets it in `template` with the resume's own options: the outline, its
/// sections arranged by the design.
pub fn arranged(resume: &Value, template: Template) -> (Header, Vec<Section>) {
    let (header, sections) = crate::outline::outline(resume);
    (header, Design::of(resume).style(template).arrange(sections))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_absent_design_is_the_default_and_unknown_keys_are_ignored() {
        assert_eq!(Design::of(&json!({})), Design::default());
        let d = Design::read(&json!({"template": "elegant", "size": 10.5, "future": 1})).unwrap();
        assert_eq!(d.template, Some(Template::Elegant));
        assert_eq!(d.style(Template::Elegant).size, 10.5);
        assert_eq!(d.style(Template::Elegant).font, Font::EbGaramond);
    }

    #[test]
    fn values_out_of_bounds_are_refused_in_words() {
        let refused = |v: Value| Design::read(&v).unwrap_err().to_string();
        assert!(refused(json!({"size": 4})).contains("text size (pt) 4 is outside"));
        assert!(refused(json!({"margins": 2})).contains("margin (mm) 2"));
        assert!(refused(json!({"spacing": 9})).contains("spacing 9"));
        assert!(refused(json!({"accent": "red"})).contains("not a colour"));
        assert!(refused(json!({"accent": "#ffff00"})).contains("too light"));
        assert!(refused(json!({"template": "comic"})).contains("could not be read"));
        assert!(refused(json!({"font": "comic-sans"})).contains("could not be read"));
        assert!(
            refused(json!({"sections": {"hide": ["hobbies"]}}))
                .contains("\"hobbies\" is not a section")
        );
        assert!(Design::read(&json!({"accent": "#003366", "size": 12, "margins": 8})).is_ok());
    }

    #[test]
    fn sections_are_put_first_and_hidden_as_asked() {
        let resume = crate::sample();
        let (_, plain) = crate::outline::outline(&resume);
        let (_, academic) = arranged(&resume, Template::Academic);
        assert_eq!(academic[0].id, "education");
        assert_eq!(academic.len(), plain.len());
        let mut hidden = resume.clone();
        hidden["meta"]["design"] = json!({"sections": {"order": ["skills"], "hide": ["work"]}});
        let (_, ids) = arranged(&hidden, Template::Classic);
        assert_eq!(ids[0].id, "skills");
        assert!(ids.iter().all(|s| s.id != "work"));
        assert_eq!(ids.len(), plain.len() - 1);
    }

    /// Every value the model's lines name is one the design takes, and its bounds are the design's own.
    #[test]
    fn the_shape_a_model_is_shown_names_only_what_the_design_takes() {
        let shape = shape();
        let listed = |key: &str| -> Vec<String> {
            let line = shape
                .lines()
                .find(|l| l.starts_with(&format!("{key}: ")))
                .unwrap();
            line[key.len() + 2..]
                .split(" | ")
                .map(str::to_owned)
                .collect()
        };
        for key in ["template", "font", "dates", "page"] {
            for value in listed(key) {
                let design = Design::read(&serde_json::json!({ key: value }));
                assert!(design.is_ok(), "{key}: {value}: {design:?}");
            }
        }
        assert_eq!(listed("template").len(), Template::ALL.len());
        assert!(
            shape.contains(&format!("{} to {}", SIZE.0, SIZE.1)),
            "{shape}"
        );
        assert!(Design::read(&serde_json::json!({"photo": false})).is_ok());
    }
}
