//! Merging and what sync engines do to files: each case a test.

mod common;

use std::fs;

use common::{Device, add, replace, resume};
use redline_patch::Operation;
use redline_sync::folder::NotHere;
use redline_sync::{Body, Folder, Notice, SyncError, new_id, sync_changed};
use serde_json::json;

fn two(path: &std::path::Path) -> (Device, Device, String) {
    let library = new_id();
    let mut a = Device::new(path, &library);
    let mut b = Device::new(path, &library);
    let (doc, _) = a.replica.create("Ada", resume(), 1).unwrap();
    a.sync();
    b.sync();
    (a, b, doc)
}

#[test]
fn edits_to_different_fields_both_land_on_every_device() {
    let dir = common::temp_folder();
    let (mut a, mut b, doc) = two(dir.path());
    a.edit(&doc, vec![replace("/basics/label", json!("Founder"))]);
    b.edit(
        &doc,
        vec![replace("/basics/summary", json!("Writes notes."))],
    );
    for _ in 0..2 {
        a.sync();
        b.sync();
    }
    let head = a.doc(&doc);
    assert_eq!(head, b.doc(&doc));
    assert_eq!(head["basics"]["label"], "Founder");
    assert_eq!(head["basics"]["summary"], "Writes notes.");
    assert!(a.replica.merged(&doc).unwrap().conflicts.is_empty());
}

#[test]
fn the_same_field_changed_on_two_devices_is_held_not_guessed() {
    let dir = common::temp_folder();
    let (mut a, mut b, doc) = two(dir.path());
    a.edit(&doc, vec![replace("/basics/label", json!("Founder"))]);
    b.edit(&doc, vec![replace("/basics/label", json!("Director"))]);
    for _ in 0..2 {
        a.sync();
        b.sync();
    }
    let (ma, mb) = (
        a.replica.merged(&doc).unwrap().clone(),
        b.replica.merged(&doc).unwrap().clone(),
    );
    assert_eq!(ma.document, mb.document);
    assert_eq!(ma.conflicts, mb.conflicts);
    let [conflict] = ma.conflicts.as_slice() else {
        panic!("one conflict expected: {:?}", ma.conflicts)
    };
    // Both wrote with the same stamp: the device id decides, the same way everywhere.
    let (first, second) = if a.id() < b.id() {
        ("Founder", "Director")
    } else {
        ("Director", "Founder")
    };
    assert_eq!(ma.document["basics"]["label"], first);
    assert_eq!(conflict.theirs, Some(json!(second)));
    assert_eq!(conflict.ours, Some(json!(first)));
    assert_eq!(conflict.path, "/basics/label");
    let held_by = conflict.device.clone();
    let other = if held_by == a.id() { b.id() } else { a.id() };
    assert_eq!(conflict.reason(&held_by), format!("changed on {other} too"));
    assert_eq!(conflict.reason(&other), format!("changed on {held_by} too"));
}

#[test]
fn an_edit_follows_its_item_when_another_device_inserted_before_it() {
    let dir = common::temp_folder();
    let (mut a, mut b, doc) = two(dir.path());
    a.edit(
        &doc,
        vec![add("/work/0", json!({"name": "Difference Engines"}))],
    );
    b.edit(
        &doc,
        vec![replace("/work/1/position", json!("Lead analyst"))],
    );
    for _ in 0..2 {
        a.sync();
        b.sync();
    }
    let head = a.doc(&doc);
    assert_eq!(head, b.doc(&doc));
    assert_eq!(head["work"][0]["name"], "Difference Engines");
    assert_eq!(head["work"][2]["name"], "Babbage & Co");
    assert_eq!(head["work"][2]["position"], "Lead analyst");
}

#[test]
fn a_document_deleted_on_one_device_and_edited_on_another_is_kept_and_said_so() {
    let dir = common::temp_folder();
    let (mut a, mut b, doc) = two(dir.path());
    a.replica.record(&doc, Body::Delete, 5).unwrap();
    b.edit(&doc, vec![replace("/basics/label", json!("Founder"))]);
    for _ in 0..2 {
        a.sync();
        b.sync();
    }
    for device in [&mut a, &mut b] {
        let merged = device.replica.merged(&doc).unwrap();
        assert!(!merged.deleted, "kept");
        assert_eq!(merged.document["basics"]["label"], "Founder");
        assert!(matches!(
            merged.notices.as_slice(),
            [Notice::KeptDespiteDelete { .. }]
        ));
        assert!(merged.notices[0].to_string().contains("it is kept"));
    }
    // A delete made knowing every edit stands.
    a.replica.record(&doc, Body::Delete, 6).unwrap();
    a.sync();
    b.sync();
    b.sync();
    assert!(b.replica.merged(&doc).unwrap().deleted);
}

#[test]
fn a_clock_off_by_days_changes_nothing_but_dates() {
    let run = |skew: i64| {
        let dir = common::temp_folder();
        let (mut a, mut b, doc) = two(dir.path());
        a.edit_at(
            &doc,
            vec![replace("/basics/label", json!("A"))],
            1_700_000_000 + skew,
        );
        b.edit_at(
            &doc,
            vec![replace("/basics/summary", json!("B"))],
            1_700_000_000,
        );
        b.sync();
        a.sync();
        b.sync();
        b.edit_at(
            &doc,
            vec![replace("/basics/label", json!("B2"))],
            1_700_000_000,
        );
        a.sync();
        b.sync();
        a.sync();
        (a.doc(&doc), b.doc(&doc))
    };
    let (on_time, skewed, back) = (run(0), run(9 * 86_400), run(-30 * 86_400));
    assert_eq!(on_time.0, on_time.1);
    assert_eq!(on_time.0, skewed.0);
    assert_eq!(on_time.0, back.1);
    assert_eq!(on_time.0["basics"]["label"], "B2");
}

#[test]
fn undo_is_a_revision_like_any_other() {
    let dir = common::temp_folder();
    let (mut a, mut b, doc) = two(dir.path());
    a.edit(&doc, vec![replace("/basics/label", json!("Founder"))]);
    a.sync();
    b.sync();
    assert_eq!(b.doc(&doc)["basics"]["label"], "Founder");
    let undo = Body::Edit {
        source: "undo".into(),
        summary: "Undo".into(),
        forward: vec![replace("/basics/label", json!("Engineer"))],
    };
    a.replica.record(&doc, undo, 2).unwrap();
    a.sync();
    b.sync();
    assert_eq!(b.doc(&doc), resume());
}

#[test]
fn a_file_copied_halfway_is_skipped_now_and_read_later() {
    let dir = common::temp_folder();
    let (mut a, mut b, doc) = two(dir.path());
    let known = a.edit(&doc, vec![replace("/basics/label", json!("Founder"))]);
    let (hash, bytes) = known.event.encode();
    let device_dir = a.folder.root().join(a.id());
    let file = device_dir.join(format!("{hash}.json"));
    // The drive has written half of it under its final name, and half of another under a temporary one.
    fs::write(&file, &bytes[..bytes.len() / 2]).unwrap();
    fs::write(device_dir.join("copy (1).json"), &bytes[..10]).unwrap();
    let report = b.sync();
    assert_eq!(report.accepted, 0);
    assert_eq!(report.skipped.len(), 2, "{:?}", report.skipped);
    assert!(
        report
            .skipped
            .iter()
            .any(|s| s.reason.contains("does not match its name"))
    );
    assert!(
        report
            .skipped
            .iter()
            .any(|s| s.reason.contains("not complete"))
    );
    assert_eq!(b.doc(&doc)["basics"]["label"], "Engineer");
    // The drive finishes: the next sync reads it.
    fs::write(&file, &bytes).unwrap();
    let report = b.sync();
    assert_eq!(report.accepted, 1);
    assert_eq!(b.doc(&doc)["basics"]["label"], "Founder");
}

#[test]
fn a_renamed_duplicate_is_ignored_and_a_renamed_new_file_is_read_by_its_content() {
    let dir = common::temp_folder();
    let (mut a, mut b, doc) = two(dir.path());
    a.edit(&doc, vec![replace("/basics/label", json!("Founder"))]);
    a.sync();
    b.sync();
    let device_dir = a.folder.root().join(a.id());
    let original = fs::read_dir(&device_dir)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    fs::copy(&original, device_dir.join("resume (conflicted copy).json")).unwrap();
    let report = b.sync();
    assert_eq!((report.read, report.duplicates, report.accepted), (1, 1, 0));
    // A new event whose file the drive renamed: read by its content.
    let known = a.edit(&doc, vec![replace("/basics/summary", json!("Renamed."))]);
    let (_, bytes) = known.event.encode();
    fs::write(device_dir.join("x (1).json"), &bytes).unwrap();
    let report = b.sync();
    assert_eq!(report.accepted, 1);
    assert_eq!(b.doc(&doc)["basics"]["summary"], "Renamed.");
}

#[test]
fn deleted_files_and_a_folder_restored_from_an_older_copy_lose_nothing() {
    let dir = common::temp_folder();
    let (mut a, mut b, doc) = two(dir.path());
    a.edit(&doc, vec![replace("/basics/label", json!("Founder"))]);
    a.sync();
    b.sync();
    // The folder goes back to before any of a's files.
    fs::remove_dir_all(a.folder.root().join(a.id())).unwrap();
    let report = b.sync();
    assert_eq!(
        b.doc(&doc)["basics"]["label"],
        "Founder",
        "what was merged stays"
    );
    assert_eq!(report.rewritten, 2, "b writes back the files it had read");
    let report = a.sync();
    assert_eq!(report.written, 0, "b already wrote them back");
    // A new device still gets everything.
    let library = Folder::library(dir.path()).unwrap().unwrap();
    let mut c = Device::new(dir.path(), &library);
    c.sync();
    assert_eq!(c.doc(&doc), a.doc(&doc));
}

#[test]
fn a_folder_of_another_persons_library_is_refused_in_words() {
    let dir = common::temp_folder();
    let _ = two(dir.path());
    let err = Folder::open(dir.path(), &new_id()).unwrap_err();
    assert!(matches!(err, SyncError::OtherLibrary { .. }));
    assert!(err.to_string().contains("another Redline library"), "{err}");
}

#[test]
fn files_another_program_wrote_are_bounded_checked_and_skipped() {
    let dir = common::temp_folder();
    let (mut a, mut b, doc) = two(dir.path());
    let device_dir = a.folder.root().join(a.id());
    let base = a
        .edit(&doc, vec![replace("/basics/label", json!("Founder"))])
        .event;
    a.sync();
    b.sync();
    let mut forged = base.clone();
    forged.seq = 99;
    let write = |name: &str, bytes: &[u8]| fs::write(device_dir.join(name), bytes).unwrap();
    write("huge.json", &vec![b' '; 2 << 20]);
    write("not-json.json", b"{\"hello\": 1}");
    let mut long = forged.clone();
    long.body = Body::Edit {
        source: "user".into(),
        summary: "".into(),
        forward: vec![replace("/basics/summary", json!("x".repeat(9_000)))],
    };
    write("long.json", &long.encode().1);
    let mut broken = forged.clone();
    broken.seq = 100;
    broken.body = Body::Edit {
        source: "user".into(),
        summary: "".into(),
        forward: vec![replace("/basics/summary", json!(42))],
    };
    write("schema.json", &broken.encode().1);
    let mut elsewhere = forged.clone();
    elsewhere.seq = 101;
    elsewhere.device = b.id();
    write("elsewhere.json", &elsewhere.encode().1);
    let report = b.sync();
    let reasons: Vec<_> = report.skipped.iter().map(|s| s.reason.as_str()).collect();
    assert_eq!(report.skipped.len(), 4, "{reasons:?}");
    assert!(reasons.iter().any(|r| r.contains("larger")));
    assert!(
        reasons
            .iter()
            .any(|r| r.contains("not a Redline sync file"))
    );
    assert!(reasons.iter().any(|r| r.contains("characters long")));
    assert!(reasons.iter().any(|r| r.contains("lies in the folder")));
    // A well-formed file whose edit breaks the resume's schema is read but never lands: it waits, said why.
    let merged = b.replica.merged(&doc).unwrap();
    assert_eq!(merged.document["basics"]["label"], "Founder");
    assert_eq!(merged.conflicts.len(), 1);
    assert!(merged.conflicts[0].why.is_some());
}

#[test]
fn an_incremental_sync_reads_only_the_new_files() {
    let dir = common::temp_folder();
    let (mut a, mut b, doc) = two(dir.path());
    for i in 0..20 {
        a.edit(
            &doc,
            vec![replace("/basics/summary", json!(format!("v{i}")))],
        );
    }
    a.sync();
    assert_eq!(b.sync().read, 20);
    a.edit(
        &doc,
        vec![Operation::Remove {
            path: "/skills/0".into(),
        }],
    );
    a.sync();
    let report = b.sync();
    assert_eq!((report.read, report.accepted), (1, 1));
    assert_eq!(b.doc(&doc), a.doc(&doc));
}

/// The entry of `known`'s file in `device`'s folder, as a watch on the folder names it.
fn entry_of(device: &Device, known: &redline_sync::Known) -> redline_sync::folder::Entry {
    let path = device
        .folder
        .root()
        .join(&known.event.device)
        .join(format!("{}.json", known.hash));
    device
        .folder
        .entry_at(&path)
        .unwrap()
        .expect("an event's file")
}

#[test]
fn a_sync_of_the_files_a_watch_saw_reads_those_alone_and_sends_what_was_made_here() {
    let dir = common::temp_folder();
    let (mut a, mut b, doc) = two(dir.path());
    let made: Vec<_> = (0..3)
        .map(|i| a.edit(&doc, vec![replace("/basics/label", json!(format!("v{i}")))]))
        .collect();
    // Nothing seen arrive: only what was made here goes out.
    let sent = sync_changed(&mut a.replica, &a.folder, &mut a.state, &[]).unwrap();
    assert_eq!((sent.read, sent.written), (0, 3));
    let again = sync_changed(&mut a.replica, &a.folder, &mut a.state, &[]).unwrap();
    assert_eq!(again.written, 0, "each event goes out once");

    // The other device reads the one file named, not the folder's others.
    let first = entry_of(&b, &made[0]);
    let report = sync_changed(
        &mut b.replica,
        &b.folder,
        &mut b.state,
        std::slice::from_ref(&first),
    )
    .unwrap();
    assert_eq!((report.read, report.accepted), (1, 1));
    assert_eq!(b.doc(&doc)["basics"]["label"], "v0");
    let rest: Vec<_> = made[1..].iter().map(|k| entry_of(&b, k)).collect();
    let named_twice = [vec![first], rest].concat();
    let report = sync_changed(&mut b.replica, &b.folder, &mut b.state, &named_twice).unwrap();
    assert_eq!(
        (report.read, report.accepted),
        (2, 2),
        "a file read before is not read again"
    );
    assert_eq!(b.doc(&doc), a.doc(&doc));

    // A whole sync after knows the folder has every event: nothing more goes out.
    a.sync();
    b.edit(&doc, vec![replace("/basics/name", json!("Ada L."))]);
    assert_eq!(b.sync().written, 1);
    assert_eq!(
        sync_changed(&mut b.replica, &b.folder, &mut b.state, &[])
            .unwrap()
            .written,
        0
    );
}

#[test]
fn a_watch_s_path_is_an_event_file_of_a_device_or_nothing() {
    let dir = common::temp_folder();
    let (a, _b, _doc) = two(dir.path());
    let root = a.folder.root().to_owned();
    let device = root.join(a.id());
    let event = fs::read_dir(&device)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    assert!(a.folder.entry_at(&event).unwrap().is_some_and(|e| e.plain));
    for not_an_event in [
        device.join(".redline-x.tmp"),
        device.join("notes.txt"),
        root.join("library.json"),
        root.join("not-a-device").join("ab.json"),
        device.join("gone.json"),
    ] {
        assert_eq!(
            a.folder.entry_at(&not_an_event),
            Ok(None),
            "{}",
            not_an_event.display()
        );
    }
    let elsewhere = dir.path().parent().unwrap().join("other").join("x.json");
    assert_eq!(a.folder.entry_at(&elsewhere), Err(NotHere));
    #[cfg(unix)]
    {
        let linked = device.join("linked.json");
        std::os::unix::fs::symlink(&event, &linked).unwrap();
        assert!(
            a.folder
                .entry_at(&linked)
                .unwrap()
                .is_some_and(|e| !e.plain)
        );
    }
}

#[test]
fn files_that_arrive_before_the_one_they_were_made_on_wait_for_it() {
    let dir = common::temp_folder();
    let (mut a, mut b, doc) = two(dir.path());
    let first = a.edit(&doc, vec![replace("/basics/label", json!("Founder"))]);
    a.edit(&doc, vec![replace("/basics/label", json!("Director"))]);
    a.sync();
    // The drive has not brought the first edit yet.
    let first_file = a
        .folder
        .root()
        .join(a.id())
        .join(format!("{}.json", first.hash));
    let kept = fs::read(&first_file).unwrap();
    fs::remove_file(&first_file).unwrap();
    // b must not write a's file back itself here: it never had it.
    let report = b.sync();
    assert_eq!((report.accepted, b.replica.waiting()), (0, 1));
    assert_eq!(b.doc(&doc)["basics"]["label"], "Engineer");
    fs::write(&first_file, kept).unwrap();
    let report = b.sync();
    assert_eq!((report.accepted, b.replica.waiting()), (2, 0));
    assert_eq!(b.doc(&doc)["basics"]["label"], "Director");
}

#[cfg(unix)]
#[test]
fn a_link_or_a_pipe_in_the_folder_is_never_opened() {
    let dir = common::temp_folder();
    let (mut a, mut b, doc) = two(dir.path());
    // An event of a's, well formed, kept outside the folder: a link to it must not bring it in.
    let known = a.edit(&doc, vec![replace("/basics/label", json!("Linked"))]);
    let outside = dir.path().join("outside.json");
    fs::write(&outside, known.event.encode().1).unwrap();
    let device_dir = a.folder.root().join(a.id());
    std::os::unix::fs::symlink(&outside, device_dir.join(format!("{}.json", known.hash))).unwrap();
    // A pipe: opening it to read would wait until something writes to it, for ever.
    let made = std::process::Command::new("mkfifo")
        .arg(device_dir.join("pipe.json"))
        .status()
        .is_ok_and(|s| s.success());
    let report = b.sync();
    let odd: Vec<_> = report
        .skipped
        .iter()
        .filter(|s| s.reason.contains("not a plain file"))
        .collect();
    assert_eq!(odd.len(), 1 + usize::from(made), "{:?}", report.skipped);
    assert_eq!(report.accepted, 0);
    assert_eq!(b.doc(&doc)["basics"]["label"], "Engineer");
}

#[test]
fn a_folder_with_more_files_than_a_library_holds_is_refused_in_words() {
    let dir = common::temp_folder();
    let (mut a, _, doc) = two(dir.path());
    for i in 0..4 {
        a.edit(
            &doc,
            vec![replace("/basics/label", json!(format!("Label {i}")))],
        );
    }
    a.sync();
    let library = Folder::library(dir.path()).unwrap().unwrap();
    let folder = Folder::open(dir.path(), &library)
        .unwrap()
        .with_max_files(3);
    let err = redline_sync::sync(&mut a.replica, &folder, &mut Default::default()).unwrap_err();
    assert!(matches!(err, SyncError::TooLarge { .. }), "{err:?}");
    assert!(err.to_string().contains("more than 3 files"), "{err}");
}

#[test]
fn a_letter_is_checked_as_a_letter_not_as_a_resume() {
    let dir = common::temp_folder();
    let (mut a, mut b, resume_doc) = two(dir.path());
    let mut letter = redline_resume::letter::skeleton("Hooli", "Engineer", "2025-03-01");
    letter["paragraphs"] = json!(["Hello."]);
    let (doc, _) = a
        .replica
        .create_letter("Letter", &resume_doc, letter.clone(), 1)
        .unwrap();
    // A letter's edit lands (checked against the letter's schema), one that breaks it waits.
    a.edit(
        &doc,
        vec![replace("/paragraphs", json!(["Hello.", "Hire me."]))],
    );
    a.sync();
    b.sync();
    letter["paragraphs"] = json!(["Hello.", "Hire me."]);
    let merged = b.replica.merged(&doc).unwrap();
    assert_eq!(merged.document, letter);
    assert_eq!(merged.letter_of.as_deref(), Some(resume_doc.as_str()));
    assert!(merged.conflicts.is_empty(), "{:?}", merged.conflicts);
    // A forged letter that is not one is refused, in words.
    let mut event = a
        .replica
        .create_letter("Another", &resume_doc, letter.clone(), 1)
        .unwrap()
        .1
        .event;
    event.seq += 100;
    event.body = Body::Letter {
        title: "Forged".into(),
        resume: resume_doc.clone(),
        document: json!({"paragraphs": 42}),
    };
    let device_dir = a.folder.root().join(a.id());
    fs::write(device_dir.join("forged.json"), event.encode().1).unwrap();
    let report = b.sync();
    assert!(
        report
            .skipped
            .iter()
            .any(|s| s.reason.contains("letter is not valid")),
        "{:?}",
        report.skipped
    );
}

#[test]
fn one_sync_reads_a_bounded_number_of_bytes_and_the_next_goes_on() {
    let dir = common::temp_folder();
    let (mut a, mut b, doc) = two(dir.path());
    for i in 0..10 {
        a.edit(
            &doc,
            vec![replace("/basics/label", json!(format!("Label {i}")))],
        );
    }
    a.sync();
    // One byte a sync: each reads one file and leaves the rest for the next, said.
    b.folder = b.folder.clone().with_max_pass_bytes(1);
    let first = b.sync();
    assert_eq!((first.read, first.left_for_next), (1, 9), "{first:?}");
    let mut passes = 1;
    while b.sync().left_for_next > 0 {
        passes += 1;
        assert!(passes < 20, "the syncs do not go on");
    }
    assert_eq!(passes, 9);
    assert_eq!(b.doc(&doc), a.doc(&doc));
    assert_eq!(b.doc(&doc)["basics"]["label"], "Label 9");
}

fn application(company: &str) -> redline_sync::ApplicationRecord {
    redline_sync::ApplicationRecord {
        company: company.into(),
        role: "Engineer".into(),
        posting: "We build things.".into(),
        source: String::new(),
        url: String::new(),
        contacts: String::new(),
        notes: String::new(),
        salary: String::new(),
        follow_up: None,
        tags: vec!["remote".into()],
        stage: "saved".into(),
        timeline: vec![redline_sync::StageMove {
            stage: "saved".into(),
            date: "2026-11-01".into(),
        }],
        resume: None,
        letter: None,
    }
}

fn moved(stage: &str, date: &str) -> Body {
    Body::Moved {
        stage: stage.into(),
        date: date.into(),
    }
}

#[test]
fn an_application_travels_and_moves_made_on_two_devices_are_both_on_its_timeline() {
    let dir = common::temp_folder();
    let (mut a, mut b, _) = two(dir.path());
    let (app, _) = a
        .replica
        .create_application(application("Initech"), 1)
        .unwrap();
    a.sync();
    b.sync();
    assert_eq!(b.doc(&app)["company"], "Initech");
    assert!(b.replica.merged(&app).unwrap().application);
    // Offline, each device moves it: neither move is lost, and both agree where it stands.
    a.replica
        .record(&app, moved("applied", "2026-11-02"), 2)
        .unwrap();
    b.replica
        .record(&app, moved("interviewing", "2026-11-05"), 2)
        .unwrap();
    a.sync();
    b.sync();
    a.sync();
    let (on_a, on_b) = (a.doc(&app), b.doc(&app));
    assert_eq!(on_a, on_b);
    let stages: Vec<&str> = on_a["timeline"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["stage"].as_str().unwrap())
        .collect();
    assert_eq!(stages.len(), 3, "{stages:?}");
    assert!(stages.contains(&"applied") && stages.contains(&"interviewing"));
    assert_eq!(on_a["stage"], *stages.last().unwrap());
}

#[test]
fn an_application_file_that_breaks_a_bound_is_refused() {
    let policy = redline_patch::Policy::default();
    let mut record = application("Initech");
    record.stage = "hired!".into();
    assert!(record.check(&policy).unwrap_err().contains("not a stage"));
    let mut record = application("Initech");
    record.timeline[0].date = "1 Nov".into();
    assert!(record.check(&policy).unwrap_err().contains("YYYY-MM-DD"));
    let mut record = application("Initech");
    record.notes = "x".repeat(20_001);
    assert!(record.check(&policy).unwrap_err().contains("notes"));
    let mut record = application("Initech");
    record.resume = Some(redline_sync::SentDocument {
        document: "../../etc".into(),
        content: resume(),
    });
    assert!(record.check(&policy).is_err());
    // The resume sent is checked whole, as a resume.
    let mut record = application("Initech");
    record.resume = Some(redline_sync::SentDocument {
        document: new_id(),
        content: json!({"basics": {"email": "not an address"}}),
    });
    assert!(
        record
            .check(&policy)
            .unwrap_err()
            .contains("resume it sent"),
        "{:?}",
        record.check(&policy)
    );
    let mut replica = redline_sync::Replica::new(&new_id()).unwrap();
    assert!(replica.create_application(application(" "), 1).is_err());
}

#[test]
fn moves_past_an_application_s_timeline_bound_change_nothing() {
    let mut a = redline_sync::Replica::new(&new_id()).unwrap();
    let (app, _) = a.create_application(application("Initech"), 1).unwrap();
    let bound = redline_sync::event::MAX_TIMELINE;
    // A device (or a forged folder) that moves it without end: the timeline stops at its bound.
    for i in 0..bound + 5 {
        let stage = if i % 2 == 0 {
            "applied"
        } else {
            "interviewing"
        };
        a.record(&app, moved(stage, "2026-11-02"), 2).unwrap();
    }
    let merged = a.merged(&app).unwrap();
    assert_eq!(merged.document["timeline"].as_array().unwrap().len(), bound);
    assert!(redline_sync::event::STAGES.contains(&merged.document["stage"].as_str().unwrap()));
}
