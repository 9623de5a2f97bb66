//! PDF export, rendered in-process by Typst embedded as a library: no browser.
//!
//! The resume's outline (the same one the HTML, Markdown and text exports render) is handed to a Typst
//! template as data (`outline.json`), so every value is text to Typst, never markup. Fonts are bundled in
//! `assets/fonts/`, installed beside the programs (`bundled_fonts.rs`) (Carlito and EB Garamond for the designs that are set in them; DejaVu Sans and Serif
//! for Latin, Greek, Cyrillic, Arabic and Hebrew; Droid Sans Fallback for Chinese and Japanese) and
//! embedded with Unicode maps; letters none of them has (Korean, Devanagari, Thai, …) are set in a font of
//! the system that has them (`system_fonts.rs`). The PDF is tagged, with the person's name as title and
//! author; links are clickable.
//!
//! # Layout
//! - [`pdf`]: a resume as a PDF in a design and page size; [`warm`] lays a design out once ahead of use.
//! - [`page_images`] and [`PageDrawer`]: the Page view's pages as PNG images, each drawn again only when it
//!   changed ([`DrawnPage`]).
//! - [`ats`]: how an applicant tracking system reads a PDF back, per section, against the resume.
//! - [`fit`]: the resume's spacing, margins and size tightened until it takes the pages asked.
//! - [`letter`]: a cover letter as a PDF in the design of the resume that sends it.
//! - [`photo`]: the person's photo in a design's header, and a chosen photo made small for the resume to keep.
//! - [`theme`]: a theme of the user's own, a folder of Typst laid out in a world that reaches only it.
//! - `templates/`: the built-in designs' Typst (`common.typ` and one file each), reading the outline and the
//!   design's options (`/meta/design`, [`redline_resume::design`]) as data.
//! - [`PdfError`]: what went wrong, in words. The other export formats are the resume crate's
//!   (`redline_resume::export`, `redline_resume::docx`); the engine chooses among them.

#![forbid(unsafe_code)]

pub mod ats;
mod bundled_fonts;
pub mod fit;
pub mod letter;
pub mod photo;
mod system_fonts;
pub mod theme;

pub use fit::{Fitted, fit};
pub use letter::{letter_pages, letter_pdf};

use std::collections::VecDeque;
use std::sync::{Arc, OnceLock};

use redline_resume::design::{Design, Style};
use redline_resume::export::{Page, Template};
use redline_resume::outline::{Item, outline};
use redline_resume::photo::Photo;
use redline_resume::words::words;
use serde_json::{Value, json};
use system_fonts::DocumentFonts;
pub use system_fonts::unprintable;
use typst::diag::{FileError, FileResult};
use typst::foundations::{Bytes, Datetime};
use typst::layout::PagedDocument;
use typst::syntax::{FileId, Source, VirtualPath};
use typst::text::{Font, FontBook};
use typst::utils::LazyHash;
use typst::{Library, LibraryExt, World};

/// Why a PDF could not be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the PDF could not be made: {0}")]
pub struct PdfError(pub(crate) String);

impl PdfError {
    /// What kind of failure it is: Typst failing on a resume that passed the schema is Redline's own.
    pub fn kind(&self) -> redline_error_kind::ErrorKind {
        redline_error_kind::ErrorKind::Internal
    }
}

const COMMON: &str = include_str!("../templates/common.typ");
/// Each built-in design's Typst, read after [`COMMON`].
fn body(template: Template) -> &'static str {
    match template {
        Template::Classic => include_str!("../templates/classic.typ"),
        Template::Modern => include_str!("../templates/modern.typ"),
        Template::Sidebar => include_str!("../templates/sidebar.typ"),
        Template::Compact => include_str!("../templates/compact.typ"),
        Template::Academic => include_str!("../templates/academic.typ"),
        Template::Engineering => include_str!("../templates/engineering.typ"),
        Template::Elegant => include_str!("../templates/elegant.typ"),
        Template::Banner => include_str!("../templates/banner.typ"),
    }
}

fn library() -> &'static LazyHash<Library> {
    static LIBRARY: OnceLock<LazyHash<Library>> = OnceLock::new();
    LIBRARY.get_or_init(|| LazyHash::new(Library::default()))
}

/// One document's world: the template as the main file, the outline, and the photo if one is drawn.
struct ResumeWorld {
    main: Source,
    fonts: DocumentFonts,
    data_id: FileId,
    data: Bytes,
    photo: Option<(FileId, Bytes)>,
}

/// The photo as Typst reads it: the file name the outline gives (`"photo"`), and its bytes.
fn photo_file(photo: Option<&Photo>) -> Option<(FileId, Bytes)> {
    photo.map(|p| {
        (
            FileId::new(None, VirtualPath::new(p.format.file_name())),
            Bytes::new(p.bytes.clone()),
        )
    })
}

impl World for ResumeWorld {
    fn library(&self) -> &LazyHash<Library> {
        library()
    }

    fn book(&self) -> &LazyHash<FontBook> {
        self.fonts.book()
    }

    fn main(&self) -> FileId {
        self.main.id()
    }

    fn source(&self, id: FileId) -> FileResult<Source> {
        if id == self.main.id() {
            Ok(self.main.clone())
        } else {
            Err(FileError::NotFound(id.vpath().as_rootless_path().into()))
        }
    }

    fn file(&self, id: FileId) -> FileResult<Bytes> {
        if id == self.data_id {
            return Ok(self.data.clone());
        }
        match &self.photo {
            Some((photo, bytes)) if *photo == id => Ok(bytes.clone()),
            _ => Err(FileError::NotFound(id.vpath().as_rootless_path().into())),
        }
    }

    fn font(&self, index: usize) -> Option<Font> {
        self.fonts.font(index)
    }

    fn today(&self, _offset: Option<i64>) -> Option<Datetime> {
        None
    }
}

/// Characters whose width shaping never adds to: Latin, Greek, Cyrillic, common punctuation and symbols,
/// Chinese, Japanese and Korean. (Not marks, controls, or scripts of contextual forms, such as Arabic.)
fn plain(c: char) -> bool {
    matches!(c as u32,
        0x20..=0x7E | 0xA0..=0x24F | 0x370..=0x52F | 0x2010..=0x2027 | 0x2030..=0x205E
        | 0x20A0..=0x20CF | 0x2100..=0x214F | 0x3000..=0x30FF | 0x4E00..=0x9FFF | 0xAC00..=0xD7AF
        | 0xFF00..=0xFFEF)
}

/// The widest a line of `parts` can be set, in em of its text's size, with a "·" between each two (their
/// spacing is the template's): each character at the widest advance any bundled font gives it, 5 % to
/// spare. With it, the template sets a line that surely fits without laying out its parts to measure them
/// (`line-of`): the same line, with less work and memory. `None` (measure them) where a character is not
/// [`plain`] or in no font, or where a word is long enough to be broken into pieces.
fn widest(parts: &[&str]) -> Option<f64> {
    let width = bundled_fonts::widest_advance;
    let parts: Vec<&str> = parts.iter().copied().filter(|p| !p.is_empty()).collect();
    let mut em = width('·')? * parts.len().saturating_sub(1) as f64;
    for part in parts {
        if part.split_whitespace().any(|w| w.chars().nth(59).is_some()) {
            return None;
        }
        for c in part.chars() {
            em += width(c).filter(|_| plain(c))?;
        }
    }
    Some(em * 1.05)
}

fn item(i: &Item) -> Value {
    json!({"text": i.text, "href": i.href})
}

/// The fonts a style's text is set in: its own family, then the DejaVu face of its kind for the letters it
/// lacks (Greek, Cyrillic, Arabic, Hebrew), then Droid Sans Fallback for Chinese and Japanese.
fn families(style: &Style) -> Vec<&'static str> {
    let mut fonts = vec![style.font.family()];
    if style.font.serif() {
        fonts.extend(["DejaVu Serif", "DejaVu Sans"]);
    } else {
        fonts.push("DejaVu Sans");
    }
    fonts.push("Droid Sans Fallback");
    fonts.dedup();
    fonts
}

/// The outline as the templates read it, the sections as `style` arranges them, and the file name of the
/// photo drawn (`photo`, whose bytes the world serves under it).
fn data(resume: &Value, style: &Style, page: Page, photo: Option<&Photo>) -> Value {
    let (header, sections) = outline(resume);
    let sections = style.arrange(sections);
    let words = words(resume);
    // Typst takes an ISO 639 code and an ISO 3166 region: `pt-BR` is `pt` in `BR`.
    let mut subtags = words.tag.split('-');
    let lang = subtags
        .next()
        .filter(|l| (2..=3).contains(&l.len()) && l.bytes().all(|b| b.is_ascii_alphabetic()))
        .map_or_else(|| "en".to_owned(), str::to_ascii_lowercase);
    let region = subtags
        .find(|r| r.len() == 2 && r.bytes().all(|b| b.is_ascii_alphabetic()))
        .map(str::to_ascii_uppercase);
    json!({
        "title": words.title(&header.name),
        "lang": lang,
        "region": region,
        "rtl": words.rtl,
        "paper": match page { Page::A4 => "a4", Page::Letter => "us-letter" },
        "name": header.name,
        "label": header.label,
        "contacts": header.contacts.iter().map(item).collect::<Vec<_>>(),
        "profiles": header.profiles.iter().map(item).collect::<Vec<_>>(),
        "summary": header.summary,
        "photo": photo.map(|p| p.format.file_name()),
        "design": {
            "accent": style.accent,
            "fonts": families(style),
            "size": style.size,
            "margins": style.margins,
            "spacing": style.spacing,
        },
        "widest": {
            "contacts": widest(&header.contacts.iter().map(|i| i.text.as_str()).collect::<Vec<_>>()),
            "profiles": widest(&header.profiles.iter().map(|i| i.text.as_str()).collect::<Vec<_>>()),
        },
        "sections": sections.iter().map(|s| json!({
            "heading": s.heading,
            "entries": s.entries.iter().map(|e| json!({
                "title": e.title,
                "subtitle": e.subtitle,
                "dates": e.dates,
                "location": e.location,
                "url": e.url.as_ref().map(item),
                "widest": widest(&[
                    &e.dates,
                    &e.subtitle,
                    &e.location,
                    e.url.as_ref().map_or("", |u| u.text.as_str()),
                ]),
                "summary": e.summary,
                "bullets": e.bullets,
                "keywords": e.keywords,
                "comma": words.comma_for(&e.keywords),
            })).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    })
}

/// The resume laid out by Typst, as the PDF and the page images show it, with its own design options.
fn layout(resume: &Value, template: Template, page: Page) -> Result<PagedDocument, PdfError> {
    layout_in(resume, &Design::of(resume), template, page)
}

/// The resume laid out with the options of `design` (which may not be the resume's own: [`fit`] tries some).
fn layout_in(
    resume: &Value,
    design: &Design,
    template: Template,
    page: Page,
) -> Result<PagedDocument, PdfError> {
    let style = design.style(template);
    let photo = redline_resume::photo::drawn(resume, &style);
    compile(
        &data(resume, &style, page, photo.as_ref()),
        template,
        photo.as_ref(),
    )
}

/// The template laid out with `data` as its outline, and `photo` (the one `data` names) to draw.
fn compile(
    data: &Value,
    template: Template,
    photo: Option<&Photo>,
) -> Result<PagedDocument, PdfError> {
    bundled_fonts::present()?;
    let main = Source::new(
        FileId::new(None, VirtualPath::new("main.typ")),
        format!("{COMMON}\n{}", body(template)),
    );
    let data = data.to_string();
    let world = ResumeWorld {
        main,
        fonts: DocumentFonts::for_text(&data),
        data_id: FileId::new(None, VirtualPath::new("outline.json")),
        data: Bytes::new(data.into_bytes()),
        photo: photo_file(photo),
    };
    let document = typst::compile::<PagedDocument>(&world)
        .output
        .map_err(diagnostics)?;
    bundled_fonts::asked_were_read()?;
    Ok(document)
}

/// Lays the resume out without making anything of it: Typst's caches then hold the template, so that the
/// next layout in it is a warm one. Returns the page count.
pub fn warm(resume: &Value, template: Template, page: Page) -> Result<usize, PdfError> {
    layout(resume, template, page).map(|d| d.pages.len())
}

/// The resume as a PDF.
pub fn pdf(resume: &Value, template: Template, page: Page) -> Result<Vec<u8>, PdfError> {
    made(&layout(resume, template, page)?)
}

/// A laid-out document as a tagged PDF.
fn made(document: &PagedDocument) -> Result<Vec<u8>, PdfError> {
    let options = typst_pdf::PdfOptions {
        tagged: true,
        ..Default::default()
    };
    typst_pdf::pdf(document, &options).map_err(diagnostics)
}

/// The most pages drawn as images: a resume runs to a few; a runaway one is shown this far.
pub const MAX_PAGE_IMAGES: usize = 12;

/// The resume's pages as the PDF prints them, each a PNG at `pixels_per_point` (1 pt = 1/72 in), with the
/// number of pages in all (at most [`MAX_PAGE_IMAGES`] are drawn).
pub fn page_images(
    resume: &Value,
    template: Template,
    page: Page,
    pixels_per_point: f32,
) -> Result<(Vec<DrawnPage>, usize), PdfError> {
    PageDrawer::default().draw(resume, template, page, pixels_per_point)
}

/// The first page of the resume in `template` on `page`, drawn small (`pixels_per_point`, at most 1) as a
/// PNG: the design gallery's thumbnail of the user's own resume.
pub fn thumbnail(
    resume: &Value,
    template: Template,
    page: Page,
    pixels_per_point: f32,
) -> Result<Vec<u8>, PdfError> {
    let document = layout(resume, template, page)?;
    let first = document
        .pages
        .first()
        .ok_or_else(|| PdfError("the resume laid out to no page".to_owned()))?;
    let pixmap = typst_render::render(first, pixels_per_point.clamp(0.1, 1.0));
    png(pixmap.width(), pixmap.height(), pixmap.data())
}

/// One page drawn: `key` is the same exactly when what the page shows (and the scale) is the same.
#[derive(Debug, Clone)]
pub struct DrawnPage {
    pub key: u128,
    pub png: Arc<[u8]>,
}

/// Draws the resume's pages, keeping the ones it drew last: a page whose layout did not change since (the
/// first page while the second is edited, or every page when only the chat moved on) is not drawn again.
#[derive(Debug, Default)]
pub struct PageDrawer {
    /// Most recently drawn last; at most `2 * MAX_PAGE_IMAGES` (the pages on screen and the ones before).
    drawn: VecDeque<DrawnPage>,
}

impl PageDrawer {
    /// Lays the resume out and draws its pages (at most [`MAX_PAGE_IMAGES`]), with the number of pages in all.
    pub fn draw(
        &mut self,
        resume: &Value,
        template: Template,
        page: Page,
        pixels_per_point: f32,
    ) -> Result<(Vec<DrawnPage>, usize), PdfError> {
        let document = layout(resume, template, page)?;
        let scale = pixels_per_point.clamp(0.25, 4.0);
        let shown: Vec<(u128, &typst::layout::Page)> = document
            .pages
            .iter()
            .take(MAX_PAGE_IMAGES)
            .map(|p| (typst::utils::hash128(&(p, scale.to_bits())), p))
            .collect();
        let fresh: Vec<(u128, &typst::layout::Page)> = shown
            .iter()
            .copied()
            .filter(|(key, _)| !self.drawn.iter().any(|d| d.key == *key))
            .collect();
        for drawn in drawn_side_by_side(&fresh, scale) {
            self.drawn.push_back(drawn?);
        }
        let mut pages = Vec::with_capacity(shown.len());
        for (key, _) in shown {
            let at = self.drawn.iter().position(|d| d.key == key);
            let drawn = (at.and_then(|at| self.drawn.remove(at)))
                .expect("every page shown is drawn or held");
            self.drawn.push_back(drawn.clone());
            pages.push(drawn);
        }
        while self.drawn.len() > 2 * MAX_PAGE_IMAGES {
            self.drawn.pop_front();
        }
        Ok((pages, document.pages.len()))
    }
}

/// `pages` (each with its key) drawn at `scale` pixels per point, in order: shared among as many threads as
/// there are cores, each drawing its share in turn, so that at most that many pages' pixels are held at once.
fn drawn_side_by_side(
    pages: &[(u128, &typst::layout::Page)],
    scale: f32,
) -> Vec<Result<DrawnPage, PdfError>> {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let share = pages.len().div_ceil(cores).max(1);
    std::thread::scope(|scope| {
        let drawing: Vec<_> = pages
            .chunks(share)
            .map(|share| {
                scope.spawn(move || {
                    share
                        .iter()
                        .map(|&(key, page)| drawn_page(key, page, scale))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        drawing
            .into_iter()
            .flat_map(|d| d.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    })
}

/// One page drawn at `scale` pixels per point, with its key.
fn drawn_page(key: u128, page: &typst::layout::Page, scale: f32) -> Result<DrawnPage, PdfError> {
    let pixmap = typst_render::render(page, scale);
    Ok(DrawnPage {
        key,
        png: png(pixmap.width(), pixmap.height(), pixmap.data())?.into(),
    })
}

/// A page's pixels (premultiplied RGBA, as Typst draws them) as a PNG of 256 colours at most, compressed
/// for speed: the pages are opaque, and the image is shown at once and never stored (the PDF is exact).
///
/// A page of text holds some 500 colours (two inks and the accent, each blended with the paper at the
/// glyphs' edges). The 256 most used are kept exactly; each other one, a few pixels of an edge, takes the
/// nearest kept colour. One byte a pixel instead of three: measured in the window, WebKit decoded the
/// sample's two pages in 18 ms as RGB, and the PNGs were a third larger over the bridge.
pub(crate) fn png(width: u32, height: u32, rgba: &[u8]) -> Result<Vec<u8>, PdfError> {
    let rgb: Vec<[u8; 3]> = rgba
        .chunks_exact(4)
        .map(|p| match p[3] {
            255 => [p[0], p[1], p[2]],
            // A see-through pixel shown on white paper.
            a => {
                let white = 255 - u16::from(a);
                [0, 1, 2].map(|i| (u16::from(p[i]) + white).min(255) as u8)
            }
        })
        .collect();
    let (palette, indices) = indexed(&rgb);
    let mut out = Vec::with_capacity(indices.len() / 8);
    let mut encoder = ::png::Encoder::new(&mut out, width, height);
    encoder.set_color(::png::ColorType::Indexed);
    encoder.set_depth(::png::BitDepth::Eight);
    encoder.set_palette(palette.concat());
    // Measured on the sample's first page (893 × 1263 px), as RGB: 1.2 ms for 480 KB. Adaptive filtering
    // took 9 ms (380 KB), the balanced level 8 ms (240–300 KB): bytes handed over in-process cost less.
    encoder.set_compression(::png::Compression::Fast);
    encoder.set_filter(::png::Filter::NoFilter);
    let fail = |e: ::png::EncodingError| PdfError(format!("a page could not be drawn: {e}"));
    let mut writer = encoder.write_header().map_err(fail)?;
    writer.write_image_data(&indices).map_err(fail)?;
    writer.finish().map_err(fail)?;
    Ok(out)
}

/// `pixels` as a palette of at most 256 colours and each pixel's index into it: the most used colours
/// exactly, every other one as the nearest of those.
fn indexed(pixels: &[[u8; 3]]) -> (Vec<[u8; 3]>, Vec<u8>) {
    const WHITE: [u8; 3] = [255; 3];
    // Most of a page is paper: white is counted apart, without a lookup.
    let mut counts: rustc_hash::FxHashMap<[u8; 3], usize> = Default::default();
    let mut white = 0;
    for &p in pixels {
        if p == WHITE {
            white += 1;
        } else {
            *counts.entry(p).or_default() += 1;
        }
    }
    let mut by_use: Vec<([u8; 3], usize)> = counts.iter().map(|(&c, &n)| (c, n)).collect();
    by_use.push((WHITE, white));
    // Most used first; equal counts by colour, so that the same page always makes the same bytes.
    by_use.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let palette: Vec<[u8; 3]> = by_use.iter().take(256).map(|&(c, _)| c).collect();
    let distance = |a: [u8; 3], b: [u8; 3]| -> u32 {
        (0..3)
            .map(|i| (i32::from(a[i]) - i32::from(b[i])).pow(2) as u32)
            .sum()
    };
    let index_of: rustc_hash::FxHashMap<[u8; 3], u8> = by_use
        .iter()
        .enumerate()
        .map(|(i, &(c, _))| {
            let at = if i < palette.len() {
                i
            } else {
                (0..palette.len())
                    .min_by_key(|&k| distance(palette[k], c))
                    .unwrap_or(0)
            };
            (c, at as u8)
        })
        .collect();
    let white_at = index_of[&WHITE];
    let indices = pixels
        .iter()
        .map(|p| if *p == WHITE { white_at } else { index_of[p] })
        .collect();
    (palette, indices)
}

/// Typst's diagnostics as one error.
fn diagnostics(errors: typst::ecow::EcoVec<typst::diag::SourceDiagnostic>) -> PdfError {
    PdfError(
        errors
            .iter()
            .map(|e| e.message.to_string())
            .collect::<Vec<_>>()
            .join("; "),
    )
}

#[cfg(test)]
mod widest_tests {
    use super::*;

    fn pdf_of(data: &Value, template: Template) -> Vec<u8> {
        let document = compile(data, template, None).unwrap();
        typst_pdf::pdf(&document, &typst_pdf::PdfOptions::default()).unwrap()
    }

    /// Every `widest` in the outline set to `none`: each line's parts measured, as before the fonts were read.
    fn measured(data: &Value) -> Value {
        let mut data = data.clone();
        data["widest"] = json!({"contacts": null, "profiles": null});
        for section in data["sections"].as_array_mut().unwrap() {
            for entry in section["entries"].as_array_mut().unwrap() {
                entry["widest"] = Value::Null;
            }
        }
        data
    }

    /// Where the fonts say a line fits, it is the line measuring its parts makes: the same PDF, byte for
    /// byte, for resumes whose lines fit, nearly fit and wrap, in both templates and papers.
    #[test]
    fn a_line_the_fonts_say_fits_is_the_line_measuring_makes() {
        let mut resumes = vec![redline_resume::sample()];
        for extra in [10, 40, 55, 60, 65, 70, 80, 120] {
            let mut resume = redline_resume::sample();
            let place = format!("Palo Alto, CA, {}", "Wide Wm ".repeat(extra / 8));
            resume["work"][0]["location"] = json!(place);
            resume["basics"]["email"] = json!(format!("{}@example.com", "w".repeat(extra / 2)));
            resume["basics"]["url"] =
                json!(format!("https://example.com/{}", "m".repeat(extra / 2)));
            resumes.push(resume);
        }
        let mut fast = 0;
        for (i, resume) in resumes.iter().enumerate() {
            // Every design for the sample and the lines nearest to the bound; the first two for the rest.
            let templates: &[Template] = if [0, 3, 5].contains(&i) {
                &Template::ALL
            } else {
                &Template::ALL[..2]
            };
            for page in [Page::A4, Page::Letter] {
                for &template in templates {
                    let data = data(resume, &Style::of(template), page, None);
                    fast += data["sections"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .flat_map(|s| s["entries"].as_array().unwrap())
                        .filter(|e| e["widest"].is_number())
                        .count();
                    assert!(
                        pdf_of(&data, template) == pdf_of(&measured(&data), template),
                        "{template:?} {page:?}: {}",
                        data["widest"]
                    );
                }
            }
        }
        assert!(fast > 10, "the fonts' bound was used for {fast} lines");
    }

    #[test]
    fn what_shaping_may_widen_is_measured() {
        assert!(widest(&["Pied Piper", "Palo Alto, CA", "2013 – 2014"]).is_some());
        assert!(widest(&["株式会社", "Москва"]).is_some());
        assert_eq!(widest(&["شركة المثال"]), None);
        assert_eq!(widest(&["e\u{301}"]), None);
        assert_eq!(widest(&[&"x".repeat(60)]), None);
        // Wider text, a wider bound; an empty part adds no separator.
        let one = widest(&["Wm"]).unwrap();
        assert!(widest(&["WmWm"]).unwrap() > one);
        assert_eq!(widest(&["Wm", ""]), Some(one));
        assert!(widest(&["Wm", "Wm"]).unwrap() > 2.0 * one);
    }
}

#[cfg(test)]
mod palette_tests {
    use super::*;

    #[test]
    fn a_page_of_few_colours_keeps_them_all_and_more_take_the_nearest() {
        // 300 colours: white, then 299 shades of one ink, each a little rarer than the one before and
        // the rarest scattered among the others, as the edges of glyphs are.
        let mut pixels = vec![[255u8; 3]; 1000];
        for rank in 0..299u32 {
            let shade = rank * 7 % 300;
            let c = [(shade / 2) as u8, (10 + shade % 2 * 3) as u8, 40];
            pixels.extend(std::iter::repeat_n(c, 300 - rank as usize));
        }
        let (palette, indices) = indexed(&pixels);
        assert_eq!(palette.len(), 256);
        assert_eq!(indices.len(), pixels.len());
        let mut worst = 0;
        for (p, &i) in pixels.iter().zip(&indices) {
            let q = palette[usize::from(i)];
            worst = worst.max((0..3).map(|k| p[k].abs_diff(q[k])).max().unwrap());
        }
        // The rarest shades take a kept one a few steps away.
        assert!((1..=4).contains(&worst), "{worst}");
        // The 256 most used are exact, white the first.
        assert_eq!(palette[0], [255; 3]);
        assert_eq!(palette[usize::from(indices[1000])], [0, 10, 40]);

        // As few colours as a palette holds: every pixel exact, and the PNG reads back the same.
        let few: Vec<[u8; 3]> = (0..64 * 64).map(|i| [(i % 200) as u8, 9, 255]).collect();
        let (palette, indices) = indexed(&few);
        assert!(
            few.iter()
                .zip(&indices)
                .all(|(p, &i)| palette[usize::from(i)] == *p)
        );
        let rgba: Vec<u8> = few.iter().flat_map(|p| [p[0], p[1], p[2], 255]).collect();
        let bytes = png(64, 64, &rgba).unwrap();
        let mut decoder = ::png::Decoder::new(std::io::Cursor::new(bytes));
        decoder.set_transformations(::png::Transformations::EXPAND);
        let mut reader = decoder.read_info().unwrap();
        let mut out = vec![0; reader.output_buffer_size().unwrap()];
        let frame = reader.next_frame(&mut out).unwrap();
        assert_eq!(frame.color_type, ::png::ColorType::Rgb);
        let read: Vec<[u8; 3]> = out[..frame.buffer_size()]
            .chunks_exact(3)
            .map(|c| [c[0], c[1], c[2]])
            .collect();
        assert_eq!(read, few);
    }
}
