//! Themes of the user's own (`redline_pdf::theme`): kept in the data folder's `themes/`, one folder each,
//! made from a built-in design, listed beside the built-in ones, and laid out in a child process bounded in
//! time and memory (the `redline` program's hidden `render-theme` mode), so that a theme that loops, eats
//! memory or fails never stops the app or an export in another design.
//!
//! A theme makes PDFs. A Word, HTML or text export in a theme, and a letter, take the built-in design the
//! theme was made from.

use std::path::{Path, PathBuf};

use redline_import::child::{self, ChildError};
use redline_pdf::theme::{self, Manifest};
use redline_resume::export::{Format, Page, Template};
use serde::Serialize;

use super::Engine;
use crate::error::{Error, ErrorKind};
use crate::ipc::{DesignInfo, ExportRequest};

/// The folder in the data folder that holds the user's themes.
pub const THEMES: &str = "themes";
/// The most themes listed: a folder of thousands is read no further.
const MAX_THEMES: usize = 200;
/// The largest request the child reads (the resume's outline, with the theme's folder).
const MAX_REQUEST_BYTES: u64 = 16 << 20;

/// A theme just made: its name and its folder.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ThemeMade {
    pub name: String,
    pub path: String,
}

/// A look to export in: a built-in design, or a theme of the user's own by its name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Look {
    Design(Template),
    Theme(String),
}

impl Engine {
    /// The data folder's `themes/`.
    fn themes_dir(&self) -> Result<PathBuf, Error> {
        self.data_dir()
            .map(|dir| dir.join(THEMES))
            .ok_or_else(|| Error::new(ErrorKind::NotConfigured, "there is no data folder"))
    }

    /// The user's themes, by name: each read from its manifest, or, when that cannot be read, named with
    /// what is wrong with it (the theme is listed, so that its owner sees why it is not offered).
    pub(crate) fn user_designs(&self) -> Vec<DesignInfo> {
        let Ok(dir) = self.themes_dir() else {
            return Vec::new();
        };
        let Ok(entries) = std::fs::read_dir(&dir) else {
            return Vec::new();
        };
        let mut designs: Vec<DesignInfo> = entries
            .flatten()
            .filter(|e| e.path().is_dir())
            .filter_map(|e| e.file_name().into_string().ok())
            .filter(|name| theme::is_name(name))
            .take(MAX_THEMES)
            .map(|name| match Manifest::read(&dir.join(&name)) {
                Ok(m) => DesignInfo {
                    name,
                    label: m.label,
                    description: m.description,
                    built_in: false,
                    problem: None,
                },
                Err(e) => DesignInfo {
                    label: name.clone(),
                    name,
                    description: String::new(),
                    built_in: false,
                    problem: Some(e.0),
                },
            })
            .collect();
        designs.sort_by(|a, b| a.name.cmp(&b.name));
        designs
    }

    /// A new theme `name` in the data folder, copied from the built-in design `from`, for the user to
    /// change. Refused in words when the name cannot be a theme's or is taken.
    pub fn new_theme(&self, name: &str, from: Template) -> Result<ThemeMade, Error> {
        let folder = theme::create(&self.themes_dir()?, name, from)
            .map_err(|e| Error::new(ErrorKind::Refused, e.0))?;
        Ok(ThemeMade {
            name: name.to_owned(),
            path: folder.display().to_string(),
        })
    }

    /// The folder and manifest of theme `name`: not found when there is none, refused when its manifest
    /// cannot be read.
    fn theme(&self, name: &str) -> Result<(PathBuf, Manifest), Error> {
        let folder = self.themes_dir()?.join(name);
        if !theme::is_name(name) || !folder.join(theme::MANIFEST).is_file() {
            return Err(Error::new(
                ErrorKind::NotFound,
                format!(
                    "there is no design or theme named {name:?}; `redline theme list` lists them"
                ),
            ));
        }
        let manifest = Manifest::read(&folder).map_err(|e| Error::new(ErrorKind::Refused, e.0))?;
        Ok((folder, manifest))
    }

    /// Document `doc` at its head in `look`: the bytes of the file. A theme lays out a resume's PDF in the
    /// bounded child; any other file, or a letter, takes the design the theme was made from.
    pub async fn render_in(
        &self,
        doc: i64,
        look: &Look,
        format: Format,
        page: Page,
    ) -> Result<Vec<u8>, Error> {
        let in_design = |template| ExportRequest {
            format,
            template,
            page,
        };
        let name = match look {
            Look::Design(template) => return self.render_of(doc, in_design(*template)).await,
            Look::Theme(name) => name,
        };
        let (folder, manifest) = self.theme(name)?;
        let (document, sender) = self.with_sender(doc).await?;
        // The document read once: made here in the design the theme was made from, or by the child.
        tokio::task::spawn_blocking(move || {
            if format != Format::Pdf || sender.is_some() {
                let template = manifest.from;
                return crate::export::file_of(&document, sender.as_ref(), format, template, page);
            }
            let request = manifest.request(&folder, &document, page, None);
            laid_out(&request, &manifest.name)
        })
        .await
        .map_err(|e| Error::new(ErrorKind::Internal, e.to_string()))?
    }

    /// Document `doc` in `look`, written to `output` (never over a file there unless `force`): how many
    /// bytes.
    pub async fn export_in(
        &self,
        doc: i64,
        look: &Look,
        format: Format,
        page: Page,
        output: &Path,
        force: bool,
    ) -> Result<u64, Error> {
        if output.exists() && !force {
            return Err(crate::export::already_there(output));
        }
        let bytes = self.render_in(doc, look, format, page).await?;
        crate::export::write_to(output, &bytes, force)
    }
}

/// The window's side: the resume on screen in a theme, its pages, and the theme's files watched.
impl Engine {
    /// The document on screen in theme `name`, into `folder` under its title, as [`Engine::export`]
    /// writes (a PDF laid out by the theme; another format in the design it was made from).
    pub async fn export_in_theme(
        &self,
        name: &str,
        format: Format,
        page: Page,
        folder: &Path,
    ) -> Result<crate::ipc::ExportDone, Error> {
        let (id, title) = self.on_screen().await?;
        let look = Look::Theme(name.to_owned());
        let bytes = self.render_in(id, &look, format, page).await?;
        let done = crate::export::save_new(folder, &title, format.name(), &bytes)?;
        self.with_unprintable(done, id, format).await
    }

    /// How an applicant tracking system reads the document on screen in theme `name`: its PDF laid out by
    /// the bounded child, then read back by another bounded child, per section, as [`Engine::ats`] says it.
    pub async fn ats_in_theme(&self, name: &str, page: Page) -> Result<crate::ipc::AtsView, Error> {
        let id = self.open()?.lock().await.document_id;
        let look = Look::Theme(name.to_owned());
        let pdf = self.render_in(id, &look, Format::Pdf, page).await?;
        let fail = |e: std::io::Error| {
            Error::new(
                ErrorKind::Internal,
                format!("the theme's PDF could not be read back: {e}"),
            )
        };
        let file = tempfile::NamedTempFile::new().map_err(fail)?;
        std::fs::write(file.path(), &pdf).map_err(fail)?;
        let request = ExportRequest {
            format: Format::Pdf,
            template: self.theme(name)?.1.from,
            page,
        };
        Ok(crate::ipc::AtsView::from(
            self.ats_of(id, request, Some(file.path())).await?,
        ))
    }

    /// The pages of `document` (the view's, previews included) in theme `name`, drawn by the bounded child
    /// for the Page view (`shown_width` device pixels wide, when the window says), as
    /// [`Engine::page_images`] gives them.
    pub async fn theme_page_images(
        &self,
        document: serde_json::Value,
        name: &str,
        page: Page,
        have: &[String],
        shown_width: Option<u32>,
    ) -> Result<(crate::ipc::PageImages, Vec<std::sync::Arc<[u8]>>), Error> {
        let (folder, manifest) = self.theme(name)?;
        let scale = crate::export::pixels_per_point(page, shown_width);
        let request = manifest.request(&folder, &document, page, Some(scale));
        let bytes = tokio::task::spawn_blocking(move || laid_out(&request, &manifest.name))
            .await
            .map_err(|e| Error::new(ErrorKind::Internal, e.to_string()))??;
        let pages = theme::Pages::from_bytes(&bytes).ok_or_else(|| {
            Error::new(
                ErrorKind::Internal,
                "the theme's pages came back unreadable",
            )
        })?;
        let drawn = pages
            .pngs
            .into_iter()
            .map(|png| (key_of(&png), std::sync::Arc::from(png)))
            .collect();
        Ok(crate::export::framed(drawn, pages.count, page, have))
    }

    /// What theme `name`'s files are now, as a short text that changes when any of them changes (its
    /// name, size or time): the Page view asks every second, and draws again when it changed.
    pub fn theme_stamp(&self, name: &str) -> Result<String, Error> {
        // Not the manifest read: a manifest mended is a change like any other.
        let folder = self.themes_dir()?.join(name);
        if !theme::is_name(name) || !folder.is_dir() {
            return Err(Error::new(
                ErrorKind::NotFound,
                format!("there is no theme named {name:?}"),
            ));
        }
        let mut seen = Vec::new();
        stamp_of(&folder, 0, &mut seen);
        seen.sort();
        Ok(format!("{:032x}", key_of(seen.join("\n").as_bytes())))
    }
}

/// The most files a theme's stamp looks at, and how deep.
const STAMP_FILES: usize = 500;
const STAMP_DEPTH: usize = 4;

/// Each file under `folder` as "path size modified", into `seen` (at most [`STAMP_FILES`]).
fn stamp_of(folder: &Path, depth: usize, seen: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return;
    };
    for entry in entries.flatten() {
        if seen.len() >= STAMP_FILES {
            return;
        }
        let Ok(meta) = entry.metadata() else { continue };
        if meta.is_dir() && depth < STAMP_DEPTH {
            stamp_of(&entry.path(), depth + 1, seen);
        } else if meta.is_file() {
            let modified = meta
                .modified()
                .ok()
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .map_or(0, |d| d.as_nanos());
            seen.push(format!(
                "{} {} {modified}",
                entry.path().display(),
                meta.len()
            ));
        }
    }
}

/// A 128-bit hash of `bytes` (the same bytes, the same key).
fn key_of(bytes: &[u8]) -> u128 {
    use std::hash::{Hash as _, Hasher as _};
    let mut low = std::collections::hash_map::DefaultHasher::new();
    bytes.hash(&mut low);
    let mut high = std::collections::hash_map::DefaultHasher::new();
    (bytes.len(), low.finish()).hash(&mut high);
    bytes
        .iter()
        .rev()
        .take(4096)
        .for_each(|b| b.hash(&mut high));
    (u128::from(high.finish()) << 64) | u128::from(low.finish())
}

/// `request` laid out by the `redline` program in its bounded `render-theme` mode: the theme's PDF, or
/// what stopped it, in words.
fn laid_out(request: &theme::Request, name: &str) -> Result<Vec<u8>, Error> {
    let program = child::reader().ok_or_else(|| {
        Error::new(
            ErrorKind::NotConfigured,
            "a theme of your own is laid out by the `redline` program, which is not beside this one",
        )
    })?;
    let mut file = tempfile::NamedTempFile::new()
        .map_err(|e| Error::new(ErrorKind::Internal, e.to_string()))?;
    // Written whole, in one call: serde's writer on the bare file made a write call a token.
    let bytes =
        serde_json::to_vec(request).map_err(|e| Error::new(ErrorKind::Internal, e.to_string()))?;
    std::io::Write::write_all(&mut file, &bytes)
        .map_err(|e| Error::new(ErrorKind::Internal, e.to_string()))?;
    child::run_within(&program, "render-theme", file.path(), theme::TIME).map_err(|e| {
        let why = match e {
            ChildError::Said { message, .. } => message,
            ChildError::TooSlow(limit) => format!(
                "it took longer than {} s to lay out and was stopped",
                limit.as_secs()
            ),
            ChildError::Stopped => format!(
                "it needed more than {} MB of memory and was stopped",
                child::memory_limit() >> 20
            ),
            ChildError::Start(e) => format!("it could not be laid out: {e}"),
        };
        Error::new(
            ErrorKind::Refused,
            format!("the theme {name:?} made no PDF: {why}"),
        )
    })
}

/// The child's side of `render-theme`: caps its own memory, reads the request at `path`, and gives the
/// theme's PDF, for standard output.
pub fn print_theme(path: &Path) -> Result<Vec<u8>, Error> {
    redline_memory::cap(child::memory_limit());
    let bytes = crate::pdf_child::read_limited(path, MAX_REQUEST_BYTES)?;
    let request: theme::Request = serde_json::from_slice(&bytes)
        .map_err(|e| Error::new(ErrorKind::Invalid, format!("the request: {e}")))?;
    theme::render(&request).map_err(|e| Error::new(ErrorKind::Refused, e.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The stamp the Page view asks for every second: a theme's folder of thousands of files is looked at
    /// no further than its bound, and a change to its Typst changes the stamp.
    #[test]
    fn a_theme_s_stamp_is_bounded_and_follows_its_files() {
        let dir = tempfile::tempdir().unwrap();
        let engine = Engine::in_test_folder(dir.path());
        let made = engine.new_theme("many", Template::Classic).unwrap();
        let folder = PathBuf::from(&made.path);
        let before = engine.theme_stamp("many").unwrap();
        assert_eq!(
            engine.theme_stamp("many").unwrap(),
            before,
            "the same files, the same stamp"
        );
        std::fs::write(folder.join("main.typ"), "Changed.").unwrap();
        assert_ne!(
            engine.theme_stamp("many").unwrap(),
            before,
            "a file changed"
        );
        for i in 0..3 * STAMP_FILES {
            std::fs::write(folder.join(format!("junk-{i}.txt")), "x").unwrap();
        }
        let mut seen = Vec::new();
        stamp_of(&folder, 0, &mut seen);
        assert_eq!(seen.len(), STAMP_FILES);
        engine.theme_stamp("many").unwrap();
        assert!(engine.theme_stamp("../x").is_err());
        assert!(engine.theme_stamp("none").is_err());
    }
}
