//! Exports: one self-contained HTML file per template (inline CSS, print CSS, no scripts, nothing fetched
//! from elsewhere — a photo is written in as checked data — every value escaped, links only to
//! `http(s):`/`mailto:`), Markdown, plain text, and
//! JSON Resume (lossless: unknown fields and `meta` kept, key order kept).

use std::fmt::Write;

use serde_json::Value;

pub use crate::choices::{Page, Template, UnknownName};
use crate::outline::{Entry, Item, outline};
use crate::words::words;

/// What an export is written as: one switch for the CLI, the app and the export dialog (its TypeScript
/// type and its list of choices are generated from here).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize, ts_rs::TS)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// PDF, made by Typst (`redline-pdf`).
    Pdf,
    /// One self-contained HTML file.
    Html,
    /// A Word document.
    Docx,
    /// Markdown.
    #[serde(rename = "md", alias = "markdown")]
    Markdown,
    /// Plain text.
    #[serde(rename = "txt", alias = "text")]
    Text,
    /// JSON Resume, lossless.
    Json,
}

impl Format {
    /// Every format, in the order menus list them.
    pub const ALL: [Format; 6] = [
        Format::Pdf,
        Format::Docx,
        Format::Html,
        Format::Markdown,
        Format::Text,
        Format::Json,
    ];

    /// How a menu names it.
    pub fn label(self) -> &'static str {
        match self {
            Format::Pdf => "PDF",
            Format::Docx => "Word (.docx)",
            Format::Html => "HTML (one file, prints well)",
            Format::Markdown => "Markdown",
            Format::Text => "Plain text",
            Format::Json => "JSON Resume",
        }
    }

    /// The other names it is known by (`markdown`, `text`).
    pub fn aliases(self) -> &'static [&'static str] {
        match self {
            Format::Markdown => &["markdown"],
            Format::Text => &["text"],
            _ => &[],
        }
    }

    /// What it is, for the command line's help.
    pub fn about(self) -> &'static str {
        match self {
            Format::Pdf => "PDF, made in-process by Typst, fonts embedded",
            Format::Docx => "a Word document: Word's heading styles, a bulleted list, links",
            Format::Html => "one self-contained HTML file",
            Format::Markdown => "Markdown",
            Format::Text => "plain text",
            Format::Json => "JSON Resume, lossless",
        }
    }

    /// Its name on the command line and over IPC (`pdf`, `docx`, `html`, `json`, `md`, `txt`), which is also the
    /// file's extension.
    pub fn name(self) -> &'static str {
        match self {
            Format::Pdf => "pdf",
            Format::Docx => "docx",
            Format::Html => "html",
            Format::Json => "json",
            Format::Markdown => "md",
            Format::Text => "txt",
        }
    }

    /// The format called `name` (`markdown` and `text` are understood too).
    pub fn parse(name: &str) -> Result<Format, UnknownName> {
        match name.to_ascii_lowercase().as_str() {
            "markdown" => Ok(Format::Markdown),
            "text" => Ok(Format::Text),
            lower => Format::ALL
                .into_iter()
                .find(|f| f.name() == lower)
                .ok_or_else(|| {
                    UnknownName::new("format", name, "pdf, docx, html, json, md or txt")
                }),
        }
    }

    /// True for the formats that have a template and a page size.
    pub fn laid_out(self) -> bool {
        matches!(self, Format::Pdf | Format::Html | Format::Docx)
    }
}

/// Writes `bytes` as the new file `path`, whole or not at all: through a temporary file of a unique name in
/// the same folder, then a rename that never replaces a file (one that appeared in the meantime included).
/// An existing `path` is [`std::io::ErrorKind::AlreadyExists`] unless `replace`, when it is replaced
/// atomically. A failure leaves no temporary file behind.
pub fn write_new(path: &std::path::Path, bytes: &[u8], replace: bool) -> std::io::Result<()> {
    use std::io::Write as _;
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(std::path::Path::new("."));
    let mut file = tempfile::Builder::new()
        .prefix(".redline-export-")
        .suffix(".partial")
        .tempfile_in(dir)?;
    file.write_all(bytes)?;
    file.as_file().sync_all()?;
    let persisted = if replace {
        file.persist(path)
    } else {
        file.persist_noclobber(path)
    };
    persisted.map(|_| ()).map_err(|e| e.error)
}

/// `text` with `& < > " '` escaped, safe in HTML text and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

const BASE_CSS: &str = "*{box-sizing:border-box}html{-webkit-text-size-adjust:100%}body{margin:0;background:#f4f3ef;color:#1d2230}\
.page{max-width:820px;margin:24px auto;background:#fff;padding:48px 56px;overflow-wrap:anywhere;box-shadow:0 1px 4px rgba(0,0,0,.08)}\
h1{margin:0;font-size:30px;line-height:1.15}.label{margin:4px 0 0;font-size:16px;color:#555}\
.contacts,.profiles{list-style:none;margin:8px 0 0;padding:0;display:flex;flex-wrap:wrap;gap:4px 16px;font-size:13px;color:#444}\
a{color:inherit}.summary{margin:10px 0 0;white-space:pre-line}section{margin-top:22px}\
h2{font-size:13px;letter-spacing:.12em;text-transform:uppercase;margin:0 0 8px;padding-bottom:4px}\
.entry{margin:0 0 12px;break-inside:avoid}.entry header{display:flex;justify-content:space-between;gap:12px;align-items:baseline}\
h3{margin:0;font-size:15px}.dates{font-size:12px;color:#666;white-space:nowrap}\
.entry ul{margin:6px 0 0;padding:0}.entry li{margin:2px 0}.bullets li{margin-inline-start:20px}.sub{margin:1em 0;font-size:13px;color:#555;overflow-x:clip}\
.sub ul{list-style:none;margin:0;margin-inline-start:-1em;padding:0;display:flex;flex-wrap:wrap}.sub li{margin:0;position:relative;padding-inline-start:1em}\
.sep{position:absolute;inset-inline-start:0;width:1em;text-align:center}.keywords{list-style:none;padding:0!important;display:flex;flex-wrap:wrap;gap:4px}\
.keywords li{font-size:12px;border:1px solid #ccc;border-radius:10px;padding:1px 8px}\
.photo{width:96px;height:96px;border-radius:50%;object-fit:cover;float:inline-end;margin-inline-start:16px}\
@media print{body{background:#fff}.page{margin:0;max-width:none;box-shadow:none;padding:0}a{text-decoration:none}}";

const CLASSIC_CSS: &str = "body{font-family:Georgia,'Times New Roman','Noto Serif','Noto Serif CJK SC',serif}\
.basics{text-align:center}.basics .photo{float:none;display:block;margin:0 auto 12px}.contacts,.profiles{justify-content:center}h2{border-bottom:1px solid #1d2230;color:#1d2230}";

const MODERN_CSS: &str = "body{font-family:'Helvetica Neue',Arial,'Noto Sans','Noto Sans CJK SC','Noto Sans Arabic',sans-serif}\
.basics{border-inline-start:6px solid #c0392b;padding-inline-start:16px}h2{color:#c0392b;border-bottom:2px solid #f0d5d1}\
.keywords li{border-color:#e8b7b0;background:#fbefed}";

fn link(item: &Item) -> String {
    match &item.href {
        Some(href) => format!("<a href=\"{}\">{}</a>", escape(href), escape(&item.text)),
        None => escape(&item.text),
    }
}

/// The direction of a contact: its first letter's (`auto`), or left to right when it has no letter, so that a
/// phone number in a right-to-left resume reads `(912) 555-4321`, whatever a browser does with `auto` there.
fn own_dir(text: &str) -> &'static str {
    if text.chars().any(char::is_alphabetic) {
        "auto"
    } else {
        "ltr"
    }
}

/// The resume as one self-contained HTML file.
pub fn html(resume: &Value, template: Template, page: Page) -> String {
    let (header, sections) = outline(resume);
    let words = words(resume);
    let mut out = String::new();
    let title = words.title(&header.name);
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"{}\" dir=\"{}\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
<meta name=\"author\" content=\"{}\">\n<meta name=\"generator\" content=\"Redline\">\n<title>{}</title>\n<style>@page{{size:{};margin:16mm}}{BASE_CSS}{}</style>\n</head>\n<body>\n<main class=\"page {}\">\n",
        escape(&words.tag),
        if words.rtl { "rtl" } else { "ltr" },
        escape(&header.name),
        escape(&title),
        page.css(),
        if template.serif() {
            CLASSIC_CSS
        } else {
            MODERN_CSS
        },
        template.name(),
    );
    out.push_str("<header class=\"basics\">\n");
    html_photo(&mut out, resume, template, &header.name);
    if !header.name.is_empty() {
        let _ = writeln!(
            out,
            "<h1><span dir=\"auto\">{}</span></h1>",
            escape(&header.name)
        );
    }
    if !header.label.is_empty() {
        let _ = writeln!(
            out,
            "<p class=\"label\"><span dir=\"auto\">{}</span></p>",
            escape(&header.label)
        );
    }
    for (class, items) in [
        ("contacts", &header.contacts),
        ("profiles", &header.profiles),
    ] {
        if !items.is_empty() {
            let _ = write!(out, "<ul class=\"{class}\">");
            for item in items {
                let _ = write!(
                    out,
                    "<li dir=\"{}\">{}</li>",
                    own_dir(&item.text),
                    link(item)
                );
            }
            out.push_str("</ul>\n");
        }
    }
    html_summary(&mut out, &header.summary);
    out.push_str("</header>\n");
    for section in &sections {
        let _ = writeln!(
            out,
            "<section id=\"{}\">\n<h2>{}</h2>",
            section.id,
            escape(&section.heading)
        );
        for entry in &section.entries {
            html_entry(&mut out, entry);
        }
        out.push_str("</section>\n");
    }
    out.push_str("</main>\n</body>\n</html>\n");
    out
}

/// The photo the resume keeps, as the design draws it (a circle in the header), unless the design hides it.
/// Its bytes are written again from the checked photo, never copied from the resume's string: what lands in
/// the page is a PNG or JPEG as base64, whatever `basics.image` held. A web address is never fetched.
fn html_photo(out: &mut String, resume: &Value, template: Template, name: &str) {
    let style = crate::design::Design::of(resume).style(template);
    if let Some(photo) = crate::photo::drawn(resume, &style) {
        let _ = writeln!(
            out,
            "<img class=\"photo\" src=\"{}\" alt=\"{}\">",
            escape(&crate::photo::to_url(photo.format, &photo.bytes)),
            escape(name)
        );
    }
}

/// A summary (the header's or an entry's) as a paragraph in its own direction; nothing when it is empty.
fn html_summary(out: &mut String, summary: &str) {
    if !summary.is_empty() {
        let _ = writeln!(
            out,
            "<p class=\"summary\" dir=\"auto\">{}</p>",
            escape(summary)
        );
    }
}

fn html_entry(out: &mut String, e: &Entry) {
    out.push_str("<article class=\"entry\">\n<header>");
    let _ = write!(out, "<h3 dir=\"auto\">{}</h3>", escape(&e.title));
    if !e.dates.is_empty() {
        let _ = write!(out, "<span class=\"dates\">{}</span>", escape(&e.dates));
    }
    out.push_str("</header>\n");
    let mut sub: Vec<String> = Vec::new();
    for part in [&e.subtitle, &e.location] {
        if !part.is_empty() {
            sub.push(escape(part));
        }
    }
    if let Some(url) = &e.url {
        sub.push(link(url));
    }
    if !sub.is_empty() {
        // One item per part, each after the first led by its "·": where the line is full, the next item
        // starts a line and its "·" falls in the strip `.sub` clips off, so no line starts or ends with one.
        let _ = writeln!(
            out,
            "<div class=\"sub\"><ul dir=\"auto\"><li>{}</li></ul></div>",
            sub.join("</li><li><span class=\"sep\" aria-hidden=\"true\"> · </span>")
        );
    }
    html_summary(out, &e.summary);
    for (class, items) in [("bullets", &e.bullets), ("keywords", &e.keywords)] {
        if !items.is_empty() {
            let _ = write!(out, "<ul class=\"{class}\">");
            for item in items {
                let _ = write!(out, "<li dir=\"auto\">{}</li>", escape(item));
            }
            out.push_str("</ul>\n");
        }
    }
    out.push_str("</article>\n");
}

/// Markdown with its special characters escaped, so a value (a resume's, a letter's) is always read as text.
pub(crate) fn md(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if "\\`*_{}[]<>()#+-.!|~".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

fn md_link(item: &Item) -> String {
    match &item.href {
        // A target is one URL of printable ASCII with no `<`, `>` or backslash (outline::safe_href): it cannot
        // end the pointy brackets early.
        Some(href) => format!("[{}](<{href}>)", md(&item.text)),
        None => md(&item.text),
    }
}

/// The resume as Markdown.
pub fn markdown(resume: &Value) -> String {
    let (header, sections) = outline(resume);
    let words = words(resume);
    let mut out = String::new();
    if !header.name.is_empty() {
        let _ = writeln!(out, "# {}\n", md(&header.name));
    }
    if !header.label.is_empty() {
        let _ = writeln!(out, "**{}**\n", md(&header.label));
    }
    let contacts: Vec<String> = header
        .contacts
        .iter()
        .chain(&header.profiles)
        .map(md_link)
        .collect();
    if !contacts.is_empty() {
        let _ = writeln!(out, "{}\n", contacts.join(" · "));
    }
    if !header.summary.is_empty() {
        let _ = writeln!(out, "{}\n", md(&header.summary));
    }
    for section in &sections {
        let _ = writeln!(out, "## {}\n", md(&section.heading));
        for e in &section.entries {
            let _ = write!(out, "### {}", md(&e.title));
            if !e.dates.is_empty() {
                let _ = write!(out, " ({})", md(&e.dates));
            }
            out.push_str("\n\n");
            let mut sub: Vec<String> = [&e.subtitle, &e.location]
                .iter()
                .filter(|s| !s.is_empty())
                .map(|s| md(s))
                .collect();
            if let Some(url) = &e.url {
                sub.push(md_link(url));
            }
            if !sub.is_empty() {
                let _ = writeln!(out, "*{}*\n", sub.join(" · "));
            }
            if !e.summary.is_empty() {
                let _ = writeln!(out, "{}\n", md(&e.summary));
            }
            for bullet in &e.bullets {
                let _ = writeln!(out, "- {}", md(bullet));
            }
            if !e.bullets.is_empty() {
                out.push('\n');
            }
            if !e.keywords.is_empty() {
                let _ = writeln!(
                    out,
                    "{}\n",
                    e.keywords
                        .iter()
                        .map(|k| md(k))
                        .collect::<Vec<_>>()
                        .join(words.comma_for(&e.keywords))
                );
            }
        }
    }
    out
}

/// The resume as plain text.
pub fn text(resume: &Value) -> String {
    let (header, sections) = outline(resume);
    let words = words(resume);
    let mut out = String::new();
    for line in [&header.name, &header.label] {
        if !line.is_empty() {
            let _ = writeln!(out, "{line}");
        }
    }
    let contacts: Vec<String> = header
        .contacts
        .iter()
        .chain(&header.profiles)
        .map(|i| match &i.href {
            Some(h) if h != &i.text && !h.starts_with("mailto:") => format!("{} <{h}>", i.text),
            _ => i.text.clone(),
        })
        .collect();
    if !contacts.is_empty() {
        let _ = writeln!(out, "{}", contacts.join(" | "));
    }
    if !header.summary.is_empty() {
        let _ = writeln!(out, "\n{}", header.summary);
    }
    for section in &sections {
        let _ = writeln!(
            out,
            "\n{}\n{}",
            section.heading.to_uppercase(),
            "=".repeat(section.heading.chars().count())
        );
        for e in &section.entries {
            let _ = write!(out, "\n{}", e.title);
            if !e.dates.is_empty() {
                let _ = write!(out, " ({})", e.dates);
            }
            out.push('\n');
            let mut sub: Vec<String> = [&e.subtitle, &e.location]
                .iter()
                .filter(|s| !s.is_empty())
                .map(|s| s.to_string())
                .collect();
            if let Some(url) = &e.url {
                sub.push(url.text.clone());
            }
            if !sub.is_empty() {
                let _ = writeln!(out, "{}", sub.join(" · "));
            }
            if !e.summary.is_empty() {
                let _ = writeln!(out, "{}", e.summary);
            }
            for bullet in &e.bullets {
                let _ = writeln!(out, "  • {bullet}");
            }
            if !e.keywords.is_empty() {
                let _ = writeln!(out, "  {}", words.list(&e.keywords));
            }
        }
    }
    out
}

/// The resume as JSON Resume, exactly as stored: every field, `meta` and unknown fields included, keys in
/// their order.
pub fn json(resume: &Value) -> String {
    let mut text = serde_json::to_string_pretty(resume).unwrap_or_else(|_| resume.to_string());
    text.push('\n');
    text
}
