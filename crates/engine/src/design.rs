//! The designs a resume can be shown in, and fitting it to a number of pages.
//!
//! The design and its options live in the resume (`/meta/design`, `redline_resume::design`), so choosing
//! one is an edit like any other; these operations list the designs and make the one edit that needs a
//! layout to decide: fitting to pages, committed as a revision of the user's own, undoable.

use redline_patch::{Operation, PatchState, Policy};
use redline_resume::design::{Design, POINTER};
use redline_resume::export::{Page, Template};
use redline_store::Source;

use super::Engine;
use crate::error::{Error, ErrorKind};
use crate::ipc::{DesignInfo, DocState, Emit, FitDone, TurnMessage};

/// The largest a thumbnail is drawn: an A4 page 149 pixels wide.
const THUMBNAIL_PIXELS_PER_POINT: f32 = 0.25;
/// How many thumbnails are kept (eight designs, for the revision on screen and a few before it).
const THUMBNAILS_KEPT: usize = 32;

/// What a thumbnail shows: the document, its revision, the design and the paper.
type Shown = (i64, u64, Template, Page);

/// The design gallery's thumbnails as last drawn, each with what it shows.
#[derive(Default)]
pub(crate) struct Thumbnails(Vec<(Shown, std::sync::Arc<[u8]>)>);

impl Engine {
    /// Sets the design and options of the resume on screen (`/meta/design`), from revision `base`, as a
    /// revision of the user's own, said in words ("Design: Modern; accent #003366"). Refused in words when
    /// an option is out of its readable bounds.
    pub async fn set_design(
        &self,
        base: u64,
        design: Design,
        emit: Emit<'_>,
    ) -> Result<DocState, Error> {
        self.idle()?;
        design
            .check()
            .map_err(|e| Error::new(ErrorKind::Invalid, e.to_string()))?;
        let mut open = self.open()?.lock().await;
        let resume = open.store.checkout(open.document_id, base)?.document;
        let kept = Design::of(&resume);
        if kept == design {
            drop(open);
            return self.state().await;
        }
        let ops = design_ops(&resume, &design);
        crate::documents::commit_yours(
            &mut open,
            base,
            &ops,
            &design_policy(),
            (Source::User, design_said(&kept, &design)),
            emit,
        )
    }

    /// Sets the photo of the resume on screen (`basics.image`), from revision `base`, to the image file at
    /// `path` (a JPEG, PNG, WebP or GIF, made small and upright: `redline_pdf::photo::prepare`), or removes
    /// it (`None`): a revision of the user's own ("Photo: chosen"), undoable. A file that is not a photo, or
    /// too large to read, is refused in words and nothing is saved.
    pub async fn set_photo(
        &self,
        base: u64,
        path: Option<std::path::PathBuf>,
        emit: Emit<'_>,
    ) -> Result<DocState, Error> {
        self.idle()?;
        let url = match path {
            Some(path) => Some(
                tokio::task::spawn_blocking(move || read_photo(&path))
                    .await
                    .map_err(|e| Error::new(ErrorKind::Internal, e.to_string()))??,
            ),
            None => None,
        };
        let mut open = self.open()?.lock().await;
        let resume = open.store.checkout(open.document_id, base)?.document;
        let Some(ops) = photo_ops(&resume, url) else {
            drop(open);
            return self.state().await;
        };
        let said = match ops.last() {
            Some(Operation::Remove { .. }) => "Photo: removed",
            _ => "Photo: chosen",
        };
        crate::documents::commit_yours(
            &mut open,
            base,
            &ops,
            &photo_policy(),
            (Source::User, said.to_owned()),
            emit,
        )
    }

    /// The first page of the resume on screen, at its head, in `template` on its own paper, drawn small
    /// for the design gallery (PNG). Each is drawn once per revision and kept.
    pub async fn design_thumbnail(
        &self,
        template: Template,
    ) -> Result<std::sync::Arc<[u8]>, Error> {
        let (id, head) = {
            let open = self.open()?.lock().await;
            let head = open.store.head(open.document_id)?;
            (open.document_id, head)
        };
        let page = Design::of(&head.document).chosen(None, None).1;
        let key = (id, head.number, template, page);
        if let Some((_, png)) = self.thumbnails().0.iter().find(|(k, _)| *k == key) {
            return Ok(png.clone());
        }
        let resume = head.document;
        let png: std::sync::Arc<[u8]> = tokio::task::spawn_blocking(move || {
            redline_pdf::thumbnail(&resume, template, page, THUMBNAIL_PIXELS_PER_POINT)
        })
        .await
        .map_err(|e| Error::new(ErrorKind::Internal, e.to_string()))??
        .into();
        let mut kept = self.thumbnails();
        kept.0.push((key, png.clone()));
        if kept.0.len() > THUMBNAILS_KEPT {
            kept.0.remove(0);
        }
        Ok(png)
    }

    fn thumbnails(&self) -> std::sync::MutexGuard<'_, Thumbnails> {
        self.thumbnails.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Every design a resume can be shown in: the built-in ones, in the gallery's order, then the user's
    /// themes by name.
    pub fn designs(&self) -> Vec<DesignInfo> {
        Template::ALL
            .into_iter()
            .map(|t| DesignInfo {
                name: t.name().to_owned(),
                label: t.label().to_owned(),
                description: t.about().to_owned(),
                built_in: true,
                problem: None,
            })
            .chain(self.user_designs())
            .collect()
    }

    /// Fits the resume on screen, as at revision `base`, to `pages` pages in the design it keeps (classic
    /// when it keeps none): its spacing, then margins, then text size tightened within readable bounds.
    /// The options set are written to `/meta/design` as one revision of the user's own, undoable; when
    /// even the tightest does not fit, those are kept all the same and the answer says what to cut.
    pub async fn fit(&self, base: u64, pages: usize, emit: Emit<'_>) -> Result<FitDone, Error> {
        self.idle()?;
        let mut open = self.open()?.lock().await;
        let resume = open.store.checkout(open.document_id, base)?.document;
        let kept = Design::of(&resume);
        let (template, page) = kept.chosen(None, None);
        let laid = resume.clone();
        let fit =
            tokio::task::spawn_blocking(move || redline_pdf::fit(&laid, template, page, pages))
                .await
                .map_err(|e| Error::new(ErrorKind::Internal, e.to_string()))?
                .map_err(|e| Error::new(ErrorKind::Invalid, e.to_string()))?;
        let summary = fit.summary();
        if fit.design == kept {
            drop(open);
            return Ok(FitDone {
                state: self.state().await?,
                fit,
                summary,
            });
        }
        let ops = design_ops(&resume, &fit.design);
        let id = open.document_id;
        let (committed, ops) = redline_agent::commit_ops(
            &mut open.store,
            id,
            base,
            &ops,
            &design_policy(),
            Source::User,
            summary.clone(),
        )
        .map_err(|e| crate::turn::nothing_changed(&open.store, id, e))?;
        let update = open
            .surface
            .patch(committed.info.number, PatchState::Committed, ops);
        emit(TurnMessage::Surface(update));
        drop(open);
        Ok(FitDone {
            state: self.state().await?,
            fit,
            summary,
        })
    }
}

/// The policy a design of the user's own is written under: the default one with /meta open (a resume with
/// no `meta` gets one). The operations are built here, and the design they write is checked against its
/// bounds all the same.
fn design_policy() -> Policy {
    Policy {
        protected: Vec::new(),
        ..Policy::default()
    }
}

/// The policy a photo of the user's own is written under: the design's, with room for the photo's `data:`
/// URL (a model's edit is held to the default limits, and never writes a photo unconfirmed).
fn photo_policy() -> Policy {
    let limit = redline_resume::photo::MAX_URL_BYTES + 64;
    Policy {
        max_string_chars: limit,
        max_value_bytes: limit,
        ..design_policy()
    }
}

/// The image file at `path` as the `data:` URL a resume keeps its photo in, read within bounds.
fn read_photo(path: &std::path::Path) -> Result<String, Error> {
    use std::io::Read as _;
    let cannot = |e: std::io::Error| {
        Error::new(
            ErrorKind::NotFound,
            format!("the photo {} cannot be read: {e}", path.display()),
        )
    };
    let file = std::fs::File::open(path).map_err(cannot)?;
    let mut bytes = Vec::new();
    file.take(redline_pdf::photo::MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(cannot)?;
    if bytes.len() as u64 > redline_pdf::photo::MAX_FILE_BYTES {
        return Err(Error::new(
            ErrorKind::Invalid,
            format!(
                "the photo {} is larger than {} MB; choose a smaller file",
                path.display(),
                redline_pdf::photo::MAX_FILE_BYTES >> 20
            ),
        ));
    }
    redline_pdf::photo::prepare(&bytes).map_err(|e| Error::new(ErrorKind::Invalid, e.to_string()))
}

/// The operations that set the photo to `url` (or remove it, `None`); `None` when nothing would change.
fn photo_ops(resume: &serde_json::Value, url: Option<String>) -> Option<Vec<Operation>> {
    let pointer = redline_resume::photo::POINTER;
    let kept = resume.pointer(pointer);
    match url {
        // An empty `basics.image` (JSON Resume's templates write one) is no photo: nothing to remove.
        None => kept
            .is_some_and(|v| v.as_str().is_none_or(|s| !s.trim().is_empty()))
            .then(|| {
                vec![Operation::Remove {
                    path: pointer.to_owned(),
                }]
            }),
        Some(url) if kept.and_then(|v| v.as_str()) == Some(url.as_str()) => None,
        Some(url) => Some(added_under(resume, "basics", pointer, url.into())),
    }
}

/// A change of design in words, for the history: the design named when it changed, then each option
/// that changed ("Design: Modern; accent #003366, size 10 pt").
fn design_said(before: &Design, after: &Design) -> String {
    let mut parts = Vec::new();
    let number =
        |x: Option<f64>, unit: &str| x.map_or("the design's".to_owned(), |x| format!("{x}{unit}"));
    if before.accent != after.accent {
        parts.push(format!(
            "accent {}",
            after.accent.as_deref().unwrap_or("the design's")
        ));
    }
    if before.font != after.font {
        parts.push(format!(
            "font {}",
            after.font.map_or("the design's", |f| f.family())
        ));
    }
    if before.size != after.size {
        parts.push(format!("text size {}", number(after.size, " pt")));
    }
    if before.margins != after.margins {
        parts.push(format!("margins {}", number(after.margins, " mm")));
    }
    if before.spacing != after.spacing {
        parts.push(format!("spacing {}", number(after.spacing, "")));
    }
    if before.dates != after.dates {
        let dates = match after.dates.unwrap_or_default() {
            redline_resume::words::Dates::Month => "dates by the month's name",
            redline_resume::words::Dates::Numeric => "dates as numbers",
            redline_resume::words::Dates::Year => "dates by the year",
        };
        parts.push(dates.to_owned());
    }
    if before.page != after.page {
        parts.push(format!("paper {}", after.page.unwrap_or(Page::A4).label()));
    }
    if before.sections != after.sections {
        parts.push("sections shown and their order".to_owned());
    }
    if before.photo != after.photo {
        parts.push(match after.photo {
            Some(false) => "photo hidden".to_owned(),
            _ => "photo shown".to_owned(),
        });
    }
    let named = after.template.unwrap_or(Template::Classic).label();
    match (before.template != after.template, parts.is_empty()) {
        (true, true) => format!("Design: {named}"),
        (true, false) => format!("Design: {named}; {}", parts.join(", ")),
        (false, _) => format!("Design options: {}", parts.join(", ")),
    }
}

/// The operations that write `design` at `/meta/design`, making `meta` first when the resume has none.
fn design_ops(resume: &serde_json::Value, design: &Design) -> Vec<Operation> {
    added_under(resume, "meta", POINTER, design.to_value())
}

/// The operations that add `value` at `pointer`, below the top-level object `parent`, making that object
/// first when the resume has none.
fn added_under(
    resume: &serde_json::Value,
    parent: &str,
    pointer: &str,
    value: serde_json::Value,
) -> Vec<Operation> {
    let mut ops = Vec::new();
    if resume.get(parent).is_none_or(|m| !m.is_object()) {
        ops.push(Operation::Add {
            path: format!("/{parent}"),
            value: serde_json::json!({}),
        });
    }
    ops.push(Operation::Add {
        path: pointer.to_owned(),
        value,
    });
    ops
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quiet() -> impl FnMut(TurnMessage) {
        |_| {}
    }

    /// A design chosen in the window is one revision of the user's own, said in words, held within its
    /// bounds, and undone like any other; choosing the one it keeps makes none.
    #[tokio::test]
    async fn a_design_chosen_is_a_revision_said_in_words_and_undone() {
        let dir = tempfile::tempdir().unwrap();
        let engine = Engine::in_test_folder(dir.path());
        let base = engine.state().await.unwrap().revision;
        let elegant = Design {
            template: Some(Template::Elegant),
            ..Design::default()
        };
        let state = engine
            .set_design(base, elegant.clone(), &mut quiet())
            .await
            .unwrap();
        assert_eq!(state.revision, base + 1);
        let sized = Design {
            size: Some(10.5),
            accent: Some("#003366".to_owned()),
            ..elegant.clone()
        };
        let state = engine
            .set_design(state.revision, sized.clone(), &mut quiet())
            .await
            .unwrap();
        let page = engine
            .history(&crate::ipc::HistoryQuery {
                before: None,
                limit: Some(10),
                words: None,
            })
            .await
            .unwrap();
        let said: Vec<&str> = page.rows.iter().map(|r| r.summary.as_str()).collect();
        assert_eq!(
            &said[..2],
            [
                "Design options: accent #003366, text size 10.5 pt",
                "Design: Elegant"
            ]
        );
        // The same design again: nothing to save.
        let same = engine
            .set_design(state.revision, sized, &mut quiet())
            .await
            .unwrap();
        assert_eq!(same.revision, state.revision);
        // Out of its bounds: refused in words, nothing saved.
        let tiny = Design {
            size: Some(3.0),
            ..elegant
        };
        let refused = engine
            .set_design(state.revision, tiny, &mut quiet())
            .await
            .unwrap_err();
        assert!(
            refused.to_string().contains("outside what stays readable"),
            "{refused}"
        );
        // Undo takes the options back, and the design before them.
        engine.undo(&mut quiet()).await.unwrap();
        let crate::ipc::SurfaceUpdate::Create(head) = engine.open_surface().await.unwrap() else {
            panic!("a create")
        };
        assert_eq!(Design::of(&head.document).template, Some(Template::Elegant));
        assert_eq!(Design::of(&head.document).size, None);
    }

    /// A photo chosen from a file is kept small in the resume, said in words in the history, and removed
    /// or taken back by Undo; a file that is not a photo is refused in words and nothing is saved.
    #[tokio::test]
    async fn a_photo_chosen_from_a_file_is_a_revision_and_undone() {
        let dir = tempfile::tempdir().unwrap();
        let engine = Engine::in_test_folder(dir.path());
        let base = engine.state().await.unwrap().revision;
        // The sample's `basics.image` is empty: no photo, so nothing is removed.
        let none = engine.set_photo(base, None, &mut quiet()).await.unwrap();
        assert_eq!(none.revision, base);
        // A real PNG, 595 pixels wide: the sample's first page drawn.
        let picture =
            redline_pdf::thumbnail(&redline_resume::sample(), Template::Classic, Page::A4, 1.0)
                .unwrap();
        let file = dir.path().join("me.png");
        std::fs::write(&file, &picture).unwrap();
        let chosen = engine
            .set_photo(base, Some(file), &mut quiet())
            .await
            .unwrap();
        assert_eq!(chosen.revision, base + 1);
        let photo = redline_resume::photo::of(&head(&engine).await)
            .unwrap()
            .unwrap();
        assert_eq!(photo.format, redline_resume::photo::Format::Jpeg);
        assert_eq!(photo.height, redline_pdf::photo::KEPT_SIDE);
        let not_a_photo = dir.path().join("notes.txt");
        std::fs::write(&not_a_photo, "not a photo").unwrap();
        let refused = engine
            .set_photo(chosen.revision, Some(not_a_photo), &mut quiet())
            .await
            .unwrap_err();
        assert!(refused.to_string().contains("not a photo"), "{refused}");
        let removed = engine
            .set_photo(chosen.revision, None, &mut quiet())
            .await
            .unwrap();
        assert_eq!(removed.revision, chosen.revision + 1);
        assert!(head(&engine).await.pointer("/basics/image").is_none());
        let page = engine
            .history(&crate::ipc::HistoryQuery {
                before: None,
                limit: Some(2),
                words: None,
            })
            .await
            .unwrap();
        let said: Vec<&str> = page.rows.iter().map(|r| r.summary.as_str()).collect();
        assert_eq!(said, ["Photo: removed", "Photo: chosen"]);
        engine.undo(&mut quiet()).await.unwrap();
        assert!(
            redline_resume::photo::of(&head(&engine).await)
                .unwrap()
                .is_some()
        );
    }

    async fn head(engine: &Engine) -> serde_json::Value {
        let crate::ipc::SurfaceUpdate::Create(head) = engine.open_surface().await.unwrap() else {
            panic!("a create")
        };
        head.document
    }

    /// Each thumbnail is a small PNG of the resume on screen, drawn once per revision and design.
    #[tokio::test]
    async fn a_thumbnail_is_drawn_once_per_revision_and_design() {
        let dir = tempfile::tempdir().unwrap();
        let engine = Engine::in_test_folder(dir.path());
        let classic = engine.design_thumbnail(Template::Classic).await.unwrap();
        assert!(classic.starts_with(b"\x89PNG"));
        // 149 pixels wide: an A4 page (595 pt) at a quarter pixel a point.
        assert_eq!(u32::from_be_bytes(classic[16..20].try_into().unwrap()), 149);
        let again = engine.design_thumbnail(Template::Classic).await.unwrap();
        assert!(
            std::sync::Arc::ptr_eq(&classic, &again),
            "kept, not drawn again"
        );
        let modern = engine.design_thumbnail(Template::Modern).await.unwrap();
        assert_ne!(classic, modern);
    }
}
