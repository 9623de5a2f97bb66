//! What was said and what the model did: chat messages per document, the audit log of model calls (kept
//! for a configurable number of days), and settings.

use rusqlite::{Connection, OptionalExtension, params};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::{Result, Store, now_ms};

/// The setting that says how many days model calls are kept in the audit log (0: forever).
pub const AUDIT_RETENTION_DAYS: &str = "audit_retention_days";
const DEFAULT_AUDIT_RETENTION_DAYS: i64 = 90;
const DAY_MS: i64 = 24 * 60 * 60 * 1000;

/// Who said a chat message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// The person.
    User,
    /// The model's reply.
    Assistant,
    /// A tool's result.
    Tool,
    /// Instructions.
    System,
}

impl Role {
    fn as_str(self) -> &'static str {
        match self {
            Role::User => "user",
            Role::Assistant => "assistant",
            Role::Tool => "tool",
            Role::System => "system",
        }
    }

    fn parse(name: &str) -> Role {
        match name {
            "assistant" => Role::Assistant,
            "tool" => Role::Tool,
            "system" => Role::System,
            _ => Role::User,
        }
    }
}

/// One chat message of a document's conversation.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ChatMessage {
    /// The message's id.
    pub id: i64,
    /// The document it is about.
    pub document_id: i64,
    /// When, milliseconds since the Unix epoch.
    pub created_at: i64,
    /// Who said it.
    pub role: Role,
    /// What was said.
    pub content: String,
    /// Whether it quotes a file (the ask that tidies an import): shown as the user's message, but not the
    /// user's own words to the link and fact checks ([`Store::said_by_user`] leaves it out).
    pub quotes_file: bool,
}

/// How a model call ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// Its operations were committed.
    Committed,
    /// Its operations were refused (policy, schema, conflict).
    Refused,
    /// The call failed (network, server, malformed output).
    Failed,
    /// The user stopped it.
    Cancelled,
    /// Its operations were proposed to the user for review (review mode), not committed.
    Proposed,
}

impl Outcome {
    fn as_str(self) -> &'static str {
        match self {
            Outcome::Committed => "committed",
            Outcome::Refused => "refused",
            Outcome::Failed => "failed",
            Outcome::Cancelled => "cancelled",
            Outcome::Proposed => "proposed",
        }
    }

    fn parse(name: &str) -> Outcome {
        match name {
            "committed" => Outcome::Committed,
            "refused" => Outcome::Refused,
            "cancelled" => Outcome::Cancelled,
            "proposed" => Outcome::Proposed,
            _ => Outcome::Failed,
        }
    }
}

/// One call to a model, as the audit log keeps it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ModelCall {
    /// The model's name.
    pub model: String,
    /// What was sent (the request body).
    pub request: String,
    /// What came back, as the model wrote it.
    pub raw_output: String,
    /// How it ended.
    pub outcome: Outcome,
    /// The operations applied (a JSON array).
    pub applied: Value,
    /// The operations refused, each with why (a JSON array).
    pub refused: Value,
    /// The error, if it failed.
    pub error: Option<String>,
}

/// A model call as recorded.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ModelCallRecord {
    /// The record's id.
    pub id: i64,
    /// The document.
    pub document_id: i64,
    /// The revision it produced, if it was committed.
    pub revision: Option<u64>,
    /// When, milliseconds since the Unix epoch.
    pub created_at: i64,
    /// The call.
    #[serde(flatten)]
    pub call: ModelCall,
}

/// The most of each of a model call's texts (its request, its answer, what it applied or refused, its
/// error) the audit keeps; a longer one is cut, and the cut says how much was left out.
pub const MAX_AUDIT_TEXT_BYTES: usize = 64 * 1024;
/// The most the whole audit log keeps, counted as its texts' bytes: as it grows past this, its oldest
/// calls go first.
pub const MAX_AUDIT_BYTES: i64 = 16 * 1024 * 1024;

/// `text`, or its first [`MAX_AUDIT_TEXT_BYTES`] (at a character's edge) and how many bytes were cut.
fn bounded(text: &str) -> std::borrow::Cow<'_, str> {
    if text.len() <= MAX_AUDIT_TEXT_BYTES {
        return text.into();
    }
    let mut end = MAX_AUDIT_TEXT_BYTES;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!(
        "{}… [{} more bytes not kept]",
        &text[..end],
        text.len() - end
    )
    .into()
}

/// A JSON value for the audit: as it is, or over the bound a string that says how long it was (a cut
/// JSON text would not read back).
fn bounded_json(value: &Value) -> String {
    let text = value.to_string();
    if text.len() <= MAX_AUDIT_TEXT_BYTES {
        return text;
    }
    Value::String(format!("[{} bytes of JSON not kept]", text.len())).to_string()
}

pub(crate) fn insert_model_call(
    conn: &Connection,
    document_id: i64,
    revision: Option<u64>,
    now: i64,
    call: &ModelCall,
) -> Result<i64> {
    let request = bounded(&call.request);
    let raw_output = bounded(&call.raw_output);
    let applied = bounded_json(&call.applied);
    let refused = bounded_json(&call.refused);
    let error = call.error.as_deref().map(bounded);
    let bytes = request.len()
        + raw_output.len()
        + applied.len()
        + refused.len()
        + error.as_ref().map_or(0, |e| e.len());
    conn.prepare_cached(
        "INSERT INTO model_calls (document_id, revision, created_at, model, request, raw_output, outcome,
                                  applied, refused, error, bytes)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
    )?
    .execute(params![
        document_id,
        revision,
        now,
        bounded(&call.model),
        request,
        raw_output,
        call.outcome.as_str(),
        applied,
        refused,
        error,
        bytes as i64
    ])?;
    let id = conn.last_insert_rowid();
    let total: i64 = conn
        .prepare_cached("SELECT total FROM audit_size")?
        .query_row([], |row| row.get(0))?;
    if total > MAX_AUDIT_BYTES {
        // Past the bound, the oldest calls go until the rest fit in nine tenths of it (so that this runs
        // once in many calls, not on each); the one just written always stays.
        conn.prepare_cached(
            "DELETE FROM model_calls WHERE id < ?2 AND id <= (
                 SELECT id FROM (SELECT id, sum(bytes) OVER (ORDER BY id DESC) AS total FROM model_calls)
                 WHERE total > ?1 ORDER BY id DESC LIMIT 1)",
        )?
        .execute(params![MAX_AUDIT_BYTES / 10 * 9, id])?;
    }
    Ok(id)
}

/// A row of `SELECT id, document_id, created_at, role, content, quotes_file FROM chat_messages`.
fn chat_message(row: &rusqlite::Row<'_>) -> rusqlite::Result<ChatMessage> {
    let role: String = row.get(3)?;
    Ok(ChatMessage {
        id: row.get(0)?,
        document_id: row.get(1)?,
        created_at: row.get(2)?,
        role: Role::parse(&role),
        content: row.get(4)?,
        quotes_file: row.get(5)?,
    })
}

impl Store {
    /// Adds a message to a document's conversation and returns its id.
    pub fn add_message(&mut self, document_id: i64, role: Role, content: &str) -> Result<i64> {
        self.insert_message(document_id, role, content, false)
    }

    /// Adds a user's message that quotes a file (the ask that tidies an import, with the file's text) and
    /// returns its id. It is part of the conversation as any other message is, but never of what the user
    /// said ([`Store::said_by_user`]): a link or a fact planted in a hostile file is not one the user gave.
    pub fn add_message_quoting_file(&mut self, document_id: i64, content: &str) -> Result<i64> {
        self.insert_message(document_id, Role::User, content, true)
    }

    fn insert_message(
        &mut self,
        document_id: i64,
        role: Role,
        content: &str,
        quotes_file: bool,
    ) -> Result<i64> {
        self.document(document_id)?;
        self.conn.execute(
            "INSERT INTO chat_messages (document_id, created_at, role, content, quotes_file)
             VALUES (?1, ?2, ?3, ?4, ?5)",
            params![document_id, now_ms(), role.as_str(), content, quotes_file],
        )?;
        Ok(self.conn.last_insert_rowid())
    }

    /// A document's conversation, oldest first.
    pub fn messages(&self, document_id: i64) -> Result<Vec<ChatMessage>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT id, document_id, created_at, role, content, quotes_file FROM chat_messages
             WHERE document_id = ?1 ORDER BY id",
        )?;
        let rows = stmt.query_map([document_id], chat_message)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// At most `limit` of a document's messages before the message `before` (all of them when `None`), the
    /// newest of those, oldest first: a page of the conversation, however long it has grown.
    pub fn recent_messages(
        &self,
        document_id: i64,
        before: Option<i64>,
        limit: usize,
    ) -> Result<Vec<ChatMessage>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT id, document_id, created_at, role, content, quotes_file FROM chat_messages
             WHERE document_id = ?1 AND id < ?2 ORDER BY id DESC LIMIT ?3",
        )?;
        let rows = stmt.query_map(
            params![
                document_id,
                before.unwrap_or(i64::MAX),
                i64::try_from(limit).unwrap_or(i64::MAX)
            ],
            chat_message,
        )?;
        let mut page = rows.collect::<Result<Vec<_>, _>>()?;
        page.reverse();
        Ok(page)
    }

    /// Everything the user said about a document in their own words, one message a line, oldest first: a
    /// message that quotes a file is left out. Read row by row into one string, not as a list of every
    /// message (the other side's included) as [`Store::messages`] would.
    pub fn said_by_user(&self, document_id: i64) -> Result<String> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT content FROM chat_messages
             WHERE document_id = ?1 AND role = 'user' AND quotes_file = 0 ORDER BY id",
        )?;
        let mut rows = stmt.query([document_id])?;
        let mut said = String::new();
        while let Some(row) = rows.next()? {
            said.push_str(row.get_ref(0)?.as_str().map_err(rusqlite::Error::from)?);
            said.push('\n');
        }
        Ok(said)
    }

    /// Records a model call that produced no revision (refused, failed, cancelled). A call whose
    /// operations were committed is recorded with its revision, by [`Store::commit`].
    pub fn record_model_call(&mut self, document_id: i64, call: &ModelCall) -> Result<i64> {
        self.document(document_id)?;
        insert_model_call(&self.conn, document_id, None, now_ms(), call)
    }

    /// The audit log of a document's model calls, oldest first.
    pub fn model_calls(&self, document_id: i64) -> Result<Vec<ModelCallRecord>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT id, document_id, revision, created_at, model, request, raw_output, outcome, applied,
                    refused, error
             FROM model_calls WHERE document_id = ?1 ORDER BY id",
        )?;
        let rows = stmt.query_map([document_id], |row| {
            let outcome: String = row.get(7)?;
            let applied: String = row.get(8)?;
            let refused: String = row.get(9)?;
            Ok(ModelCallRecord {
                id: row.get(0)?,
                document_id: row.get(1)?,
                revision: row.get(2)?,
                created_at: row.get(3)?,
                call: ModelCall {
                    model: row.get(4)?,
                    request: row.get(5)?,
                    raw_output: row.get(6)?,
                    outcome: Outcome::parse(&outcome),
                    applied: serde_json::from_str(&applied).unwrap_or(Value::Null),
                    refused: serde_json::from_str(&refused).unwrap_or(Value::Null),
                    error: row.get(10)?,
                },
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Deletes model calls older than the retention setting allows; returns how many.
    pub fn prune_audit(&mut self, now: i64) -> Result<usize> {
        let days = self
            .setting(AUDIT_RETENTION_DAYS)?
            .and_then(|v| v.parse().ok())
            .unwrap_or(DEFAULT_AUDIT_RETENTION_DAYS);
        if days <= 0 {
            return Ok(0);
        }
        Ok(self.conn.execute(
            "DELETE FROM model_calls WHERE created_at < ?1",
            [now - days * DAY_MS],
        )?)
    }

    /// A setting's value, if it was ever set.
    pub fn setting(&self, key: &str) -> Result<Option<String>> {
        Ok(self
            .conn
            .prepare_cached("SELECT value FROM settings WHERE key = ?1")?
            .query_row([key], |row| row.get(0))
            .optional()?)
    }

    /// Sets a setting.
    pub fn set_setting(&mut self, key: &str, value: &str) -> Result<()> {
        self.conn.execute(
            "INSERT INTO settings (key, value) VALUES (?1, ?2)
             ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            params![key, value],
        )?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Change, Source, StoreError};
    use serde_json::json;

    fn call(outcome: Outcome) -> ModelCall {
        ModelCall {
            model: "gpt-test".into(),
            request: r#"{"messages":[]}"#.into(),
            raw_output: r#"{"operations":[]}"#.into(),
            outcome,
            applied: json!([]),
            refused: json!([{"op": {"op": "remove", "path": "/meta"}, "reason": "protected"}]),
            error: None,
        }
    }

    #[test]
    fn a_long_conversation_is_read_a_page_at_a_time() {
        let (_dir, mut store, id) = crate::store_with("Ada", &json!({}));
        let other = store.import("Grace", &json!({})).unwrap();
        for n in 0..250 {
            store
                .add_message(id, Role::User, &format!("ask {n}"))
                .unwrap();
            store
                .add_message(id, Role::Assistant, &format!("answer {n}"))
                .unwrap();
            store.add_message(other, Role::User, "elsewhere").unwrap();
        }
        let texts = |page: &[ChatMessage]| -> Vec<String> {
            page.iter().map(|m| m.content.clone()).collect()
        };
        // The newest, oldest first.
        let newest = store.recent_messages(id, None, 4).unwrap();
        assert_eq!(
            texts(&newest),
            ["ask 248", "answer 248", "ask 249", "answer 249"]
        );
        // The page before it, and so on back to the first message, which has nothing before it.
        let before = store.recent_messages(id, Some(newest[0].id), 3).unwrap();
        assert_eq!(texts(&before), ["answer 246", "ask 247", "answer 247"]);
        let mut pages = 0;
        let mut from = None;
        let mut all = Vec::new();
        loop {
            let page = store.recent_messages(id, from, 100).unwrap();
            if page.is_empty() {
                break;
            }
            pages += 1;
            from = Some(page[0].id);
            all.splice(0..0, texts(&page));
        }
        assert_eq!(pages, 5);
        assert_eq!(all, texts(&store.messages(id).unwrap()));

        // What the user said, without the answers or the other document's messages.
        let said = store.said_by_user(id).unwrap();
        assert!(said.starts_with("ask 0\nask 1\n"));
        assert!(said.ends_with("ask 249\n"));
        assert!(!said.contains("answer") && !said.contains("elsewhere"));
    }

    /// The ask that tidies an import quotes the file's text: it stays in the conversation, marked, but is
    /// never what the user said (a link planted in the file is not one the user gave).
    #[test]
    fn a_message_quoting_a_file_is_not_what_the_user_said() {
        let (_dir, mut store, id) = crate::store_with("Ada", &json!({}));
        store
            .add_message(id, Role::User, "my site is https://ada.example")
            .unwrap();
        let quoted = store
            .add_message_quoting_file(id, "Tidy this. The file's text:\nhttps://evil.example/x")
            .unwrap();
        store.add_message(id, Role::User, "thanks").unwrap();
        assert_eq!(
            store.said_by_user(id).unwrap(),
            "my site is https://ada.example\nthanks\n"
        );
        let shown: Vec<_> = store
            .messages(id)
            .unwrap()
            .into_iter()
            .map(|m| (m.id == quoted, m.role, m.quotes_file))
            .collect();
        assert_eq!(
            shown,
            [
                (false, Role::User, false),
                (true, Role::User, true),
                (false, Role::User, false)
            ]
        );
        assert!(store.recent_messages(id, None, 10).unwrap()[1].quotes_file);
        assert!(matches!(
            store.add_message_quoting_file(99, "x"),
            Err(StoreError::NoDocument(99))
        ));
    }

    #[test]
    fn messages_and_model_calls_are_kept_per_document() {
        let (_dir, mut store, id) = crate::store_with("Ada", &json!({"basics": {"name": "A"}}));
        let other = store.import("Grace", &json!({})).unwrap();
        let asked = store.add_message(id, Role::User, "rename me").unwrap();
        store.add_message(id, Role::Assistant, "Done.").unwrap();
        store.add_message(other, Role::User, "hi").unwrap();
        let said: Vec<_> = store
            .messages(id)
            .unwrap()
            .into_iter()
            .map(|m| (m.role, m.content))
            .collect();
        assert_eq!(
            said,
            [
                (Role::User, "rename me".into()),
                (Role::Assistant, "Done.".into())
            ]
        );
        assert!(matches!(
            store.add_message(99, Role::User, "x"),
            Err(StoreError::NoDocument(99))
        ));

        store
            .record_model_call(id, &call(Outcome::Refused))
            .unwrap();
        let ops = serde_json::from_value(
            json!([{"op": "replace", "path": "/basics/name", "value": "B"}]),
        )
        .unwrap();
        store
            .commit(
                id,
                Change::new(1, Source::Ai, ops)
                    .chat_message(asked)
                    .model_call(call(Outcome::Committed)),
            )
            .unwrap();
        let calls = store.model_calls(id).unwrap();
        assert_eq!(calls.len(), 2);
        assert_eq!(
            (calls[0].revision, calls[0].call.outcome),
            (None, Outcome::Refused)
        );
        assert_eq!(
            (calls[1].revision, calls[1].call.outcome),
            (Some(2), Outcome::Committed)
        );
        assert_eq!(calls[0].call, call(Outcome::Refused));
        assert!(store.model_calls(other).unwrap().is_empty());
    }

    #[test]
    fn a_failed_commit_records_no_model_call() {
        let (_dir, mut store, id) = crate::store_with("Ada", &json!({}));
        let ops = serde_json::from_value(json!([{"op": "remove", "path": "/nothing"}])).unwrap();
        assert!(
            store
                .commit(
                    id,
                    Change::new(1, Source::Ai, ops).model_call(call(Outcome::Committed))
                )
                .is_err()
        );
        assert!(store.model_calls(id).unwrap().is_empty());
    }

    /// A model that answers at length is kept to its first 64 KB, and the whole log to its bound, oldest
    /// calls first, as it grows: not only when the store opens.
    #[test]
    fn the_audit_log_is_bounded_in_size_as_it_grows() {
        let (_dir, mut store, id) = crate::store_with("Ada", &json!({}));
        let mut long = call(Outcome::Failed);
        long.raw_output = "é".repeat(3 * MAX_AUDIT_TEXT_BYTES);
        long.applied = json!(["x".repeat(MAX_AUDIT_TEXT_BYTES)]);
        let first = store.record_model_call(id, &long).unwrap();
        let kept = &store.model_calls(id).unwrap()[0];
        assert!(kept.call.raw_output.len() < MAX_AUDIT_TEXT_BYTES + 64);
        assert!(
            kept.call.raw_output.ends_with(&format!(
                "… [{} more bytes not kept]",
                6 * MAX_AUDIT_TEXT_BYTES - MAX_AUDIT_TEXT_BYTES
            )),
            "{}",
            &kept.call.raw_output[kept.call.raw_output.len() - 60..]
        );
        assert_eq!(
            kept.call.applied,
            json!(format!(
                "[{} bytes of JSON not kept]",
                MAX_AUDIT_TEXT_BYTES + 4
            ))
        );
        let per_call = kept.call.raw_output.len() + kept.call.request.len();
        let calls = (MAX_AUDIT_BYTES as usize / per_call) + 20;
        let mut last = first;
        for _ in 0..calls {
            last = store.record_model_call(id, &long).unwrap();
        }
        let total: i64 = store.one("SELECT sum(bytes) FROM model_calls");
        let kept: i64 = store.one("SELECT total FROM audit_size");
        let records = store.model_calls(id).unwrap();
        assert_eq!(kept, total, "the kept total is the rows' own");
        assert!(total <= MAX_AUDIT_BYTES, "{total}");
        assert!(
            total > MAX_AUDIT_BYTES / 10 * 9 - 2 * per_call as i64,
            "{total}"
        );
        assert_eq!(records.last().unwrap().id, last);
        assert!(records[0].id > first + 19, "the oldest went first");
    }

    #[test]
    fn old_model_calls_go_after_the_retention_period() {
        let (_dir, mut store, id) = crate::store_with("Ada", &json!({}));
        store.record_model_call(id, &call(Outcome::Failed)).unwrap();
        let now = now_ms();
        assert_eq!(store.prune_audit(now + 89 * DAY_MS).unwrap(), 0);
        store.set_setting(AUDIT_RETENTION_DAYS, "0").unwrap();
        assert_eq!(
            store.prune_audit(now + 400 * DAY_MS).unwrap(),
            0,
            "0 keeps forever"
        );
        store.set_setting(AUDIT_RETENTION_DAYS, "30").unwrap();
        assert_eq!(
            store.setting(AUDIT_RETENTION_DAYS).unwrap().as_deref(),
            Some("30")
        );
        assert_eq!(store.prune_audit(now + 31 * DAY_MS).unwrap(), 1);
        assert!(store.model_calls(id).unwrap().is_empty());
    }
}
