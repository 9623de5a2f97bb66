//! Job applications travel with the resumes: each one an application event (its fields, its timeline and
//! what was sent), each later change of stage a move event. Moves made on two devices are both kept on the
//! timeline, and where it stands is the last move in the order every device agrees on: nothing is guessed,
//! nothing is lost. A pinned revision's number is this device's own, so the resume and letter sent travel
//! as their sync ids and the content that was sent; on another device they pin the revision of that
//! document that holds the same content when its history has one, else a copy made of it there (deleted
//! at once, so that it stays out of the way: an application's pin holds, and the copy can be restored).

use std::collections::HashMap;

use redline_store::{
    Application, NewApplication, Pinned, Stage, StageChange, Store, SyncedApplication,
    SyncedDocument,
};
use redline_sync::{
    ApplicationRecord, Body, Known, Replica, SentDocument, StageMove, content_hash,
};

use super::{SyncSummary, now_s};
use crate::error::Error;

/// How many of a document's latest revisions are searched for the content an application sent.
const MAX_PIN_SEARCH: u64 = 500;

/// This device's applications new to sync, and the moves made here since the last pass, as events.
/// `documents`: the synced documents by local id, as the pass has them after sending its own.
pub(super) fn send(
    store: &mut Store,
    replica: &mut Replica,
    documents: &HashMap<i64, SyncedDocument>,
    sent: &mut Vec<Known>,
    summary: &mut SyncSummary,
) -> Result<(), Error> {
    let synced: HashMap<i64, SyncedApplication> = store
        .synced_applications()?
        .into_iter()
        .map(|s| (s.application_id, s))
        .collect();
    for application in store.applications()? {
        let outcome = match synced.get(&application.id) {
            None => send_new(store, replica, &application, documents, sent),
            Some(s) => send_moves(store, replica, s, sent),
        };
        if let Err(e) = outcome {
            summary.notices.push(format!(
                "the application to {} was not sent: {}",
                application.company, e.message
            ));
        }
    }
    Ok(())
}

fn send_new(
    store: &mut Store,
    replica: &mut Replica,
    application: &Application,
    documents: &HashMap<i64, SyncedDocument>,
    sent: &mut Vec<Known>,
) -> Result<(), Error> {
    let as_sent = |pin: Option<Pinned>| -> Result<Option<SentDocument>, Error> {
        let Some((pin, synced)) = pin.and_then(|p| Some((p, documents.get(&p.document_id)?)))
        else {
            return Ok(None); // not sent, or a document that does not travel
        };
        let content = store.checkout(pin.document_id, pin.revision)?.document;
        Ok(Some(SentDocument {
            document: synced.sync_id.clone(),
            content,
        }))
    };
    let record = ApplicationRecord {
        company: application.company.clone(),
        role: application.role.clone(),
        posting: application.posting.clone(),
        source: application.source.clone(),
        url: application.url.clone(),
        contacts: application.contacts.clone(),
        notes: application.notes.clone(),
        salary: application.salary.clone(),
        follow_up: application.follow_up.clone(),
        tags: application.tags.clone(),
        stage: application.stage.as_str().to_owned(),
        timeline: application
            .timeline
            .iter()
            .map(|c| StageMove {
                stage: c.stage.as_str().to_owned(),
                date: c.date.clone(),
            })
            .collect(),
        resume: as_sent(application.resume)?,
        letter: as_sent(application.letter)?,
    };
    let (sync_id, known) = replica.create_application(record, application.created_at / 1000)?;
    sent.push(known);
    store.set_synced_application(&SyncedApplication {
        sync_id,
        application_id: application.id,
        synced_stage: store.last_stage_change(application.id)?,
    })?;
    Ok(())
}

fn send_moves(
    store: &mut Store,
    replica: &mut Replica,
    synced: &SyncedApplication,
    sent: &mut Vec<Known>,
) -> Result<(), Error> {
    let changes = store.stage_changes_after(synced.application_id, synced.synced_stage)?;
    let Some(&(last, _)) = changes.last() else {
        return Ok(());
    };
    for (_, change) in changes {
        let body = Body::Moved {
            stage: change.stage.as_str().to_owned(),
            date: change.date,
        };
        sent.push(replica.record(&synced.sync_id, body, now_s())?);
    }
    store.set_synced_application(&SyncedApplication {
        synced_stage: last,
        ..synced.clone()
    })?;
    Ok(())
}

/// Every application the other devices made, made here; every move they made, on its timeline here.
pub(super) fn bring_in(
    store: &mut Store,
    replica: &mut Replica,
    summary: &mut SyncSummary,
) -> Result<(), Error> {
    let synced: HashMap<String, SyncedApplication> = store
        .synced_applications()?
        .into_iter()
        .map(|s| (s.sync_id.clone(), s))
        .collect();
    let ids: Vec<String> = replica.documents().map(str::to_owned).collect();
    for id in ids {
        let Some(record) = replica
            .merged(&id)
            .filter(|m| m.created && m.application)
            .and_then(|m| serde_json::from_value::<ApplicationRecord>(m.document.clone()).ok())
        else {
            continue;
        };
        let title = format!("{} — {}", record.company, record.role);
        let outcome = match synced.get(&id) {
            None => create_here(store, &id, &record, summary),
            Some(s) => catch_up(store, s, &record).map(|changed| {
                if changed {
                    summary.updated.push(title.clone());
                }
            }),
        };
        if let Err(e) = outcome {
            summary.notices.push(format!(
                "the application {title} from your other devices was not brought in: {}",
                e.message
            ));
        }
    }
    Ok(())
}

fn stage_of(name: &str) -> Stage {
    Stage::parse(name).unwrap_or(Stage::Saved)
}

fn changes_of(record: &ApplicationRecord) -> Vec<StageChange> {
    record
        .timeline
        .iter()
        .map(|m| StageChange {
            stage: stage_of(&m.stage),
            date: m.date.clone(),
        })
        .collect()
}

fn create_here(
    store: &mut Store,
    id: &str,
    record: &ApplicationRecord,
    summary: &mut SyncSummary,
) -> Result<(), Error> {
    let mut copies = Vec::new();
    let resume = match &record.resume {
        Some(sent) => {
            let (pinned, copy) = pinned_here(store, sent, Sent::Resume, &record.company)?;
            copies.extend(copy);
            Some(pinned)
        }
        None => None,
    };
    let letter = match &record.letter {
        Some(sent) => {
            let kind = Sent::Letter {
                sender: resume.map(|p| p.document_id),
            };
            match pinned_here(store, sent, kind, &record.company) {
                Ok((pinned, copy)) => {
                    copies.extend(copy);
                    Some(pinned)
                }
                Err(e) => {
                    summary.notices.push(format!(
                        "the letter sent to {} could not be kept here: {}",
                        record.company, e.message
                    ));
                    None
                }
            }
        }
        None => None,
    };
    let new = NewApplication {
        company: record.company.clone(),
        role: record.role.clone(),
        posting: record.posting.clone(),
        source: record.source.clone(),
        url: record.url.clone(),
        stage: Some(stage_of(&record.stage)),
        contacts: record.contacts.clone(),
        notes: record.notes.clone(),
        salary: record.salary.clone(),
        follow_up: record.follow_up.clone(),
        tags: record.tags.clone(),
        resume,
        letter,
        timeline: changes_of(record),
        date: record.timeline.last().map(|m| m.date.clone()),
    };
    // The copies made of what was sent stay out of the way: deleted (a letter before its resume), still
    // pinned, restorable.
    for copy in copies.into_iter().rev() {
        store.delete(copy)?;
    }
    let application_id = store.add_application(&new)?;
    store.set_synced_application(&SyncedApplication {
        sync_id: id.to_owned(),
        application_id,
        synced_stage: store.last_stage_change(application_id)?,
    })?;
    summary.brought_in.push(format!(
        "{} — {} (an application)",
        record.company, record.role
    ));
    Ok(())
}

/// What was sent: a resume, or a letter (whose copy, if one is made, belongs to `sender`, the resume
/// pinned beside it, else to the letter's own resume here).
#[derive(Clone, Copy)]
enum Sent {
    Resume,
    Letter { sender: Option<i64> },
}

/// The revision here that holds what was sent: one of the latest of the synced document `sent` names,
/// else the first of a copy made of it (returned too, for the caller to delete once every pin is made).
fn pinned_here(
    store: &mut Store,
    sent: &SentDocument,
    kind: Sent,
    company: &str,
) -> Result<(Pinned, Option<i64>), Error> {
    let synced = store.synced_document(&sent.document)?;
    if let Some(s) = &synced
        && let Some(found) = in_history(store, s.document_id, &sent.content)?
    {
        return Ok((found, None));
    }
    let title = format!("As sent to {company}");
    let copy = match kind {
        Sent::Resume => store.import(&title, &sent.content)?,
        Sent::Letter { sender } => {
            let resume = sender
                .or_else(|| {
                    let letter = store.document(synced?.document_id).ok()?;
                    letter.resume_id
                })
                .ok_or_else(|| {
                    Error::new(
                        crate::error::ErrorKind::NotFound,
                        "the resume it belongs to is not here",
                    )
                })?;
            store.create_letter(resume, &title, &sent.content)?
        }
    };
    let pinned = Pinned {
        document_id: copy,
        revision: 1,
    };
    Ok((pinned, Some(copy)))
}

/// The latest revision of `document_id`, among its last few, that holds `content`.
fn in_history(
    store: &Store,
    document_id: i64,
    content: &serde_json::Value,
) -> Result<Option<Pinned>, Error> {
    let Ok(head) = store.head(document_id) else {
        return Ok(None);
    };
    let wanted = content_hash(content);
    for revision in (1..=head.number).rev().take(MAX_PIN_SEARCH as usize) {
        let document = store.checkout(document_id, revision)?.document;
        if content_hash(&document) == wanted {
            return Ok(Some(Pinned {
                document_id,
                revision,
            }));
        }
    }
    Ok(None)
}

/// Adds the moves the merged timeline has and this one lacks, and sets where it stands; true when
/// anything changed.
fn catch_up(
    store: &mut Store,
    synced: &SyncedApplication,
    record: &ApplicationRecord,
) -> Result<bool, Error> {
    let here = store.application(synced.application_id)?;
    let mut unmatched = here.timeline.clone();
    let mut missing = Vec::new();
    for change in changes_of(record) {
        match unmatched.iter().position(|c| *c == change) {
            Some(at) => {
                unmatched.swap_remove(at);
            }
            None => missing.push(change),
        }
    }
    let stage = stage_of(&record.stage);
    if missing.is_empty() && here.stage == stage {
        return Ok(false);
    }
    let last = store.add_stage_changes(synced.application_id, &missing, stage)?;
    store.set_synced_application(&SyncedApplication {
        synced_stage: last,
        ..synced.clone()
    })?;
    Ok(true)
}
