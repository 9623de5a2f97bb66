//! The Word export read back as its readers read it — pandoc and LibreOffice — with every field present and
//! in order (the ATS check's rule, `ats::compare`), for the sample in every language and both directions,
//! and the resumes written for the export tests. pandoc and LibreOffice are installed by
//! `scripts/setup.sh --test`.

use std::path::Path;

use redline_resume::export::{Page, Template};
use redline_resume::words::Language;
use serde_json::{Value, json};

#[path = "../../resume/tests/common/mod.rs"]
mod common;
mod tools;
use tools::tool;

/// The text pandoc reads out of the Word file at `path`.
fn pandoc(path: &Path) -> String {
    let out = path.with_extension("pandoc.txt");
    tool(
        "pandoc",
        &[
            path.to_str().unwrap(),
            "-t",
            "plain",
            "-o",
            out.to_str().unwrap(),
        ],
    );
    std::fs::read_to_string(out).unwrap()
}

/// The text LibreOffice (`soffice --headless --convert-to txt`) reads out of the Word files at `paths`.
fn libreoffice(paths: &[&Path], dir: &Path) -> Vec<String> {
    let mut args = vec![
        "--headless",
        "--convert-to",
        "txt:Text (encoded):UTF8",
        "--outdir",
        dir.to_str().unwrap(),
    ];
    // Its own profile, so that a LibreOffice the user has open is not disturbed (nor waited for).
    let profile = format!("-env:UserInstallation=file://{}/profile", dir.display());
    args.push(&profile);
    args.extend(paths.iter().map(|p| p.to_str().unwrap()));
    tool("soffice", &args);
    paths
        .iter()
        .map(|p| {
            std::fs::read_to_string(dir.join(p.with_extension("txt").file_name().unwrap())).unwrap()
        })
        .collect()
}

fn resumes() -> Vec<(String, Value)> {
    let mut all = common::resumes();
    for language in Language::ALL {
        let mut resume = redline_resume::sample();
        resume["meta"] = json!({"language": language.tag()});
        all.push((format!("sample-{}", language.tag()), resume));
    }
    all
}

#[test]
fn word_files_read_back_in_pandoc_and_libreoffice_with_every_field_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    for (i, (name, resume)) in resumes().into_iter().enumerate() {
        let (template, page) = if i % 2 == 0 {
            (Template::Classic, Page::A4)
        } else {
            (Template::Modern, Page::Letter)
        };
        let bytes = redline_resume::docx::docx(&resume, template, page);
        let path = dir.path().join(format!("{name}.docx"));
        std::fs::write(&path, bytes).unwrap();
        files.push((name, resume, path));
    }
    let paths: Vec<&Path> = files.iter().map(|(_, _, p)| p.as_path()).collect();
    let office = libreoffice(&paths, dir.path());
    for ((name, resume, path), office) in files.iter().zip(office) {
        for (reader, text) in [("pandoc", pandoc(path)), ("LibreOffice", office)] {
            let report = redline_pdf::ats::compare(std::slice::from_ref(&text), resume);
            assert!(
                report.clean(),
                "{name} read by {reader}: missing {:?}, out of order {:?}\n{text}",
                report.missing,
                report.out_of_order
            );
        }
    }
}

#[test]
fn a_word_file_is_the_same_resume_every_time_and_has_its_language_and_page() {
    let mut resume = redline_resume::sample();
    resume["meta"] = json!({"language": "ar"});
    let a = redline_resume::docx::docx(&resume, Template::Modern, Page::Letter);
    let b = redline_resume::docx::docx(&resume, Template::Modern, Page::Letter);
    assert_eq!(a, b, "the same resume makes the same bytes");
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(&a)).unwrap();
    let mut text = |name: &str| {
        let mut out = String::new();
        std::io::Read::read_to_string(&mut zip.by_name(name).unwrap(), &mut out).unwrap();
        out
    };
    let document = text("word/document.xml");
    // Right to left, on Letter paper, the bullets a real list, the links real links.
    assert!(document.contains("<w:bidi/>"));
    assert!(document.contains("<w:pgSz w:w=\"12240\" w:h=\"15840\"/>"));
    assert!(document.contains("<w:numId w:val=\"1\"/>"));
    assert!(document.contains("<w:hyperlink r:id=\"rIdLink1\">"));
    let styles = text("word/styles.xml");
    assert!(styles.contains("w:bidi=\"ar\""));
    assert!(styles.contains("w:styleId=\"Heading1\""));
    let rels = text("word/_rels/document.xml.rels");
    assert!(rels.contains("Target=\"mailto:richard.hendriks@mail.com\" TargetMode=\"External\""));
}

/// The parts of the Word file `bytes` named `names`, as text.
fn parts(bytes: &[u8], names: &[&str]) -> Vec<String> {
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
    names
        .iter()
        .map(|name| {
            let mut out = String::new();
            std::io::Read::read_to_string(&mut zip.by_name(name).unwrap(), &mut out).unwrap();
            out
        })
        .collect()
}

#[test]
fn a_word_file_takes_the_design_s_font_accent_size_headings_margins_and_order() {
    let mut resume = redline_resume::sample();
    resume["meta"] = json!({"design": {
        "accent": "#003366", "font": "carlito", "size": 11, "margins": 25,
        "sections": {"order": ["education"], "hide": ["interests"]}
    }});
    let [document, styles] = <[String; 2]>::try_from(parts(
        &redline_resume::docx::docx(&resume, Template::Elegant, Page::A4),
        &["word/document.xml", "word/styles.xml"],
    ))
    .unwrap();
    // The font, the accent on the name and headings, the text size (half-points), 25 mm margins (twips).
    assert!(styles.contains("w:ascii=\"Carlito\""), "{styles}");
    assert!(styles.contains("<w:color w:val=\"003366\"/>"));
    assert!(styles.contains("<w:sz w:val=\"22\"/>"));
    assert!(document.contains("w:left=\"1417\""), "{document}");
    // Elegant's headings: letter-spaced and centred between two rules in the accent.
    let heading = &styles[styles.find("w:styleId=\"Heading1\"").unwrap()..];
    let heading = &heading[..heading.find("</w:style>").unwrap()];
    assert!(
        heading.contains("<w:top ") && heading.contains("<w:bottom "),
        "{heading}"
    );
    assert!(
        heading.contains("<w:jc w:val=\"center\"/>")
            && heading.contains("<w:spacing w:val=\"40\"/>")
    );
    // Education first, interests not shown.
    let at = |text: &str| document.find(text);
    assert!(at(">Education<").unwrap() < at(">Work Experience<").or(at(">Work<")).unwrap());
    assert_eq!(at(">Interests<"), None);

    // Each design's headings in its own manner: the same resume makes different styles.
    let heading_of = |template: Template| {
        let styles = parts(
            &redline_resume::docx::docx(&redline_resume::sample(), template, Page::A4),
            &["word/styles.xml"],
        )
        .remove(0);
        let at = styles.find("w:styleId=\"Heading1\"").unwrap();
        let end = at + styles[at..].find("</w:style>").unwrap();
        styles[at..end].to_owned()
    };
    let headings: std::collections::BTreeSet<String> =
        Template::ALL.into_iter().map(heading_of).collect();
    assert!(headings.len() >= 4, "{headings:#?}");
}
