//! The XML inside Word and OpenDocument files, parsed with bounds. Before the parser builds anything, one
//! pass over the bytes measures what it would be asked to build — how deep the elements nest, how many
//! attributes an element has and the document in all, how many namespaces are in scope — and a file past a
//! bound is refused in words; the parser then stops at [`MAX_NODES`]. Each bound is far above what a
//! resume, or a book, has.

use crate::bounds::{grouped, refused};
use crate::{Format, ImportError};

/// How deep elements may nest: a Word resume nests about 12 deep, a table in a table in a text box some
/// 30; each level is a step of every walk over the tree.
pub const MAX_DEPTH: usize = 256;

/// The most nodes (elements and texts) a document may have: a 30-page Word file has about 100,000; each
/// takes some 60 bytes of the parser's memory (30 MB at the bound).
pub const MAX_NODES: u32 = 500_000;

/// The most attributes one element may have: Word's root declares about 40 namespaces, LibreOffice's 60.
/// The parser compares each with those before it, so their cost grows with the square of their number.
pub const MAX_ELEMENT_ATTRIBUTES: usize = 128;

/// The most attributes a document may have: some 50 bytes of the parser's memory each (50 MB at the bound).
pub const MAX_ATTRIBUTES: usize = 1_000_000;

/// The most namespaces in scope at one element: the parser copies them to each element that declares
/// another, and searches them for each prefixed name.
pub const MAX_NAMESPACES: usize = 256;

/// What one pass over the bytes has found so far.
#[derive(Default)]
struct Scan {
    /// Namespaces declared by each open element, outermost first.
    declared: Vec<usize>,
    /// Their sum.
    in_scope: usize,
    elements: usize,
    attributes: usize,
}

/// `xml` parsed, the bounds checked first; `format` names the file in words.
pub fn parse(xml: &str, format: Format) -> Result<roxmltree::Document<'_>, ImportError> {
    measure(xml.as_bytes()).map_err(|crossed| crossed.refusal(format))?;
    let options = roxmltree::ParsingOptions {
        allow_dtd: false,
        nodes_limit: MAX_NODES,
        ..roxmltree::ParsingOptions::default()
    };
    roxmltree::Document::parse_with_options(xml, options).map_err(|e| match e {
        roxmltree::Error::NodesLimitReached => Crossed::Nodes.refusal(format),
        e => ImportError::Broken(format!("its document cannot be read ({e})")),
    })
}

/// A bound the bytes cross.
#[derive(Debug, PartialEq)]
enum Crossed {
    Depth,
    ElementAttributes,
    Attributes,
    Namespaces,
    Nodes,
}

impl Crossed {
    fn refusal(&self, format: Format) -> ImportError {
        let (crossed, most) = match self {
            Crossed::Depth => (
                format!("nests its elements more than {MAX_DEPTH} deep"),
                MAX_DEPTH.to_string(),
            ),
            Crossed::ElementAttributes => (
                format!("has an element of more than {MAX_ELEMENT_ATTRIBUTES} attributes"),
                MAX_ELEMENT_ATTRIBUTES.to_string(),
            ),
            Crossed::Attributes => (
                format!("has more than {} attributes", grouped(MAX_ATTRIBUTES)),
                grouped(MAX_ATTRIBUTES),
            ),
            Crossed::Namespaces => (
                format!("has more than {MAX_NAMESPACES} namespaces in scope at once"),
                MAX_NAMESPACES.to_string(),
            ),
            Crossed::Nodes => (
                format!("has more than {} XML nodes", grouped(MAX_NODES as usize)),
                grouped(MAX_NODES as usize),
            ),
        };
        refused(format, &crossed, &most)
    }
}

/// One pass over `xml`'s bytes, counting what the parser would build. Markup is read as XML has it
/// (comments, CDATA sections, processing instructions and declarations skipped; `>` inside a quoted
/// attribute value); a document this pass misreads is not well-formed, and the parser refuses it.
fn measure(xml: &[u8]) -> Result<(), Crossed> {
    let mut scan = Scan::default();
    let mut at = 0;
    while let Some(found) = memchr::memchr(b'<', &xml[at..]) {
        let start = at + found;
        let rest = &xml[start..];
        at = if rest.starts_with(b"<!--") {
            after(xml, start, b"-->")
        } else if rest.starts_with(b"<![CDATA[") {
            after(xml, start, b"]]>")
        } else if rest.starts_with(b"<?") {
            after(xml, start, b"?>")
        } else if rest.starts_with(b"<!") {
            after(xml, start, b">")
        } else if rest.starts_with(b"</") {
            scan.close();
            after(xml, start, b">")
        } else {
            scan.element(xml, start)?
        };
    }
    Ok(())
}

/// Where the first `end` after `start` ends (the end of `xml` without one).
fn after(xml: &[u8], start: usize, end: &[u8]) -> usize {
    memchr::memmem::find(&xml[start..], end).map_or(xml.len(), |i| start + i + end.len())
}

impl Scan {
    /// The start tag at `start`, counted: where it ends.
    fn element(&mut self, xml: &[u8], start: usize) -> Result<usize, Crossed> {
        let (mut attributes, mut namespaces) = (0, 0);
        let mut quote = None;
        let mut i = start + 1;
        while i < xml.len() {
            let byte = xml[i];
            match quote {
                Some(q) if byte == q => quote = None,
                Some(_) => {}
                None if byte == b'"' || byte == b'\'' => quote = Some(byte),
                None if byte == b'>' => break,
                None if byte == b'=' => {
                    attributes += 1;
                    let name = xml[start + 1..i]
                        .trim_ascii_end()
                        .rsplit(u8::is_ascii_whitespace)
                        .next()
                        .unwrap_or_default();
                    if name == b"xmlns" || name.starts_with(b"xmlns:") {
                        namespaces += 1;
                    }
                }
                None => {}
            }
            i += 1;
        }
        self.elements += 1;
        self.attributes += attributes;
        let empty = xml.get(i.wrapping_sub(1)) == Some(&b'/');
        self.declared.push(namespaces);
        self.in_scope += namespaces;
        let crossed = self.crossed(attributes);
        if empty {
            self.close();
        }
        crossed.map_or(Ok(i + 1), Err)
    }

    /// The end of the innermost open element.
    fn close(&mut self) {
        self.in_scope -= self.declared.pop().unwrap_or(0);
    }

    /// The first bound crossed, with an element of `attributes` just opened.
    fn crossed(&self, attributes: usize) -> Option<Crossed> {
        if self.declared.len() > MAX_DEPTH {
            Some(Crossed::Depth)
        } else if self.elements > MAX_NODES as usize {
            Some(Crossed::Nodes)
        } else if attributes > MAX_ELEMENT_ATTRIBUTES {
            Some(Crossed::ElementAttributes)
        } else if self.attributes > MAX_ATTRIBUTES {
            Some(Crossed::Attributes)
        } else if self.in_scope > MAX_NAMESPACES {
            Some(Crossed::Namespaces)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bytes_are_measured_as_xml_has_them() {
        let nested = |n: usize| "<a>".repeat(n) + &"</a>".repeat(n);
        assert_eq!(measure(nested(MAX_DEPTH).as_bytes()), Ok(()));
        assert_eq!(
            measure(nested(MAX_DEPTH + 1).as_bytes()),
            Err(Crossed::Depth)
        );
        // Empty elements, comments, CDATA and `>` in a value open nothing.
        let flat = format!(
            "<r>{}</r>",
            "<a x='>'/><!-- <b> --><![CDATA[<c>]]><?p <d>?>".repeat(MAX_DEPTH * 2)
        );
        assert_eq!(measure(flat.as_bytes()), Ok(()));
        let attributes = |n: usize| {
            let list: String = (0..n).map(|i| format!(" a{i} = \"\"")).collect();
            format!("<r{list}/>")
        };
        assert_eq!(
            measure(attributes(MAX_ELEMENT_ATTRIBUTES).as_bytes()),
            Ok(())
        );
        assert_eq!(
            measure(attributes(MAX_ELEMENT_ATTRIBUTES + 1).as_bytes()),
            Err(Crossed::ElementAttributes)
        );
        // Namespaces add up down the tree, and end with their element.
        let declaring = |n: usize| {
            let list: String = (0..n).map(|i| format!(" xmlns:n{i}='u'")).collect();
            format!("<a{list}>")
        };
        let half = declaring(MAX_NAMESPACES / 2);
        let siblings = format!("<r>{half}</a>{half}</a>{half}</a></r>");
        assert_eq!(measure(siblings.as_bytes()), Ok(()));
        let inside = format!("{half}{half}<b xmlns='u'/></a></a>");
        assert_eq!(measure(inside.as_bytes()), Err(Crossed::Namespaces));
    }

    #[test]
    fn a_document_past_a_bound_is_refused_in_words() {
        let deep = "<a>".repeat(300_000) + &"</a>".repeat(300_000);
        let e = parse(&deep, Format::Docx).unwrap_err().to_string();
        assert_eq!(
            e,
            "this Word document nests its elements more than 256 deep; Redline reads at most 256; nothing was imported"
        );
        let many = format!("<r>{}</r>", "<a/>".repeat(MAX_NODES as usize));
        let e = parse(&many, Format::Odt).unwrap_err().to_string();
        assert!(e.contains("more than 500,000 XML nodes"), "{e}");
    }
}
