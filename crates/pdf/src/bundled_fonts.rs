//! The fonts Redline sets a resume in, installed beside the programs as files (`assets/fonts/`, found by
//! [`redline_resume::resources::folder`], or `REDLINE_FONTS`): the app and the command line share one
//! copy instead of carrying 8 MB each. What each font is and covers ([`FONT_BOOK`]) and how wide each
//! letter is set ([`FONT_WIDTHS`]) are compiled in, so that a layout reads only the fonts it sets text in,
//! the first time it needs each.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use typst::foundations::Bytes;
use typst::text::{Font, FontBook, FontInfo};
use typst::utils::LazyHash;

use crate::PdfError;

/// The bundled fonts' files, in the book's order (the layout asks for a font by its place in the book).
pub(crate) const FONT_NAMES: [&str; 11] = [
    "DejaVuSans.ttf",
    "DejaVuSans-Bold.ttf",
    "DejaVuSans-Oblique.ttf",
    "DejaVuSerif.ttf",
    "DejaVuSerif-Bold.ttf",
    "DejaVuSerif-Italic.ttf",
    "DroidSansFallbackFull.ttf",
    "Carlito-Regular.ttf",
    "Carlito-Bold.ttf",
    "EBGaramond12-Regular.otf",
    "EBGaramond12-Italic.otf",
];

/// The largest font file read (Droid Sans Fallback, the largest, is 2.9 MB).
const MAX_FONT_BYTES: u64 = 32 << 20;

/// What each bundled font is and covers, in [`FONT_NAMES`]' order, as Typst reads it from the font
/// (`FontInfo::new`): reading it there sorts every character a font covers, a twentieth of a first export
/// with the CJK font's 30,000. A test checks it against the fonts, and rewrites it with
/// `REDLINE_UPDATE_FONT_BOOK=1`.
const FONT_BOOK: &str = include_str!("font-book.json");

/// The widest advance any bundled font gives each letter of [`crate::widest`]'s plain ranges, in em: runs
/// `[first, last, em]` of code points, in order. Letters no font has are in no run. Made from the fonts by
/// the same test as [`FONT_BOOK`], so that a layout needs no font it does not set text in.
const FONT_WIDTHS: &str = include_str!("font-widths.json");

pub(crate) struct Fonts {
    pub(crate) book: LazyHash<FontBook>,
    /// What each bundled font is and covers, in the book's order.
    pub(crate) infos: Vec<FontInfo>,
    /// Each bundled font, read and parsed the first time a layout asks for it: a resume in English never
    /// needs the CJK font (2.9 MB, most of the bundle), and parsing every font made a quarter of a first
    /// export.
    fonts: [OnceLock<Option<Font>>; FONT_NAMES.len()],
}

/// The bundled fonts' book (what each covers), read once; the fonts themselves as [`font`] needs them.
pub(crate) fn fonts() -> &'static Fonts {
    static FONTS: OnceLock<Fonts> = OnceLock::new();
    FONTS.get_or_init(|| {
        let infos: Vec<FontInfo> = serde_json::from_str(FONT_BOOK).unwrap_or_default();
        let mut book = FontBook::new();
        for info in &infos {
            book.push(info.clone());
        }
        Fonts {
            book: LazyHash::new(book),
            infos,
            fonts: Default::default(),
        }
    })
}

/// The folder of the bundled fonts; `None` when they are not installed.
pub(crate) fn folder() -> Option<&'static Path> {
    static FOLDER: OnceLock<Option<PathBuf>> = OnceLock::new();
    FOLDER
        .get_or_init(|| {
            redline_resume::resources::folder("fonts", "REDLINE_FONTS", |dir| {
                FONT_NAMES.iter().all(|name| dir.join(name).is_file())
            })
        })
        .as_deref()
}

/// That the bundled fonts are there: without them a PDF would print its text as nothing.
pub(crate) fn present() -> Result<(), PdfError> {
    match folder() {
        Some(_) => Ok(()),
        None => Err(PdfError(
            "Redline's fonts are not installed beside the program (a folder `fonts` holding \
             DejaVuSans.ttf and the others); installing Redline again puts them back"
                .into(),
        )),
    }
}

/// That every bundled font a layout asked for was read and parsed: a file there but damaged (cut short,
/// not a font) would print its text as nothing. Called after a layout.
pub(crate) fn asked_were_read() -> Result<(), PdfError> {
    let unread = FONT_NAMES
        .iter()
        .zip(&fonts().fonts)
        .find(|(_, font)| matches!(font.get(), Some(None)));
    match unread {
        Some((name, _)) => Err(PdfError(format!(
            "Redline's font {name} could not be read (the file is damaged); installing Redline again \
             puts it back"
        ))),
        None => Ok(()),
    }
}

/// Bundled font `index` (its place in the book), read and parsed on first use; `None` when its file cannot
/// be read or is not a font.
pub(crate) fn font(index: usize) -> Option<Font> {
    let name = FONT_NAMES.get(index)?;
    fonts().fonts[index]
        .get_or_init(|| Font::new(Bytes::new(read(&folder()?.join(name))?), 0))
        .clone()
}

/// The bytes of font file `path`, at most [`MAX_FONT_BYTES`].
fn read(path: &Path) -> Option<Vec<u8>> {
    use std::io::Read as _;
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .ok()?
        .take(MAX_FONT_BYTES)
        .read_to_end(&mut bytes)
        .ok()?;
    Some(bytes)
}

/// The widest advance any bundled font gives `c`, in em of the text's size; `None` when no font has it or
/// it is outside [`crate::widest`]'s plain ranges.
pub(crate) fn widest_advance(c: char) -> Option<f64> {
    static RUNS: OnceLock<Vec<(u32, u32, f64)>> = OnceLock::new();
    let runs = RUNS.get_or_init(|| serde_json::from_str(FONT_WIDTHS).unwrap_or_default());
    let code = c as u32;
    let at = runs.partition_point(|&(_, last, _)| last < code);
    runs.get(at)
        .filter(|&&(first, _, _)| first <= code)
        .map(|&(_, _, em)| em)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each bundled font's bytes, from the source tree.
    fn files() -> Vec<Vec<u8>> {
        FONT_NAMES
            .iter()
            .map(|name| read(&folder().expect("the fonts").join(name)).expect("a bundled font"))
            .collect()
    }

    /// The widths [`FONT_WIDTHS`] holds, as read from the fonts: runs of letters of the plain ranges that
    /// some font has and every font gives the same widest advance.
    fn widths_read(files: &[Vec<u8>]) -> Vec<(u32, u32, f64)> {
        let faces: Vec<ttf_parser::Face<'_>> = files
            .iter()
            .map(|data| ttf_parser::Face::parse(data, 0).expect("a bundled font ttf-parser reads"))
            .collect();
        let mut runs: Vec<(u32, u32, f64)> = Vec::new();
        for c in (0..=0x10FFFF)
            .filter_map(char::from_u32)
            .filter(|&c| crate::plain(c))
        {
            let widest = faces
                .iter()
                .filter_map(|face| {
                    let advance = face.glyph_hor_advance(face.glyph_index(c)?)?;
                    Some(f64::from(advance) / f64::from(face.units_per_em()))
                })
                .reduce(f64::max);
            let Some(em) = widest else { continue };
            match runs.last_mut() {
                Some((_, last, same)) if *last + 1 == c as u32 && *same == em => *last = c as u32,
                _ => runs.push((c as u32, c as u32, em)),
            }
        }
        runs
    }

    /// The shipped book and widths are what Typst and ttf-parser read from the bundled fonts (the book one
    /// entry a font, in their order).
    #[test]
    fn the_shipped_font_book_and_widths_are_the_fonts_own() {
        let files = files();
        let read: Vec<FontInfo> = files
            .iter()
            .map(|data| FontInfo::new(data, 0).expect("a bundled font Typst reads"))
            .collect();
        let widths = widths_read(&files);
        if std::env::var_os("REDLINE_UPDATE_FONT_BOOK").is_some() {
            let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src/");
            let book = serde_json::to_string(&read).unwrap() + "\n";
            std::fs::write(format!("{dir}font-book.json"), book).unwrap();
            let widths = serde_json::to_string(&widths).unwrap() + "\n";
            std::fs::write(format!("{dir}font-widths.json"), widths).unwrap();
        }
        let update = "the bundled fonts changed: REDLINE_UPDATE_FONT_BOOK=1 cargo test -p redline-pdf font_book";
        let shipped: Vec<FontInfo> = serde_json::from_str(FONT_BOOK).expect("font-book.json");
        assert_eq!(shipped, read, "{update}");
        let shipped: Vec<(u32, u32, f64)> =
            serde_json::from_str(FONT_WIDTHS).expect("font-widths.json");
        assert_eq!(shipped, widths, "{update}");
        let a = widths
            .iter()
            .find(|r| r.0 <= 'A' as u32 && 'A' as u32 <= r.1);
        assert_eq!(widest_advance('A'), a.map(|r| r.2));
        assert_eq!(widest_advance('\u{0300}'), None, "a mark is not plain");
    }

    /// Every bundled font is read from its file and parsed.
    #[test]
    fn every_bundled_font_is_read_from_its_file() {
        for (index, name) in FONT_NAMES.iter().enumerate() {
            assert!(font(index).is_some(), "{name}");
        }
        assert!(font(FONT_NAMES.len()).is_none());
        assert!(present().is_ok());
    }
}
