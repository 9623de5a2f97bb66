//! The surface protocol: how the engine keeps a resume view up to date with small messages.
//!
//! A view hears one `create` with the whole document, then only deltas: `patch` messages carrying RFC 6902
//! operations (previewed, committed or rolled back) and `text` messages carrying the new characters of a
//! string that is still growing. Every message carries `seq`, one more than the message before it on the same
//! surface; a view that sees a gap asks for a fresh `create`.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

use crate::Operation;

/// A message from the engine to one resume view ("surface").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum SurfaceUpdate {
    /// The whole document at a revision: the view replaces what it shows.
    Create(CreateSurface),
    /// Operations to apply to the view's document.
    Patch(PatchSurface),
    /// A previewed string grew: append `append` to the string at `path`.
    Text(TextSurface),
}

/// The body of a `create` message.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CreateSurface {
    /// Which view this is for.
    pub surface_id: String,
    /// Position in the surface's message sequence.
    #[ts(type = "number")]
    pub seq: u64,
    /// The revision number of `document`.
    #[ts(type = "number")]
    pub revision: u64,
    /// The whole JSON Resume document.
    pub document: Value,
}

/// The body of a `patch` message.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PatchSurface {
    /// Which view this is for.
    pub surface_id: String,
    /// Position in the surface's message sequence.
    #[ts(type = "number")]
    pub seq: u64,
    /// The revision these operations apply on top of (for `committed`: the revision they became).
    #[ts(type = "number")]
    pub revision: u64,
    /// Whether the operations are a live preview, now committed, or being rolled back.
    pub state: PatchState,
    /// The operations, in order.
    pub ops: Vec<Operation>,
}

/// The body of a `text` message.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TextSurface {
    /// Which view this is for.
    pub surface_id: String,
    /// Position in the surface's message sequence.
    #[ts(type = "number")]
    pub seq: u64,
    /// JSON Pointer of the string being previewed.
    pub path: String,
    /// The new characters only, never the whole field.
    pub append: String,
}

/// Where a `patch` message's operations stand. A view always applies `ops` as they come; the state says
/// what the result is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum PatchState {
    /// Live edits while the model is still writing; not yet in history.
    Preview,
    /// The previewed edits (plus `ops`, often none) are now history as revision `revision`.
    Committed,
    /// The previews are withdrawn: `ops` bring the view back to the last committed revision.
    RolledBack,
}

impl SurfaceUpdate {
    /// The message's position in its surface's sequence.
    pub fn seq(&self) -> u64 {
        match self {
            SurfaceUpdate::Create(m) => m.seq,
            SurfaceUpdate::Patch(m) => m.seq,
            SurfaceUpdate::Text(m) => m.seq,
        }
    }
}

/// One resume view's message stream: stamps each message with the surface's id and the next `seq`.
#[derive(Debug, Clone)]
pub struct Surface {
    id: String,
    next_seq: u64,
}

impl Surface {
    /// A surface whose first message will carry `seq` 0.
    pub fn new(id: impl Into<String>) -> Self {
        Surface {
            id: id.into(),
            next_seq: 0,
        }
    }

    /// The surface's id.
    pub fn id(&self) -> &str {
        &self.id
    }

    fn take_seq(&mut self) -> u64 {
        let seq = self.next_seq;
        self.next_seq += 1;
        seq
    }

    /// A `create` message: the whole `document` at `revision`.
    pub fn create(&mut self, revision: u64, document: Value) -> SurfaceUpdate {
        SurfaceUpdate::Create(CreateSurface {
            surface_id: self.id.clone(),
            seq: self.take_seq(),
            revision,
            document,
        })
    }

    /// A `patch` message carrying `ops` in `state`.
    pub fn patch(
        &mut self,
        revision: u64,
        state: PatchState,
        ops: Vec<Operation>,
    ) -> SurfaceUpdate {
        SurfaceUpdate::Patch(PatchSurface {
            surface_id: self.id.clone(),
            seq: self.take_seq(),
            revision,
            state,
            ops,
        })
    }

    /// A `text` message: `append` grew the string at `path`.
    pub fn text(&mut self, path: impl Into<String>, append: impl Into<String>) -> SurfaceUpdate {
        SurfaceUpdate::Text(TextSurface {
            surface_id: self.id.clone(),
            seq: self.take_seq(),
            path: path.into(),
            append: append.into(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn messages_are_numbered_one_by_one_per_surface() {
        let mut surface = Surface::new("main");
        let create = surface.create(3, json!({"basics": {"name": "Ada"}}));
        let text = surface.text("/basics/summary", "Hel");
        let patch = surface.patch(3, PatchState::Preview, vec![]);
        assert_eq!([create.seq(), text.seq(), patch.seq()], [0, 1, 2]);
        assert_eq!(Surface::new("other").create(1, json!({})).seq(), 0);
    }

    #[test]
    fn messages_have_the_wire_shape_of_the_design() {
        let mut surface = Surface::new("main");
        surface.create(1, json!({}));
        let patch = surface.patch(
            1,
            PatchState::RolledBack,
            vec![Operation::Remove {
                path: "/work/0".into(),
            }],
        );
        assert_eq!(
            serde_json::to_value(&patch).unwrap(),
            json!({
                "kind": "patch", "surfaceId": "main", "seq": 1, "revision": 1, "state": "rolledBack",
                "ops": [{"op": "remove", "path": "/work/0"}]
            })
        );
        let text = surface.text("/basics/summary", "lo");
        assert_eq!(
            serde_json::to_value(&text).unwrap(),
            json!({"kind": "text", "surfaceId": "main", "seq": 2, "path": "/basics/summary", "append": "lo"})
        );
    }
}
