//! The stabilizer: the patch model's streamed output in, safe and surgical surface messages out.
//!
//! The patch model answers `{"operations":[{"op":…,"path":…,"value":…,"from":…}, …]}`, a few bytes at a
//! time. The stabilizer reads it with [`redline_stream::Reader`] and decides, operation by operation:
//! - **ready**: its `op` is a known verb, its `path` string is *closed* (the reader says so: `/skills/0/na`
//!   parses as a pointer, so syntax alone cannot tell), a valid pointer the policy allows, `from` closed for
//!   `move` and `copy`, and the value started where one is needed. Key order is not trusted: a value that
//!   arrives before its path is held until the path closes.
//! - **preview**: a growing string is shown by `text` messages carrying only the new characters; a growing
//!   object or array by fine-grained `patch` previews (the new item appears, then its fields one by one);
//!   `remove`, `move` and `copy` wait, pending, until their object closes.
//! - **complete**: the operation's object closed; its exact result is settled, and the view is corrected
//!   if the preview differs (a text operation's seam, say). The bundle completes when the array closes.
//!
//! Anything wrong — an unknown verb, a bad or protected pointer, an operation that does not apply, a result
//! that breaks the schema, the stream ending or failing mid-bundle — rolls back every preview and says why.
//! An edit outside the planner's scope is held for the user's confirmation, never applied silently; an
//! operation repeated in one bundle is applied once.

use std::borrow::Cow;
use std::time::{Duration, Instant};

use redline_stream::{Event, Limits, Reader, Segment};
use serde_json::{Map, Value};

use crate::policy::{Admission, Hold, Policy, PolicyError, Scope};
use crate::surface::{PatchState, Surface, SurfaceUpdate};
use crate::text::{self, TextVerb};
use crate::{Operation, pointer};

/// Something the stabilizer tells its caller besides surface messages.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(tag = "notice", rename_all = "camelCase")]
pub enum Notice {
    /// An operation has made no progress for longer than the stall threshold.
    Waiting {
        /// Which operation (from 0).
        operation: usize,
        /// Its path, if known yet.
        path: Option<String>,
    },
    /// An operation outside the planner's targets, kept for the user to confirm.
    Held {
        /// Which operation (from 0).
        operation: usize,
        /// The operation.
        op: Operation,
    },
    /// An operation that repeats an earlier one of the same bundle; applied once.
    Duplicate {
        /// Which operation (from 0).
        operation: usize,
    },
}

/// The notice in words, for the CLI and the log: `operation 2 (at /work/0/summary) is waiting for the model`.
impl std::fmt::Display for Notice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Notice::Waiting {
                operation,
                path: Some(path),
            } => write!(
                f,
                "operation {} (at {path}) is waiting for the model",
                operation + 1
            ),
            Notice::Waiting { operation, .. } => {
                write!(f, "operation {} is waiting for the model", operation + 1)
            }
            Notice::Held { op, .. } => write!(f, "held for your confirmation: {}", op.describe()),
            Notice::Duplicate { operation } => write!(
                f,
                "operation {} repeats an earlier one and was applied once",
                operation + 1
            ),
        }
    }
}

/// One thing to hand on: a message for the view, or a notice for the caller.
#[derive(Debug, Clone, PartialEq)]
pub enum Output {
    /// For the resume view.
    Surface(SurfaceUpdate),
    /// For the caller (and the chat).
    Notice(Notice),
}

/// A finished bundle, ready to be committed.
#[derive(Debug, Clone, PartialEq)]
pub struct Bundle {
    /// The operations to commit, text operations expanded, in order.
    pub ops: Vec<Operation>,
    /// The document they produce.
    pub document: Value,
    /// Operations held for the user's confirmation (not in `ops`).
    pub held: Vec<Operation>,
    /// Why each of `held` waits, in its order.
    pub why_held: Vec<Hold>,
}

/// Where the stream stands.
#[derive(Debug, Clone, PartialEq)]
pub enum Status {
    /// Still reading.
    Streaming,
    /// The operations array closed and the bundle passed every check.
    Complete(Bundle),
    /// Committed as a revision.
    Committed(u64),
    /// Rolled back; the reason (its `Display` is in plain words).
    Failed(StabilizerError),
}

/// Why a bundle was rolled back.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum StabilizerError {
    /// An operation breaks a rule: a protected path, a limit, the schema.
    #[error("{0}")]
    Policy(#[from] PolicyError),
    /// An operation does not apply to the resume.
    #[error("{0}")]
    Apply(#[from] crate::ApplyError),
    /// An operation no longer points at the item it was written for.
    #[error("{0}")]
    Conflict(#[from] crate::RebaseError),
    /// A text operation that cannot be carried out.
    #[error("{0}")]
    Text(#[from] crate::text::TextError),
    /// The answer is not JSON, or exceeds the reader's limits (depth, size).
    #[error("{}", reader_words(.0))]
    Reader(redline_stream::Error),
    /// The answer is JSON but not well-formed operations (no `op`, an unknown verb, a bad pointer).
    #[error("{0}")]
    Malformed(String),
    /// The answer ended before the bundle was complete.
    #[error("the model's answer ended before the edit was complete")]
    Ended,
    /// The caller stopped the stream (the user pressed Stop, or the commit failed).
    #[error("{0}")]
    Stopped(String),
}

impl StabilizerError {
    /// What kind of failure it is: a conflict (the resume changed under the edit), stopped, or refused
    /// (the model's answer broke a rule or was malformed).
    pub fn kind(&self) -> redline_error_kind::ErrorKind {
        use redline_error_kind::ErrorKind;
        match self {
            StabilizerError::Conflict(_) => ErrorKind::Conflict,
            StabilizerError::Stopped(_) => ErrorKind::Stopped,
            _ => ErrorKind::Refused,
        }
    }
}

fn reader_words(error: &redline_stream::Error) -> String {
    match error.kind {
        redline_stream::ErrorKind::TooDeep(_) | redline_stream::ErrorKind::TooLarge(_) => {
            format!("the model's answer was refused: {error}")
        }
        _ => format!("the model's answer is not valid JSON: {error}"),
    }
}

impl From<crate::pointer::PointerError> for StabilizerError {
    fn from(error: crate::pointer::PointerError) -> Self {
        StabilizerError::Malformed(error.to_string())
    }
}

impl From<String> for StabilizerError {
    fn from(words: String) -> Self {
        StabilizerError::Malformed(words)
    }
}

/// The verbs the patch model may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Verb {
    Add,
    Remove,
    Replace,
    Move,
    Copy,
    Test,
    Text(TextVerb),
}

impl Verb {
    fn parse(name: &str) -> Option<Verb> {
        Some(match name {
            "add" => Verb::Add,
            "remove" => Verb::Remove,
            "replace" => Verb::Replace,
            "move" => Verb::Move,
            "copy" => Verb::Copy,
            "test" => Verb::Test,
            other => Verb::Text(TextVerb::parse(other)?),
        })
    }

    fn needs_value(self) -> bool {
        matches!(self, Verb::Add | Verb::Replace | Verb::Test | Verb::Text(_))
    }

    /// Whether the growing value is shown while it streams.
    fn previews_value(self) -> bool {
        matches!(self, Verb::Add | Verb::Replace | Verb::Text(_))
    }
}

/// What is known of one operation of the array.
#[derive(Debug, Default)]
struct Pending {
    verb: Option<Verb>,
    path: Option<String>,
    from: Option<String>,
    value_started: bool,
    /// Where the value is shown in the view (the path with `-` made concrete), once previewing.
    target: Option<String>,
    /// Out of scope (or always confirmed): not previewed, held at completion.
    out_of_scope: bool,
    closed: bool,
    /// The reader's offset when the operation began: how much of the answer it has taken so far.
    started_at: usize,
}

/// A compact record of one reader event inside `/operations`.
struct Seen {
    /// The reader's offset before the feed that produced the event.
    offset: usize,
    index: usize,
    field: Field,
    /// True for an event of the value itself (not of something inside it).
    top: bool,
    kind: Kind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Field {
    Op,
    Path,
    From,
    Value,
    Other,
    /// The operation object itself.
    Whole,
}

#[derive(Debug, PartialEq)]
enum Kind {
    Started,
    Append,
    StringEnd,
    Ended,
    Scalar,
    ArrayClosed,
}

/// Turns the patch model's streamed output into surface messages. See the [module docs](self).
pub struct Stabilizer<'s> {
    reader: Reader,
    /// The head revision the bundle applies to.
    base: Value,
    base_revision: u64,
    /// `base` with every completed operation applied.
    settled: Value,
    /// The size and depth of `settled`, kept up to date operation by operation (an upper bound on the
    /// depth: a removal does not lower it until the bundle's final check).
    measure: redline_resume::Measure,
    /// What the view shows: `settled` plus the previews of the operation in progress.
    shown: Value,
    /// The document the model saw, when older than `base`, with every completed operation applied: the
    /// bundle's pointers refer to it and are re-targeted to `settled` (see [`crate::rebase`]).
    model_view: Option<Value>,
    policy: Policy,
    scope: Scope,
    /// The view's numbering, borrowed from its owner (it continues across bundles and turns).
    surface: &'s mut Surface,
    pending: Vec<Pending>,
    /// The operation being previewed, if any.
    active: Option<usize>,
    ops: Vec<Operation>,
    held: Vec<Operation>,
    why_held: Vec<Hold>,
    status: Status,
    stall_after: Duration,
    last_progress: Instant,
    reported_stall: bool,
}

impl<'s> Stabilizer<'s> {
    /// A stabilizer for a bundle against `base` (revision `base_revision`), numbering its messages on
    /// `surface`.
    pub fn new(
        base: Value,
        base_revision: u64,
        policy: Policy,
        scope: Scope,
        surface: &'s mut Surface,
        now: Instant,
    ) -> Self {
        // The reader refuses an answer deeper than any operation could go (the answer's object, the array,
        // the operation, then the value) or larger than the policy allows, as it streams.
        let reader = Reader::with_limits(Limits {
            max_depth: policy.max_depth + 3,
            max_bytes: policy.max_answer_bytes,
        });
        Stabilizer {
            reader,
            measure: redline_resume::measure(&base),
            settled: base.clone(),
            shown: base.clone(),
            base,
            base_revision,
            model_view: None,
            policy,
            scope,
            surface,
            pending: Vec::new(),
            active: None,
            ops: Vec::new(),
            held: Vec::new(),
            why_held: Vec::new(),
            status: Status::Streaming,
            stall_after: Duration::from_secs(8),
            last_progress: now,
            reported_stall: false,
        }
    }

    /// The model wrote its bundle against `made_against`, an older revision than the head: its pointers
    /// into arrays are re-targeted to the same items in the head, or refused as a conflict.
    pub fn made_against(mut self, made_against: Value) -> Self {
        if made_against != self.base {
            self.model_view = Some(made_against);
        }
        self
    }

    /// Sets how long an operation may make no progress before it is reported as waiting.
    pub fn with_stall_threshold(mut self, threshold: Duration) -> Self {
        self.stall_after = threshold;
        self
    }

    /// Where the stream stands.
    pub fn status(&self) -> &Status {
        &self.status
    }

    /// The document as the view shows it now.
    pub fn shown(&self) -> &Value {
        &self.shown
    }

    /// Feeds the next bytes of the patch model's output.
    pub fn feed(&mut self, bytes: &[u8], now: Instant) -> Vec<Output> {
        let mut out = Vec::new();
        if self.status != Status::Streaming {
            return out;
        }
        let mut seen = Vec::new();
        let offset = self.reader.offset();
        let fed = self.reader.feed(bytes, |path, event| {
            record(path.segments(), event, &mut seen)
        });
        for event in &mut seen {
            event.offset = offset;
        }
        if !seen.is_empty() {
            self.last_progress = now;
            self.reported_stall = false;
        }
        for event in seen {
            if let Err(reason) = self.handle(event, &mut out) {
                self.fail(reason, &mut out);
                return out;
            }
            if self.status != Status::Streaming {
                break;
            }
        }
        if let Err(e) = fed {
            self.fail(StabilizerError::Reader(e), &mut out);
        } else if let Err(e) = self.check_operation_bytes() {
            self.fail(e.into(), &mut out);
        } else if self.status == Status::Streaming {
            self.sync_previews(&mut out);
        }
        out
    }

    /// The operation being written may not take more of the answer than its value could fill: twice the
    /// value limit, for indentation and escapes, plus its `op`, `path` and `from`. Checked on every feed,
    /// so a value that grows without end is refused while it streams, shown or not.
    fn check_operation_bytes(&self) -> Result<(), PolicyError> {
        let Some(last) = self.pending.last().filter(|p| !p.closed) else {
            return Ok(());
        };
        let taken = self.reader.offset() - last.started_at.min(self.reader.offset());
        if taken > 2 * self.policy.max_value_bytes + 4096 {
            return Err(PolicyError::ValueTooLarge {
                path: last
                    .path
                    .clone()
                    .unwrap_or_else(|| "an operation".to_owned()),
                bytes: taken,
                limit: self.policy.max_value_bytes,
            });
        }
        Ok(())
    }

    /// Grows the view toward what the reader holds of the operation being previewed. Events are handled
    /// after the whole feed, so the view follows the reader's value, not the events: nothing is shown twice.
    ///
    /// Hot path (once per feed): the partial value is compared in place, never copied.
    fn sync_previews(&mut self, out: &mut Vec<Output>) {
        let Some(index) = self.active else {
            return;
        };
        let (Some(verb), Some(target)) = (
            self.pending[index].verb,
            self.pending[index].target.as_deref(),
        ) else {
            return;
        };
        let Some(partial) = self
            .reader
            .value()
            .and_then(|v| v.get("operations"))
            .and_then(|ops| ops.get(index))
            .and_then(|op| op.get("value"))
        else {
            return;
        };
        let Some(desired) = shown_form(verb, &self.settled, target, partial) else {
            return;
        };
        // The length limit holds while a string streams, not only once it is complete.
        if let Value::String(text) = desired.as_ref()
            && let Err(e) = self.policy.check_string(target, text)
        {
            self.fail(e.into(), out);
            return;
        }
        // The common case, a string growing at its end: one lookup, appended in place.
        if let (Value::String(want), Some(Value::String(have))) =
            (desired.as_ref(), pointer::get_mut(&mut self.shown, target))
            && want.starts_with(have.as_str())
        {
            if want.len() > have.len() {
                let grown = want[have.len()..].to_owned();
                have.push_str(&grown);
                out.push(Output::Surface(self.surface.text(target.to_owned(), grown)));
            }
            return;
        }
        let (texts, ops) = plan(&self.shown, target, &desired);
        self.show(texts, ops, out);
    }

    /// Sends text appends and preview operations, keeping `shown` in step.
    fn show(&mut self, texts: Vec<(String, String)>, ops: Vec<Operation>, out: &mut Vec<Output>) {
        for (at, text) in texts {
            append_at(&mut self.shown, &at, &text);
            out.push(Output::Surface(self.surface.text(at, text)));
        }
        if !ops.is_empty() {
            self.emit_preview(ops, out);
        }
    }

    /// Reports the operation in progress as waiting if nothing has arrived for longer than the threshold.
    pub fn check_stall(&mut self, now: Instant) -> Vec<Output> {
        if self.status != Status::Streaming
            || self.reported_stall
            || now.duration_since(self.last_progress) < self.stall_after
        {
            return Vec::new();
        }
        self.reported_stall = true;
        let operation = self.pending.len().saturating_sub(1);
        let path = self.pending.last().and_then(|p| p.path.clone());
        vec![Output::Notice(Notice::Waiting { operation, path })]
    }

    /// The stream ended: an unfinished bundle is rolled back.
    pub fn finish(&mut self) -> Vec<Output> {
        let mut out = Vec::new();
        if self.status == Status::Streaming {
            let reason = match self.reader.finish() {
                Err(e) if !e.is_incomplete() => StabilizerError::Reader(e),
                _ => StabilizerError::Ended,
            };
            self.fail(reason, &mut out);
        }
        out
    }

    /// Stops the stream (the user pressed Stop): every preview is rolled back.
    pub fn abort(&mut self, reason: &str) -> Vec<Output> {
        let mut out = Vec::new();
        if matches!(self.status, Status::Streaming | Status::Complete(_)) {
            self.fail(StabilizerError::Stopped(reason.to_owned()), &mut out);
        }
        out
    }

    /// The complete bundle was written as `revision`: the view's previews become that revision.
    pub fn commit(&mut self, revision: u64) -> Vec<Output> {
        if !matches!(self.status, Status::Complete(_)) {
            return Vec::new();
        }
        self.status = Status::Committed(revision);
        vec![Output::Surface(self.surface.patch(
            revision,
            PatchState::Committed,
            Vec::new(),
        ))]
    }

    /// Only `ops` of the complete bundle were written, as `revision`; the rest wait for the user, for
    /// `reason`: every preview is taken back and those operations are shown committed.
    pub fn commit_part(&mut self, revision: u64, ops: Vec<Operation>, reason: &str) -> Vec<Output> {
        let mut out = self.abort(reason);
        out.push(Output::Surface(self.surface.patch(
            revision,
            PatchState::Committed,
            ops,
        )));
        out
    }

    fn handle(&mut self, seen: Seen, out: &mut Vec<Output>) -> Result<(), StabilizerError> {
        if seen.kind == Kind::ArrayClosed {
            return self.complete_bundle(out);
        }
        // The limit fires at the operation that crosses it: nothing of that one is shown.
        if seen.index >= self.policy.max_operations {
            return Err(PolicyError::TooManyOperations {
                count: seen.index + 1,
                limit: self.policy.max_operations,
            }
            .into());
        }
        while self.pending.len() <= seen.index {
            self.pending.push(Pending {
                started_at: seen.offset,
                ..Pending::default()
            });
        }
        let index = seen.index;
        // A field given twice would change what is already shown (the reader keeps the later one, as
        // serde_json does): no model means that, so it is refused.
        let p = &self.pending[index];
        let again = match (seen.field, &seen.kind) {
            (Field::Op, Kind::StringEnd) => p.verb.is_some().then_some("op"),
            (Field::Path, Kind::StringEnd) => p.path.is_some().then_some("path"),
            (Field::From, Kind::StringEnd) => p.from.is_some().then_some("from"),
            (Field::Value, Kind::Started | Kind::Scalar) if seen.top && p.value_started => {
                Some("value")
            }
            _ => None,
        };
        if let Some(field) = again {
            return Err(format!("operation {} gives its \"{field}\" twice", index + 1).into());
        }
        match (seen.field, &seen.kind) {
            (Field::Whole, Kind::Ended) => self.complete_operation(index, out)?,
            (Field::Op, Kind::StringEnd) => {
                let name = self.field_str(index, "op");
                let verb = Verb::parse(&name)
                    .ok_or_else(|| format!("the model used an unknown operation \"{name}\""))?;
                self.pending[index].verb = Some(verb);
                self.try_start(index, out)?;
            }
            (Field::Path, Kind::StringEnd) => {
                let path = self.field_str(index, "path");
                pointer::check(&path)?;
                self.pending[index].path = Some(path);
                self.try_start(index, out)?;
            }
            (Field::From, Kind::StringEnd) => {
                let from = self.field_str(index, "from");
                pointer::check(&from)?;
                self.pending[index].from = Some(from);
                self.try_start(index, out)?;
            }
            (Field::Value, _) if seen.top && !self.pending[index].value_started => {
                self.pending[index].value_started = true;
                self.try_start(index, out)?;
            }
            _ => {}
        }
        Ok(())
    }

    /// The string the model wrote for `field` of operation `index`.
    fn field_str(&self, index: usize, field: &str) -> String {
        self.operation_value(index)
            .and_then(|op| op.get(field))
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned()
    }

    fn operation_value(&self, index: usize) -> Option<&Map<String, Value>> {
        self.reader
            .value()?
            .get("operations")?
            .get(index)?
            .as_object()
    }

    /// Starts previewing operation `index` once it is ready.
    fn try_start(&mut self, index: usize, out: &mut Vec<Output>) -> Result<(), StabilizerError> {
        let p = &self.pending[index];
        let (Some(verb), Some(path)) = (p.verb, p.path.clone()) else {
            return Ok(());
        };
        if p.target.is_some() || p.out_of_scope {
            return Ok(());
        }
        if verb != Verb::Test {
            self.policy.check_write(&path)?;
        }
        if let Verb::Text(text_verb) = verb
            && !text::is_rich_text(&path)
        {
            return Err(text::TextError::NotRichText {
                verb: text_verb.as_str(),
                path,
            }
            .into());
        }
        // An edit that will be held is not shown: outside the targets, or of who the resume is about.
        if verb == Verb::Test || self.policy.holds(&path, &self.scope) {
            self.pending[index].out_of_scope = verb != Verb::Test;
            return Ok(());
        }
        if !verb.previews_value() || !self.pending[index].value_started {
            return Ok(());
        }
        // Ready: show the value as it stands, then its growth — at the item the model meant.
        let path = match &self.model_view {
            Some(seen) => {
                crate::rebase::map_pointer(seen, &self.settled, &path, verb == Verb::Add)?
            }
            None => path,
        };
        let target = concrete(&self.shown, &path);
        self.pending[index].target = Some(target.clone());
        self.active = Some(index);
        let partial = self
            .operation_value(index)
            .and_then(|op| op.get("value"))
            .cloned()
            .unwrap_or(Value::Null);
        if let Value::String(text) = &partial {
            self.policy.check_string(&target, text)?;
        }
        // A value that has only started is checked as far as it can be: a scalar fully, else its type.
        if !matches!(verb, Verb::Text(_)) {
            self.policy.check_schema_start(&target, &partial)?;
        }
        self.show_value(verb, &target, partial, out);
        Ok(())
    }

    /// Shows `partial`, an operation's value so far, at `target`.
    fn show_value(&mut self, verb: Verb, target: &str, partial: Value, out: &mut Vec<Output>) {
        let desired = match shown_form(verb, &self.settled, target, &partial) {
            Some(Cow::Owned(joined)) => joined,
            Some(Cow::Borrowed(_)) => partial,
            None => return,
        };
        let current = pointer::get(&self.shown, target);
        let replaces =
            current.is_some() && (verb != Verb::Add || !is_array_slot(&self.shown, target));
        if replaces && current == Some(&desired) {
            return;
        }
        let op = if replaces {
            Operation::Replace {
                path: target.to_owned(),
                value: desired,
            }
        } else {
            Operation::Add {
                path: target.to_owned(),
                value: desired,
            }
        };
        self.emit_preview(vec![op], out);
    }

    fn emit_preview(&mut self, ops: Vec<Operation>, out: &mut Vec<Output>) {
        if crate::apply(&mut self.shown, &ops).is_ok() {
            out.push(Output::Surface(self.surface.patch(
                self.base_revision,
                PatchState::Preview,
                ops,
            )));
        }
    }

    /// Operation `index` as its closed object reads — `None` if it was closed already; an operation
    /// with no `op`, `path`, `from` or `value` where it needs one is refused.
    fn closed_operation(&mut self, index: usize) -> Result<Option<Operation>, StabilizerError> {
        let number = index + 1;
        // Only the value is copied out of the reader, once.
        let value = self
            .operation_value(index)
            .and_then(|op| op.get("value"))
            .cloned();
        let p = &mut self.pending[index];
        if p.closed {
            return Ok(None);
        }
        p.closed = true;
        if self.active == Some(index) {
            self.active = None;
        }
        let verb = p
            .verb
            .ok_or_else(|| format!("operation {number} has no \"op\""))?;
        let path = p
            .path
            .clone()
            .ok_or_else(|| format!("operation {number} has no \"path\""))?;
        let needs_from = matches!(verb, Verb::Move | Verb::Copy);
        let from = p.from.clone();
        if needs_from && from.is_none() {
            return Err(format!("operation {number} ({path}) has no \"from\"").into());
        }
        if verb.needs_value() && value.is_none() {
            return Err(format!("operation {number} ({path}) has no \"value\"").into());
        }
        let value = value.unwrap_or(Value::Null);
        let op = match verb {
            Verb::Add => Operation::Add { path, value },
            Verb::Remove => Operation::Remove { path },
            Verb::Replace => Operation::Replace { path, value },
            Verb::Move => Operation::Move {
                from: from.unwrap_or_default(),
                path,
            },
            Verb::Copy => Operation::Copy {
                from: from.unwrap_or_default(),
                path,
            },
            Verb::Test => Operation::Test { path, value },
            Verb::Text(text_verb) => {
                let addition = value.as_str().ok_or_else(|| {
                    format!("operation {number} ({path}) needs text as its value")
                })?;
                text::expand(&self.settled, text_verb, &path, addition)?
            }
        };
        Ok(Some(op))
    }

    /// Whether complete operation `index` goes on to be applied: a repeat is applied once, its value must
    /// fit the schema where it goes, and one the policy holds for the user's confirmation waits
    /// (`None` for both).
    fn admit(
        &mut self,
        index: usize,
        op: Operation,
        out: &mut Vec<Output>,
    ) -> Result<Option<Operation>, StabilizerError> {
        if self.ops.contains(&op) && !matches!(op, Operation::Test { .. }) {
            // Applied once: withdraw whatever of the repeat was previewed.
            self.show_exactly_settled(out);
            out.push(Output::Notice(Notice::Duplicate { operation: index }));
            return Ok(None);
        }
        // A complete value must fit the schema where it goes before the view shows it.
        if let Operation::Add { path, value } | Operation::Replace { path, value } = &op {
            self.policy.check_schema_at(path, value)?;
        }
        match self.policy.check_operation(&op, &self.scope)? {
            Admission::NeedsConfirmation { why, .. } => {
                if self.held.len() >= self.policy.max_held {
                    return Err(PolicyError::TooManyHeld {
                        limit: self.policy.max_held,
                    }
                    .into());
                }
                // Whatever of it was shown (before its path said where it really goes) is withdrawn.
                self.show_exactly_settled(out);
                self.held.push(op.clone());
                self.why_held.push(why);
                out.push(Output::Notice(Notice::Held {
                    operation: index,
                    op,
                }));
                Ok(None)
            }
            Admission::Allowed => Ok(Some(op)),
        }
    }

    /// Operation `index`'s object closed: settle its exact result.
    fn complete_operation(
        &mut self,
        index: usize,
        out: &mut Vec<Output>,
    ) -> Result<(), StabilizerError> {
        let Some(op) = self.closed_operation(index)? else {
            return Ok(());
        };
        let Some(op) = self.admit(index, op, out)? else {
            return Ok(());
        };
        let op = match &mut self.model_view {
            Some(seen) => {
                let moved = crate::rebase(seen, &self.settled, std::slice::from_ref(&op))?;
                crate::apply(seen, std::slice::from_ref(&op))?;
                moved.into_iter().next().unwrap_or(op)
            }
            None => op,
        };
        // The document may not outgrow its limits, operation by operation: a `copy` of a large part, many
        // times over, is refused at the copy that crosses the line, long before memory runs short.
        let measure = self.measure_after(&op);
        self.policy.check_document(op.path(), measure)?;
        crate::apply(&mut self.settled, std::slice::from_ref(&op))?;
        self.measure = measure;
        // The view must now show exactly `settled`: apply what was pending, correct what the preview got
        // differently (a text operation's seam, a value shown before it was complete).
        match (&op, self.pending[index].target.as_deref()) {
            (Operation::Test { .. }, _) => {}
            // Previewed: finish the growth (and mend a text operation's seam).
            (Operation::Add { .. } | Operation::Replace { .. }, Some(target)) => {
                if let Some(exact) = pointer::get(&self.settled, target) {
                    let (texts, ops) = plan(&self.shown, target, exact);
                    self.show(texts, ops, out);
                }
            }
            // Not previewed: a removal, move or copy, a scalar, or a value complete before its path closed.
            _ => self.emit_preview(vec![op.clone()], out),
        }
        self.ops.push(op);
        Ok(())
    }

    /// What `settled` measures once `op` is applied: its size with the new value in and the old one out,
    /// and its depth with the new value at its place. Costs the size of the values involved, not of the
    /// document.
    fn measure_after(&self, op: &Operation) -> redline_resume::Measure {
        let at = |path: &str| pointer::get(&self.settled, path).map(redline_resume::measure);
        // A member's key, quotes, colon and comma, or an item's comma.
        let slot = |path: &str| path.rsplit('/').next().map_or(0, |key| key.len() + 4);
        let replaced = |path: &str| {
            if is_array_slot(&self.settled, path) && !matches!(op, Operation::Replace { .. }) {
                0
            } else {
                at(path).map_or(0, |m| m.bytes + slot(path))
            }
        };
        let (added, removed) = match op {
            Operation::Add { path, value } | Operation::Replace { path, value } => {
                (Some((path, redline_resume::measure(value))), replaced(path))
            }
            Operation::Copy { from, path } => (at(from).map(|m| (path, m)), replaced(path)),
            Operation::Move { from, path } => {
                let moved = at(from);
                (
                    moved.map(|m| (path, m)),
                    moved.map_or(0, |m| m.bytes + slot(from)) + replaced(path),
                )
            }
            Operation::Remove { path } => (None, at(path).map_or(0, |m| m.bytes + slot(path))),
            Operation::Test { .. } => (None, 0),
        };
        let mut measure = self.measure;
        if let Some((path, value)) = added {
            measure.bytes += value.bytes + slot(path);
            let depth = path.bytes().filter(|&b| b == b'/').count() + value.depth;
            measure.depth = measure.depth.max(depth);
        }
        measure.bytes = measure.bytes.saturating_sub(removed);
        measure
    }

    fn complete_bundle(&mut self, out: &mut Vec<Output>) -> Result<(), StabilizerError> {
        if let Some(open) = self.pending.iter().position(|p| !p.closed) {
            return Err(format!("operation {} was never finished", open + 1).into());
        }
        self.policy.check_bundle(&self.settled, &self.ops)?;
        // The view ends on exactly what will be committed (each operation already corrected its own
        // previews, so this sends nothing unless something was missed).
        self.show_exactly_settled(out);
        self.status = Status::Complete(Bundle {
            ops: self.ops.clone(),
            document: self.settled.clone(),
            held: self.held.clone(),
            why_held: self.why_held.clone(),
        });
        Ok(())
    }

    /// Makes the view show exactly the settled document (a no-op when the previews were exact).
    fn show_exactly_settled(&mut self, out: &mut Vec<Output>) {
        if self.shown != self.settled {
            let ops = operations(json_patch::diff(&self.shown, &self.settled));
            self.emit_preview(ops, out);
        }
    }

    /// Rolls every preview back and records why.
    fn fail(&mut self, reason: StabilizerError, out: &mut Vec<Output>) {
        if self.shown != self.base {
            let ops = operations(json_patch::diff(&self.shown, &self.base));
            out.push(Output::Surface(self.surface.patch(
                self.base_revision,
                PatchState::RolledBack,
                ops,
            )));
            self.shown = self.base.clone();
        }
        self.settled = self.base.clone();
        self.status = Status::Failed(reason);
    }
}

/// A json-patch diff as our operations.
fn operations(diff: json_patch::Patch) -> Vec<Operation> {
    diff.iter().map(Into::into).collect()
}

/// Records an event inside `/operations` compactly (the callback cannot look at the reader's value).
fn record(path: &[Segment], event: Event<'_>, seen: &mut Vec<Seen>) {
    let in_operations = matches!(path.first(), Some(Segment::Key(k)) if k == "operations");
    if !in_operations {
        return;
    }
    if path.len() == 1 {
        if event == Event::EndArray {
            seen.push(Seen {
                offset: 0,
                index: 0,
                field: Field::Other,
                top: true,
                kind: Kind::ArrayClosed,
            });
        }
        return;
    }
    let Some(Segment::Index(index)) = path.get(1) else {
        return;
    };
    let kind = match event {
        Event::StartObject | Event::StartArray | Event::StringStart => Kind::Started,
        Event::StringAppend(_) => Kind::Append,
        Event::StringEnd => Kind::StringEnd,
        Event::EndObject | Event::EndArray => Kind::Ended,
        Event::Number(_) | Event::Bool(_) | Event::Null => Kind::Scalar,
        Event::Key(_) => return,
    };
    if path.len() == 2 {
        if matches!(kind, Kind::Ended) {
            seen.push(Seen {
                offset: 0,
                index: *index,
                field: Field::Whole,
                top: true,
                kind,
            });
        }
        return;
    }
    let field = match &path[2] {
        Segment::Key(k) if k == "op" => Field::Op,
        Segment::Key(k) if k == "path" => Field::Path,
        Segment::Key(k) if k == "from" => Field::From,
        Segment::Key(k) if k == "value" => Field::Value,
        _ => Field::Other,
    };
    if field == Field::Other {
        return;
    }
    seen.push(Seen {
        offset: 0,
        index: *index,
        field,
        top: path.len() == 3,
        kind,
    });
}

/// What an operation shows at `target` for its value so far: the value itself, or for a text operation
/// the field's settled text joined with the growing addition (`None` if the addition is not text).
fn shown_form<'v>(
    verb: Verb,
    settled: &Value,
    target: &str,
    partial: &'v Value,
) -> Option<Cow<'v, Value>> {
    match (verb, partial) {
        (Verb::Text(text_verb), Value::String(addition)) => {
            let current = pointer::get(settled, target)
                .and_then(Value::as_str)
                .unwrap_or("");
            Some(Cow::Owned(Value::String(text::join(
                text_verb, current, addition,
            ))))
        }
        (Verb::Text(_), _) => None,
        _ => Some(Cow::Borrowed(partial)),
    }
}

/// The text appends and operations that make `shown` read `desired` at `path` (added if it is not there).
fn plan(shown: &Value, path: &str, desired: &Value) -> (Vec<(String, String)>, Vec<Operation>) {
    let (mut texts, mut ops) = (Vec::new(), Vec::new());
    match pointer::get(shown, path) {
        Some(current) => grow(current, desired, path, &mut texts, &mut ops),
        None => ops.push(Operation::Add {
            path: path.to_owned(),
            value: desired.clone(),
        }),
    }
    (texts, ops)
}

/// The messages that turn `shown` into `desired` at `path`, growing where possible.
fn grow(
    shown: &Value,
    desired: &Value,
    path: &str,
    texts: &mut Vec<(String, String)>,
    ops: &mut Vec<Operation>,
) {
    match (shown, desired) {
        (Value::String(a), Value::String(b)) if b.starts_with(a.as_str()) => {
            if b.len() > a.len() {
                texts.push((path.to_owned(), b[a.len()..].to_owned()));
            }
        }
        (Value::Object(a), Value::Object(b)) if a.keys().all(|k| b.contains_key(k)) => {
            for (key, value) in b {
                let child = format!("{path}/{}", key.replace('~', "~0").replace('/', "~1"));
                match a.get(key) {
                    Some(old) => grow(old, value, &child, texts, ops),
                    None => ops.push(Operation::Add {
                        path: child,
                        value: value.clone(),
                    }),
                }
            }
        }
        (Value::Array(a), Value::Array(b)) if a.len() <= b.len() => {
            for (i, value) in b.iter().enumerate() {
                let child = format!("{path}/{i}");
                match a.get(i) {
                    Some(old) => grow(old, value, &child, texts, ops),
                    None => ops.push(Operation::Add {
                        path: child,
                        value: value.clone(),
                    }),
                }
            }
        }
        (a, b) if a == b => {}
        _ => ops.push(Operation::Replace {
            path: path.to_owned(),
            value: desired.clone(),
        }),
    }
}

/// `path` with a final `-` replaced by the index it stands for in `doc`.
fn concrete(doc: &Value, path: &str) -> String {
    match path.strip_suffix("/-") {
        Some(parent) => match pointer::get(doc, parent) {
            Some(Value::Array(items)) => format!("{parent}/{}", items.len()),
            _ => path.to_owned(),
        },
        None => path.to_owned(),
    }
}

/// True when `path` names an array position (where `add` inserts rather than replaces).
fn is_array_slot(doc: &Value, path: &str) -> bool {
    let parent = &path[..path.rfind('/').unwrap_or(0)];
    matches!(pointer::get(doc, parent), Some(Value::Array(_)))
}

fn append_at(doc: &mut Value, path: &str, text: &str) {
    if let Some(Value::String(s)) = pointer::get_mut(doc, path) {
        s.push_str(text);
    }
}
