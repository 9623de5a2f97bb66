//! The fonts a document is set in: the bundled ones, and, for the letters none of them has (Korean,
//! Devanagari, Thai, …), fonts of the system that do. Without them such letters printed as nothing: the PDF
//! kept the text for a reader but drew no glyph. The system's fonts are looked at only for a document that
//! needs them, once per process, and a document that has only letters the bundled fonts cover is set exactly
//! as before, whatever the system has.
//!
//! `REDLINE_FONT_DIRS` (folders, separated as `PATH` is) adds folders to the system's own.

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex, OnceLock};

use typst::foundations::Bytes;
use typst::text::{Font, FontBook};
use typst::utils::LazyHash;

use crate::bundled_fonts::{FONT_NAMES, font, fonts};

/// The most system fonts one document is set in: a resume with many scripts needs a few.
const MAX_SYSTEM_FONTS: usize = 16;

/// The most letters whose answer (a bundled font has it or not; which system font has it) is kept: a file made of every letter there is
/// would otherwise keep a million.
const MAX_KEPT_ANSWERS: usize = 1 << 16;

/// The largest font file read from the system (a CJK collection is some 30 MB).
const MAX_FONT_BYTES: usize = 64 << 20;

/// The fonts one document's world offers Typst.
pub(crate) struct DocumentFonts {
    /// The bundled fonts' book and the system fonts after them; `None` when the bundled ones are all.
    book: Option<Arc<LazyHash<FontBook>>>,
    system: Vec<Font>,
}

impl DocumentFonts {
    /// The fonts for a document whose text is in `text`.
    pub(crate) fn for_text(text: &str) -> DocumentFonts {
        let missing = uncovered(text);
        if missing.is_empty() {
            return DocumentFonts {
                book: None,
                system: Vec::new(),
            };
        }
        let faces = system_faces_for(&missing);
        let system: Vec<Font> = faces.iter().filter_map(|&id| loaded(id)).collect();
        if system.is_empty() {
            return DocumentFonts { book: None, system };
        }
        DocumentFonts {
            book: Some(book_with(faces, &system)),
            system,
        }
    }

    pub(crate) fn book(&self) -> &LazyHash<FontBook> {
        self.book.as_deref().unwrap_or(&fonts().book)
    }

    pub(crate) fn font(&self, index: usize) -> Option<Font> {
        match index.checked_sub(FONT_NAMES.len()) {
            None => font(index),
            Some(system) => self.system.get(system).cloned(),
        }
    }
}

/// The letters of `text` that no bundled font has, in order (spaces, controls and the marks that draw
/// nothing left out).
pub fn uncovered(text: &str) -> BTreeSet<char> {
    // Whether a bundled font has a letter, kept for the process: a font's coverage is a list of runs read
    // from the start, and a Chinese resume's letters are each looked for in six fonts before the one that
    // has them.
    static BUNDLED: OnceLock<Mutex<HashMap<char, bool>>> = OnceLock::new();
    let mut bundled =
        (BUNDLED.get_or_init(Mutex::default).lock()).unwrap_or_else(|e| e.into_inner());
    if bundled.len() > MAX_KEPT_ANSWERS {
        bundled.clear();
    }
    let infos = &fonts().infos;
    let mut missing = BTreeSet::new();
    for c in text.chars().filter(|&c| !draws_nothing(c)) {
        let has = *bundled
            .entry(c)
            .or_insert_with(|| infos.iter().any(|info| info.coverage.contains(c as u32)));
        if !has {
            missing.insert(c);
        }
    }
    missing
}

/// Characters no font needs a glyph for: spaces, controls, joiners, direction marks, variation selectors.
fn draws_nothing(c: char) -> bool {
    c.is_whitespace()
        || c.is_control()
        || matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{206F}')
        || matches!(c, '\u{FE00}'..='\u{FE0F}' | '\u{FEFF}')
}

/// The letters of `text` that neither a bundled font nor a font of this system has: what a PDF of it would
/// print as nothing.
pub fn unprintable(text: &str) -> BTreeSet<char> {
    let mut missing = uncovered(text);
    if missing.is_empty() {
        return missing;
    }
    let chosen = chosen_faces(&missing);
    missing.retain(|c| chosen.get(c).is_none_or(Option::is_none));
    missing
}

/// The system's faces that have the letters in `missing`, each once, at most [`MAX_SYSTEM_FONTS`].
fn system_faces_for(missing: &BTreeSet<char>) -> Vec<fontdb::ID> {
    let chosen = chosen_faces(missing);
    let faces: BTreeSet<fontdb::ID> = chosen.values().flatten().copied().collect();
    faces.into_iter().take(MAX_SYSTEM_FONTS).collect()
}

/// The book of the bundled fonts and `system` (the faces `faces`, loaded), made once per set of faces: a
/// Korean resume's Page view lays it out again on every keystroke, and Typst's caches know a book by its
/// hash, computed once for each book.
fn book_with(faces: Vec<fontdb::ID>, system: &[Font]) -> Arc<LazyHash<FontBook>> {
    type Books = HashMap<Vec<fontdb::ID>, Arc<LazyHash<FontBook>>>;
    static BOOKS: OnceLock<Mutex<Books>> = OnceLock::new();
    let mut books = (BOOKS.get_or_init(Mutex::default).lock()).unwrap_or_else(|e| e.into_inner());
    if books.len() > MAX_SYSTEM_FONTS {
        books.clear();
    }
    books
        .entry(faces)
        .or_insert_with(|| {
            let mut book = FontBook::new();
            for info in &fonts().infos {
                book.push(info.clone());
            }
            for font in system {
                book.push(font.info().clone());
            }
            Arc::new(LazyHash::new(book))
        })
        .clone()
}

/// For each of `letters`, the system face chosen for it (`None`: the system has none), chosen the first
/// time a document asked and kept for the process.
fn chosen_faces(letters: &BTreeSet<char>) -> HashMap<char, Option<fontdb::ID>> {
    static CHOSEN: OnceLock<Mutex<HashMap<char, Option<fontdb::ID>>>> = OnceLock::new();
    let mut chosen = CHOSEN
        .get_or_init(Mutex::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if chosen.len() > MAX_KEPT_ANSWERS {
        chosen.clear();
    }
    let new: BTreeSet<char> = (letters.iter())
        .filter(|c| !chosen.contains_key(c))
        .copied()
        .collect();
    if !new.is_empty() {
        chosen.extend(choose(&new));
    }
    letters.iter().map(|&c| (c, chosen[&c])).collect()
}

/// For each of `letters`, the first system face that has it, upright and of regular weight before the
/// others (so that a Korean name is set in a font's regular face, not its extra bold).
fn choose(letters: &BTreeSet<char>) -> HashMap<char, Option<fontdb::ID>> {
    let database = database();
    let mut faces: Vec<&fontdb::FaceInfo> = database.faces().collect();
    faces.sort_by_key(|f| {
        (
            f.style != fontdb::Style::Normal,
            f.weight.0.abs_diff(400),
            f.stretch != fontdb::Stretch::Normal,
        )
    });
    let mut chosen: HashMap<char, Option<fontdb::ID>> =
        letters.iter().map(|&c| (c, None)).collect();
    let mut left: Vec<char> = letters.iter().copied().collect();
    for face in faces {
        if left.is_empty() {
            break;
        }
        let has: Vec<char> = database
            .with_face_data(face.id, |data, index| {
                let parsed = ttf_parser::Face::parse(data, index).ok()?;
                Some(
                    (left.iter())
                        .filter(|&&c| parsed.glyph_index(c).is_some())
                        .copied()
                        .collect(),
                )
            })
            .flatten()
            .unwrap_or_default();
        for c in &has {
            chosen.insert(*c, Some(face.id));
        }
        left.retain(|c| !has.contains(c));
    }
    chosen
}

/// A system face as Typst reads it, read once for the process.
fn loaded(id: fontdb::ID) -> Option<Font> {
    static LOADED: OnceLock<Mutex<HashMap<fontdb::ID, Option<Font>>>> = OnceLock::new();
    let mut loaded = LOADED
        .get_or_init(Mutex::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    loaded
        .entry(id)
        .or_insert_with(|| {
            database()
                .with_face_data(id, |data, index| {
                    (data.len() <= MAX_FONT_BYTES)
                        .then(|| Font::new(Bytes::new(data.to_vec()), index))
                        .flatten()
                })
                .flatten()
        })
        .clone()
}

/// The system's fonts (and those in `REDLINE_FONT_DIRS`), found the first time a document needs one.
fn database() -> &'static fontdb::Database {
    static DATABASE: OnceLock<fontdb::Database> = OnceLock::new();
    DATABASE.get_or_init(|| {
        let mut database = fontdb::Database::new();
        database.load_system_fonts();
        if let Some(dirs) = std::env::var_os("REDLINE_FONT_DIRS") {
            for dir in std::env::split_paths(&dirs) {
                database.load_fonts_dir(dir);
            }
        }
        database
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_the_bundled_fonts_have_need_no_system_font() {
        assert!(uncovered("Ada Lovelace, Zürich — 東京大学, Αθήνα, Москва, القاهرة").is_empty());
        assert!(uncovered("a\u{200D}b\u{FE0F}\t\n").is_empty());
        let fonts = DocumentFonts::for_text("Ada Lovelace");
        assert!(fonts.book.is_none() && fonts.system.is_empty());
    }

    #[test]
    fn korean_is_a_script_no_bundled_font_has() {
        assert_eq!(
            uncovered("삼성전자 Samsung"),
            ['삼', '성', '전', '자'].into_iter().collect()
        );
    }
}
