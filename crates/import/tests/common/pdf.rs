//! PDFs made by hand, object by object: what the tests of reading PDFs need and no tool writes (a page
//! with nothing drawn on it, a content stream that inflates far past its size, forms drawn within forms).
//! The import's tests take it from `common`; another crate's test can take it with
//! `#[path = "…/crates/import/tests/common/pdf.rs"] mod pdf;` (`tests/cli.rs` does).

/// A PDF of `objects` (object 1 first, the catalogue), with its cross-reference table.
pub fn pdf_of(objects: &[Vec<u8>]) -> Vec<u8> {
    let mut pdf = b"%PDF-1.7\n".to_vec();
    let mut offsets = Vec::new();
    for (i, object) in objects.iter().enumerate() {
        offsets.push(pdf.len());
        pdf.extend_from_slice(format!("{} 0 obj\n", i + 1).as_bytes());
        pdf.extend_from_slice(object);
        pdf.extend_from_slice(b"\nendobj\n");
    }
    let xref = pdf.len();
    pdf.extend_from_slice(
        format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).as_bytes(),
    );
    for offset in offsets {
        pdf.extend_from_slice(format!("{offset:010} 00000 n \n").as_bytes());
    }
    pdf.extend_from_slice(
        format!(
            "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
            objects.len() + 1
        )
        .as_bytes(),
    );
    pdf
}

/// The objects of a one-page PDF (the catalogue, the page tree, the page, its content), for [`pdf_of`]:
/// `page` is what the page's dictionary holds besides its type, parent and content (its size, its
/// resources), and `contents` is its content stream ([`stream_object`]).
pub fn one_page(page: &str, contents: Vec<u8>) -> Vec<Vec<u8>> {
    vec![
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
        format!("<< /Type /Page /Parent 2 0 R {page} /Contents 4 0 R >>").into_bytes(),
        contents,
    ]
}

/// A stream object: `dict` (without its length) and `content`.
pub fn stream_object(dict: &str, content: &[u8]) -> Vec<u8> {
    [
        format!("<< {dict} /Length {} >>\nstream\n", content.len()).as_bytes(),
        content,
        b"\nendstream",
    ]
    .concat()
}
