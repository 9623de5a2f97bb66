//! A named resume or letter made into a file, and read back as an applicant tracking system would, as the
//! command line asks for them: PDF, Word, HTML, JSON Resume, Markdown or text, to bytes or to a path that is
//! never written over unless asked; the ATS read-back of a PDF made here or of one the user names (read
//! in the bounded child, [`crate::pdf_child`]). The window's exports act on the resume on screen
//! (`lib.rs`).

use std::path::Path;

use redline_pdf::ats::Report;
use redline_resume::export::{Format, Page, Template};
use serde_json::Value;

use super::Engine;
use crate::applications::Sent;
use crate::error::{Error, ErrorKind};
use crate::ipc::{AtsView, ExportDone, ExportRequest, PageImage, PageImages};
use redline_store::DocumentKind;

/// `document` made into the file `format` names: the one place every export is made, for both front doors.
/// A resume has no `sender`; a letter's is the resume that sends it, whose header, design and contacts it
/// is made with. A PDF is set by Typst (`redline-pdf`); the other formats are written by the resume crate.
pub fn file_of(
    document: &Value,
    sender: Option<&Value>,
    format: Format,
    template: Template,
    page: Page,
) -> Result<Vec<u8>, Error> {
    use redline_resume::{docx, export, letter};
    Ok(match (format, sender) {
        (Format::Pdf, None) => redline_pdf::pdf(document, template, page)?,
        (Format::Pdf, Some(resume)) => redline_pdf::letter_pdf(document, resume, template, page)?,
        (Format::Docx, None) => docx::docx(document, template, page),
        (Format::Docx, Some(resume)) => docx::letter_docx(document, resume, template, page),
        (Format::Html, None) => export::html(document, template, page).into_bytes(),
        (Format::Html, Some(resume)) => letter::html(document, resume).into_bytes(),
        (Format::Markdown, None) => export::markdown(document).into_bytes(),
        (Format::Markdown, Some(resume)) => letter::markdown(document, resume).into_bytes(),
        (Format::Text, None) => export::text(document).into_bytes(),
        (Format::Text, Some(resume)) => letter::text(document, resume).into_bytes(),
        (Format::Json, _) => export::json(document).into_bytes(),
    })
}

/// The refusal of a file that is already at `output` (and no `--force`).
pub(crate) fn already_there(output: &Path) -> Error {
    Error::new(
        ErrorKind::Refused,
        format!(
            "{} already exists; nothing was written. Choose another name, or pass --force to replace it",
            output.display()
        ),
    )
}

/// `bytes` written to `output` (over a file there only with `force`; never over one that appears while
/// they are written): how many.
pub(crate) fn write_to(output: &Path, bytes: &[u8], force: bool) -> Result<u64, Error> {
    redline_resume::export::write_new(output, bytes, force).map_err(|e| {
        if e.kind() == std::io::ErrorKind::AlreadyExists {
            Error::new(
                ErrorKind::Refused,
                format!(
                    "{} appeared while the export was being made; it was left alone and nothing was written",
                    output.display()
                ),
            )
        } else {
            Error::new(
                ErrorKind::Internal,
                format!("cannot write {}: {e}", output.display()),
            )
        }
    })?;
    Ok(bytes.len() as u64)
}

impl Engine {
    /// Document `doc` at its head, rendered as `request` asks: the bytes of the file. A letter is made in
    /// the design of the resume that sends it.
    pub async fn render_of(&self, doc: i64, request: ExportRequest) -> Result<Vec<u8>, Error> {
        let ExportRequest {
            format,
            template,
            page,
        } = request;
        let (document, sender) = self.with_sender(doc).await?;
        // Typst works for some milliseconds: off the async threads.
        tokio::task::spawn_blocking(move || {
            file_of(&document, sender.as_ref(), format, template, page)
        })
        .await
        .map_err(|e| Error::new(ErrorKind::Internal, e.to_string()))?
    }

    /// Resume `doc` rendered as `request` asks and written to `output`: refused when a file is there
    /// (unless `force`), including one that appears while the export is made. The number of bytes written.
    pub async fn export_to(
        &self,
        doc: i64,
        request: ExportRequest,
        output: &Path,
        force: bool,
    ) -> Result<u64, Error> {
        if output.exists() && !force {
            return Err(already_there(output));
        }
        let bytes = self.render_of(doc, request).await?;
        write_to(output, &bytes, force)
    }

    /// The letters of document `doc` (and of the resume that sends a letter) that no font has, neither a
    /// bundled one nor one of this system's: what its PDF prints as nothing.
    pub async fn unprintable_of(&self, doc: i64) -> Result<Vec<char>, Error> {
        let (document, sender) = self.with_sender(doc).await?;
        let text = format!("{document}{}", sender.unwrap_or_default());
        // The system's fonts are read the first time: off the async threads.
        tokio::task::spawn_blocking(move || redline_pdf::unprintable(&text).into_iter().collect())
            .await
            .map_err(|e| Error::new(ErrorKind::Internal, e.to_string()))
    }

    /// How an applicant tracking system reads resume or letter `doc`: its PDF, in `request`'s design and page size,
    /// made and read back in-process; or, with `pdf`, that file (one exported earlier, say), read in the
    /// bounded child and compared with the resume.
    pub async fn ats_of(
        &self,
        doc: i64,
        request: ExportRequest,
        pdf: Option<&Path>,
    ) -> Result<Report, Error> {
        use redline_pdf::ats;
        let (document, sender) = self.with_sender(doc).await?;
        let (template, page) = (request.template, request.page);
        match pdf {
            Some(path) => {
                let text = crate::pdf_child::text_of(path)?;
                Ok(match sender {
                    Some(resume) => ats::compare_letter(&text, &document, &resume),
                    None => ats::compare(&text, &document),
                })
            }
            None => tokio::task::spawn_blocking(move || match sender {
                Some(resume) => ats::check_letter(&document, &resume, template, page),
                None => ats::check(&document, template, page),
            })
            .await
            .map_err(|e| Error::new(ErrorKind::Internal, e.to_string()))?
            .map_err(Error::from),
        }
    }
}

/// What an application sent, made again at the revisions it pinned.
impl Engine {
    /// What application `id` sent, made again as `request` asks: its resume, or its letter, at the
    /// revision pinned — a letter signed by its resume at the revision pinned beside it (at its head when
    /// the application pinned no revision of it). The same options make the same bytes as the first time.
    /// The bytes, and the title of the document sent.
    pub async fn render_sent(
        &self,
        id: i64,
        sent: Sent,
        request: ExportRequest,
    ) -> Result<(Vec<u8>, String), Error> {
        let (document, sender, title) = {
            let open = self.open()?.lock().await;
            let application = open.store.application(id)?;
            let pinned = match sent {
                Sent::Resume => application.resume,
                Sent::Letter => application.letter,
            }
            .ok_or_else(|| {
                Error::new(
                    ErrorKind::NotFound,
                    format!(
                        "application {id} ({}) pinned no {} as sent",
                        application.company,
                        sent.word()
                    ),
                )
            })?;
            let record = open.store.document(pinned.document_id)?;
            let document = open
                .store
                .checkout(pinned.document_id, pinned.revision)?
                .document;
            let sender = match (record.kind, record.resume_id) {
                (DocumentKind::Resume, _) => None,
                (DocumentKind::Letter, Some(r)) => Some(match application.resume {
                    Some(p) if p.document_id == r => open.store.checkout(r, p.revision)?.document,
                    _ => open.store.head(r)?.document,
                }),
                (DocumentKind::Letter, None) => Some(serde_json::Value::Null),
            };
            (document, sender, record.title)
        };
        let ExportRequest {
            format,
            template,
            page,
        } = request;
        let bytes = tokio::task::spawn_blocking(move || {
            file_of(&document, sender.as_ref(), format, template, page)
        })
        .await
        .map_err(|e| Error::new(ErrorKind::Internal, e.to_string()))??;
        Ok((bytes, title))
    }

    /// What application `id` sent, made again as `request` asks ([`Engine::render_sent`]) and written to
    /// `output` (refused when a file is there, unless `force`): how many bytes.
    pub async fn export_sent_to(
        &self,
        id: i64,
        sent: Sent,
        request: ExportRequest,
        output: &std::path::Path,
        force: bool,
    ) -> Result<u64, Error> {
        if output.exists() && !force {
            return Err(already_there(output));
        }
        let (bytes, _) = self.render_sent(id, sent, request).await?;
        write_to(output, &bytes, force)
    }
}

/// The window's exports: the resume on screen, to the Downloads folder, and its pages for the Page view.
impl Engine {
    /// The document on screen rendered as `request` asks (the text of the file).
    pub async fn render(
        &self,
        request: &ExportRequest,
    ) -> Result<(Vec<u8>, String, &'static str), Error> {
        let (id, title) = self.on_screen().await?;
        let bytes = self.render_of(id, *request).await?;
        Ok((bytes, title, request.format.name()))
    }

    /// The document on screen: its id and title, read together.
    pub(crate) async fn on_screen(&self) -> Result<(i64, String), Error> {
        let open = self.open()?.lock().await;
        let id = open.document_id;
        Ok((id, open.store.document(id)?.title))
    }

    /// Exports the document on screen into `folder` (the Downloads folder in the app) under its title,
    /// never over an existing file — not even one that appears while the export is written.
    pub async fn export(
        &self,
        request: &ExportRequest,
        folder: &std::path::Path,
    ) -> Result<ExportDone, Error> {
        let (id, title) = self.on_screen().await?;
        let bytes = self.render_of(id, *request).await?;
        let done = save_new(folder, &title, request.format.name(), &bytes)?;
        self.with_unprintable(done, id, request.format).await
    }

    /// `done`, a finished export of document `doc` in `format`, with the letters its PDF prints as nothing.
    pub(crate) async fn with_unprintable(
        &self,
        done: ExportDone,
        doc: i64,
        format: Format,
    ) -> Result<ExportDone, Error> {
        let unprintable = match format {
            Format::Pdf => self.unprintable_of(doc).await?.into_iter().collect(),
            _ => String::new(),
        };
        Ok(ExportDone {
            unprintable,
            ..done
        })
    }

    /// What application `id` sent, made again from the revisions it pinned, in the design the pinned
    /// resume keeps (its template and paper; classic on A4, the Export dialog's and the command line's
    /// defaults, where it names none), into `folder` under the document's title, as
    /// [`Engine::export`] writes.
    pub async fn export_sent(
        &self,
        id: i64,
        sent: Sent,
        format: Format,
        folder: &std::path::Path,
    ) -> Result<ExportDone, Error> {
        let design = {
            let open = self.open()?.lock().await;
            match open.store.application(id)?.resume {
                Some(p) => redline_resume::design::Design::of(
                    &open.store.checkout(p.document_id, p.revision)?.document,
                ),
                None => redline_resume::design::Design::default(),
            }
        };
        let request = ExportRequest {
            format,
            template: design.template.unwrap_or(Template::Classic),
            page: design.page.unwrap_or(Page::A4),
        };
        let (bytes, title) = self.render_sent(id, sent, request).await?;
        save_new(folder, &title, format.name(), &bytes)
    }
}

/// `bytes` written into `folder` as `TITLE.EXTENSION`, never over an existing file — not even one that
/// appears while it is written: `TITLE (2).EXTENSION` and on.
pub(crate) fn save_new(
    folder: &std::path::Path,
    title: &str,
    extension: &str,
    bytes: &[u8],
) -> Result<ExportDone, Error> {
    let stem = file_stem(title, extension);
    std::fs::create_dir_all(folder).map_err(|e| {
        Error::new(
            ErrorKind::ReadOnly,
            format!("cannot use {}: {e}", folder.display()),
        )
    })?;
    for n in 1..=1000 {
        let path = match n {
            1 => folder.join(format!("{stem}.{extension}")),
            n => folder.join(format!("{stem} ({n}).{extension}")),
        };
        match redline_resume::export::write_new(&path, bytes, false) {
            Ok(()) => {
                return Ok(ExportDone {
                    path: path.display().to_string(),
                    bytes: bytes.len() as u64,
                    unprintable: String::new(),
                });
            }
            // Taken (perhaps a moment ago): the next name.
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => {
                return Err(Error::new(
                    ErrorKind::ReadOnly,
                    format!("cannot write {}: {e}", path.display()),
                ));
            }
        }
    }
    Err(Error::new(
        ErrorKind::Invalid,
        format!(
            "{} holds a thousand exports named “{stem}”; nothing was written",
            folder.display()
        ),
    ))
}

/// The window's exports, continued: the Page view.
impl Engine {
    /// The pages of `document` — the view's, previews included — as the PDF in `request`'s template and
    /// page size prints them, drawn as images for the Page view (`shown_width` device pixels wide, when the
    /// window says): the header and the PNGs of the pages whose keys are not in `have` (the ones the window
    /// already shows are not sent again).
    pub async fn page_images(
        &self,
        document: serde_json::Value,
        request: &ExportRequest,
        have: &[String],
        shown_width: Option<u32>,
    ) -> Result<(PageImages, Vec<std::sync::Arc<[u8]>>), Error> {
        use redline_resume::export::Template;
        let (template, page) = (request.template, request.page);
        if redline_resume::measure(&document).bytes > redline_resume::MAX_DOCUMENT_BYTES {
            return Err(Error::new(
                ErrorKind::Invalid,
                "the resume is larger than any resume can be; its pages were not drawn",
            ));
        }
        let drawer = self.pages.clone();
        let first = !self
            .pages_warmed
            .swap(true, std::sync::atomic::Ordering::Relaxed);
        let (drawn, count) = tokio::task::spawn_blocking(move || {
            let mut drawer = drawer.lock().unwrap_or_else(|e| e.into_inner());
            let scale = pixels_per_point(page, shown_width);
            let drawn = drawer.draw(&document, template, page, scale);
            drop(drawer);
            if first {
                // The Page view is open: lay the other template out once in the background, so that
                // switching to it is not the first time Typst sees it (a first layout takes ~30 ms more).
                let other = if template == Template::Classic {
                    Template::Modern
                } else {
                    Template::Classic
                };
                std::thread::spawn(move || drop(redline_pdf::warm(&document, other, page)));
            }
            drawn
        })
        .await
        .map_err(|e| Error::new(ErrorKind::Internal, e.to_string()))??;
        let drawn = drawn.into_iter().map(|d| (d.key, d.png)).collect();
        Ok(framed(drawn, count, page, have))
    }

    /// How an applicant tracking system reads the document on screen: its PDF (in `request`'s template
    /// and page size) made and read back in-process, per section, with what is missing or out of order.
    pub async fn ats(
        &self,
        request: &ExportRequest,
        theme: Option<String>,
    ) -> Result<AtsView, Error> {
        if let Some(name) = theme {
            return self.ats_in_theme(&name, request.page).await;
        }
        let id = self.open()?.lock().await.document_id;
        Ok(AtsView::from(self.ats_of(id, *request, None).await?))
    }
}

/// The Page view's pages (each its key and PNG) as the window reads them: the header, and the PNGs of the
/// pages whose keys are not in `have`.
pub(crate) fn framed(
    drawn: Vec<(u128, std::sync::Arc<[u8]>)>,
    count: usize,
    page: Page,
    have: &[String],
) -> (PageImages, Vec<std::sync::Arc<[u8]>>) {
    let (width, height) = page_size(page);
    let mut pngs = Vec::new();
    let pages = drawn
        .into_iter()
        .map(|(key, png)| {
            let key = format!("{key:032x}");
            let bytes = if have.contains(&key) {
                0
            } else {
                let bytes = u32::try_from(png.len()).unwrap_or(u32::MAX);
                pngs.push(png);
                bytes
            };
            PageImage { key, bytes }
        })
        .collect();
    let header = PageImages {
        pages,
        count: u32::try_from(count).unwrap_or(u32::MAX),
        width,
        height,
    };
    (header, pngs)
}

/// How finely the Page view's pages are drawn at the most: 1.5 pixels per point (an A4 page is 893 pixels
/// wide), sharp on a normal screen and quick to draw.
pub(crate) const PAGE_PIXELS_PER_POINT: f32 = 1.5;

/// How finely the Page view's pages are drawn to be shown `shown_width` device pixels wide: exactly that
/// wide, so that WebKit neither decodes pixels it then drops nor scales the page as it paints it (a page
/// shown 679 pixels wide, drawn 893 wide, had 73 % more pixels to decode); never finer than
/// [`PAGE_PIXELS_PER_POINT`] (a screen of two pixels a point gets what it got before), nor coarser than half
/// a pixel a point. Without a width: the finest.
pub(crate) fn pixels_per_point(page: Page, shown_width: Option<u32>) -> f32 {
    let (width, _) = page_size(page);
    shown_width.map_or(PAGE_PIXELS_PER_POINT, |pixels| {
        (pixels as f32 / width).clamp(0.5, PAGE_PIXELS_PER_POINT)
    })
}

/// A page's width and height in points.
fn page_size(page: Page) -> (f32, f32) {
    match page {
        Page::A4 => (595.28, 841.89),
        Page::Letter => (612.0, 792.0),
    }
}

/// The longest file name an export is given, in bytes, extension and " (n)" included: most file systems
/// take 255 bytes, and a title of 200 CJK or Arabic characters is 600.
pub(crate) const MAX_FILE_NAME_BYTES: usize = 255;

/// The stem of an export's file name made from `title`: characters a file system may refuse replaced, cut
/// at a character boundary so that the name with its suffix fits in [`MAX_FILE_NAME_BYTES`].
pub(crate) fn file_stem(title: &str, extension: &str) -> String {
    let stem: String = title
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || " -_.()".contains(c) {
                c
            } else {
                '-'
            }
        })
        .collect();
    // Room for " (1000)." and the extension.
    let room = MAX_FILE_NAME_BYTES - " (1000).".len() - extension.len();
    let mut cut = stem.len().min(room);
    while !stem.is_char_boundary(cut) {
        cut -= 1;
    }
    let stem = stem[..cut].trim().trim_matches('.');
    match stem.is_empty() {
        true => "resume".to_owned(),
        false => stem.to_owned(),
    }
}
