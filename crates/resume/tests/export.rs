//! Exports of the sample and of resumes written for the purpose — long content that spans pages,
//! non-Latin text (Japanese, Arabic, Hebrew), empty sections with `meta` and unknown fields — in every
//! template: every text field present, under its own section heading, in document order; markup in any
//! field shown as text; nothing fetched from elsewhere, no scripts; JSON lossless.

// A test (or benchmark) may be longer than library code (clippy.toml).
#![allow(clippy::too_many_lines)]

use redline_resume::export::{self, Page, Template};
use redline_resume::outline::{month_year, outline};
use serde_json::Value;

mod common;
use common::resumes;

/// Every text the outline shows, in order, with the heading of the section it belongs to.
fn expected_texts(resume: &Value) -> Vec<(Option<String>, String)> {
    let (header, sections) = outline(resume);
    let mut texts = vec![(None, header.name.clone()), (None, header.label.clone())];
    texts.extend(
        header
            .contacts
            .iter()
            .chain(&header.profiles)
            .map(|i| (None, i.text.clone())),
    );
    texts.push((None, header.summary.clone()));
    for s in &sections {
        for e in &s.entries {
            for t in [&e.title, &e.dates, &e.subtitle, &e.location] {
                texts.push((Some(s.heading.clone()), t.clone()));
            }
            if let Some(u) = &e.url {
                texts.push((Some(s.heading.clone()), u.text.clone()));
            }
            texts.push((Some(s.heading.clone()), e.summary.clone()));
            for t in e.bullets.iter().chain(&e.keywords) {
                texts.push((Some(s.heading.clone()), t.clone()));
            }
        }
    }
    texts.retain(|(_, t)| !t.is_empty());
    texts
}

/// Checks that each text appears, in order, after its section's heading.
fn assert_in_order(
    rendered: &str,
    resume: &Value,
    escape: impl Fn(&str) -> String,
    heading: impl Fn(&str) -> String,
    what: &str,
) {
    let mut at = 0;
    let mut section = None;
    for (in_section, text) in expected_texts(resume) {
        if in_section != section {
            let h = heading(in_section.as_deref().unwrap());
            at = at
                + rendered[at..]
                    .find(&h)
                    .unwrap_or_else(|| panic!("{what}: heading {h:?} missing or out of order"));
            section = in_section;
        }
        let needle = escape(&text);
        // Multi-line summaries may be laid out over several lines: look for the first line.
        let first = needle.lines().next().unwrap_or_default().to_owned();
        let found = rendered[at..]
            .find(&first)
            .unwrap_or_else(|| panic!("{what}: {first:?} missing or out of order"));
        at += found;
    }
}

/// The HTML export's two looks (the serif one and the one with an accent colour): every design draws its
/// HTML as one of them (`Template::serif`), so the other designs add nothing to check here.
const HTML_LOOKS: [Template; 2] = [Template::Classic, Template::Modern];

#[test]
fn html_has_every_field_under_its_heading_in_order_and_is_self_contained() {
    for (name, resume) in resumes() {
        for template in HTML_LOOKS {
            for page in [Page::A4, Page::Letter] {
                let html = export::html(&resume, template, page);
                let what = format!("{name}/{}/{page:?}", template.name());
                assert_in_order(
                    &html,
                    &resume,
                    export::escape,
                    |h| format!("<h2>{h}</h2>"),
                    &what,
                );
                for forbidden in [
                    "<script",
                    "<link",
                    "<img",
                    "<iframe",
                    " src=",
                    "url(",
                    "@import",
                    "javascript:",
                ] {
                    assert!(!html.contains(forbidden), "{what}: contains {forbidden}");
                }
                let size = if page == Page::A4 {
                    "size:A4"
                } else {
                    "size:letter"
                };
                assert!(
                    html.contains(size) && html.contains("@media print"),
                    "{what}: print CSS"
                );
                assert!(
                    html.starts_with("<!DOCTYPE html>")
                        && html.contains("<meta charset=\"utf-8\">")
                );
            }
        }
    }
}

#[test]
fn markdown_and_text_have_every_field_in_order() {
    for (name, resume) in resumes() {
        let text = export::text(&resume);
        assert_in_order(
            &text,
            &resume,
            str::to_owned,
            |h| h.to_uppercase(),
            &format!("{name}/txt"),
        );
        let md = export::markdown(&resume);
        // Markdown escapes its special characters: compare with them taken out.
        let plain = md.replace('\\', "");
        assert_in_order(
            &plain,
            &resume,
            str::to_owned,
            |h| format!("## {h}"),
            &format!("{name}/md"),
        );
    }
}

/// Every string of the resume replaced by markup (dates kept valid): none of it may become markup.
fn hostile(resume: &Value) -> Value {
    fn walk(v: &mut Value, key: &str, n: &mut usize) {
        match v {
            Value::String(s) if key.ends_with("Date") || key == "date" => *s = s.clone(),
            Value::String(s) => {
                *n += 1;
                *s = format!("<b onclick=\"x()\">f{n}</b> & 'q' <script>alert(1)</script>");
            }
            Value::Array(items) => items.iter_mut().for_each(|i| walk(i, key, n)),
            Value::Object(map) => map.iter_mut().for_each(|(k, i)| walk(i, k, n)),
            _ => {}
        }
    }
    let mut copy = resume.clone();
    walk(&mut copy, "", &mut 0);
    copy
}

#[test]
fn markup_in_any_field_is_shown_as_text() {
    for (name, resume) in resumes() {
        let evil = hostile(&resume);
        for template in HTML_LOOKS {
            let html = export::html(&evil, template, Page::A4);
            assert!(!html.contains("<b onclick"), "{name}: raw markup");
            assert!(!html.contains("<script"), "{name}: raw script");
            assert!(
                !html.contains("href=\"<") && !html.contains("href=\"javascript"),
                "{name}: unsafe link"
            );
            assert!(
                html.contains("&lt;b onclick=&quot;x()&quot;&gt;f")
                    && html.contains(
                        "&lt;/b&gt; &amp; &#39;q&#39; &lt;script&gt;alert(1)&lt;/script&gt;"
                    ),
                "{name}: escaped text"
            );
            assert_in_order(
                &html,
                &evil,
                export::escape,
                |h| format!("<h2>{h}</h2>"),
                &format!("{name}/hostile"),
            );
        }
        let md = export::markdown(&evil);
        assert!(
            md.contains("\\<b onclick") && !md.replace("\\<b", "").contains("<b onclick"),
            "{name}: markdown escapes"
        );
    }
    let js = serde_json::json!({"basics": {"name": "X", "url": "javascript:alert(1)",
        "profiles": [{"network": "Evil", "url": "JAVASCRIPT:alert(2)"}]}});
    let html = export::html(&js, Template::Classic, Page::A4);
    assert!(!html.to_lowercase().contains("href=\"javascript"), "{html}");
    assert!(html.contains("javascript:alert(1)"), "shown as text");
    // A link too long to be one (a model's 8,000-character email) is shown as text, whole.
    let email = format!("{}@example.com", "a".repeat(7_990));
    let long = serde_json::json!({"basics": {"name": "X", "email": email}});
    let html = export::html(&long, Template::Classic, Page::A4);
    assert!(
        !html.contains("href=\"mailto:"),
        "a link of {} bytes",
        email.len()
    );
    assert!(html.contains(&email), "shown as text");
}

#[test]
fn json_export_is_lossless() {
    for (name, resume) in resumes() {
        let text = export::json(&resume);
        let back: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(back, resume, "{name}");
        assert_eq!(
            serde_json::to_string(&back).unwrap(),
            serde_json::to_string(&resume).unwrap(),
            "{name}: key order"
        );
    }
    let empty = &resumes()[3].1;
    assert!(
        export::json(empty).contains("\"x-unknown-top\"")
            && export::json(empty).contains("\"x-custom\"")
    );
}

#[test]
fn empty_sections_are_left_out_and_dates_read_as_months() {
    let (_, empty) = &resumes()[3];
    let html = export::html(empty, Template::Modern, Page::Letter);
    assert!(!html.contains("<h2>Work</h2>") && html.contains("<h2>Skills</h2>"));
    assert_eq!(month_year("2013-12-01"), "Dec 2013");
    assert_eq!(month_year("2013"), "2013");
    assert_eq!(month_year("soon"), "soon");
}

/// The writer every export goes through never replaces a file, even one that appears after any check the
/// caller made (the final rename refuses an existing name), and leaves no temporary file on failure.
#[test]
fn an_export_is_written_whole_and_never_over_a_file() {
    use redline_resume::export::{Format, write_new};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("resume.md");
    write_new(&path, b"first", false).unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), b"first");
    // The caller saw no file; then one appeared: the rename refuses it.
    let err = write_new(&path, b"second", false).unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::AlreadyExists);
    assert_eq!(std::fs::read(&path).unwrap(), b"first");
    write_new(&path, b"third", true).unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), b"third");
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["resume.md"]);
    for format in Format::ALL {
        assert_eq!(Format::parse(format.name()), Ok(format));
    }
    assert_eq!(Format::parse("Markdown"), Ok(Format::Markdown));
    assert!(
        Format::parse("rtf")
            .unwrap_err()
            .to_string()
            .contains("rtf")
    );
}

/// Laid out by a browser (Debian's Chromium, headless), at page widths from a phone's to the export's own:
/// no line of an entry's subtitle, place and link starts or ends with the "·" between them, none of their
/// text is clipped, many of those lines do wrap, and no character anywhere runs off the page. A script added
/// to each export for the test reads every character's box and writes what it found into the page, which
/// Chromium prints (`--dump-dom`). Before, joined as one text, the line left "Hooli ·" at a line's end, and
/// the sample's link to Wikipedia, one word, ran off a phone-wide page. Each bullet is also indented on its own
/// start side, where its marker is drawn: an English bullet in an Arabic resume had its "•" in the margin.
#[test]
fn html_lines_wrap_with_no_dangling_separator_and_stay_on_the_page() {
    const CHECK: &str = r#"<script>
const found = { lines: 0, wrapped: 0, bullets: 0, faults: [] };
for (const width of [300, 380, 460, 560, 700, 820]) {
  document.querySelector(".page").style.maxWidth = width + "px";
  for (const sub of document.querySelectorAll(".sub")) {
    const clip = sub.getBoundingClientRect();
    const lines = [];
    const walk = document.createTreeWalker(sub, NodeFilter.SHOW_TEXT);
    for (let node; (node = walk.nextNode()); ) {
      for (let i = 0; i < node.data.length; i++) {
        const ch = node.data[i];
        if (/\s/.test(ch)) continue;
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const box = range.getBoundingClientRect();
        if (box.width === 0) continue;
        const inside = box.left >= clip.left - 0.5 && box.right <= clip.right + 0.5;
        const outside = box.right <= clip.left + 0.5 || box.left >= clip.right - 0.5;
        if (!inside && !outside) found.faults.push(`${width}px: "${ch}" cut by the edge in "${sub.textContent}"`);
        if (ch !== "·" && !inside) found.faults.push(`${width}px: "${ch}" clipped in "${sub.textContent}"`);
        if (!inside) continue;
        const line = lines[lines.length - 1];
        if (line && Math.abs(line.top - box.top) < box.height / 2) line.text += ch;
        else lines.push({ top: box.top, text: ch });
      }
    }
    found.lines += lines.length;
    if (lines.length > 1) found.wrapped += 1;
    for (const { text } of lines)
      if (text.startsWith("·") || text.endsWith("·")) found.faults.push(`${width}px: a line read "${text}"`);
  }
}
const page = document.querySelector(".page");
for (const width of [300, 460, 820]) {
  page.style.maxWidth = width + "px";
  const edge = page.getBoundingClientRect();
  const walk = document.createTreeWalker(page, NodeFilter.SHOW_TEXT);
  for (let node; (node = walk.nextNode()); ) {
    const range = document.createRange();
    for (let i = 0; i < node.data.length; i++) {
      if (/\s/.test(node.data[i])) continue;
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      const box = range.getBoundingClientRect();
      if (box.width > 0 && (box.left < edge.left - 0.5 || box.right > edge.right + 0.5)) {
        found.faults.push(`${width}px: "${node.data[i]}" off the page in "${node.data}"`);
        break;
      }
    }
  }
}
// A bullet's marker sits in the indent on its own start side: an English bullet in an Arabic resume is
// indented from the left, where its "•" is drawn (outside the text, in the indent).
for (const li of document.querySelectorAll(".bullets > li")) {
  const list = li.parentElement.getBoundingClientRect();
  const box = li.getBoundingClientRect();
  const ltr = getComputedStyle(li).direction === "ltr";
  const indent = ltr ? box.left - list.left : list.right - box.right;
  found.bullets += 1;
  if (indent < 12) found.faults.push(`a ${ltr ? "left-to-right" : "right-to-left"} bullet indented ${indent}px: "${li.textContent}"`);
}
const out = document.createElement("pre");
out.id = "found";
out.textContent = JSON.stringify(found);
document.body.append(out);
</script>"#;
    let dir = tempfile::tempdir().unwrap();
    let mut cases = resumes();
    cases.extend(common::crowded());
    cases.extend(common::mixed());
    let (mut lines, mut wrapped, mut bullets) = (0, 0, 0);
    for (name, resume) in &cases {
        for template in HTML_LOOKS {
            let what = format!("{name}/{}", template.name());
            let html = export::html(resume, template, Page::A4)
                .replace("</body>", &format!("{CHECK}</body>"));
            let path = dir.path().join("check.html");
            std::fs::write(&path, html).unwrap();
            let out = std::process::Command::new("chromium")
                .args([
                    "--headless",
                    "--no-sandbox",
                    "--disable-gpu",
                    "--no-first-run",
                    "--disable-background-networking",
                    "--disable-component-update",
                    "--disable-sync",
                    "--window-size=900,1200",
                    &format!("--user-data-dir={}", dir.path().join("profile").display()),
                    "--dump-dom",
                ])
                .arg(format!("file://{}", path.display()))
                .output()
                .unwrap_or_else(|e| {
                    panic!("Chromium is needed: {e}; scripts/setup.sh --test installs it")
                });
            let dom = String::from_utf8_lossy(&out.stdout);
            let json = dom
                .split_once("<pre id=\"found\">")
                .and_then(|(_, rest)| rest.split_once("</pre>"))
                .map(|(json, _)| json.replace("&quot;", "\"").replace("&amp;", "&"))
                .unwrap_or_else(|| panic!("{what}: the check wrote nothing: {dom}"));
            let found: Value = serde_json::from_str(&json).unwrap();
            assert_eq!(found["faults"], serde_json::json!([]), "{what}");
            lines += found["lines"].as_u64().unwrap();
            wrapped += found["wrapped"].as_u64().unwrap();
            bullets += found["bullets"].as_u64().unwrap();
        }
    }
    assert!(
        lines > 600 && wrapped > 80,
        "{lines} lines, {wrapped} of them wrapped"
    );
    assert!(bullets > 200, "{bullets} bullets");
}

#[test]
fn the_photo_is_drawn_from_its_checked_bytes_and_never_fetched() {
    use redline_resume::photo::{Format, to_url};
    // A PNG's signature and header: enough for its size to be read and checked.
    let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
    png.extend_from_slice(&[0, 0, 0, 40, 0, 0, 0, 50, 8, 6, 0, 0, 0, 0, 0, 0, 0]);
    let url = to_url(Format::Png, &png);
    let with = |image: &str, design: Value| serde_json::json!({"basics": {"name": "Ada <Lovelace>", "image": image}, "meta": {"design": design}});
    for template in HTML_LOOKS {
        let html = export::html(&with(&url, serde_json::json!({})), template, Page::A4);
        assert!(
            html.contains(&format!(
                "<img class=\"photo\" src=\"{url}\" alt=\"Ada &lt;Lovelace&gt;\">"
            )),
            "{html}"
        );
        assert_eq!(html.matches(" src=").count(), 1, "{html}");
        // Hidden by the design, and not drawn when it is not a photo of this computer's.
        let hidden = export::html(
            &with(&url, serde_json::json!({"photo": false})),
            template,
            Page::A4,
        );
        assert!(!hidden.contains("<img"), "{hidden}");
        for image in [
            "https://example.com/me.jpg",
            "data:image/png;base64,\"><script>alert(1)</script>",
            "data:image/svg+xml;base64,PHN2Zz4=",
        ] {
            let html = export::html(&with(image, serde_json::json!({})), template, Page::A4);
            assert!(
                !html.contains("<img") && !html.contains(" src=") && !html.contains("<script"),
                "{image}: {html}"
            );
        }
    }
}
