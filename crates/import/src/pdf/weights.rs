//! Which of a PDF's text is set in bold. pdf-extract gives each glyph's place and size but not its font,
//! so each page's content is walked once more, as pdf-extract walks it (a form's content in place of its
//! `Do`, with a fresh state), and each string it shows — one `begin_word` in pdf-extract's output — is
//! marked by its font (a bold face, by its name, weight or flags) and its rendering (filled and stroked:
//! the bold a writer makes of a regular face). A page whose strings do not match pdf-extract's count
//! one for one is read as if none of it were bold (`Collect::end_page`).

use std::collections::HashMap;

use pdf_extract::content::Content;
use pdf_extract::{Dictionary, Document, Object, ObjectId, Stream};

/// How deep forms may stand in forms before a page's weights are given up.
const MAX_DEPTH: usize = 8;
/// How many parents a page may climb to find its resources.
const MAX_PARENTS: usize = 32;
/// How many operations the walk reads in all, forms' as often as they are drawn: a form drawn a hundred
/// times in a form drawn a hundred times, eight deep, is 10^16 of them. Past this, the pages left are read
/// with no bold.
const MAX_OPERATIONS: usize = 4_000_000;

/// Per page (in pdf-extract's order), whether each string shown is bold; `None` for a page whose
/// content cannot be walked.
pub(super) fn shown_bold(doc: &Document) -> Vec<Option<Vec<bool>>> {
    let mut walk = Walk {
        doc,
        shown: Vec::new(),
        faces: HashMap::new(),
        operations: 0,
    };
    doc.get_pages()
        .values()
        .map(|&page| {
            walk.shown.clear();
            walk.faces.clear();
            let content = doc.get_page_content(page).ok()?;
            walk.stream(&content, page_resources(doc, page), 0)?;
            Some(std::mem::take(&mut walk.shown))
        })
        .collect()
}

struct Walk<'a> {
    doc: &'a Document,
    shown: Vec<bool>,
    /// Whether each font dictionary met is a bold face, by its place in the file (or its address in
    /// memory, for one written inline).
    faces: HashMap<usize, bool>,
    /// The operations read so far, in all pages.
    operations: usize,
}

/// What of the graphics state says bold; saved by `q` and restored by `Q`.
#[derive(Clone, Copy, Default)]
struct State {
    bold_face: bool,
    stroked: bool,
}

impl<'a> Walk<'a> {
    fn stream(
        &mut self,
        content: &[u8],
        resources: Option<&'a Dictionary>,
        depth: usize,
    ) -> Option<()> {
        if depth > MAX_DEPTH {
            return None;
        }
        let content = Content::decode(content).ok()?;
        let mut state = State::default();
        let mut saved = Vec::new();
        for op in &content.operations {
            self.operations += 1;
            if self.operations > MAX_OPERATIONS {
                return None;
            }
            match op.operator.as_str() {
                "q" => saved.push(state),
                "Q" => state = saved.pop().unwrap_or(state),
                "Tf" => {
                    let name = op.operands.first()?.as_name().ok()?;
                    state.bold_face = self.bold_face(resources, name);
                }
                // 2 and 6: fill then stroke, the glyph drawn thicker than its face.
                "Tr" => {
                    let mode = op.operands.first().and_then(|o| o.as_i64().ok());
                    state.stroked = matches!(mode, Some(2 | 6));
                }
                "Tj" => self.shown.push(state.bold_face || state.stroked),
                "TJ" => {
                    if let Some(Object::Array(parts)) = op.operands.first() {
                        let strings = parts.iter().filter(|p| matches!(p, Object::String(..)));
                        self.shown
                            .extend(strings.map(|_| state.bold_face || state.stroked));
                    }
                }
                "Do" => {
                    let name = op.operands.first()?.as_name().ok()?;
                    let form = entry(self.doc, resources, b"XObject", name)?
                        .as_stream()
                        .ok()?;
                    // An image shows no text (pdf-extract walks it too, and finds none).
                    if form
                        .dict
                        .get(b"Subtype")
                        .and_then(Object::as_name)
                        .is_ok_and(|s| s == b"Image")
                    {
                        continue;
                    }
                    let inner = match form.dict.get(b"Resources") {
                        Ok(r) => deref(self.doc, r).and_then(|r| r.as_dict().ok()),
                        Err(_) => resources,
                    };
                    self.stream(&contents(form), inner, depth + 1)?;
                }
                _ => {}
            }
        }
        Some(())
    }

    /// Whether the font `name` in `resources` is a bold face.
    fn bold_face(&mut self, resources: Option<&'a Dictionary>, name: &[u8]) -> bool {
        let Some(font) = entry(self.doc, resources, b"Font", name).and_then(|f| f.as_dict().ok())
        else {
            return false;
        };
        let key = std::ptr::from_ref(font) as usize;
        if let Some(&bold) = self.faces.get(&key) {
            return bold;
        }
        let bold = self.named_bold(font)
            || self.heavy(font)
            || self
                .descendant(font)
                .is_some_and(|d| self.named_bold(d) || self.heavy(d));
        self.faces.insert(key, bold);
        bold
    }

    /// "ABCDEF+LiberationSans-Bold", "Arial-BoldMT", "Inter-SemiBold", "Lato-Black".
    fn named_bold(&self, font: &Dictionary) -> bool {
        let Some(name) = font.get(b"BaseFont").ok().and_then(|n| n.as_name().ok()) else {
            return false;
        };
        let name = String::from_utf8_lossy(name).to_lowercase();
        let face = name.split_once('+').map_or(name.as_str(), |(_, face)| face);
        ["bold", "black", "heavy", "demi"]
            .iter()
            .any(|w| face.contains(w))
    }

    /// A descriptor that gives a weight of 600 or more, or forces bold (flag 19).
    fn heavy(&self, font: &Dictionary) -> bool {
        let Some(descriptor) = font
            .get(b"FontDescriptor")
            .ok()
            .and_then(|d| deref(self.doc, d))
            .and_then(|d| d.as_dict().ok())
        else {
            return false;
        };
        let number = |key: &[u8]| {
            let o = deref(self.doc, descriptor.get(key).ok()?)?;
            o.as_i64()
                .ok()
                .or_else(|| o.as_float().ok().map(|f| f as i64))
        };
        number(b"FontWeight").is_some_and(|w| w >= 600)
            || number(b"Flags").is_some_and(|f| f & (1 << 18) != 0)
    }

    /// A composite font's one descendant.
    fn descendant<'d>(&'d self, font: &'d Dictionary) -> Option<&'d Dictionary> {
        let list = deref(self.doc, font.get(b"DescendantFonts").ok()?)?
            .as_array()
            .ok()?;
        deref(self.doc, list.first()?)?.as_dict().ok()
    }
}

/// `resources[kind][name]`, followed through references.
fn entry<'a>(
    doc: &'a Document,
    resources: Option<&'a Dictionary>,
    kind: &[u8],
    name: &[u8],
) -> Option<&'a Object> {
    let table = deref(doc, resources?.get(kind).ok()?)?.as_dict().ok()?;
    deref(doc, table.get(name).ok()?)
}

fn deref<'a>(doc: &'a Document, object: &'a Object) -> Option<&'a Object> {
    doc.dereference(object).ok().map(|(_, o)| o)
}

/// A form's content, decompressed as pdf-extract does it.
fn contents(form: &Stream) -> Vec<u8> {
    if form.filters().is_ok() {
        form.decompressed_content()
            .unwrap_or_else(|_| form.content.clone())
    } else {
        form.content.clone()
    }
}

/// The resources of `page`: its own, or the nearest parent's.
fn page_resources(doc: &Document, page: ObjectId) -> Option<&Dictionary> {
    let mut node = doc.get_dictionary(page).ok()?;
    for _ in 0..MAX_PARENTS {
        if let Ok(resources) = node.get(b"Resources") {
            return doc.dereference(resources).ok()?.1.as_dict().ok();
        }
        node = doc
            .get_dictionary(node.get(b"Parent").ok()?.as_reference().ok()?)
            .ok()?;
    }
    None
}

#[cfg(test)]
mod tests {
    use pdf_extract::content::{Content, Operation};
    use pdf_extract::{Document, Object, Stream, dictionary};

    /// A one-page PDF of three lines: "Plain words" in Helvetica, "Bold title" in Helvetica-Bold, and
    /// "Stroked title" in Helvetica filled and stroked (render mode 2).
    fn three_lines() -> Vec<u8> {
        let mut doc = Document::with_version("1.5");
        let pages_id = doc.new_object_id();
        let mut font = |name: &str| {
            doc.add_object(dictionary! {
                "Type" => "Font", "Subtype" => "Type1", "BaseFont" => name, "Encoding" => "WinAnsiEncoding",
            })
        };
        let (regular, bold) = (font("Helvetica"), font("Helvetica-Bold"));
        let line = |font: &str, y: i64, text: &str| {
            vec![
                Operation::new("BT", vec![]),
                Operation::new("Tf", vec![font.into(), 12.into()]),
                Operation::new("Td", vec![72.into(), y.into()]),
                Operation::new("Tj", vec![Object::string_literal(text)]),
                Operation::new("ET", vec![]),
            ]
        };
        let mut operations = line("F1", 700, "Plain words");
        operations.extend(line("F2", 680, "Bold title"));
        operations.push(Operation::new("q", vec![]));
        operations.push(Operation::new("Tr", vec![2.into()]));
        operations.extend(line("F1", 660, "Stroked title"));
        operations.push(Operation::new("Q", vec![]));
        operations.extend(line("F1", 640, "Plain again"));
        let content = Content { operations }.encode().unwrap();
        let content_id = doc.add_object(Stream::new(dictionary! {}, content));
        let resources = doc.add_object(dictionary! {
            "Font" => dictionary! { "F1" => regular, "F2" => bold },
        });
        let page = doc.add_object(dictionary! {
            "Type" => "Page", "Parent" => pages_id, "Contents" => content_id,
            "Resources" => resources, "MediaBox" => vec![0.into(), 0.into(), 612.into(), 792.into()],
        });
        doc.objects.insert(
            pages_id,
            Object::Dictionary(
                dictionary! { "Type" => "Pages", "Kids" => vec![page.into()], "Count" => 1 },
            ),
        );
        let catalog = doc.add_object(dictionary! { "Type" => "Catalog", "Pages" => pages_id });
        doc.trailer.set("Root", catalog);
        let mut bytes = Vec::new();
        doc.save_to(&mut bytes).unwrap();
        bytes
    }

    /// Forms that draw forms: one drawing itself (eight deep at most), and four that each draw the next a
    /// hundred times (10^8 strings, four million operations at most). The walk stops at its bounds and
    /// reads the page with no bold.
    #[test]
    fn forms_drawn_in_forms_stop_the_walk_at_its_bounds() {
        for chain in [1, 4] {
            let mut doc = Document::with_version("1.5");
            let ids: Vec<_> = (0..chain).map(|_| doc.new_object_id()).collect();
            let draws = |name: &str| {
                let draw = Operation::new("Do", vec![name.into()]);
                Content {
                    operations: vec![draw; 100],
                }
                .encode()
                .unwrap()
            };
            for (k, &id) in ids.iter().enumerate() {
                let next = ids.get(k + 1).copied().unwrap_or(id);
                let (content, resources) = if chain > 1 && k + 1 == chain {
                    let show = Operation::new("Tj", vec![Object::string_literal("x")]);
                    (
                        Content {
                            operations: vec![show; 100],
                        }
                        .encode()
                        .unwrap(),
                        dictionary! {},
                    )
                } else {
                    (
                        draws("Fm"),
                        dictionary! { "XObject" => dictionary! { "Fm" => next } },
                    )
                };
                let form = dictionary! { "Subtype" => "Form", "Resources" => resources };
                doc.objects
                    .insert(id, Object::Stream(Stream::new(form, content)));
            }
            let pages_id = doc.new_object_id();
            let content_id = doc.add_object(Stream::new(dictionary! {}, draws("Fm")));
            let page = doc.add_object(dictionary! {
                "Type" => "Page", "Parent" => pages_id, "Contents" => content_id,
                "Resources" => dictionary! { "XObject" => dictionary! { "Fm" => ids[0] } },
            });
            let pages =
                dictionary! { "Type" => "Pages", "Kids" => vec![page.into()], "Count" => 1 };
            doc.objects.insert(pages_id, Object::Dictionary(pages));
            let catalog = doc.add_object(dictionary! { "Type" => "Catalog", "Pages" => pages_id });
            doc.trailer.set("Root", catalog);
            assert_eq!(super::shown_bold(&doc), [None], "a chain of {chain}");
        }
    }

    #[test]
    fn text_in_a_bold_face_or_filled_and_stroked_reads_as_bold() {
        let lines = super::super::lines(&three_lines()).unwrap();
        let read: Vec<(&str, bool)> = lines.iter().map(|l| (l.text.as_str(), l.bold)).collect();
        assert_eq!(
            read,
            [
                ("Plain words", false),
                ("Bold title", true),
                ("Stroked title", true),
                ("Plain again", false)
            ]
        );
    }
}
