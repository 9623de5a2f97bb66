//! Word (`.docx`) and OpenDocument (`.odt`) files into lines: each paragraph one line, in document order
//! (tables' cells row by row), with what the file says about it — a heading style, a list item, its size.

use crate::zipped::Archive;
use crate::{ImportError, Line};

const W: &str = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";
const TEXT: &str = "urn:oasis:names:tc:opendocument:xmlns:text:1.0";

/// XML parsed with a bound on its nodes (roxmltree's own limit is 4 billion).
fn parse(xml: &str) -> Result<roxmltree::Document<'_>, ImportError> {
    let options = roxmltree::ParsingOptions {
        allow_dtd: false,
        nodes_limit: 2_000_000,
    };
    roxmltree::Document::parse_with_options(xml, options)
        .map_err(|e| ImportError::Broken(format!("its document cannot be read ({e})")))
}

/// The lines of a Word file's body.
pub fn docx(archive: &mut Archive) -> Result<Vec<Line>, ImportError> {
    let xml = archive
        .text("word/document.xml")?
        .ok_or_else(|| ImportError::Broken("it has no word/document.xml".into()))?;
    let doc = parse(&xml)?;
    let rels = archive
        .text("word/_rels/document.xml.rels")?
        .unwrap_or_default();
    let links = links(&rels);
    let mut out = Vec::new();
    for p in doc.descendants().filter(|n| n.has_tag_name((W, "p"))) {
        let mut text = String::new();
        runs_text(p, &links, &mut text);
        let ppr = p.children().find(|n| n.has_tag_name((W, "pPr")));
        let style = ppr
            .and_then(|ppr| ppr.children().find(|n| n.has_tag_name((W, "pStyle"))))
            .and_then(|s| s.attribute((W, "val")))
            .unwrap_or("")
            .to_ascii_lowercase();
        let listed = ppr.is_some_and(|ppr| ppr.children().any(|n| n.has_tag_name((W, "numPr"))))
            || style.contains("list");
        let level = style
            .strip_prefix("heading")
            .and_then(|n| n.trim().parse::<u8>().ok());
        let title = style == "title";
        let bold = {
            let runs: Vec<_> = p
                .descendants()
                .filter(|n| n.has_tag_name((W, "r")))
                .collect();
            !runs.is_empty()
                && runs.iter().all(|r| {
                    r.descendants().any(|n| {
                        n.has_tag_name((W, "b"))
                            && n.attribute((W, "val"))
                                .is_none_or(|v| v != "0" && v != "false")
                    })
                })
        };
        for (i, piece) in text.split('\n').enumerate() {
            let piece = piece.trim();
            if piece.is_empty() {
                continue;
            }
            let mut line = Line::plain(piece);
            line.heading = i == 0 && level.is_some_and(|l| l >= 1);
            line.size = if title {
                2.0
            } else {
                level.map_or(1.0, |l| 1.0 + 0.1 * f32::from(7u8.saturating_sub(l)))
            };
            line.bold = bold;
            line.bullet = listed;
            out.push(line);
        }
    }
    Ok(out)
}

const R: &str = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";

/// A Word file's link targets by relationship id.
fn links(rels: &str) -> Vec<(String, String)> {
    let Ok(doc) = parse(rels) else {
        return Vec::new();
    };
    doc.descendants()
        .filter(|n| n.tag_name().name() == "Relationship")
        .filter_map(|n| {
            Some((
                n.attribute("Id")?.to_owned(),
                n.attribute("Target")?.to_owned(),
            ))
        })
        .collect()
}

/// The text of a paragraph's runs into `out`; a link's target after its text (`Site <https://…>`) where
/// the text does not already say it.
fn runs_text(node: roxmltree::Node, links: &[(String, String)], out: &mut String) {
    for child in node.children() {
        if child.has_tag_name((W, "t")) {
            out.push_str(child.text().unwrap_or(""));
        } else if child.has_tag_name((W, "tab")) {
            out.push('\t');
        } else if child.has_tag_name((W, "br")) {
            out.push('\n');
        } else if child.has_tag_name((W, "hyperlink")) {
            let start = out.len();
            runs_text(child, links, out);
            let target_of = |link: roxmltree::Node| {
                let id = link.attribute((R, "id"))?;
                links.iter().find(|(i, _)| i == id).map(|(_, t)| t.as_str())
            };
            let target = target_of(child);
            // A link cut in two (`Miss Direction ∙ ` and the address, each a link to the same place):
            // the target is said once, after the last piece.
            let continued = child
                .next_sibling_element()
                .filter(|n| n.has_tag_name((W, "hyperlink")))
                .is_some_and(|n| target_of(n) == target);
            if let Some(target) = target.filter(|_| !continued) {
                let text = out[start..].trim().to_owned();
                if let Some(full) = address_said(&text, target) {
                    out.replace_range(start.., &full);
                } else if !same_target(&text, target) {
                    out.push_str(&format!(" <{target}>"));
                }
            }
        } else {
            runs_text(child, links, out);
        }
    }
}

const XLINK: &str = "http://www.w3.org/1999/xlink";

/// An OpenDocument paragraph's text into `out`; a link's target after its text where the text does not
/// already say it.
fn odt_text(node: roxmltree::Node, out: &mut String) {
    for child in node.children() {
        if child.is_text() {
            out.push_str(child.text().unwrap_or(""));
        } else if child.has_tag_name((TEXT, "tab")) {
            out.push('\t');
        } else if child.has_tag_name((TEXT, "s")) {
            out.push(' ');
        } else if child.has_tag_name((TEXT, "a")) {
            let start = out.len();
            odt_text(child, out);
            if let Some(target) = child.attribute((XLINK, "href")) {
                let text = out[start..].trim().to_owned();
                if !same_target(&text, target) {
                    out.push_str(&format!(" <{target}>"));
                }
            }
        } else if !child.has_tag_name((TEXT, "note")) {
            odt_text(child, out);
        }
    }
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
    let xml = archive
        .text("content.xml")?
        .ok_or_else(|| ImportError::Broken("it has no content.xml".into()))?;
    let doc = parse(&xml)?;
    let mut out = Vec::new();
    for node in doc
        .descendants()
        .filter(|n| n.has_tag_name((TEXT, "p")) || n.has_tag_name((TEXT, "h")))
    {
        let mut text = String::new();
        odt_text(node, &mut text);
        let text = text.trim();
        if text.is_empty() {
            continue;
        }
        let mut line = Line::plain(text);
        if node.has_tag_name((TEXT, "h")) {
            let level: u8 = node
                .attribute((TEXT, "outline-level"))
                .and_then(|l| l.parse().ok())
                .unwrap_or(1);
            line.heading = true;
            line.size = 1.0 + 0.1 * f32::from(7u8.saturating_sub(level));
        }
        line.bullet = node
            .ancestors()
            .any(|a| a.has_tag_name((TEXT, "list-item")));
        out.push(line);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paragraph(body: &str, links: &[(String, String)]) -> String {
        let xml = format!(r#"<w:p xmlns:w="{W}" xmlns:r="{R}">{body}</w:p>"#);
        let doc = parse(&xml).unwrap();
        let mut out = String::new();
        runs_text(doc.root_element(), links, &mut out);
        out
    }

    #[test]
    fn a_link_is_said_once_after_its_text() {
        let links = [
            ("a", "http://md.example.com/"),
            ("b", "http://md.example.com/"),
            ("c", "https://ada.example.com/"),
            ("d", "http://ada.example.com/"),
            ("e", "tel:(912)555-4321"),
        ]
        .map(|(id, target)| (id.to_owned(), target.to_owned()));
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
        // Two links to different places, side by side: each said.
        let two = run("a", "Miss Direction") + &run("c", " Site");
        assert_eq!(
            paragraph(&two, &links),
            "Miss Direction <http://md.example.com/> Site <https://ada.example.com/>"
        );
    }
}
