//! The designs from the command line, as a user runs it against a throwaway data folder: `redline theme
//! list`, `redline fit` (a revision of your own, undone by `redline undo`), `redline export --template` in
//! every design; and every design's PDF read back by Redline's own importer, in a language of each family
//! (Latin, Chinese-Japanese-Korean, right to left), at 99 % of its fields or more.

mod common;
#[path = "../crates/import/tests/common/mod.rs"]
mod import_common;

use std::path::{Path, PathBuf};
use std::process::Output;

use common::{export_pdf, redline};
use redline_resume::export::{Page, Template};
use serde_json::{Value, json};

fn json_of(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// The resume `redline show` prints.
fn shown(dir: &Path) -> Value {
    json_of(&common::succeeded(redline(dir, &["show"])))
}

/// Pages in `resume`'s PDF as it keeps its design (classic, A4, when it keeps none).
fn pages_of(resume: &Value) -> usize {
    let (template, page) = redline_resume::design::Design::of(resume).chosen(None, None);
    let pdf = redline_pdf::pdf(resume, template, page).unwrap();
    redline_pdf::ats::extract(&pdf).unwrap().len()
}

#[test]
fn theme_list_names_every_built_in_design() {
    let dir = tempfile::tempdir().unwrap();
    let listed = json_of(&common::succeeded(redline(
        dir.path(),
        &["theme", "list", "--json"],
    )));
    let names: Vec<&str> = listed
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["name"].as_str().unwrap())
        .collect();
    let want: Vec<&str> = Template::ALL.iter().map(|t| t.name()).collect();
    assert_eq!(names, want);
    assert!(
        listed
            .as_array()
            .unwrap()
            .iter()
            .all(|d| d["builtIn"] == true
                && !d["label"].as_str().unwrap().is_empty()
                && !d["description"].as_str().unwrap().is_empty())
    );
    let words = common::succeeded(redline(dir.path(), &["theme", "list"]));
    let words = String::from_utf8(words.stdout).unwrap();
    assert_eq!(words.lines().count(), Template::ALL.len(), "{words}");
    assert!(words.contains("Academic CV"), "{words}");
}

#[test]
fn fit_tightens_the_resume_to_one_page_as_a_revision_undo_takes_back() {
    // The sample in the first design it runs over one page in and fits one page in once tightened.
    let mut resume = redline_resume::sample();
    let template = Template::ALL
        .into_iter()
        .find(|&t| {
            resume["meta"] = json!({"design": {"template": t}});
            pages_of(&resume) >= 2 && redline_pdf::fit(&resume, t, Page::A4, 1).unwrap().fits
        })
        .expect("a design the sample fits one page in, tightened");
    resume["meta"] = json!({"design": {"template": template}});
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("resume.json");
    std::fs::write(&file, resume.to_string()).unwrap();
    common::succeeded(redline(dir.path(), &["import", file.to_str().unwrap()]));
    let before = shown(dir.path());
    assert_eq!(before["meta"]["design"]["template"], template.name());
    let out = common::succeeded(redline(dir.path(), &["fit", "--pages", "1", "--json"]));
    let done = json_of(&out);
    assert_eq!(done["changed"], true, "{done}");
    assert_eq!(done["fit"]["fits"], true, "{done}");
    let summary = done["summary"].as_str().unwrap();
    assert!(summary.starts_with("Fitted to one page: "), "{summary}");
    let after = shown(dir.path());
    let design = &after["meta"]["design"];
    assert_eq!(design, &done["fit"]["design"]);
    assert!(redline_resume::design::Design::read(design).is_ok());
    assert_eq!(pages_of(&after), 1, "{design}");
    // The history says it in words, and Undo takes it back whole.
    let history = common::succeeded(redline(dir.path(), &["history"]));
    assert!(String::from_utf8_lossy(&history.stdout).contains("Fitted to one page"));
    common::succeeded(redline(dir.path(), &["undo"]));
    assert_eq!(shown(dir.path()), before);
    // Fitting what already fits changes nothing.
    common::succeeded(redline(dir.path(), &["fit", "--pages", "2"]));
    assert_eq!(shown(dir.path()), before);
}

#[test]
fn photo_sets_the_photo_every_design_draws_and_undo_takes_it_back() {
    let dir = tempfile::tempdir().unwrap();
    // A real picture: the sample's first page, drawn.
    let picture =
        redline_pdf::thumbnail(&redline_resume::sample(), Template::Modern, Page::A4, 1.0).unwrap();
    let file = dir.path().join("me.png");
    std::fs::write(&file, picture).unwrap();
    let before = shown(dir.path());
    let chosen = json_of(&common::succeeded(redline(
        dir.path(),
        &["photo", file.to_str().unwrap(), "--json"],
    )));
    assert_eq!(chosen["changed"], json!(true));
    let resume = shown(dir.path());
    let url = resume["basics"]["image"].as_str().unwrap();
    assert!(url.starts_with("data:image/jpeg;base64,"), "{url:.40}");
    // The PDF the command line makes draws it.
    let out = dir.path().join("with-photo.pdf");
    common::succeeded(export_pdf(dir.path(), "sidebar", out.to_str().unwrap()));
    // poppler's `pdfimages` lists two lines of heading, then one line an image.
    let listed = std::process::Command::new("pdfimages")
        .args(["-list", out.to_str().unwrap()])
        .output()
        .expect("pdfimages (poppler-utils) is needed: scripts/setup.sh --test installs it");
    assert_eq!(String::from_utf8_lossy(&listed.stdout).lines().count(), 3);
    // A file that is not a photo: refused in words, nothing saved.
    let text = dir.path().join("notes.txt");
    std::fs::write(&text, "hello").unwrap();
    let refused = redline(dir.path(), &["photo", text.to_str().unwrap()]);
    assert!(!refused.status.success());
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("not a photo"),
        "{refused:?}"
    );
    assert_eq!(shown(dir.path()), resume);
    let removed = common::succeeded(redline(dir.path(), &["photo", "--remove"]));
    assert!(String::from_utf8_lossy(&removed.stdout).contains("Photo removed"));
    // The sample's empty `image` is gone with the photo; nothing else changed.
    let mut without = before.clone();
    without["basics"].as_object_mut().unwrap().remove("image");
    assert_eq!(shown(dir.path()), without);
    common::succeeded(redline(dir.path(), &["undo"]));
    assert_eq!(shown(dir.path()), resume);
}

#[test]
fn a_resume_too_long_to_fit_says_what_to_cut() {
    let dir = tempfile::tempdir().unwrap();
    let mut long = redline_resume::sample();
    let job = long["work"][0].clone();
    long["work"] = Value::Array(vec![job; 25]);
    let file = dir.path().join("long.json");
    std::fs::write(&file, long.to_string()).unwrap();
    common::succeeded(redline(dir.path(), &["import", file.to_str().unwrap()]));
    let out = redline(dir.path(), &["fit", "--pages", "1"]);
    assert_eq!(out.status.code(), Some(4), "{out:?}");
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("even at the tightest readable settings; shorten Work"),
        "{said}"
    );
    // The tightest settings are kept, at their floors, and the resume takes fewer pages with them.
    let design = &shown(dir.path())["meta"]["design"];
    assert_eq!(design["spacing"], json!(redline_resume::design::SPACING.0));
    assert_eq!(design["size"], json!(redline_resume::design::SIZE.0));
    // Out of bounds, refused in words.
    let out = redline(dir.path(), &["fit", "--pages", "0"]);
    assert_eq!(out.status.code(), Some(4));
    assert!(String::from_utf8_lossy(&out.stderr).contains("1 to 10 pages"));
}

#[test]
fn export_takes_every_design_by_name() {
    let dir = tempfile::tempdir().unwrap();
    for template in Template::ALL {
        let path = dir.path().join(format!("{}.pdf", template.name()));
        common::succeeded(export_pdf(
            dir.path(),
            template.name(),
            path.to_str().unwrap(),
        ));
        let bytes = std::fs::read(&path).unwrap();
        assert!(bytes.starts_with(b"%PDF-"), "{}", template.name());
    }
    let out = export_pdf(dir.path(), "comic", "-");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("elegant"));
}

#[test]
fn the_importer_reads_every_design_back_in_each_family_of_languages() {
    let mut below = Vec::new();
    for language in ["en", "ja", "ar"] {
        let mut want = redline_resume::sample();
        want["meta"] = json!({"language": language});
        for template in Template::ALL {
            let pdf = redline_pdf::pdf(&want, template, Page::A4).unwrap();
            let name = format!("{language} {}", template.name());
            let read =
                redline_import::import("test", &pdf).unwrap_or_else(|e| panic!("{name}: {e}"));
            let shown = redline_pdf::ats::extract(&pdf).unwrap().join("\n");
            let s = import_common::scored(&name, &read, &want, &shown);
            // The sidebar's two columns are read one after the other (the band first, on either side),
            // an address wrapped in the band is one place, a link carried under its line is its last part.
            if s.ratio() < 0.99 {
                below.push(format!("{name}: {:.1} %", s.ratio() * 100.0));
            }
        }
    }
    assert!(
        below.is_empty(),
        "designs read under their floor: {below:?}"
    );
}

/// The fonts `scripts/setup.sh --test` sets aside for this test on Linux (Debian's NanumGothic, not
/// installed, so that nothing else here sees it): a font that has Korean, which no bundled font has. On macOS
/// and Windows the system's own fonts have Korean.
fn korean_fonts() -> PathBuf {
    let cache = std::env::var_os("XDG_CACHE_HOME").map_or_else(
        || Path::new(&std::env::var_os("HOME").unwrap()).join(".cache"),
        std::path::PathBuf::from,
    );
    let dir = cache.join("redline/test-fonts");
    assert!(
        !cfg!(target_os = "linux") || dir.join("NanumGothic.ttf").is_file(),
        "{} has no NanumGothic.ttf: run scripts/setup.sh --test",
        dir.display()
    );
    dir
}

/// `resume` imported into a new data folder `data` under `tmp`: the folder.
fn data_with(tmp: &Path, resume: &Value) -> PathBuf {
    let (dir, file) = (tmp.join("data"), tmp.join("r.json"));
    std::fs::write(&file, resume.to_string()).unwrap();
    common::succeeded(redline(&dir, &["import", file.to_str().unwrap()]));
    dir
}

#[test]
fn letters_no_bundled_font_has_are_set_in_a_font_of_the_system() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = data_with(
        tmp.path(),
        &json!({
            "basics": {"name": "김민준", "label": "백엔드 엔지니어", "email": "minjun@example.com"},
            "work": [{"name": "삼성전자", "position": "선임 엔지니어", "startDate": "2019-03",
                      "highlights": ["처리량을 두 배로 늘렸습니다"]}],
        }),
    );
    let fonts = korean_fonts();
    for template in ["classic", "sidebar"] {
        let pdf = tmp.path().join(format!("{template}.pdf"));
        let fonts = [("REDLINE_FONT_DIRS", fonts.as_os_str())];
        let out = common::succeeded(common::export_pdf_with(
            &dir,
            template,
            pdf.to_str().unwrap(),
            &fonts,
        ));
        let warned = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(!warned.contains("no font"), "{template}: {warned}");
        // Words as the PDF gives them back, one space between each.
        let shown = redline_pdf::ats::extract(&std::fs::read(&pdf).unwrap())
            .unwrap()
            .join("\n")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        for words in [
            "김민준",
            "백엔드 엔지니어",
            "삼성전자",
            "처리량을 두 배로 늘렸습니다",
        ] {
            assert!(shown.contains(words), "{template}: {words} not in {shown}");
        }
    }
    // Without the font, the letters are named on standard error and the file is still made.
    let pdf = tmp.path().join("without.pdf");
    let empty = tmp.path().join("no-fonts");
    std::fs::create_dir(&empty).unwrap();
    let no_fonts = [("REDLINE_FONT_DIRS", empty.as_os_str())];
    let out = common::export_pdf_with(&dir, "classic", pdf.to_str().unwrap(), &no_fonts);
    assert!(out.status.success() && pdf.is_file());
    let warned = String::from_utf8_lossy(&out.stderr).into_owned();
    if !redline_pdf::unprintable("삼").is_empty() {
        assert!(
            warned.contains("no font on this computer has") && warned.contains('삼'),
            "{warned}"
        );
    }
}

#[test]
fn a_letter_no_font_has_is_named_when_the_pdf_is_made() {
    let tmp = tempfile::tempdir().unwrap();
    // U+0378 is not a character yet: no font anywhere draws it.
    let dir = data_with(
        tmp.path(),
        &json!({"basics": {"name": "Ada \u{0378} Lovelace", "email": "ada@example.com"}}),
    );
    let pdf = tmp.path().join("r.pdf");
    let out = common::succeeded(common::export_pdf(&dir, "classic", pdf.to_str().unwrap()));
    let warned = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        warned.contains("no font on this computer has 1 of the resume's letters (\u{0378})"),
        "{warned}"
    );
    // Other formats have no fonts of their own to lack: no word of it.
    let html = tmp.path().join("r.html");
    let out = common::succeeded(redline(
        &dir,
        &["export", "--format", "html", "-o", html.to_str().unwrap()],
    ));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_broken_font_in_the_font_folders_is_passed_over() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = data_with(
        tmp.path(),
        &json!({"basics": {"name": "삼성전자", "email": "a@example.com"}}),
    );
    // A font file cut off, one of zeros, and one that claims a table past its end.
    let fonts = tmp.path().join("fonts");
    std::fs::create_dir(&fonts).unwrap();
    let nanum = std::fs::read(korean_fonts().join("NanumGothic.ttf")).unwrap_or_default();
    std::fs::write(fonts.join("cut.ttf"), &nanum[..nanum.len().min(4096)]).unwrap();
    std::fs::write(fonts.join("zeros.ttf"), vec![0u8; 1 << 20]).unwrap();
    let mut lying = b"\x00\x01\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00cmap".to_vec();
    lying.extend_from_slice(&[0, 0, 0, 0, 0, 0, 0, 28, 0xff, 0xff, 0xff, 0xff]);
    std::fs::write(fonts.join("lying.ttf"), lying).unwrap();
    let pdf = tmp.path().join("r.pdf");
    let vars = [("REDLINE_FONT_DIRS", fonts.as_os_str())];
    let out = common::export_pdf_with(&dir, "classic", pdf.to_str().unwrap(), &vars);
    assert!(out.status.success() && pdf.is_file(), "{out:?}");
}
