//! Themes of your own, from the command line as a user runs it against a throwaway data folder: `redline
//! theme new NAME --from DESIGN` copies a built-in design into the data folder's `themes/`, `theme list`
//! lists it, `export --template NAME` lays the resume out in it; and a theme is untrusted code: one that
//! loops, reads outside its folder, loads a huge image or has an error ends in words, never takes the
//! program down, and never stops an export in another design.

mod common;

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::{redline, succeeded};
use serde_json::Value;

fn json_of(out: &Output) -> Value {
    serde_json::from_slice(&succeeded(out.clone()).stdout).expect("JSON")
}

/// A data folder with the sample resume and a theme `name` made from `from`: the folder and the theme's.
fn with_theme(name: &str, from: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    succeeded(redline(dir.path(), &["list"]));
    let made = json_of(&redline(
        dir.path(),
        &["theme", "new", name, "--from", from, "--json"],
    ));
    assert_eq!(made["name"], name);
    let folder = PathBuf::from(made["path"].as_str().unwrap());
    assert_eq!(folder, dir.path().join("themes").join(name));
    (dir, folder)
}

/// `redline export --format pdf --template NAME -o FILE` in `dir`, the file in `dir` too.
fn export(dir: &Path, template: &str, file: &str) -> Output {
    common::export_pdf(dir, template, dir.join(file).to_str().unwrap())
}

fn pdftotext(pdf: &Path) -> String {
    let out = Command::new("pdftotext")
        .arg(pdf)
        .arg("-")
        .output()
        .expect("pdftotext (poppler-utils, installed by scripts/setup.sh --test)");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// What a failed export said, once it is known to have failed as a refusal (exit 4) and left no file.
#[track_caller]
fn refused(out: &Output, dir: &Path, file: &str) -> String {
    let said = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(4), "{said}");
    assert!(!dir.join(file).exists(), "no file is left behind");
    said
}

#[test]
fn a_theme_of_your_own_is_made_listed_and_exported() {
    let (dir, folder) = with_theme("mine", "modern");
    assert!(folder.join("theme.json").is_file() && folder.join("main.typ").is_file());
    let listed = json_of(&redline(dir.path(), &["theme", "list", "--json"]));
    let mine = listed
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["name"] == "mine")
        .expect("the theme is listed");
    assert_eq!(mine["builtIn"], false);
    assert!(mine.get("problem").is_none());

    succeeded(export(dir.path(), "mine", "mine.pdf"));
    let text = pdftotext(&dir.path().join("mine.pdf"));
    assert!(text.contains("Richard Hendriks"), "{text}");

    // The user changes it: a line of their own under the name shows in the next export.
    let main = std::fs::read_to_string(folder.join("main.typ")).unwrap();
    std::fs::write(
        folder.join("main.typ"),
        main.replace(
            "#cover-letter()",
            "Set in a theme of my own.\n#cover-letter()",
        ),
    )
    .unwrap();
    succeeded(export(dir.path(), "mine", "changed.pdf"));
    assert!(pdftotext(&dir.path().join("changed.pdf")).contains("Set in a theme of my own."));

    // Word takes the design the theme was made from.
    let docx = dir.path().join("mine.docx");
    let path = docx.to_str().unwrap();
    succeeded(redline(
        dir.path(),
        &[
            "export",
            "--format",
            "docx",
            "--template",
            "mine",
            "-o",
            path,
        ],
    ));
    assert!(std::fs::read(&docx).unwrap().starts_with(b"PK"));
}

#[test]
fn a_theme_is_not_made_over_another_or_under_a_design_s_name() {
    let (dir, _) = with_theme("mine", "classic");
    for name in ["mine", "modern", "../out", "My Theme"] {
        let out = redline(dir.path(), &["theme", "new", name]);
        assert!(!out.status.success(), "{name}");
    }
    assert!(!dir.path().join("out").exists());
}

#[test]
fn an_unknown_template_lists_the_user_s_themes_too() {
    let (dir, _) = with_theme("mine", "classic");
    let out = export(dir.path(), "fancy", "nothing.pdf");
    assert_eq!(out.status.code(), Some(2));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("[possible values: classic, modern, sidebar, compact, academic, engineering, elegant, banner, mine]"),
        "{said}"
    );
}

#[test]
fn a_theme_that_loops_is_stopped_and_another_design_still_exports() {
    let (dir, folder) = with_theme("loops", "classic");
    std::fs::write(
        folder.join("main.typ"),
        "#let n = 0\n#for i in range(100000) { for j in range(100000) { n += 1 } }\n#n\n",
    )
    .unwrap();
    let said = refused(
        &export(dir.path(), "loops", "loops.pdf"),
        dir.path(),
        "loops.pdf",
    );
    assert!(said.contains("took longer than 10 s"), "{said}");
    succeeded(export(dir.path(), "classic", "classic.pdf"));
    assert!(pdftotext(&dir.path().join("classic.pdf")).contains("Richard Hendriks"));
}

#[test]
fn a_theme_reads_nothing_outside_its_own_folder() {
    let (dir, folder) = with_theme("nosy", "classic");
    std::fs::write(dir.path().join("secret.txt"), "the secret").unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(dir.path().join("secret.txt"), folder.join("link.txt")).unwrap();
    for read in [
        "#read(\"../../secret.txt\")",
        "#read(\"../../redline.db\", encoding: none)",
        "#read(\"/etc/passwd\")",
        "#read(\"link.txt\")",
        "#image(\"/../../secret.txt\")",
        "#import \"@preview/basic-resume:0.2.9\": *",
    ] {
        std::fs::write(folder.join("main.typ"), format!("Hello\n{read}\n")).unwrap();
        let said = refused(
            &export(dir.path(), "nosy", "nosy.pdf"),
            dir.path(),
            "nosy.pdf",
        );
        assert!(said.contains("main.typ:2: "), "{read}: {said}");
        assert!(!said.contains("the secret"), "{read}: {said}");
    }
}

#[test]
fn a_theme_s_error_is_said_with_its_file_and_line() {
    let (dir, folder) = with_theme("broken", "classic");
    std::fs::write(folder.join("parts.typ"), "#let a = 1\n\n#let b = (\n").unwrap();
    std::fs::write(folder.join("main.typ"), "#include \"parts.typ\"\n").unwrap();
    let said = refused(
        &export(dir.path(), "broken", "broken.pdf"),
        dir.path(),
        "broken.pdf",
    );
    assert!(
        said.contains("the theme \"broken\" made no PDF: parts.typ:3: "),
        "{said}"
    );

    // A manifest that cannot be read: listed with its problem, and its export refused in words.
    std::fs::write(folder.join("theme.json"), "{\"name\": \"broken\"").unwrap();
    let listed = json_of(&redline(dir.path(), &["theme", "list", "--json"]));
    let broken = listed
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["name"] == "broken")
        .unwrap();
    assert!(broken["problem"].as_str().unwrap().contains("theme.json"));
}

/// A PNG of `side` × `side` grey pixels, all zero: a few hundred KB that decode to `side²` bytes and more.
fn png_bomb(side: u32) -> Vec<u8> {
    fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
        out.extend_from_slice(&(data.len() as u32).to_be_bytes());
        out.extend_from_slice(kind);
        out.extend_from_slice(data);
        let mut crc = flate2::Crc::new();
        crc.update(kind);
        crc.update(data);
        out.extend_from_slice(&crc.sum().to_be_bytes());
    }
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut header = side.to_be_bytes().to_vec();
    header.extend_from_slice(&side.to_be_bytes());
    header.extend_from_slice(&[8, 0, 0, 0, 0]);
    chunk(&mut out, b"IHDR", &header);
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    let row = vec![0u8; side as usize + 1];
    for _ in 0..side {
        z.write_all(&row).unwrap();
    }
    chunk(&mut out, b"IDAT", &z.finish().unwrap());
    chunk(&mut out, b"IEND", &[]);
    out
}

#[test]
fn a_theme_s_huge_image_ends_in_words() {
    let (dir, folder) = with_theme("huge", "classic");
    let bomb = png_bomb(40_000);
    assert!(bomb.len() < 8 << 20, "{} bytes", bomb.len());
    std::fs::write(folder.join("photo.png"), bomb).unwrap();
    std::fs::write(
        folder.join("main.typ"),
        "#image(\"photo.png\", width: 2cm)\n",
    )
    .unwrap();
    let said = refused(
        &export(dir.path(), "huge", "huge.pdf"),
        dir.path(),
        "huge.pdf",
    );
    assert!(said.contains("the theme \"huge\" made no PDF: "), "{said}");
    // A file past what a theme may read in one file is refused by its size.
    std::fs::write(folder.join("photo.png"), vec![0u8; 9 << 20]).unwrap();
    let said = refused(
        &export(dir.path(), "huge", "huge.pdf"),
        dir.path(),
        "huge.pdf",
    );
    assert!(said.contains("larger than the 8 MB"), "{said}");
    succeeded(export(dir.path(), "modern", "modern.pdf"));
}
