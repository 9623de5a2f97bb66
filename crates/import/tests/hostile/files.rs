//! Files sent to hurt (issue #50), made here in memory rather than kept as blobs: each small as it travels
//! and built to make a reader produce far more than it read, nest deeper than a stack holds, or take time
//! out of all proportion. The one generator of them: `crates/import/tests/hostile.rs` runs each through
//! the importer; another crate's test can take them with
//! `#[path = "…/crates/import/tests/hostile/files.rs"] mod hostile_files;` (it needs `zip` among its
//! dev-dependencies) and write [`all`] to files for the command line or the window.
#![allow(dead_code)]

use std::io::Write as _;

/// One hostile file: the name it travels under, what it does, and how it is made.
pub struct Hostile {
    pub name: &'static str,
    pub what: &'static str,
    pub make: fn() -> Vec<u8>,
}

/// Every hostile file (each made when its `make` is called).
pub fn all() -> Vec<Hostile> {
    vec![
        Hostile {
            name: "links.docx",
            what: "5,000 hyperlinks to relationship targets of 1 MB each",
            make: docx_link_amplification,
        },
        Hostile {
            name: "relationships.docx",
            what: "a paragraph of 50,000 hyperlinks, each to its own of 50,000 relationships",
            make: docx_many_relationships,
        },
        Hostile {
            name: "deep.docx",
            what: "paragraphs nested 200,000 deep",
            make: || docx_deep(200_000),
        },
        Hostile {
            name: "nested.docx",
            what: "paragraphs nested 200 deep, 16 KB of text at each level",
            make: docx_nested_paragraphs,
        },
        Hostile {
            name: "deep.odt",
            what: "paragraphs nested 200,000 deep",
            make: || odt_deep(200_000),
        },
        Hostile {
            name: "cdata.docx",
            what: "one text of 200,000 adjacent CDATA sections",
            make: || docx_cdata_runs(200_000),
        },
        Hostile {
            name: "elements.docx",
            what: "2,000,000 empty paragraphs",
            make: || docx_elements(2_000_000),
        },
        Hostile {
            name: "attributes.docx",
            what: "one element of 200,000 attributes",
            make: || docx_attributes(200_000),
        },
        Hostile {
            name: "namespaces.docx",
            what: "10,000 namespaces declared 100 deep, then 100,000 elements each declaring one more",
            make: || docx_namespaces(10_000, 100_000),
        },
        Hostile {
            name: "wide.zip",
            what: "a LinkedIn export whose Profile.csv has 300,000 columns and 40 rows",
            make: || linkedin_wide(300_000, 40),
        },
        Hostile {
            name: "huge.json",
            what: "31 MB of JSON values",
            make: || json_values(31 << 20),
        },
        Hostile {
            name: "values.json",
            what: "4 MB of JSON values (the largest JSON file read)",
            make: || json_values(4 << 20),
        },
        Hostile {
            name: "nowhere.txt",
            what: "2,000,000 lines that place nowhere",
            make: || text_nowhere(2_000_000),
        },
    ]
}

/// A ZIP of `files`, deflated.
pub fn zip_of(files: &[(&str, &[u8])]) -> Vec<u8> {
    let mut out = std::io::Cursor::new(Vec::new());
    {
        let mut zip = zip::ZipWriter::new(&mut out);
        let options = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated);
        for (name, bytes) in files {
            zip.start_file(*name, options).unwrap();
            zip.write_all(bytes).unwrap();
        }
        zip.finish().unwrap();
    }
    out.into_inner()
}

const W: &str = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";
const R: &str = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const RELS: &str = "http://schemas.openxmlformats.org/package/2006/relationships";
const TEXT: &str = "urn:oasis:names:tc:opendocument:xmlns:text:1.0";
const OFFICE: &str = "urn:oasis:names:tc:opendocument:xmlns:office:1.0";

/// A Word file of `body` (the inside of `w:body`) and `relationships` (id, target).
pub fn docx(body: &str, relationships: &[(String, String)]) -> Vec<u8> {
    let document = format!(
        r#"<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="{W}" xmlns:r="{R}"><w:body>{body}</w:body></w:document>"#
    );
    let mut rels =
        format!(r#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="{RELS}">"#);
    for (id, target) in relationships {
        rels.push_str(&format!(
            r#"<Relationship Id="{id}" Type="{R}/hyperlink" Target="{target}" TargetMode="External"/>"#
        ));
    }
    rels.push_str("</Relationships>");
    zip_of(&[
        ("[Content_Types].xml", b"<Types/>"),
        ("word/document.xml", document.as_bytes()),
        ("word/_rels/document.xml.rels", rels.as_bytes()),
    ])
}

/// A paragraph of one run of `text`.
fn paragraph(text: &str) -> String {
    format!("<w:p><w:r><w:t>{text}</w:t></w:r></w:p>")
}

/// A name, then 5,000 hyperlinks, each to one of 16 relationship targets of 1 MB (16 MB of relationships
/// inflated, a few KB deflated): appended to its paragraph, each asks for a megabyte.
pub fn docx_link_amplification() -> Vec<u8> {
    let targets: Vec<(String, String)> = (0..16)
        .map(|i| {
            (
                format!("rId{i}"),
                format!("https://example.com/{}", "a".repeat(1 << 20)),
            )
        })
        .collect();
    let mut body = paragraph("Ada Lovelace");
    body.push_str("<w:p>");
    for i in 0..5_000 {
        body.push_str(&format!(
            r#"<w:hyperlink r:id="rId{}"><w:r><w:t>site</w:t></w:r></w:hyperlink><w:r><w:t> </w:t></w:r>"#,
            i % 16
        ));
    }
    body.push_str("</w:p>");
    docx(&body, &targets)
}

/// A paragraph of 50,000 hyperlinks, each to its own relationship of 50,000: a linear search for each is
/// 2.5 billion comparisons.
pub fn docx_many_relationships() -> Vec<u8> {
    let count = 50_000;
    let targets: Vec<(String, String)> = (0..count)
        .map(|i| (format!("rId{i}"), format!("https://example.com/{i}")))
        .collect();
    let mut body = paragraph("Ada Lovelace");
    body.push_str("<w:p>");
    for i in 0..count {
        body.push_str(&format!(
            r#"<w:hyperlink r:id="rId{i}"><w:r><w:t>site</w:t></w:r></w:hyperlink>"#
        ));
    }
    body.push_str("</w:p>");
    docx(&body, &targets)
}

/// Paragraphs nested `levels` deep, a word at each level.
pub fn docx_deep(levels: usize) -> Vec<u8> {
    let mut body = String::with_capacity(levels * 40);
    for _ in 0..levels {
        body.push_str("<w:p><w:r><w:t>word</w:t></w:r>");
    }
    body.push_str(&"</w:p>".repeat(levels));
    docx(&body, &[])
}

/// Paragraphs nested 200 deep (within any bound on depth), 16 KB of text at each level: a paragraph
/// whose line holds all the text below it makes 200 × 100 × 16 KB = 320 MB of lines from 3 MB of text.
pub fn docx_nested_paragraphs() -> Vec<u8> {
    let levels = 200;
    let text = "word ".repeat(3_277);
    let mut body = paragraph("Ada Lovelace");
    for _ in 0..levels {
        body.push_str(&format!("<w:p><w:r><w:t>{text}</w:t></w:r>"));
    }
    body.push_str(&"</w:p>".repeat(levels));
    docx(&body, &[])
}

/// An OpenDocument text of `body` (the inside of `office:text`).
pub fn odt(body: &str) -> Vec<u8> {
    let content = format!(
        r#"<?xml version="1.0" encoding="UTF-8"?><office:document-content xmlns:office="{OFFICE}" xmlns:text="{TEXT}"><office:body><office:text>{body}</office:text></office:body></office:document-content>"#
    );
    zip_of(&[
        ("mimetype", b"application/vnd.oasis.opendocument.text"),
        ("content.xml", content.as_bytes()),
    ])
}

/// OpenDocument paragraphs nested `levels` deep, a word at each level.
pub fn odt_deep(levels: usize) -> Vec<u8> {
    let mut body = String::with_capacity(levels * 20);
    for _ in 0..levels {
        body.push_str("<text:p>word ");
    }
    body.push_str(&"</text:p>".repeat(levels));
    odt(&body)
}

/// A name, then one run whose text is `sections` adjacent CDATA sections of one letter each (roxmltree
/// 0.20 copied the text so far at each of them).
pub fn docx_cdata_runs(sections: usize) -> Vec<u8> {
    let mut body = paragraph("Ada Lovelace");
    body.push_str("<w:p><w:r><w:t>");
    body.push_str(&"<![CDATA[x]]>".repeat(sections));
    body.push_str("</w:t></w:r></w:p>");
    docx(&body, &[])
}

/// A name, then `count` empty paragraphs: each a node the parser keeps.
pub fn docx_elements(count: usize) -> Vec<u8> {
    let body = paragraph("Ada Lovelace") + &"<w:p/>".repeat(count);
    docx(&body, &[])
}

/// A name, then one paragraph of `count` attributes (a parser that looks for a duplicate among those
/// before each one compares them two by two).
pub fn docx_attributes(count: usize) -> Vec<u8> {
    let mut body = paragraph("Ada Lovelace");
    body.push_str("<w:p");
    for i in 0..count {
        body.push_str(&format!(" a{i}=\"\""));
    }
    body.push_str("/>");
    docx(&body, &[])
}

/// A name, then `declared` namespaces declared by 100 nested elements around `elements` elements, each
/// declaring one more (a parser that copies the namespaces in scope to each element that declares one
/// copies `declared` × `elements` of them).
pub fn docx_namespaces(declared: usize, elements: usize) -> Vec<u8> {
    let levels = 100;
    let mut body = paragraph("Ada Lovelace");
    for level in 0..levels {
        body.push_str("<w:p");
        for i in (level..declared).step_by(levels) {
            body.push_str(&format!(" xmlns:n{i}=\"urn:n{i}\""));
        }
        body.push('>');
    }
    for _ in 0..elements {
        body.push_str(r#"<w:r xmlns:m="urn:m"/>"#);
    }
    body.push_str(&"</w:p>".repeat(levels));
    docx(&body, &[])
}

/// A LinkedIn export whose `Profile.csv` has `columns` columns and `rows` rows of one-letter fields: each
/// field a map entry, ~100 times its two bytes.
pub fn linkedin_wide(columns: usize, rows: usize) -> Vec<u8> {
    let mut csv = String::from("First Name,Last Name");
    for i in 2..columns {
        csv.push_str(&format!(",c{i}"));
    }
    csv.push('\n');
    let row = format!("Ada,Lovelace{}\n", ",a".repeat(columns - 2));
    for _ in 0..rows {
        csv.push_str(&row);
    }
    zip_of(&[("Profile.csv", csv.as_bytes())])
}

/// A JSON Resume of `bytes` bytes, most of them a list of zeros in its basics (two bytes a value).
pub fn json_values(bytes: usize) -> Vec<u8> {
    let head = br#"{"basics": {"name": "Ada Lovelace", "x": ["#;
    let mut out = head.to_vec();
    out.extend_from_slice(&b"0,".repeat((bytes - head.len() - 4) / 2));
    out.extend_from_slice(b"0]}}");
    out
}

/// A name, then `lines` lines that are nothing a resume has (no date, no heading, no contact).
pub fn text_nowhere(lines: usize) -> Vec<u8> {
    let mut out = b"# Ada Lovelace\n\n".to_vec();
    out.extend_from_slice(&b"q\n".repeat(lines));
    out
}
