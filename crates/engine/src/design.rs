//! The designs a resume can be shown in, and fitting it to a number of pages.
//!
//! The design and its options live in the resume (`/meta/design`, `redline_resume::design`), so choosing
//! one is an edit like any other; these operations list the designs and make the one edit that needs a
//! layout to decide: fitting to pages, committed as a revision of the user's own, undoable.

use redline_patch::{Operation, PatchState, Policy};
use redline_resume::design::{Design, POINTER};
use redline_resume::export::Template;
use redline_store::Source;
use serde::Serialize;

use super::Engine;
use crate::error::{Error, ErrorKind};
use crate::ipc::{DesignInfo, DocState, Emit, TurnMessage};

/// What fitting to pages did: the resume's state after it, and the fit in words.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FitDone {
    /// The resume after the fit (a new revision, unless nothing changed).
    pub state: DocState,
    /// The options set, the pages taken and asked, and what to cut when it does not fit.
    pub fit: redline_pdf::Fitted,
    /// The fit in a sentence (the revision's summary when it changed anything).
    pub summary: String,
}

impl Engine {
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
            // The default policy with /meta open (a resume with no `meta` gets one): the operations are the
            // ones built just above, and the design they write is checked against its bounds all the same.
            &Policy {
                protected: Vec::new(),
                ..Policy::default()
            },
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

/// The operations that write `design` at `/meta/design`, making `meta` first when the resume has none.
fn design_ops(resume: &serde_json::Value, design: &Design) -> Vec<Operation> {
    let mut ops = Vec::new();
    if resume.get("meta").is_none_or(|m| !m.is_object()) {
        ops.push(Operation::Add {
            path: "/meta".to_owned(),
            value: serde_json::json!({}),
        });
    }
    ops.push(Operation::Add {
        path: POINTER.to_owned(),
        value: design.to_value(),
    });
    ops
}
