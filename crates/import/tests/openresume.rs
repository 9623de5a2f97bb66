//! Redline's import beside OpenResume's parser (xitanggg/open-resume, the open one most cited), on the same
//! PDFs: published JSON Resume themes printed by Chromium, RenderCV's Typst themes, Redline's own exports.
//! Both are scored by Redline's scorer, on the fields OpenResume has a place for.
//!
//! OpenResume is AGPL-3.0 and none of it is in this repository: `OPENRESUME_DIR` names a checkout of it,
//! which `benches/openresume/run.mjs` runs in Node (`npm ci` there first). So this test is run by hand:
//! `OPENRESUME_DIR=… cargo test -p redline-import --test openresume -- --ignored --nocapture`.

// A test may be longer than library code (clippy.toml).
#![allow(clippy::too_many_lines)]

mod common;

use std::process::Command;

use common::{RENDERCV_THEMES, print, rendercv, rendercv_resumes, run, themes, tool};
use redline_import::score::{Score, score};
use redline_resume::export::{self, Page, Template};
use serde_json::{Map, Value, json};

/// `want` cut to the fields OpenResume has a place for: the person's name, e-mail, phone, site and
/// summary; each job's company, title, dates and bullets; each school's name, degree, subject, grade,
/// dates and courses; each project's name, dates and bullets.
fn its_fields(want: &Value) -> Value {
    let keep = |item: &Value, keys: &[&str]| -> Value {
        let mut out = Map::new();
        for k in keys {
            if let Some(v) = item.get(*k) {
                out.insert((*k).to_owned(), v.clone());
            }
        }
        Value::Object(out)
    };
    let list = |key: &str, keys: &[&str]| -> Value {
        want[key]
            .as_array()
            .map(|items| items.iter().map(|i| keep(i, keys)).collect())
            .unwrap_or_default()
    };
    json!({
        "basics": keep(&want["basics"], &["name", "email", "phone", "url", "summary"]),
        "work": list("work", &["name", "position", "startDate", "endDate", "highlights"]),
        "education": list("education", &["institution", "studyType", "area", "score", "startDate", "endDate", "courses"]),
        "projects": list("projects", &["name", "startDate", "endDate", "highlights"]),
    })
}

/// A date string as OpenResume keeps it ("Dec 2013 – Dec 2014") into JSON Resume's start and end.
fn dates_into(item: &mut Map<String, Value>, date: &str) {
    if let Some(span) = redline_import::dates::find(date) {
        item.insert("startDate".into(), json!(span.start));
        if !span.end.is_empty() {
            item.insert("endDate".into(), json!(span.end));
        }
    }
}

/// A text of OpenResume's, or "" where it has none.
fn text(v: &Value) -> String {
    v.as_str().unwrap_or("").to_owned()
}

/// One of OpenResume's items (a job, a school, a project) in JSON Resume's places: `texts` (each under its
/// JSON Resume name), its date split into start and end, and its descriptions under `described`.
fn item(texts: &[(&str, String)], of: &Value, described: &str) -> Value {
    let mut m: Map<String, Value> = texts
        .iter()
        .map(|(key, text)| ((*key).to_owned(), json!(text)))
        .collect();
    dates_into(&mut m, &text(&of["date"]));
    m.insert(described.into(), of["descriptions"].clone());
    Value::Object(m)
}

/// OpenResume's resume in JSON Resume's places. The degree is split into its kind and subject as
/// Redline splits it ("Bachelor in Information Technology").
fn as_json_resume(or: &Value) -> Value {
    let list = |v: &Value| v.as_array().cloned().unwrap_or_default();
    let work: Vec<Value> = list(&or["workExperiences"])
        .iter()
        .map(|w| {
            let texts = [
                ("name", text(&w["company"])),
                ("position", text(&w["jobTitle"])),
            ];
            item(&texts, w, "highlights")
        })
        .collect();
    let education: Vec<Value> = list(&or["educations"])
        .iter()
        .map(|e| {
            let degree = text(&e["degree"]);
            let (kind, subject) = degree
                .split_once(" in ")
                .or_else(|| degree.split_once(", "))
                .or_else(|| degree.split_once(" of "))
                .unwrap_or((&degree, ""));
            let texts = [
                ("institution", text(&e["school"])),
                ("studyType", kind.trim().to_owned()),
                ("area", subject.trim().to_owned()),
                ("score", text(&e["gpa"])),
            ];
            item(&texts, e, "courses")
        })
        .collect();
    let projects: Vec<Value> = list(&or["projects"])
        .iter()
        .map(|p| item(&[("name", text(&p["project"]))], p, "highlights"))
        .collect();
    let profile = &or["profile"];
    json!({
        "basics": {
            "name": text(&profile["name"]),
            "email": text(&profile["email"]),
            "phone": text(&profile["phone"]),
            "url": text(&profile["url"]),
            "summary": text(&profile["summary"]),
        },
        "work": work,
        "education": education,
        "projects": projects,
    })
}

#[test]
#[ignore = "needs a checkout of OpenResume (AGPL-3.0, never in this repository): OPENRESUME_DIR"]
fn redline_beside_openresume_on_the_same_pdfs() {
    let checkout = std::env::var("OPENRESUME_DIR")
        .expect("OPENRESUME_DIR must name a checkout of https://github.com/xitanggg/open-resume");
    let runner = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/openresume");
    assert!(
        runner.join("node_modules").is_dir(),
        "run `npm ci` in {} first",
        runner.display()
    );
    let dir = tempfile::tempdir().unwrap();
    // The PDFs, each with the resume it was made from.
    let sample = redline_resume::sample();
    let mut pdfs: Vec<(String, Vec<u8>, Value)> = Vec::new();
    for (theme, html) in themes() {
        pdfs.push((format!("theme {theme}"), print(&html), sample.clone()));
    }
    for (who, resume) in rendercv_resumes(dir.path()) {
        let want: Value = serde_json::from_slice(&std::fs::read(&resume).unwrap()).unwrap();
        for theme in RENDERCV_THEMES {
            pdfs.push((
                format!("RenderCV {theme}, {who}"),
                rendercv(&resume, theme),
                want.clone(),
            ));
        }
    }
    pdfs.push((
        "Redline's HTML export, printed by Chromium".into(),
        print(&export::html(&sample, Template::Modern, Page::Letter)),
        sample.clone(),
    ));
    for template in [Template::Classic, Template::Modern] {
        let pdf = redline_pdf::pdf(&sample, template, Page::Letter).unwrap();
        pdfs.push((format!("Redline's PDF, {template:?}"), pdf, sample.clone()));
    }
    let files: Vec<std::path::PathBuf> = pdfs
        .iter()
        .enumerate()
        .map(|(i, (_, bytes, _))| {
            let path = dir.path().join(format!("{i}.pdf"));
            std::fs::write(&path, bytes).unwrap();
            path
        })
        .collect();
    let out = run(
        Command::new(tool("node"))
            .arg(runner.join("run.mjs"))
            .args(&files)
            .env("OPENRESUME_DIR", &checkout),
        "OpenResume",
    );
    let theirs: Vec<Value> = String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(theirs.len(), pdfs.len());

    println!("| PDF | Redline | OpenResume |\n|---|---|---|");
    let (mut ours_all, mut theirs_all) = (Score::default(), Score::default());
    for ((name, bytes, want), theirs) in pdfs.iter().zip(&theirs) {
        let want = its_fields(want);
        let shown = redline_pdf::ats::extract(bytes).unwrap().join("\n");
        let ours = redline_import::import("resume.pdf", bytes)
            .unwrap()
            .document;
        let (a, b) = (
            score(&want, &ours, &shown),
            score(&want, &as_json_resume(theirs), &shown),
        );
        println!(
            "| {name} | {:.1} % ({}/{}) | {:.1} % ({}/{}) |",
            a.ratio() * 100.0,
            a.right,
            a.total,
            b.ratio() * 100.0,
            b.right,
            b.total
        );
        for m in &a.missed {
            eprintln!("  Redline, {name}: {m}");
        }
        ours_all.add(a);
        theirs_all.add(b);
    }
    println!(
        "| all | {:.1} % | {:.1} % |",
        ours_all.ratio() * 100.0,
        theirs_all.ratio() * 100.0
    );
    // What the comparison stands on: Redline reads these files at the goal.
    assert!(ours_all.ratio() >= 0.95, "{:.3}", ours_all.ratio());
}
