//! The resume as a Word document (`.docx`): the outline every export renders, as Word's own structure — the
//! name as the Title style, section headings as Heading 1, each entry's title as Heading 2, highlights as a
//! real bulleted list (a numbering definition, not typed bullets), links as hyperlinks. The resume's
//! language and direction (Arabic right to left) and the page (A4 or Letter) are set; each design's look is
//! approximated as Word can — its headings ruled, on a tinted strip, letter-spaced between rules, or plain in
//! the accent — with the resume's own options (`/meta/design`): font, accent colour, text size, margins,
//! and which sections show in what order.
//! A cover letter ([`letter_docx`]) is set under the same header, in the same look.

use std::fmt::Write as _;
use std::io::Write as _;

use serde_json::Value;

use crate::choices::{Page, Template};
use crate::design::{Design, Style};
use crate::outline::{Entry, Header, Item, outline};
use crate::words::{Words, words};

/// XML text: the HTML export's escaping (`& < > " '`), with line breaks and tabs as spaces and the
/// characters XML 1.0 cannot hold dropped.
fn xml(text: &str) -> String {
    let kept: String = text
        .chars()
        .map(|c| {
            if matches!(c, '\t' | '\n' | '\r') {
                ' '
            } else {
                c
            }
        })
        .filter(|&c| (c as u32) >= 0x20 && !matches!(c, '\u{FFFE}' | '\u{FFFF}'))
        .collect();
    crate::export::escape(&kept)
}

/// The document's body, and the link targets it refers to (relationship ids `rIdLink1`, …).
struct Body<'a> {
    xml: String,
    links: Vec<String>,
    words: &'a Words,
}

impl Body<'_> {
    /// Paragraph properties every paragraph of a right-to-left resume carries.
    fn bidi(&self) -> &'static str {
        if self.words.rtl { "<w:bidi/>" } else { "" }
    }

    /// A run of text.
    fn run(&self, text: &str) -> String {
        let rtl = if self.words.rtl {
            "<w:rPr><w:rtl/></w:rPr>"
        } else {
            ""
        };
        format!(
            "<w:r>{rtl}<w:t xml:space=\"preserve\">{}</w:t></w:r>",
            xml(text)
        )
    }

    /// A run that is a link when the item has a safe target.
    fn item(&mut self, item: &Item) -> String {
        match &item.href {
            Some(href) => {
                self.links.push(href.clone());
                format!(
                    "<w:hyperlink r:id=\"rIdLink{}\"><w:r><w:rPr><w:rStyle w:val=\"Hyperlink\"/></w:rPr><w:t xml:space=\"preserve\">{}</w:t></w:r></w:hyperlink>",
                    self.links.len(),
                    xml(&item.text)
                )
            }
            None => self.run(&item.text),
        }
    }

    /// A paragraph in `style` of the given runs.
    fn paragraph(&mut self, style: &str, runs: &str) {
        let _ = write!(
            self.xml,
            "<w:p><w:pPr><w:pStyle w:val=\"{style}\"/>{}</w:pPr>{runs}</w:p>",
            self.bidi()
        );
    }

    fn text(&mut self, style: &str, text: &str) {
        if !text.is_empty() {
            let run = self.run(text);
            self.paragraph(style, &run);
        }
    }

    /// Items on one line, separated by " · ".
    fn items(&mut self, style: &str, items: &[Item]) {
        if items.is_empty() {
            return;
        }
        let separator = self.run(" · ");
        let runs: Vec<String> = items.iter().map(|i| self.item(i)).collect();
        let runs = runs.join(&separator);
        self.paragraph(style, &runs);
    }

    /// A bulleted list item: Word's numbering, level 0 of the bullet list.
    fn bullet(&mut self, text: &str) {
        let run = self.run(text);
        let _ = write!(
            self.xml,
            "<w:p><w:pPr><w:pStyle w:val=\"ListBullet\"/><w:numPr><w:ilvl w:val=\"0\"/><w:numId w:val=\"1\"/></w:numPr>{}</w:pPr>{run}</w:p>",
            self.bidi()
        );
    }

    /// The resume's header: the person's name, their title, contacts and profiles.
    fn header(&mut self, header: &Header) {
        self.text("Name", &header.name);
        self.text("Label", &header.label);
        self.items("Contacts", &header.contacts);
        self.items("Contacts", &header.profiles);
    }

    fn entry(&mut self, e: &Entry) {
        self.text("Heading2", &e.title);
        let mut sub: Vec<Item> = [&e.dates, &e.subtitle, &e.location]
            .into_iter()
            .filter(|t| !t.is_empty())
            .map(|t| Item {
                text: t.clone(),
                href: None,
            })
            .collect();
        sub.extend(e.url.clone());
        self.items("EntryMeta", &sub);
        for paragraph in e.summary.split("\n\n") {
            self.text("Normal", paragraph.trim());
        }
        for b in &e.bullets {
            self.bullet(b);
        }
        if !e.keywords.is_empty() {
            let line = self.words.list(&e.keywords);
            self.text("Keywords", &line);
        }
    }
}

/// The page's size, and margins of `margins` millimetres, in twentieths of a point.
fn section_properties(page: Page, margins: f64, rtl: bool) -> String {
    let (w, h) = match page {
        Page::A4 => (11906, 16838),
        Page::Letter => (12240, 15840),
    };
    let margin = (margins * 1440.0 / 25.4).round() as u32;
    let bidi = if rtl { "<w:bidi/>" } else { "" };
    format!(
        "<w:sectPr><w:pgSz w:w=\"{w}\" w:h=\"{h}\"/><w:pgMar w:top=\"{margin}\" w:right=\"{margin}\" w:bottom=\"{margin}\" w:left=\"{margin}\" w:header=\"708\" w:footer=\"708\" w:gutter=\"0\"/>{bidi}</w:sectPr>"
    )
}

const W_NS: &str = "xmlns:w=\"http://schemas.openxmlformats.org/wordprocessingml/2006/main\" xmlns:r=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships\"";

/// How a design sets its section headings, as Word can: over a rule, on a tinted strip, letter-spaced and
/// centred between rules, or in the accent alone.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Headings {
    Ruled,
    Strip,
    Spaced,
    Plain,
}

fn headings_of(template: Template) -> Headings {
    match template {
        Template::Classic | Template::Engineering => Headings::Ruled,
        Template::Compact | Template::Banner => Headings::Strip,
        Template::Elegant => Headings::Spaced,
        Template::Modern | Template::Sidebar | Template::Academic => Headings::Plain,
    }
}

/// A heading's paragraph and run properties in `template`'s manner, in the accent `accent` (`RRGGBB`).
fn heading_look(template: Template, accent: &str, size: u32) -> (String, String) {
    let rule = |side: &str| {
        format!("<w:{side} w:val=\"single\" w:sz=\"6\" w:space=\"1\" w:color=\"{accent}\"/>")
    };
    let spacing = "<w:spacing w:before=\"240\" w:after=\"80\"/>";
    let run = |extra: &str| {
        format!(
            "<w:b/>{extra}<w:color w:val=\"{accent}\"/><w:sz w:val=\"{size}\"/><w:szCs w:val=\"{size}\"/>"
        )
    };
    match headings_of(template) {
        Headings::Ruled => (
            format!("<w:pBdr>{}</w:pBdr>{spacing}", rule("bottom")),
            run("<w:caps/>"),
        ),
        Headings::Strip => (
            format!(
                "<w:shd w:val=\"clear\" w:color=\"auto\" w:fill=\"{}\"/>{spacing}",
                tint(accent)
            ),
            run("<w:caps/>"),
        ),
        Headings::Spaced => (
            format!(
                "<w:pBdr>{}{}</w:pBdr>{spacing}<w:jc w:val=\"center\"/>",
                rule("top"),
                rule("bottom")
            ),
            run("<w:caps/><w:spacing w:val=\"40\"/>"),
        ),
        Headings::Plain => (spacing.to_owned(), run("")),
    }
}

/// `accent` (`RRGGBB`) mixed with six parts of white: a strip light enough for its own text to read on it.
fn tint(accent: &str) -> String {
    (0..3)
        .map(|i| {
            let c =
                u8::from_str_radix(accent.get(2 * i..2 * i + 2).unwrap_or("00"), 16).unwrap_or(0);
            format!("{:02X}", (u16::from(c) + 6 * 255) / 7)
        })
        .collect()
}

/// The Word styles in `template`'s manner with the resume's options (`look`: its font, accent colour and
/// text size).
fn styles(template: Template, look: &Style, words: &Words) -> String {
    let font = look.font.family();
    let accent = look.accent.trim_start_matches('#').to_ascii_uppercase();
    let half_points = |times: f64| (look.size * times * 2.0).round() as u32;
    let (body_size, name_size, heading_size, entry_size) = (
        half_points(1.0),
        half_points(2.0),
        half_points(1.2),
        half_points(1.05),
    );
    let (heading_ppr, heading_rpr) = heading_look(template, &accent, heading_size);
    let lang = xml(&words.tag);
    let bidi_lang = if words.rtl {
        format!(" w:bidi=\"{lang}\"")
    } else {
        String::new()
    };
    let style = |id: &str, name: &str, ppr: &str, rpr: &str, outline: Option<u8>| {
        let level = outline
            .map(|l| format!("<w:outlineLvl w:val=\"{l}\"/>"))
            .unwrap_or_default();
        format!(
            "<w:style w:type=\"paragraph\" w:styleId=\"{id}\"><w:name w:val=\"{name}\"/><w:basedOn w:val=\"Normal\"/><w:next w:val=\"Normal\"/><w:qFormat/><w:pPr><w:keepNext/>{ppr}{level}</w:pPr><w:rPr>{rpr}</w:rPr></w:style>"
        )
    };
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n<w:styles {W_NS}><w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii=\"{font}\" w:hAnsi=\"{font}\" w:cs=\"{font}\" w:eastAsia=\"{font}\"/><w:sz w:val=\"{body_size}\"/><w:szCs w:val=\"{body_size}\"/><w:lang w:val=\"{lang}\"{bidi_lang}/></w:rPr></w:rPrDefault><w:pPrDefault><w:pPr><w:spacing w:after=\"80\" w:line=\"264\" w:lineRule=\"auto\"/></w:pPr></w:pPrDefault></w:docDefaults>\
<w:style w:type=\"paragraph\" w:default=\"1\" w:styleId=\"Normal\"><w:name w:val=\"Normal\"/><w:qFormat/></w:style>\
{}{}{}{}\
<w:style w:type=\"paragraph\" w:styleId=\"EntryMeta\"><w:name w:val=\"Entry details\"/><w:basedOn w:val=\"Normal\"/><w:rPr><w:i/><w:color w:val=\"555555\"/></w:rPr></w:style>\
<w:style w:type=\"paragraph\" w:styleId=\"Contacts\"><w:name w:val=\"Contacts\"/><w:basedOn w:val=\"Normal\"/><w:pPr><w:jc w:val=\"center\"/></w:pPr></w:style>\
<w:style w:type=\"paragraph\" w:styleId=\"Keywords\"><w:name w:val=\"Keywords\"/><w:basedOn w:val=\"Normal\"/><w:rPr><w:color w:val=\"555555\"/></w:rPr></w:style>\
<w:style w:type=\"paragraph\" w:styleId=\"ListBullet\"><w:name w:val=\"List Bullet\"/><w:basedOn w:val=\"Normal\"/><w:pPr><w:numPr><w:numId w:val=\"1\"/></w:numPr><w:spacing w:after=\"20\"/></w:pPr></w:style>\
<w:style w:type=\"paragraph\" w:styleId=\"LetterDate\"><w:name w:val=\"Letter date\"/><w:basedOn w:val=\"Normal\"/><w:pPr><w:spacing w:before=\"360\" w:after=\"240\"/><w:jc w:val=\"end\"/></w:pPr></w:style>\
<w:style w:type=\"paragraph\" w:styleId=\"Recipient\"><w:name w:val=\"Recipient\"/><w:basedOn w:val=\"Normal\"/><w:pPr><w:spacing w:after=\"0\"/></w:pPr></w:style>\
<w:style w:type=\"paragraph\" w:styleId=\"Subject\"><w:name w:val=\"Subject\"/><w:basedOn w:val=\"Normal\"/><w:pPr><w:spacing w:before=\"240\" w:after=\"240\"/></w:pPr><w:rPr><w:b/></w:rPr></w:style>\
<w:style w:type=\"paragraph\" w:styleId=\"Closing\"><w:name w:val=\"Closing\"/><w:basedOn w:val=\"Normal\"/><w:pPr><w:spacing w:before=\"240\" w:after=\"480\"/></w:pPr></w:style>\
<w:style w:type=\"character\" w:styleId=\"Hyperlink\"><w:name w:val=\"Hyperlink\"/><w:rPr><w:color w:val=\"0563C1\"/><w:u w:val=\"single\"/></w:rPr></w:style>\
</w:styles>",
        style(
            "Name",
            "Name",
            "<w:jc w:val=\"center\"/><w:spacing w:after=\"40\"/>",
            &format!(
                "<w:b/><w:color w:val=\"{accent}\"/><w:sz w:val=\"{name_size}\"/><w:szCs w:val=\"{name_size}\"/>"
            ),
            None
        ),
        style(
            "Label",
            "Label",
            "<w:jc w:val=\"center\"/>",
            "<w:sz w:val=\"24\"/><w:szCs w:val=\"24\"/>",
            None
        ),
        style("Heading1", "heading 1", &heading_ppr, &heading_rpr, Some(0)),
        style(
            "Heading2",
            "heading 2",
            "<w:spacing w:before=\"120\" w:after=\"0\"/>",
            &format!("<w:b/><w:sz w:val=\"{entry_size}\"/><w:szCs w:val=\"{entry_size}\"/>"),
            Some(1)
        ),
    )
}

const NUMBERING: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n<w:numbering xmlns:w=\"http://schemas.openxmlformats.org/wordprocessingml/2006/main\"><w:abstractNum w:abstractNumId=\"0\"><w:multiLevelType w:val=\"singleLevel\"/><w:lvl w:ilvl=\"0\"><w:start w:val=\"1\"/><w:numFmt w:val=\"bullet\"/><w:lvlText w:val=\"\u{2022}\"/><w:lvlJc w:val=\"left\"/><w:pPr><w:ind w:left=\"360\" w:hanging=\"240\"/></w:pPr></w:lvl></w:abstractNum><w:num w:numId=\"1\"><w:abstractNumId w:val=\"0\"/></w:num></w:numbering>";

const CONTENT_TYPES: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n<Types xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\"><Default Extension=\"rels\" ContentType=\"application/vnd.openxmlformats-package.relationships+xml\"/><Default Extension=\"xml\" ContentType=\"application/xml\"/><Override PartName=\"/word/document.xml\" ContentType=\"application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml\"/><Override PartName=\"/word/styles.xml\" ContentType=\"application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml\"/><Override PartName=\"/word/numbering.xml\" ContentType=\"application/vnd.openxmlformats-officedocument.wordprocessingml.numbering+xml\"/><Override PartName=\"/docProps/core.xml\" ContentType=\"application/vnd.openxmlformats-package.core-properties+xml\"/></Types>";

const ROOT_RELS: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n<Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\"><Relationship Id=\"rId1\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument\" Target=\"word/document.xml\"/><Relationship Id=\"rId2\" Type=\"http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties\" Target=\"docProps/core.xml\"/></Relationships>";

fn document_rels(links: &[String]) -> String {
    let mut out = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n<Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\"><Relationship Id=\"rIdStyles\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles\" Target=\"styles.xml\"/><Relationship Id=\"rIdNumbering\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/numbering\" Target=\"numbering.xml\"/>",
    );
    for (i, href) in links.iter().enumerate() {
        let _ = write!(
            out,
            "<Relationship Id=\"rIdLink{}\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink\" Target=\"{}\" TargetMode=\"External\"/>",
            i + 1,
            xml(href)
        );
    }
    out.push_str("</Relationships>");
    out
}

fn core(title: &str, author: &str, lang: &str) -> String {
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n<cp:coreProperties xmlns:cp=\"http://schemas.openxmlformats.org/package/2006/metadata/core-properties\" xmlns:dc=\"http://purl.org/dc/elements/1.1/\"><dc:title>{}</dc:title><dc:creator>{}</dc:creator><dc:language>{}</dc:language></cp:coreProperties>",
        xml(title),
        xml(author),
        xml(lang)
    )
}

/// The resume as a Word document, in `template`'s look on `page`.
pub fn docx(resume: &Value, template: Template, page: Page) -> Vec<u8> {
    let look = Design::of(resume).style(template);
    let (header, sections) = outline(resume);
    let sections = look.arrange(sections);
    let words = words(resume);
    let mut body = Body {
        xml: String::new(),
        links: Vec::new(),
        words: &words,
    };
    body.header(&header);
    for paragraph in header.summary.split("\n\n") {
        body.text("Normal", paragraph.trim());
    }
    for section in &sections {
        body.text("Heading1", &section.heading);
        for entry in &section.entries {
            body.entry(entry);
        }
    }
    package(
        body,
        (template, &look, page),
        &words.title(&header.name),
        &header.name,
    )
}

/// A cover letter as a Word document in the look of the resume that sends it (`template`'s, on `page`):
/// the resume's header (its person, title and contacts), then the letter's date, recipient, subject,
/// greeting, paragraphs and closing over the sender's name, in the letter's language.
pub fn letter_docx(letter: &Value, resume: &Value, template: Template, page: Page) -> Vec<u8> {
    let sender = crate::letter::sender_of(letter, resume);
    let look = Design::of(&sender).style(template);
    let (header, _) = outline(&sender);
    let words = words(&sender);
    let o = crate::letter::letter_outline(letter, &sender);
    let mut body = Body {
        xml: String::new(),
        links: Vec::new(),
        words: &words,
    };
    body.header(&header);
    body.text("LetterDate", &words.month_year(&o.date));
    for line in &o.recipient {
        body.text("Recipient", line);
    }
    body.text("Subject", &o.subject);
    body.text("Normal", &o.greeting);
    for paragraph in &o.paragraphs {
        body.text("Normal", paragraph);
    }
    body.text("Closing", &o.closing);
    body.text("Normal", &o.sender);
    let title = if o.subject.is_empty() {
        header.name.clone()
    } else {
        o.subject.clone()
    };
    package(body, (template, &look, page), &title, &header.name)
}

/// The Word file around `body`: its styles in `template`'s manner with the resume's options (`look`), the
/// page and its margins, the links and the title.
fn package(
    body: Body<'_>,
    (template, look, page): (Template, &Style, Page),
    title: &str,
    author: &str,
) -> Vec<u8> {
    let words = body.words;
    let document = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n<w:document {W_NS}><w:body>{}{}</w:body></w:document>",
        body.xml,
        section_properties(page, look.margins, words.rtl)
    );
    let files: [(&str, String); 7] = [
        ("[Content_Types].xml", CONTENT_TYPES.to_owned()),
        ("_rels/.rels", ROOT_RELS.to_owned()),
        ("word/document.xml", document),
        ("word/styles.xml", styles(template, look, words)),
        ("word/numbering.xml", NUMBERING.to_owned()),
        ("word/_rels/document.xml.rels", document_rels(&body.links)),
        ("docProps/core.xml", core(title, author, &words.tag)),
    ];
    let mut out = std::io::Cursor::new(Vec::new());
    {
        let mut zip = zip::ZipWriter::new(&mut out);
        let options = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated)
            // A fixed time: the same resume makes the same bytes.
            .last_modified_time(zip::DateTime::default());
        for (name, text) in files {
            // Writing to memory cannot fail.
            let _ = zip.start_file(name, options);
            let _ = zip.write_all(text.as_bytes());
        }
        let _ = zip.finish();
    }
    out.into_inner()
}
