//! Any bytes as the patch model's output against the sample resume, cut into chunks anywhere: the stabilizer
//! never panics; whatever it completes is a bundle the store could commit and read back (the document and
//! the stored patch parse again, apply to the base to the same document, fit the depth and size limits and
//! the schema); whatever it shows, replayed as the view replays it, lands on the settled or the base
//! document. Memory is bounded by the policy's limits (`-rss_limit_mb` in `scripts/fuzz.sh`).
#![no_main]

use std::sync::OnceLock;
use std::time::{Duration, Instant};

use libfuzzer_sys::fuzz_target;
use redline_patch::{Output, Policy, Scope, Stabilizer, Status, Surface, SurfaceUpdate};
use serde_json::Value;

fn sample() -> &'static Value {
    static SAMPLE: OnceLock<Value> = OnceLock::new();
    SAMPLE.get_or_init(redline_resume::sample)
}

fuzz_target!(|data: &[u8]| {
    let Some((&seed, text)) = data.split_first() else { return };
    let step = usize::from(seed % 32) + 1;
    // Small limits, so that the fuzzer reaches them often.
    let policy = Policy {
        max_operations: 12,
        max_held: 3,
        max_value_bytes: 2_048,
        max_string_chars: 400,
        max_document_bytes: 12_000,
        ..Policy::default()
    };
    let scope = match seed % 3 {
        0 => Scope::Anywhere,
        1 => Scope::User,
        _ => Scope::Targets(vec!["/skills".into(), "/work/0".into()]),
    };
    let base = sample().clone();
    let start = Instant::now();
    let mut surface = Surface::new("f");
    let mut stabilizer = Stabilizer::new(base.clone(), 1, policy.clone(), scope, &mut surface, start)
        .with_stall_threshold(Duration::from_secs(1));
    let mut view = base.clone();
    let mut replay = |outputs: Vec<Output>, view: &mut Value| {
        for output in outputs {
            match output {
                Output::Surface(SurfaceUpdate::Patch(p)) => {
                    redline_patch::apply(view, &p.ops).expect("every preview applies to the view");
                }
                Output::Surface(SurfaceUpdate::Text(t)) => {
                    let slot = view.pointer_mut(&t.path).expect("a text append has its string");
                    let grown = format!("{}{}", slot.as_str().expect("a string"), t.append);
                    *slot = Value::String(grown);
                }
                _ => {}
            }
        }
    };
    for (i, chunk) in text.chunks(step).enumerate() {
        let out = stabilizer.feed(chunk, start + Duration::from_millis(i as u64));
        replay(out, &mut view);
    }
    replay(stabilizer.finish(), &mut view);
    match stabilizer.status().clone() {
        Status::Complete(bundle) => {
            assert_eq!(view, bundle.document, "the view shows the bundle");
            // What the store writes and reads back: the forward patch and the document, as JSON text.
            let patch = redline_patch::to_patch(&bundle.ops).expect("checked pointers convert");
            let stored = serde_json::to_string(&patch).unwrap();
            let read: json_patch::Patch = serde_json::from_str(&stored).expect("the patch reads back");
            let mut replayed = base.clone();
            json_patch::patch(&mut replayed, &read).expect("the patch applies to its base");
            assert_eq!(replayed, bundle.document);
            let text = serde_json::to_string(&bundle.document).unwrap();
            let again: Value = serde_json::from_str(&text).expect("the document reads back");
            assert_eq!(again, bundle.document);
            let m = redline_resume::measure(&bundle.document);
            assert!(m.depth <= policy.max_depth && m.bytes <= policy.max_document_bytes, "{m:?}");
            assert!(redline_resume::validate(&bundle.document).is_ok());
            assert!(bundle.held.len() <= policy.max_held);
        }
        Status::Failed(_) => assert_eq!(view, base, "a failure rolls every preview back"),
        other => panic!("a finished stream is complete or failed, not {other:?}"),
    }
});
