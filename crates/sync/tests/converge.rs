//! Two or three devices, random offline edits, undos, variants and deletes, synced through one shared
//! folder in random orders: after a final full sync every device has the same head per document, and every
//! edit either landed or waits as a held conflict.

mod common;

use std::collections::BTreeMap;

use common::{Device, add, replace, resume};
use proptest::prelude::*;
use redline_patch::Operation;
use redline_sync::{Body, Event, new_id};
use serde_json::{Value, json};

/// The fields the devices edit: object keys only, so the last landed write to each is what the head has.
const FIELDS: &[&str] = &[
    "/basics/name",
    "/basics/label",
    "/basics/summary",
    "/work/0/position",
    "/work/1/summary",
];

#[derive(Debug, Clone)]
enum Act {
    Edit { field: usize, value: u8 },
    AddSkill(u8),
    RemoveSkill,
    Undo,
    Variant,
    Delete,
    Undelete,
    Sync,
}

fn act() -> impl Strategy<Value = Act> {
    prop_oneof![
        4 => (0..FIELDS.len(), any::<u8>()).prop_map(|(field, value)| Act::Edit { field, value }),
        1 => any::<u8>().prop_map(Act::AddSkill),
        1 => Just(Act::RemoveSkill),
        2 => Just(Act::Undo),
        1 => Just(Act::Variant),
        1 => Just(Act::Delete),
        1 => Just(Act::Undelete),
        4 => Just(Act::Sync),
    ]
}

struct Sim {
    devices: Vec<Device>,
    /// Per device, its own edits to undo: the document, the field and what it held before.
    undo: Vec<Vec<(String, String, Value)>>,
}

impl Sim {
    fn step(&mut self, who: usize, act: &Act, doc_pick: usize) {
        let device = &mut self.devices[who];
        if let Act::Sync = act {
            device.sync();
            return;
        }
        let docs: Vec<String> = device.replica.documents().map(str::to_owned).collect();
        let Some(doc) = docs.get(doc_pick % docs.len().max(1)).cloned() else {
            return;
        };
        let merged = device.replica.merged(&doc).unwrap().clone();
        if !merged.created {
            return;
        }
        let edit = |device: &mut Device, op: Operation| {
            let path = op.path().to_owned();
            let value = matches!(op, Operation::Replace { .. })
                .then(|| op.value().cloned())
                .flatten();
            device.edit(&doc, vec![op]);
            if let Some(value) = value {
                // A device sees its own edit at once.
                assert_eq!(device.doc(&doc).pointer(&path), Some(&value));
            }
        };
        match act {
            Act::Sync => {}
            _ if merged.deleted && !matches!(act, Act::Undelete) => {}
            Act::Edit { field, value } => {
                let path = FIELDS[*field];
                let before = merged.document.pointer(path).cloned().unwrap();
                edit(
                    device,
                    replace(path, json!(format!("{path} {value} by {who}"))),
                );
                self.undo[who].push((doc, path.to_owned(), before));
            }
            Act::AddSkill(n) => edit(device, add("/skills/-", json!({"name": format!("S{n}")}))),
            Act::RemoveSkill => {
                if merged.document["skills"]
                    .as_array()
                    .is_some_and(|s| !s.is_empty())
                {
                    edit(
                        device,
                        Operation::Remove {
                            path: "/skills/0".into(),
                        },
                    );
                }
            }
            Act::Undo => {
                if let Some((d, path, before)) = self.undo[who].pop()
                    && d == doc
                {
                    edit(device, replace(&path, before));
                }
            }
            Act::Variant => {
                device
                    .replica
                    .create("Variant", merged.document.clone(), 0)
                    .unwrap();
            }
            Act::Delete => {
                device.replica.record(&doc, Body::Delete, 0).unwrap();
            }
            Act::Undelete => {
                device.replica.record(&doc, Body::Undelete, 0).unwrap();
            }
        }
    }
}

fn check(sim: &mut Sim) -> Result<(), TestCaseError> {
    // Two full rounds: the first carries every file to the folder, the second to every device.
    for _ in 0..2 {
        for device in &mut sim.devices {
            let report = device.sync();
            prop_assert!(report.skipped.is_empty(), "{:?}", report.skipped);
        }
    }
    let first = &sim.devices[0].replica;
    let events: Vec<Event> = first.events().map(|k| k.event.clone()).collect();
    let docs: Vec<String> = first.documents().map(str::to_owned).collect();
    for device in &sim.devices {
        prop_assert_eq!(
            device.replica.len(),
            events.len(),
            "every event reached every device"
        );
        prop_assert_eq!(device.replica.waiting(), 0);
    }
    for doc in &docs {
        let reference = sim.devices[0].replica.merged(doc).unwrap().clone();
        for device in &mut sim.devices[1..] {
            let merged = device.replica.merged(doc).unwrap();
            prop_assert_eq!(&merged.document, &reference.document);
            prop_assert_eq!(merged.deleted, reference.deleted);
            prop_assert_eq!(&merged.conflicts, &reference.conflicts);
        }
        // Every operation either landed or is held.
        let mut order: Vec<&Event> = events.iter().filter(|e| &e.document == doc).collect();
        order.sort_by_key(|e| e.stamp());
        let ops: usize = order
            .iter()
            .map(|e| match &e.body {
                Body::Edit { forward, .. } => forward.len(),
                _ => 0,
            })
            .sum();
        prop_assert_eq!(reference.landed + reference.conflicts.len(), ops);
        // Two devices that changed one field to different values without knowing of each other: held.
        let writes: Vec<(&Event, &str, &Value)> = order
            .iter()
            .filter_map(|e| match &e.body {
                Body::Edit { forward, .. } => match forward.as_slice() {
                    [Operation::Replace { path, value }] => Some((*e, path.as_str(), value)),
                    _ => None,
                },
                _ => None,
            })
            .collect();
        let clash = writes.iter().enumerate().any(|(i, (a, path, value))| {
            writes[i + 1..].iter().any(|(b, p, v)| {
                p == path && v != value && !b.knows(&a.device, a.seq) && !a.knows(&b.device, b.seq)
            })
        });
        if clash {
            prop_assert!(
                !reference.conflicts.is_empty(),
                "a clash was merged without asking"
            );
        }
        // With nothing held, the head has each field's last write in the agreed order.
        if reference.conflicts.is_empty() {
            let mut last: BTreeMap<&str, &Value> = BTreeMap::new();
            for e in &order {
                if let Body::Edit { forward, .. } = &e.body {
                    for op in forward {
                        if let (Operation::Replace { path, value }, true) =
                            (op, FIELDS.contains(&op.path()))
                        {
                            last.insert(path, value);
                        }
                    }
                }
            }
            for (path, value) in last {
                prop_assert_eq!(reference.document.pointer(path), Some(value), "{}", path);
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1_000, ..ProptestConfig::default() })]

    #[test]
    fn every_device_converges_and_no_edit_is_lost(
        count in 2usize..=3,
        steps in prop::collection::vec((0usize..3, act(), 0usize..4), 1..24),
    ) {
        let dir = common::temp_folder();
        let library = new_id();
        let devices: Vec<Device> = (0..count).map(|_| Device::new(dir.path(), &library)).collect();
        let mut sim = Sim { undo: vec![Vec::new(); count], devices };
        sim.devices[0].replica.create("Ada", resume(), 0).unwrap();
        sim.devices[0].sync();
        for (who, act, doc) in &steps {
            sim.step(who % count, act, *doc);
        }
        check(&mut sim)?;
    }
}
