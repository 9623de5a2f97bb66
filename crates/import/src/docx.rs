//! Word (`.docx`) and OpenDocument (`.odt`) files into lines: each paragraph one line, in document order
//! (tables' cells row by row), with what the file says about it — a heading style, a list item, its size.
//!
//! Bounded in what they yield as well as what they read: the XML is measured before it is parsed
//! ([`xml::parse`]); a paragraph is walked with a stack of the program's heap, not its calls; each holds
//! its own text only (a paragraph inside another, a text box's, is a line of its own); the text and lines
//! are counted against [`Output`]'s bounds as they are made; a link's target longer than
//! [`MAX_LINK_BYTES`] is left out, its text kept.

use std::collections::HashMap;
use std::sync::LazyLock;

use regex::Regex;

use crate::bounds::{MAX_LINK_BYTES, Output};
use crate::zipped::Archive;
use crate::{Format, ImportError, Line, xml};

const W: &str = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";
const TEXT: &str = "urn:oasis:names:tc:opendocument:xmlns:text:1.0";

type Node<'a, 'input> = roxmltree::Node<'a, 'input>;

/// A Word file's link targets by relationship id.
type Links<'a> = HashMap<&'a str, &'a str>;

/// The lines of a Word file's body.
pub fn docx(archive: &mut Archive) -> Result<Vec<Line>, ImportError> {
    let body = archive
        .text("word/document.xml")?
        .ok_or_else(|| ImportError::Broken("it has no word/document.xml".into()))?;
    let doc = xml::parse(&body, Format::Docx)?;
    let rels = archive
        .text("word/_rels/document.xml.rels")?
        .unwrap_or_default();
    // Relationships that cannot be read are no links.
    let rels = xml::parse(&rels, Format::Docx).ok();
    let links = rels.as_ref().map(links).unwrap_or_default();
    let mut out = Output::new(Format::Docx);
    for p in doc.descendants().filter(|n| n.has_tag_name((W, "p"))) {
        docx_paragraph(p, &links, &mut out)?;
    }
    Ok(out.into_lines())
}

/// The paragraph `p` of a Word file, as lines, into `out`.
fn docx_paragraph(p: Node, links: &Links, out: &mut Output) -> Result<(), ImportError> {
    let mut walk = Walk::new(Format::Docx, p);
    walk.run(links, out)?;
    let ppr = p.children().find(|n| n.has_tag_name((W, "pPr")));
    let style = ppr
        .and_then(|ppr| ppr.children().find(|n| n.has_tag_name((W, "pStyle"))))
        .and_then(|s| s.attribute((W, "val")))
        .unwrap_or("")
        .to_ascii_lowercase();
    let list_level = ppr.and_then(list_level);
    let listed = list_level.is_some() || style.contains("list");
    let level = style
        .strip_prefix("heading")
        .and_then(|n| n.trim().parse::<u8>().ok());
    let title = style == "title";
    let bold = walk.runs > 0 && walk.bold_runs == walk.runs;
    for (i, piece) in walk.text.split('\n').enumerate() {
        let piece = piece.trim();
        if piece.is_empty() {
            continue;
        }
        let mut line = Line::plain(&spaced(piece));
        line.heading = i == 0 && level.is_some_and(|l| l >= 1);
        line.size = if title {
            2.0
        } else {
            level.map_or(1.0, |l| 1.0 + 0.1 * f32::from(7u8.saturating_sub(l)))
        };
        line.bold = bold;
        line.bullet = listed;
        // A list inside another stands in by a level: two body sizes a level, as a word processor sets it.
        line.indent = 2.0 * f32::from(list_level.unwrap_or(0));
        out.push(line)?;
    }
    Ok(())
}

/// The level of the list whose item the paragraph properties `ppr` make (0 the outermost), if they make
/// one: a numbering other than number 0, which Word reads as "no list" (what a word processor writes for
/// a list item's second paragraph).
fn list_level(ppr: Node) -> Option<u8> {
    let numbering = ppr.children().find(|n| n.has_tag_name((W, "numPr")))?;
    let value = |name: &str| {
        (numbering.children())
            .find(|n| n.has_tag_name((W, name)))
            .and_then(|n| n.attribute((W, "val")))
    };
    if value("numId") == Some("0") {
        return None;
    }
    Some(
        value("ilvl")
            .and_then(|l| l.parse().ok())
            .unwrap_or(0)
            .min(8),
    )
}

/// `text` with its no-break spaces as spaces and each run of spaces one space (a web page saved by a
/// word processor keeps the `&nbsp;` between a title and its company); tabs stay. A year run together
/// with how long the job lasted ("Dec, 20204 years", where a page set the two apart by its style, not a
/// space) is set apart.
fn spaced(text: &str) -> String {
    static YEAR_THEN_DURATION: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)\b((?:19|20)\d\d)(\d{1,2}\s*(?:years?|yrs?|months?|mos?)\b)").unwrap()
    });
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        let c = if matches!(c, '\u{a0}' | '\u{202f}') {
            ' '
        } else {
            c
        };
        if !(c == ' ' && out.ends_with(' ')) {
            out.push(c);
        }
    }
    match YEAR_THEN_DURATION.replace_all(&out, "$1 $2") {
        std::borrow::Cow::Borrowed(_) => out,
        std::borrow::Cow::Owned(apart) => apart,
    }
}

const R: &str = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";

/// A Word file's link targets by relationship id.
fn links<'a>(rels: &'a roxmltree::Document) -> Links<'a> {
    rels.descendants()
        .filter(|n| n.tag_name().name() == "Relationship")
        .filter_map(|n| Some((n.attribute("Id")?, n.attribute("Target")?)))
        .collect()
}

/// Whether the run `run` is set in bold.
fn bold(run: Node) -> bool {
    run.children()
        .filter(|n| n.has_tag_name((W, "rPr")))
        .flat_map(|rpr| rpr.children())
        .any(|n| {
            n.has_tag_name((W, "b"))
                && n.attribute((W, "val"))
                    .is_none_or(|v| v != "0" && v != "false")
        })
}

/// One step of the walk over a paragraph: a node to read, or a link whose text has been read (its target
/// is said after it).
enum Step<'a, 'input> {
    Read(Node<'a, 'input>),
    LinkRead {
        link: Node<'a, 'input>,
        start: usize,
    },
}

/// A paragraph's text, read by a walk with a stack of its own (no depth of the file's is a depth of the
/// program's): its own text only — a paragraph inside it (a text box's) is a line of its own, not copied
/// into this one as well. A link's target after its text (`Site <https://…>`) where the text does not
/// already say it; a link inside a link is only text.
struct Walk<'a, 'input> {
    format: Format,
    steps: Vec<Step<'a, 'input>>,
    text: String,
    in_link: bool,
    runs: usize,
    bold_runs: usize,
}

impl<'a, 'input> Walk<'a, 'input> {
    fn new(format: Format, paragraph: Node<'a, 'input>) -> Self {
        let mut walk = Walk {
            format,
            steps: Vec::new(),
            text: String::new(),
            in_link: false,
            runs: 0,
            bold_runs: 0,
        };
        walk.enter(paragraph);
        walk
    }

    /// `node`'s children, to be read next, in their order.
    fn enter(&mut self, node: Node<'a, 'input>) {
        let at = self.steps.len();
        self.steps.extend(node.children().map(Step::Read));
        self.steps[at..].reverse();
    }

    /// The whole walk, the text counted against `out`'s bounds at each step.
    fn run(&mut self, links: &Links, out: &Output) -> Result<(), ImportError> {
        while let Some(step) = self.steps.pop() {
            match (step, self.format) {
                (Step::Read(node), Format::Docx) => self.read_docx(node),
                (Step::Read(node), _) => self.read_odt(node),
                (Step::LinkRead { link, start }, Format::Docx) => {
                    self.in_link = false;
                    self.docx_link(link, start, links)?;
                }
                (Step::LinkRead { link, start }, _) => {
                    self.in_link = false;
                    self.odt_link(link, start)?;
                }
            }
            out.room(self.text.len())?;
        }
        Ok(())
    }

    /// A link's start: its text read next, then its target.
    fn open_link(&mut self, link: Node<'a, 'input>) {
        self.in_link = true;
        self.steps.push(Step::LinkRead {
            link,
            start: self.text.len(),
        });
        self.enter(link);
    }

    fn read_docx(&mut self, node: Node<'a, 'input>) {
        if node.has_tag_name((W, "t")) {
            self.text.push_str(node.text().unwrap_or(""));
        } else if node.has_tag_name((W, "tab")) {
            self.text.push('\t');
        } else if node.has_tag_name((W, "br")) {
            self.text.push('\n');
        } else if node.has_tag_name((W, "p")) {
            // A paragraph inside this one: a line of its own.
        } else if node.has_tag_name((W, "hyperlink")) && !self.in_link {
            self.open_link(node);
        } else {
            if node.has_tag_name((W, "r")) {
                self.runs += 1;
                self.bold_runs += usize::from(bold(node));
            }
            self.enter(node);
        }
    }

    /// The Word link `link`, its text read from `start`: its target said where the text does not say it.
    fn docx_link(&mut self, link: Node, start: usize, links: &Links) -> Result<(), ImportError> {
        let target_of = |link: Node| links.get(link.attribute((R, "id"))?).copied();
        let Some(target) = target_of(link) else {
            return Ok(());
        };
        // A link cut in two (`Miss Direction ∙ ` and the address, each a link to the same place): the
        // target is said once, after the last piece.
        let continued = link
            .next_sibling_element()
            .filter(|n| n.has_tag_name((W, "hyperlink")))
            .is_some_and(|n| target_of(n) == Some(target));
        if continued {
            return Ok(());
        }
        if too_long(target) || !leads_out(target) {
            return Ok(());
        }
        let said = self.text[start..].trim();
        if let Some(full) = address_said(said, target) {
            self.text.replace_range(start.., &full);
        } else if !same_target(said, target) {
            self.say(target);
        }
        Ok(())
    }

    fn read_odt(&mut self, node: Node<'a, 'input>) {
        if node.is_text() {
            self.text.push_str(node.text().unwrap_or(""));
        } else if node.has_tag_name((TEXT, "tab")) {
            self.text.push('\t');
        } else if node.has_tag_name((TEXT, "s")) {
            self.text.push(' ');
        } else if node.has_tag_name((TEXT, "p")) || node.has_tag_name((TEXT, "h")) {
            // A paragraph inside this one: a line of its own.
        } else if node.has_tag_name((TEXT, "a")) && !self.in_link {
            self.open_link(node);
        } else if !node.has_tag_name((TEXT, "note")) {
            self.enter(node);
        }
    }

    /// The OpenDocument link `link`, its text read from `start`: its target said where the text does not
    /// say it.
    fn odt_link(&mut self, link: Node, start: usize) -> Result<(), ImportError> {
        let Some(target) = link.attribute((XLINK, "href")) else {
            return Ok(());
        };
        if too_long(target) || !leads_out(target) {
            return Ok(());
        }
        if !same_target(self.text[start..].trim(), target) {
            self.say(target);
        }
        Ok(())
    }

    /// ` <target>` after the text.
    fn say(&mut self, target: &str) {
        self.text.push_str(" <");
        self.text.push_str(target);
        self.text.push('>');
    }
}

const XLINK: &str = "http://www.w3.org/1999/xlink";

/// Whether a link's target is longer than [`MAX_LINK_BYTES`]: no export would make it a link (they keep
/// links to 2,000 bytes), and a file of many such links would ask for gigabytes. Its text is kept, its
/// target left out: one field never costs the whole file.
fn too_long(target: &str) -> bool {
    target.len() > MAX_LINK_BYTES
}

/// Whether a link's target is somewhere a reader of the resume can go: a web page, an e-mail address, a
/// phone. A word processor that saved a web page keeps its other links as they were (`#` within the page,
/// `file:` paths on the machine that saved it, relative paths): said after their text, they would only be
/// noise in the field they land in.
fn leads_out(target: &str) -> bool {
    let scheme = target.split_once(':').map_or("", |(scheme, _)| scheme);
    ["http", "https", "mailto", "tel"]
        .iter()
        .any(|s| scheme.eq_ignore_ascii_case(s))
}

/// Whether a link's text already says its target (`ada@x.com` for `mailto:ada@x.com`, a phone's number
/// for `tel:`, a trailing `/`).
fn same_target(text: &str, target: &str) -> bool {
    let bare = target.trim_start_matches("mailto:");
    let digits = |t: &str| t.chars().filter(char::is_ascii_digit).collect::<String>();
    let phone = target
        .strip_prefix("tel:")
        .is_some_and(|number| !number.is_empty() && digits(number) == digits(text));
    phone
        || text == target
        || text == bare
        || text.trim_end_matches('/') == target.trim_end_matches('/')
}

/// A link's text that is its web address with the scheme left out (`ada.example.com` for
/// `http://ada.example.com/`): the address as the link has it, without the trailing `/`.
fn address_said(text: &str, target: &str) -> Option<String> {
    let full = target.trim_end_matches('/');
    let bare = full
        .strip_prefix("https://")
        .or_else(|| full.strip_prefix("http://"))?;
    (text.trim_end_matches('/') == bare).then(|| full.to_owned())
}

/// The lines of an OpenDocument text's body.
pub fn odt(archive: &mut Archive) -> Result<Vec<Line>, ImportError> {
    let content = archive
        .text("content.xml")?
        .ok_or_else(|| ImportError::Broken("it has no content.xml".into()))?;
    let doc = xml::parse(&content, Format::Odt)?;
    let mut out = Output::new(Format::Odt);
    for node in doc
        .descendants()
        .filter(|n| n.has_tag_name((TEXT, "p")) || n.has_tag_name((TEXT, "h")))
    {
        let mut walk = Walk::new(Format::Odt, node);
        walk.run(&Links::new(), &out)?;
        let text = walk.text.trim();
        if text.is_empty() {
            continue;
        }
        let mut line = Line::plain(&spaced(text));
        if node.has_tag_name((TEXT, "h")) {
            let level: u8 = node
                .attribute((TEXT, "outline-level"))
                .and_then(|l| l.parse().ok())
                .unwrap_or(1);
            line.heading = true;
            line.size = 1.0 + 0.1 * f32::from(7u8.saturating_sub(level));
        }
        // At most `xml::MAX_DEPTH` steps up.
        line.bullet = node
            .ancestors()
            .any(|a| a.has_tag_name((TEXT, "list-item")));
        out.push(line)?;
    }
    Ok(out.into_lines())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paragraph(body: &str, links: &[(&str, &str)]) -> String {
        let xml = format!(r#"<w:p xmlns:w="{W}" xmlns:r="{R}">{body}</w:p>"#);
        let doc = xml::parse(&xml, Format::Docx).unwrap();
        let mut walk = Walk::new(Format::Docx, doc.root_element());
        walk.run(&links.iter().copied().collect(), &Output::new(Format::Docx))
            .unwrap();
        walk.text
    }

    /// The lines of one paragraph whose properties are `ppr` and whose text is `text`.
    fn lines_of(ppr: &str, text: &str) -> Vec<Line> {
        let xml = format!(
            r#"<w:p xmlns:w="{W}"><w:pPr>{ppr}</w:pPr><w:r><w:t xml:space="preserve">{text}</w:t></w:r></w:p>"#
        );
        let doc = xml::parse(&xml, Format::Docx).unwrap();
        let mut out = Output::new(Format::Docx);
        docx_paragraph(doc.root_element(), &Links::new(), &mut out).unwrap();
        out.into_lines()
    }

    #[test]
    fn a_list_items_level_is_its_indent_and_numbering_zero_is_no_list() {
        let numbered = |level: u8, id: u8| {
            format!(r#"<w:numPr><w:ilvl w:val="{level}"/><w:numId w:val="{id}"/></w:numPr>"#)
        };
        let item = &lines_of(&numbered(0, 2), "Engineering Manager, Quantix AG")[0];
        assert!(item.bullet && item.indent == 0.0);
        let nested = &lines_of(&numbered(1, 2), "Cut inventory waste by 40%.")[0];
        assert!(nested.bullet && nested.indent == 2.0);
        // A level out of range, or no number: an item, at most eight levels in.
        let deep = |level: &str| {
            let ppr =
                format!(r#"<w:numPr><w:ilvl w:val="{level}"/><w:numId w:val="2"/></w:numPr>"#);
            lines_of(&ppr, "Deep")[0].indent
        };
        assert_eq!(deep("9"), 16.0);
        assert_eq!(deep("99999999999"), 0.0);
        assert_eq!(deep("-1"), 0.0);
        // A list item's second paragraph: numbering 0, which Word reads as no list.
        let dates = &lines_of(&numbered(0, 0), "Jan, 2021 - Present")[0];
        assert!(!dates.bullet && dates.indent == 0.0);
        // A web page's `&nbsp;` between a title and its company is a space, and spaces run together.
        let spaced = &lines_of("", "Data Scientist,\u{a0}  Northwind")[0];
        assert_eq!(spaced.text, "Data Scientist, Northwind");
        let run_together = &lines_of("", "Oct, 2016 - Dec, 20204 years 2 months")[0];
        assert_eq!(run_together.text, "Oct, 2016 - Dec, 2020 4 years 2 months");
    }

    #[test]
    fn a_link_is_said_once_after_its_text() {
        let links = [
            ("a", "http://md.example.com/"),
            ("b", "http://md.example.com/"),
            ("c", "https://ada.example.com/"),
            ("d", "http://ada.example.com/"),
            ("e", "tel:(912)555-4321"),
        ];
        let run = |id: &str, text: &str| {
            format!(
                r#"<w:hyperlink r:id="{id}"><w:r><w:t xml:space="preserve">{text}</w:t></w:r></w:hyperlink>"#
            )
        };
        // One link cut in two pieces, the second its address: nothing added.
        let cut = run("a", "Miss Direction ∙ ") + &run("b", "http://md.example.com");
        assert_eq!(
            paragraph(&cut, &links),
            "Miss Direction ∙ http://md.example.com"
        );
        // A link whose text does not say where it goes: its target after it.
        assert_eq!(
            paragraph(&run("c", "Site"), &links),
            "Site <https://ada.example.com/>"
        );
        // An address with its scheme left out: the link's own; a phone's number: as it is.
        assert_eq!(
            paragraph(&run("d", "ada.example.com"), &links),
            "http://ada.example.com"
        );
        assert_eq!(
            paragraph(&run("e", "(912) 555-4321"), &links),
            "(912) 555-4321"
        );
        // A link within the page, or to a file where the document was saved: its text alone.
        let local = [
            ("f", "#"),
            ("g", "file:///tmp/.tmpSDxYWF/"),
            ("h", "cv.html"),
        ];
        for (id, _) in local {
            assert_eq!(paragraph(&run(id, "Contact me"), &local), "Contact me");
        }
        // Two links to different places, side by side: each said.
        let two = run("a", "Miss Direction") + &run("c", " Site");
        assert_eq!(
            paragraph(&two, &links),
            "Miss Direction <http://md.example.com/> Site <https://ada.example.com/>"
        );
    }
}
