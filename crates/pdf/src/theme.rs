//! A theme of the user's own: a folder with a manifest (`theme.json`: its name, licence, the built-in design
//! it was made from, and its options with their defaults and bounds) and Typst that reads the resume
//! (`main.typ`, with any other files it needs beside it), as RenderCV's `create-theme` writes one.
//!
//! A theme is untrusted code, as a file from the internet is. What it can reach is what this world gives it:
//! the files inside its own folder (no path out of it, a link out of it included; each file and all of them
//! together bounded in size), the resume's outline (`outline.json`, the data every built-in design reads),
//! and the bundled fonts. It has no packages, no system fonts, no clock and no network. Its time and memory
//! are bounded by the process it is laid out in: the engine runs it in the `redline` program's hidden
//! `render-theme` mode, stopped after [`TIME`].
//!
//! - [`Manifest`]: `theme.json`, read and checked ([`Manifest::read`]); [`Manifest::style`] is the look a
//!   resume gets in the theme (its defaults, the resume's own options within its bounds).
//! - [`create`]: a new theme's folder, copied from a built-in design.
//! - [`Manifest::request`] and [`render`]: what the parent hands the child, and the child's PDF of it.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

use redline_resume::design::{Design, Font, MARGINS, SIZE, SPACING, Style};
use redline_resume::export::{Page, Template};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use typst::World;
use typst::diag::{FileError, FileResult, SourceDiagnostic};
use typst::foundations::{Bytes, Datetime};
use typst::layout::PagedDocument;
use typst::syntax::{FileId, Source, VirtualPath};
use typst::text::{Font as TypstFont, FontBook};
use typst::utils::LazyHash;

use crate::{COMMON, PdfError, body, data, library, made};

/// The manifest's file name in a theme's folder.
pub const MANIFEST: &str = "theme.json";
/// The Typst file a theme is laid out from.
pub const MAIN: &str = "main.typ";
/// How long a theme may take to lay out a resume: a built-in design takes tens of milliseconds.
pub const TIME: Duration = Duration::from_secs(10);
/// The largest file a theme may read (an image, a font-free Typst file): a resume's photo is well under it.
pub const MAX_FILE_BYTES: u64 = 8 << 20;
/// The most a theme may read of its folder in one layout, every file together.
pub const MAX_READ_BYTES: u64 = 32 << 20;
/// The largest manifest read.
const MAX_MANIFEST_BYTES: u64 = 64 << 10;
/// The longest a theme's name may be.
pub const MAX_NAME: usize = 40;

/// A number option: the theme's own value and how far a resume may move it (within Redline's own bounds).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Range {
    pub default: f64,
    pub min: f64,
    pub max: f64,
}

/// The options a theme takes from the resume's `/meta/design`, each with its default.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Options {
    /// The accent colour, `#rrggbb`, readable on white paper.
    pub accent: String,
    /// The bundled font family the text is set in.
    pub font: Font,
    /// Body text size, pt.
    pub size: Range,
    /// Page margins, mm.
    pub margins: Range,
    /// The spacing between blocks and lines, times the theme's own.
    pub spacing: Range,
}

/// `theme.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// Its name: the folder's, and `redline export --template NAME`'s.
    pub name: String,
    /// How a menu names it.
    pub label: String,
    /// What it looks like, in a line.
    #[serde(default)]
    pub description: String,
    /// Its licence (an SPDX name): a theme is shared as code is.
    pub licence: String,
    /// The built-in design it was made from: the Word and HTML exports, and letters, take that one.
    pub from: Template,
    /// Its options, with their defaults and bounds.
    pub options: Options,
}

/// Why a theme could not be made, read or laid out, in words.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ThemeError(pub String);

impl From<PdfError> for ThemeError {
    fn from(e: PdfError) -> Self {
        ThemeError(e.0)
    }
}

/// True when `name` can be a theme's: 1 to [`MAX_NAME`] lower-case letters, digits and inner hyphens.
pub fn is_name(name: &str) -> bool {
    (1..=MAX_NAME).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !name.starts_with('-')
        && !name.ends_with('-')
}

fn range_of(default: f64, (min, max): (f64, f64)) -> Range {
    Range { default, min, max }
}

impl Manifest {
    /// The manifest of a new theme `name` made from `from`: its look, and Redline's whole bounds.
    pub fn new(name: &str, from: Template) -> Manifest {
        let style = Style::of(from);
        Manifest {
            name: name.to_owned(),
            label: name.to_owned(),
            description: format!("made from {}", from.label()),
            licence: "MIT".to_owned(),
            from,
            options: Options {
                accent: style.accent,
                font: style.font,
                size: range_of(style.size, SIZE),
                margins: range_of(style.margins, MARGINS),
                spacing: range_of(style.spacing, SPACING),
            },
        }
    }

    /// The manifest in `folder`, read and checked: its name is the folder's, and every option stays within
    /// Redline's bounds (a theme may narrow them, never widen them).
    pub fn read(folder: &Path) -> Result<Manifest, ThemeError> {
        let path = folder.join(MANIFEST);
        let bytes = read_bounded(&path, MAX_MANIFEST_BYTES)
            .map_err(|e| ThemeError(format!("{}: {e}", path.display())))?;
        let manifest: Manifest = serde_json::from_slice(&bytes)
            .map_err(|e| ThemeError(format!("{}: {}", path.display(), shorten(&e.to_string()))))?;
        manifest
            .check(folder)
            .map_err(|e| ThemeError(format!("{}: {e}", path.display())))?;
        Ok(manifest)
    }

    fn check(&self, folder: &Path) -> Result<(), String> {
        let folder_name = folder.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if !is_name(&self.name) || self.name != folder_name {
            return Err(format!(
                "its name {:?} must be its folder's ({folder_name:?}): lower-case letters, digits and hyphens",
                shorten(&self.name)
            ));
        }
        if self.label.trim().is_empty() || self.label.chars().count() > 60 {
            return Err("its label must be 1 to 60 characters".to_owned());
        }
        if self.description.chars().count() > 200 || self.licence.chars().count() > 60 {
            return Err(
                "its description or licence is too long (200 and 60 characters)".to_owned(),
            );
        }
        let o = &self.options;
        for (what, range, bounds) in [
            ("size", o.size, SIZE),
            ("margins", o.margins, MARGINS),
            ("spacing", o.spacing, SPACING),
        ] {
            let inside = |x: f64| x.is_finite() && bounds.0 <= x && x <= bounds.1;
            if !inside(range.min) || !inside(range.max) || range.min > range.max {
                return Err(format!(
                    "the {what} bounds {} to {} are outside what stays readable ({} to {})",
                    range.min, range.max, bounds.0, bounds.1
                ));
            }
            if !(range.min..=range.max).contains(&range.default) {
                return Err(format!(
                    "the {what} default {} is outside its bounds",
                    range.default
                ));
            }
        }
        Design {
            accent: Some(o.accent.clone()),
            ..Design::default()
        }
        .check()
        .map_err(|e| e.to_string())
    }

    /// The look a resume gets in this theme: the theme's defaults, the resume's own options over them, each
    /// number held within the theme's bounds; the section order and the hidden sections are the resume's.
    pub fn style(&self, resume: &Value) -> Style {
        let design = Design::of(resume);
        let o = &self.options;
        let mut style = Style::of(self.from);
        style.accent = design.accent.clone().unwrap_or_else(|| o.accent.clone());
        style.font = design.font.unwrap_or(o.font);
        let within = |asked: Option<f64>, r: Range| asked.unwrap_or(r.default).clamp(r.min, r.max);
        style.size = within(design.size, o.size);
        style.margins = within(design.margins, o.margins);
        style.spacing = within(design.spacing, o.spacing);
        if !design.sections.order.is_empty() {
            style.order = design.sections.order.clone();
        }
        style.hide = design.sections.hide.clone();
        style.photo = design.photo.unwrap_or(true);
        style
    }
}

fn shorten(s: &str) -> String {
    redline_resume::shorten(s, 200)
}

/// A new theme `name` in `themes` (its folder `themes/name`), copied from the built-in design `from`: the
/// manifest and the design's whole Typst in `main.typ`. Refused when the name cannot be a theme's or the
/// folder is there. Returns the folder.
pub fn create(themes: &Path, name: &str, from: Template) -> Result<PathBuf, ThemeError> {
    if !is_name(name) {
        return Err(ThemeError(format!(
            "{:?} cannot name a theme: use 1 to {MAX_NAME} lower-case letters, digits and hyphens",
            shorten(name)
        )));
    }
    if Template::ALL.iter().any(|t| t.name() == name) {
        return Err(ThemeError(format!(
            "{name} is a built-in design's name; choose another"
        )));
    }
    let folder = themes.join(name);
    if folder.exists() {
        return Err(ThemeError(format!(
            "{} already exists; nothing was written",
            folder.display()
        )));
    }
    let fail = |e: std::io::Error| ThemeError(format!("cannot write {}: {e}", folder.display()));
    std::fs::create_dir_all(themes).map_err(fail)?;
    // Made beside and moved in whole: a theme is never seen half-written.
    let staging = tempfile::Builder::new()
        .prefix(".new-theme-")
        .tempdir_in(themes)
        .map_err(fail)?;
    let manifest = serde_json::to_vec_pretty(&Manifest::new(name, from))
        .map_err(|e| ThemeError(e.to_string()))?;
    std::fs::write(staging.path().join(MANIFEST), manifest).map_err(fail)?;
    std::fs::write(staging.path().join(MAIN), main_of(from)).map_err(fail)?;
    std::fs::rename(staging.keep(), &folder).map_err(fail)?;
    Ok(folder)
}

/// A new theme's `main.typ`: what it reads, then the built-in design's Typst as it is.
fn main_of(from: Template) -> String {
    format!(
        "// A Redline theme, made from the built-in design \"{}\". Change anything here.\n\
         // It reads the resume from outline.json (the same data every built-in design reads) and may read\n\
         // files in its own folder (an image, another .typ), nothing outside it, no package and no system\n\
         // font: the fonts are Redline's (DejaVu Sans and Serif, Carlito, EB Garamond 12, Droid Sans Fallback).\n\
         // Its options (accent, font, size, margins, spacing) come from theme.json, with the resume's own\n\
         // over them, in r.design.\n\n{COMMON}\n{}",
        from.label(),
        body(from)
    )
}

/// What the engine hands the child that lays a theme out: the theme's folder, the resume's outline as the
/// theme reads it, and what to make of it.
#[derive(Debug, Serialize, Deserialize)]
pub struct Request {
    pub folder: PathBuf,
    pub outline: Value,
    /// `None`: the PDF. A scale (pixels per point): the Page view's pages, as [`Pages`] frames them.
    #[serde(default)]
    pub pages: Option<f32>,
    /// The photo the outline names, as the `data:` URL the resume keeps it in (checked again in the child).
    #[serde(default)]
    pub photo: Option<String>,
}

impl Manifest {
    /// The request to lay `resume` out in this theme (its folder `folder`) on `page`: its PDF, or with
    /// `pages` its first pages drawn at that scale.
    pub fn request(
        &self,
        folder: &Path,
        resume: &Value,
        page: Page,
        pages: Option<f32>,
    ) -> Request {
        let style = self.style(resume);
        let photo = redline_resume::photo::drawn(resume, &style);
        Request {
            folder: folder.to_owned(),
            outline: data(resume, &style, page, photo.as_ref()),
            pages,
            photo: photo.map(|p| redline_resume::photo::to_url(p.format, &p.bytes)),
        }
    }
}

/// The child's side: `request`'s theme laid out, and made into a tagged PDF or its pages' images
/// ([`Pages::to_bytes`]). A Typst error is said with its file, line and message.
pub fn render(request: &Request) -> Result<Vec<u8>, ThemeError> {
    let photo = match &request.photo {
        Some(url) => {
            Some(redline_resume::photo::from_url(url).map_err(|e| ThemeError(e.to_string()))?)
        }
        None => None,
    };
    crate::bundled_fonts::present().map_err(|e| ThemeError(e.to_string()))?;
    let world = ThemeWorld::new(&request.folder, &request.outline, photo.as_ref())?;
    let document = typst::compile::<PagedDocument>(&world)
        .output
        .map_err(|errors| ThemeError(world.said(&errors)))?;
    crate::bundled_fonts::asked_were_read().map_err(|e| ThemeError(e.to_string()))?;
    match request.pages {
        None => Ok(made(&document)?),
        Some(scale) => {
            let scale = scale.clamp(0.25, 4.0);
            let pngs = document
                .pages
                .iter()
                .take(crate::MAX_PAGE_IMAGES)
                .map(|p| {
                    let pixmap = typst_render::render(p, scale);
                    crate::png(pixmap.width(), pixmap.height(), pixmap.data())
                })
                .collect::<Result<Vec<_>, _>>()?;
            Ok(Pages {
                count: document.pages.len(),
                pngs,
            }
            .to_bytes())
        }
    }
}

/// A theme's pages as the child draws them: how many the PDF has, and the first ones as PNGs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pages {
    pub count: usize,
    pub pngs: Vec<Vec<u8>>,
}

impl Pages {
    /// The count and each PNG's length, 8 bytes each (little-endian), then the PNGs.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(&(self.count as u64).to_le_bytes());
        out.extend_from_slice(&(self.pngs.len() as u64).to_le_bytes());
        for png in &self.pngs {
            out.extend_from_slice(&(png.len() as u64).to_le_bytes());
        }
        for png in &self.pngs {
            out.extend_from_slice(png);
        }
        out
    }

    /// What [`Pages::to_bytes`] wrote, or `None` where the bytes are not that.
    pub fn from_bytes(bytes: &[u8]) -> Option<Pages> {
        let mut words = bytes
            .chunks_exact(8)
            .map(|w| usize::try_from(u64::from_le_bytes(w.try_into().expect("8 bytes"))).ok());
        let count = words.next()??;
        let drawn = words.next()??;
        if drawn > crate::MAX_PAGE_IMAGES {
            return None;
        }
        let lengths: Vec<usize> = (0..drawn).map(|_| words.next()?).collect::<Option<_>>()?;
        let mut rest = bytes.get(8 * (2 + drawn)..)?;
        let mut pngs = Vec::with_capacity(drawn);
        for length in lengths {
            let (png, after) = rest.split_at_checked(length)?;
            pngs.push(png.to_vec());
            rest = after;
        }
        rest.is_empty().then_some(Pages { count, pngs })
    }
}

/// A theme's world: its folder's files (read within bounds), the outline, the bundled fonts.
struct ThemeWorld {
    /// The folder, its links resolved: every file read must resolve inside it.
    root: PathBuf,
    main: FileId,
    outline_id: FileId,
    outline: Bytes,
    /// The bundled fonts, and the system's for letters they lack.
    fonts: crate::DocumentFonts,
    /// The person's photo, under the name the outline gives it.
    photo: Option<(FileId, Bytes)>,
    /// Each file read in this layout (read once, counted once), and how much of the folder that is.
    read: Mutex<(HashMap<FileId, FileResult<Bytes>>, u64)>,
    /// Each Typst file parsed in this layout.
    sources: Mutex<HashMap<FileId, Source>>,
}

impl ThemeWorld {
    fn new(
        folder: &Path,
        outline: &Value,
        photo: Option<&redline_resume::photo::Photo>,
    ) -> Result<ThemeWorld, ThemeError> {
        let root = folder
            .canonicalize()
            .map_err(|e| ThemeError(format!("cannot read {}: {e}", folder.display())))?;
        let outline = outline.to_string();
        Ok(ThemeWorld {
            root,
            main: FileId::new(None, VirtualPath::new(MAIN)),
            outline_id: FileId::new(None, VirtualPath::new("outline.json")),
            fonts: crate::DocumentFonts::for_text(&outline),
            outline: Bytes::new(outline.into_bytes()),
            photo: crate::photo_file(photo),
            read: Mutex::new((HashMap::new(), 0)),
            sources: Mutex::new(HashMap::new()),
        })
    }

    /// The bytes of the file `id` names, if it lies inside the folder and within the bounds: read once in a
    /// layout, however often Typst asks.
    fn bytes(&self, id: FileId) -> FileResult<Bytes> {
        let mut read = self.read.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(known) = read.0.get(&id) {
            return known.clone();
        }
        let bytes = self.read_new(id).and_then(|bytes| {
            read.1 += bytes.len() as u64;
            if read.1 > MAX_READ_BYTES {
                return Err(FileError::Other(Some(
                    format!(
                        "a theme reads at most {} MB of its folder in one layout",
                        MAX_READ_BYTES >> 20
                    )
                    .into(),
                )));
            }
            Ok(Bytes::new(bytes))
        });
        read.0.insert(id, bytes.clone());
        bytes
    }

    fn read_new(&self, id: FileId) -> FileResult<Vec<u8>> {
        let denied = |why: &str| FileError::Other(Some(why.into()));
        if id.package().is_some() {
            return Err(denied(
                "a theme has no packages: it reads only the files in its own folder",
            ));
        }
        let path = self.root.join(id.vpath().as_rootless_path());
        let real = path
            .canonicalize()
            .map_err(|_| FileError::NotFound(path.clone()))?;
        if !real.starts_with(&self.root) {
            return Err(denied(
                "a theme reads only the files in its own folder; this one is outside it",
            ));
        }
        if real.is_dir() {
            return Err(FileError::IsDirectory);
        }
        read_bounded(&real, MAX_FILE_BYTES).map_err(|e| denied(&e))
    }

    /// Typst's errors, each with its file and line: "main.typ:12: unknown variable: foo".
    fn said(&self, errors: &[SourceDiagnostic]) -> String {
        let where_of = |e: &SourceDiagnostic| {
            let id = e.span.id()?;
            let source = self.source(id).ok()?;
            let line = source.lines().byte_to_line(source.range(e.span)?.start)?;
            Some(format!(
                "{}:{}: ",
                id.vpath().as_rootless_path().display(),
                line + 1
            ))
        };
        errors
            .iter()
            .take(5)
            .map(|e| format!("{}{}", where_of(e).unwrap_or_default(), e.message))
            .collect::<Vec<_>>()
            .join("; ")
    }
}

impl World for ThemeWorld {
    fn library(&self) -> &LazyHash<typst::Library> {
        library()
    }

    fn book(&self) -> &LazyHash<FontBook> {
        self.fonts.book()
    }

    fn main(&self) -> FileId {
        self.main
    }

    fn source(&self, id: FileId) -> FileResult<Source> {
        if let Some(source) = self
            .sources
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&id)
        {
            return Ok(source.clone());
        }
        let bytes = self.bytes(id)?;
        let text = std::str::from_utf8(&bytes).map_err(|_| FileError::InvalidUtf8)?;
        let source = Source::new(id, text.to_owned());
        self.sources
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id, source.clone());
        Ok(source)
    }

    fn file(&self, id: FileId) -> FileResult<Bytes> {
        if id == self.outline_id {
            return Ok(self.outline.clone());
        }
        match &self.photo {
            Some((photo, bytes)) if *photo == id => Ok(bytes.clone()),
            _ => self.bytes(id),
        }
    }

    fn font(&self, index: usize) -> Option<TypstFont> {
        self.fonts.font(index)
    }

    fn today(&self, _offset: Option<i64>) -> Option<Datetime> {
        None
    }
}

/// The bytes of the file at `path`, refused in words past `limit`.
fn read_bounded(path: &Path, limit: u64) -> Result<Vec<u8>, String> {
    use std::io::Read as _;
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let mut bytes = Vec::new();
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| e.to_string())?;
    if bytes.len() as u64 > limit {
        return Err(format!(
            "{} is larger than the {} MB a theme may read in one file",
            path.file_name().unwrap_or_default().to_string_lossy(),
            limit >> 20
        ));
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Value {
        redline_resume::sample()
    }

    fn made_in(themes: &Path, name: &str) -> PathBuf {
        create(themes, name, Template::Modern).expect("a new theme")
    }

    fn rendered(folder: &Path) -> Result<Vec<u8>, ThemeError> {
        render(&Manifest::read(folder)?.request(folder, &sample(), Page::A4, None))
    }

    #[test]
    fn a_new_theme_lays_the_resume_out_as_its_design_does() {
        let dir = tempfile::tempdir().unwrap();
        let folder = made_in(dir.path(), "mine");
        let pdf = rendered(&folder).expect("the theme's PDF");
        assert!(pdf.starts_with(b"%PDF"));
        let resume = sample();
        let built_in = crate::pdf(&resume, Template::Modern, Page::A4).unwrap();
        // The same Typst and the same data: the same pages.
        let count = |pdf: &[u8]| pdf.windows(10).filter(|w| w == b"/Type /Page").count();
        assert_eq!(count(&pdf), count(&built_in));
    }

    #[test]
    fn a_theme_s_pages_are_drawn_and_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let folder = made_in(dir.path(), "drawn");
        let manifest = Manifest::read(&folder).unwrap();
        let bytes = render(&manifest.request(&folder, &sample(), Page::A4, Some(0.5))).unwrap();
        let pages = Pages::from_bytes(&bytes).expect("the child's frames");
        assert!(pages.count >= 1 && pages.pngs.len() == pages.count.min(crate::MAX_PAGE_IMAGES));
        assert!(pages.pngs.iter().all(|p| p.starts_with(b"\x89PNG")));
        assert_eq!(Pages::from_bytes(&bytes[..bytes.len() - 1]), None);
        assert_eq!(Pages::from_bytes(&[0xff; 16]), None);
    }

    #[test]
    fn a_theme_is_not_made_over_another_or_under_a_bad_name() {
        let dir = tempfile::tempdir().unwrap();
        made_in(dir.path(), "mine");
        for name in [
            "mine",
            "classic",
            "",
            "../up",
            "Mine",
            "-x",
            &"x".repeat(41),
        ] {
            assert!(
                create(dir.path(), name, Template::Classic).is_err(),
                "{name}"
            );
        }
    }

    #[test]
    fn a_theme_reads_nothing_outside_its_folder() {
        let dir = tempfile::tempdir().unwrap();
        let folder = made_in(dir.path(), "nosy");
        std::fs::write(dir.path().join("secret.txt"), "the secret").unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(dir.path().join("secret.txt"), folder.join("link.txt")).unwrap();
        for read in [
            "../secret.txt",
            "/../secret.txt",
            "/etc/passwd",
            "link.txt",
            "@preview/basic-resume:0.2.0",
        ] {
            let typ = if read.starts_with('@') {
                format!("#import \"{read}\": *")
            } else {
                format!("#read(\"{read}\")")
            };
            std::fs::write(folder.join(MAIN), typ).unwrap();
            let said = rendered(&folder).expect_err(read).0;
            assert!(!said.contains("the secret"), "{read}: {said}");
            assert!(said.starts_with("main.typ:1: "), "{read}: {said}");
        }
    }

    #[test]
    fn a_typst_error_names_its_file_and_line() {
        let dir = tempfile::tempdir().unwrap();
        let folder = made_in(dir.path(), "broken");
        std::fs::write(folder.join("part.typ"), "#let x = 1\n#undefined-thing\n").unwrap();
        std::fs::write(folder.join(MAIN), "Hello\n#include \"part.typ\"\n").unwrap();
        let said = rendered(&folder).expect_err("an error").0;
        assert!(said.starts_with("part.typ:2: unknown variable"), "{said}");
    }

    #[test]
    fn a_manifest_out_of_bounds_is_refused_in_words() {
        let dir = tempfile::tempdir().unwrap();
        let folder = made_in(dir.path(), "wide");
        let mut manifest = Manifest::new("wide", Template::Classic);
        manifest.options.size.min = 3.0;
        std::fs::write(
            folder.join(MANIFEST),
            serde_json::to_vec(&manifest).unwrap(),
        )
        .unwrap();
        let said = Manifest::read(&folder).expect_err("refused").0;
        assert!(said.contains("the size bounds 3 to"), "{said}");
        manifest = Manifest::new("wide", Template::Classic);
        manifest.options.accent = "#ffffff".to_owned();
        std::fs::write(
            folder.join(MANIFEST),
            serde_json::to_vec(&manifest).unwrap(),
        )
        .unwrap();
        assert!(Manifest::read(&folder).unwrap_err().0.contains("too light"));
    }

    #[test]
    fn a_huge_or_deep_manifest_is_refused_in_words() {
        let dir = tempfile::tempdir().unwrap();
        let folder = made_in(dir.path(), "huge");
        let huge = format!(
            "{{\"name\": \"huge\", \"label\": \"{}\"}}",
            "x".repeat(1 << 20)
        );
        std::fs::write(folder.join(MANIFEST), huge).unwrap();
        let said = Manifest::read(&folder).unwrap_err().0;
        assert!(said.contains("larger than"), "{said}");
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        std::fs::write(folder.join(MANIFEST), &deep[..60_000]).unwrap();
        assert!(
            Manifest::read(&folder)
                .unwrap_err()
                .0
                .contains("theme.json")
        );
    }

    #[test]
    fn the_resume_s_options_stay_within_the_theme_s_bounds() {
        let mut manifest = Manifest::new("narrow", Template::Classic);
        manifest.options.size = Range {
            default: 10.0,
            min: 10.0,
            max: 11.0,
        };
        let resume = serde_json::json!({"meta": {"design": {"size": 12, "accent": "#003366"}}});
        let style = manifest.style(&resume);
        assert_eq!(style.size, 11.0);
        assert_eq!(style.accent, "#003366");
        assert_eq!(manifest.style(&serde_json::json!({})).size, 10.0);
    }
}
