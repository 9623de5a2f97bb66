//! A PDF's text layer into lines, by where its glyphs are: glyphs on one baseline make a line, a wide gap
//! inside a line splits it, a gutter that runs down all or part of the page splits that part into
//! columns (a sidebar, two columns under a full-width header) read one after the other, and each line
//! keeps its size against the body text's and its indent. Letter-spaced headings ("S K I L L S") are
//! read as their word.

use pdf_extract::{MediaBox, OutputDev, OutputError, Transform};

use crate::{ImportError, Line};

mod columns;
mod weights;

use columns::columns;

/// One glyph where the page shows it (top-left origin, points).
#[derive(Debug, Clone)]
struct Glyph {
    x: f64,
    y: f64,
    width: f64,
    size: f64,
    bold: bool,
    text: String,
}

/// The most glyphs a PDF may have before the reading stops: a 30-page resume has ~100,000.
const MAX_GLYPHS: usize = 2_000_000;

#[derive(Default)]
struct Collect {
    pages: Vec<Vec<Glyph>>,
    height: f64,
    width: f64,
    count: usize,
    /// Per page, whether each string shown is bold (`weights::shown_bold`).
    shown_bold: Vec<Option<Vec<bool>>>,
    /// The strings shown on this page so far.
    strings: usize,
}

impl Collect {
    /// Whether the string being shown is bold.
    fn bold_now(&self) -> bool {
        let page = self.pages.len().wrapping_sub(1);
        let shown = self.shown_bold.get(page).and_then(Option::as_ref);
        shown.is_some_and(|s| self.strings.checked_sub(1).and_then(|i| s.get(i)) == Some(&true))
    }
}

impl OutputDev for Collect {
    fn begin_page(
        &mut self,
        _page: u32,
        media_box: &MediaBox,
        _art_box: Option<(f64, f64, f64, f64)>,
    ) -> Result<(), OutputError> {
        self.height = media_box.ury - media_box.lly;
        self.width = media_box.urx - media_box.llx;
        self.pages.push(Vec::new());
        self.strings = 0;
        Ok(())
    }
    fn end_page(&mut self) -> Result<(), OutputError> {
        // The walk that marked the strings did not see this page as pdf-extract did: none of it is bold.
        let page = self.pages.len().wrapping_sub(1);
        let matched = self
            .shown_bold
            .get(page)
            .and_then(Option::as_ref)
            .is_some_and(|s| s.len() == self.strings);
        if !matched && let Some(glyphs) = self.pages.last_mut() {
            glyphs.iter_mut().for_each(|g| g.bold = false);
        }
        Ok(())
    }
    fn output_character(
        &mut self,
        trm: &Transform,
        width: f64,
        _spacing: f64,
        font_size: f64,
        text: &str,
    ) -> Result<(), OutputError> {
        self.count += 1;
        if self.count > MAX_GLYPHS {
            return Err(OutputError::FormatError(std::fmt::Error));
        }
        // The side of the square with the area of the glyph's scaled box (as pdf-extract's own output does).
        let (sx, sy) = (
            font_size * (trm.m11 + trm.m21),
            font_size * (trm.m12 + trm.m22),
        );
        let size = (sx * sy).abs().sqrt();
        // A wide (East Asian) glyph whose font lists no width for it is read as one em wide, as it is set.
        let width = match text.chars().next() {
            Some(c) if wide(c) && width < 0.5 => 1.0,
            _ => width,
        };
        let glyph = Glyph {
            x: trm.m31,
            y: self.height - trm.m32,
            width: width * size,
            size,
            bold: self.bold_now(),
            text: text.to_owned(),
        };
        if let Some(page) = self.pages.last_mut()
            && !glyph.text.trim().is_empty()
            && glyph.size > 0.5
        {
            page.push(glyph);
        }
        Ok(())
    }
    fn begin_word(&mut self) -> Result<(), OutputError> {
        self.strings += 1;
        Ok(())
    }
    fn end_word(&mut self) -> Result<(), OutputError> {
        Ok(())
    }
    fn end_line(&mut self) -> Result<(), OutputError> {
        Ok(())
    }
}

/// A letter set one em wide: Chinese, Japanese and Korean script, and full-width forms.
fn wide(c: char) -> bool {
    matches!(c,
        '\u{1100}'..='\u{115F}'
        | '\u{2E80}'..='\u{A4CF}'
        | '\u{AC00}'..='\u{D7A3}'
        | '\u{F900}'..='\u{FAFF}'
        | '\u{FE30}'..='\u{FE4F}'
        | '\u{FF00}'..='\u{FF60}'
        | '\u{FFE0}'..='\u{FFE6}')
}

/// The lines of the PDF `bytes`, page after page.
pub fn lines(bytes: &[u8]) -> Result<Vec<Line>, ImportError> {
    let collected = std::panic::catch_unwind(|| -> Result<Collect, ImportError> {
        let mut doc = pdf_extract::Document::load_mem(bytes)
            .map_err(|e| ImportError::Broken(format!("it is not a PDF that can be read ({e})")))?;
        // Many PDFs are encrypted with an empty password only to set permissions: those are read.
        if doc.is_encrypted() && doc.decrypt("").is_err() {
            return Err(ImportError::Encrypted);
        }
        widths_listed(&mut doc);
        let mut collect = Collect {
            shown_bold: weights::shown_bold(&doc),
            ..Collect::default()
        };
        pdf_extract::output_doc(&doc, &mut collect).map_err(|e| {
            if collect.count > MAX_GLYPHS {
                ImportError::TooLarge(format!("it has more than {MAX_GLYPHS} characters"))
            } else {
                ImportError::Broken(format!("its text cannot be read ({e})"))
            }
        })?;
        Ok(collect)
    })
    .map_err(|_| ImportError::Broken("its text cannot be read (the reader gave up)".into()))??;
    if collected.pages.iter().all(Vec::is_empty) {
        return Err(ImportError::NoText);
    }
    let body = body_size(&collected.pages);
    let mut out = Vec::new();
    pages_lines(collected.pages, collected.width, body, &mut out);
    // Lines back in the order they are written. A resume in a right-to-left language (known by its lines
    // in such a script: its headings and dates at least) lays out right to left every line that is not set
    // flush left — Latin ones too, their parts placed from the right; a line flush left (a paragraph of
    // Latin prose) and every line of a left-to-right resume is read by the bidirectional algorithm.
    let rtl_lines = out
        .iter()
        .filter(|l| l.text.chars().any(redline_resume::words::right_to_left))
        .count();
    let rtl = rtl_lines > 0 && rtl_lines * 7 >= out.len();
    for line in &mut out {
        line.text = if rtl && line.indent > 0.5 {
            right_to_left(&line.text)
        } else {
            logical(&line.text)
        };
    }
    links_rejoined(&mut out);
    Ok(out)
}

/// A link alone on a line under a line of parts set apart by " · " (dates · company · place), in the same
/// size and with no space between: the last part of that line, carried over where a separator stood when
/// the line did not fit (a narrow column, a long month's name).
fn links_rejoined(lines: &mut Vec<Line>) {
    let link = |text: &str| {
        !text.contains(char::is_whitespace)
            && ["http://", "https://", "www."].iter().any(|p| {
                text.get(..p.len())
                    .is_some_and(|h| h.eq_ignore_ascii_case(p))
            })
    };
    let mut kept: Vec<Line> = Vec::with_capacity(lines.len());
    for line in lines.drain(..) {
        if let Some(last) = kept.last_mut()
            && link(line.text.trim())
            && last.text.contains(" · ")
            && !link(last.text.rsplit(" · ").next().unwrap_or_default().trim())
            && !line.gap
            && !line.heading
            && !line.bullet
            && (last.size - line.size).abs() < 0.02
        {
            last.text.push_str(" · ");
            last.text.push_str(line.text.trim());
            continue;
        }
        kept.push(line);
    }
    *lines = kept;
}

/// A line laid out right to left, as drawn (left to right), back in the order it is written: its parts
/// (between ` · `, or items drawn as ` ,` — a list laid out from the right) in reverse order, and in each
/// part the characters reversed but for the left-to-right runs in it (Latin words, numbers), which keep
/// theirs: the bidirectional algorithm's reordering for a right-to-left line of two levels, undone.
fn right_to_left(text: &str) -> String {
    let (parts, joint): (Vec<&str>, &str) = if text.contains(" · ") {
        (text.split(" · ").collect(), " · ")
    } else if text.contains(" ,") {
        (text.split(" ,").collect(), ", ")
    } else {
        (vec![text], "")
    };
    parts
        .iter()
        .rev()
        .map(|part| unreversed(part.trim()))
        .collect::<Vec<_>>()
        .join(joint)
}

/// `text` reversed, then each run from one left-to-right character (a Latin letter, a digit) to the last
/// before a right-to-left one reversed back.
fn unreversed(text: &str) -> String {
    // A part with no right-to-left letter was drawn whole in its own direction (Redline boxes such a part;
    // so does a browser an isolated one): as it is written, its brackets and a link's last "/" too.
    if !text.chars().any(redline_resume::words::right_to_left) {
        return text.to_owned();
    }
    let ltr = |c: char| {
        (c.is_alphanumeric() && !redline_resume::words::right_to_left(c)) || c.is_ascii_digit()
    };
    let reversed: Vec<char> = text.chars().rev().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < reversed.len() {
        if !ltr(reversed[i]) {
            out.push(reversed[i]);
            i += 1;
            continue;
        }
        // The run goes on through neutrals while another left-to-right character follows before any
        // right-to-left one.
        let mut end = i;
        let mut j = i;
        while j < reversed.len() && !redline_resume::words::right_to_left(reversed[j]) {
            if ltr(reversed[j]) {
                end = j;
            }
            j += 1;
        }
        out.extend(reversed[i..=end].iter().rev());
        i = end + 1;
    }
    out
}

/// The most glyphs one `first last width` range of a font's widths may cover (a font has at most 65,536).
const MAX_WIDTH_RANGE: i64 = 65_536;

/// Rewrites each composite font's widths (`W`) from ranges, `first last width`, into lists, `first [width
/// …]`: pdf-extract 0.10 reads the range form wrongly (every glyph of such a font comes out zero wide, so a
/// line's glyphs all stand at its start). Typst and many other writers use ranges.
fn widths_listed(doc: &mut pdf_extract::Document) {
    use pdf_extract::Object;
    for object in doc.objects.values_mut() {
        let Object::Dictionary(dict) = object else {
            continue;
        };
        let composite = dict
            .get(b"Subtype")
            .and_then(Object::as_name)
            .is_ok_and(|n| n == b"CIDFontType2" || n == b"CIDFontType0");
        if !composite {
            continue;
        }
        let Ok(Object::Array(w)) = dict.get(b"W") else {
            continue;
        };
        let number = |o: &Object| {
            o.as_float()
                .ok()
                .map(f64::from)
                .or_else(|| o.as_i64().ok().map(|i| i as f64))
        };
        let mut listed = Vec::with_capacity(w.len());
        let mut i = 0;
        while i < w.len() {
            match (w.get(i), w.get(i + 1), w.get(i + 2)) {
                (Some(first), Some(Object::Array(list)), _) => {
                    listed.push(first.clone());
                    listed.push(Object::Array(list.clone()));
                    i += 2;
                }
                (Some(first), Some(last), Some(width)) => {
                    let (Ok(first), Ok(last), Some(width)) =
                        (first.as_i64(), last.as_i64(), number(width))
                    else {
                        break;
                    };
                    if first < 0 || last < first || last - first >= MAX_WIDTH_RANGE {
                        break;
                    }
                    listed.push(Object::Integer(first));
                    listed.push(Object::Array(vec![
                        Object::Real(width as f32);
                        (last - first + 1) as usize
                    ]));
                    i += 3;
                }
                _ => break,
            }
        }
        dict.set("W", Object::Array(listed));
    }
}

/// The size most of the text is set in.
fn body_size(pages: &[Vec<Glyph>]) -> f64 {
    let mut counts: Vec<(i64, usize)> = Vec::new();
    for g in pages.iter().flatten() {
        let key = (g.size * 4.0).round() as i64;
        match counts.iter_mut().find(|(k, _)| *k == key) {
            Some((_, n)) => *n += 1,
            None => counts.push((key, 1)),
        }
    }
    counts
        .into_iter()
        .max_by_key(|&(_, n)| n)
        .map_or(10.0, |(k, _)| k as f64 / 4.0)
}

/// A run of glyphs on one baseline with no wide gap in it.
#[derive(Debug, Clone)]
struct Run {
    x0: f64,
    x1: f64,
    y: f64,
    size: f64,
    /// Every glyph of it is bold.
    bold: bool,
    text: String,
}

/// Glyphs on one baseline, left to right, into runs: a gap wider than two spaces ends one.
fn runs(mut glyphs: Vec<Glyph>) -> Vec<Run> {
    glyphs.sort_by(|a, b| a.y.total_cmp(&b.y));
    let mut rows: Vec<Vec<Glyph>> = Vec::new();
    for g in glyphs {
        match rows.last_mut() {
            Some(row) if (row[0].y - g.y).abs() <= row[0].size.min(g.size) * 0.35 => row.push(g),
            _ => rows.push(vec![g]),
        }
    }
    let mut out = Vec::new();
    for mut row in rows {
        row.sort_by(|a, b| a.x.total_cmp(&b.x));
        let mut run: Option<Run> = None;
        // How far apart letters of one word stand here: letter-spaced headings space every letter.
        for g in row {
            let size = g.size.max(1.0);
            match run.as_mut() {
                Some(r) if g.x - r.x1 < size * 0.6 => {
                    if g.x - r.x1 > size * 0.12 && !r.text.ends_with(' ') {
                        r.text.push(' ');
                    }
                    r.text.push_str(&g.text);
                    r.x1 = r.x1.max(g.x + g.width);
                    r.size = r.size.max(g.size);
                    r.bold &= g.bold;
                }
                _ => {
                    if let Some(r) = run.take() {
                        out.push(r);
                    }
                    run = Some(Run {
                        x0: g.x,
                        x1: g.x + g.width,
                        y: g.y,
                        size: g.size,
                        bold: g.bold,
                        text: g.text.clone(),
                    });
                }
            }
        }
        out.extend(run);
    }
    out
}

/// "S K I L L S" → "SKILLS": a line of single letters each followed by one space.
fn unspaced(text: &str) -> String {
    let parts: Vec<&str> = text.split(' ').collect();
    let letters = parts.iter().filter(|p| p.chars().count() == 1).count();
    if parts.len() >= 4 && letters * 10 >= parts.len() * 8 {
        // Words are separated by the wider gaps ("W O R K  E X P E R I E N C E" keeps an empty part).
        let mut out = String::new();
        for p in parts {
            if p.is_empty() {
                if !out.ends_with(' ') {
                    out.push(' ');
                }
            } else {
                out.push_str(p);
            }
        }
        out.trim().to_owned()
    } else {
        text.to_owned()
    }
}

/// A line as drawn (left to right) back in the order it is written: right-to-left runs reversed by the
/// Unicode bidirectional algorithm (for a line of one direction, its reordering is its own inverse).
fn logical(text: &str) -> String {
    let bidi = unicode_bidi::BidiInfo::new(text, None);
    match bidi.paragraphs.first() {
        Some(para) if bidi.has_rtl() => bidi.reorder_line(para, para.range.clone()).into_owned(),
        _ => text.to_owned(),
    }
}

/// The most runs on one baseline a hyphenated cell is looked for in ([`hyphens_joined`]).
const MAX_CELLS: usize = 16;

/// The pages' lines into `out`, page after page, column by column, top to bottom. The pages read as one
/// column share one left edge, the leftmost of any of them: a line's indent means the same on every page
/// (a page without a heading in the margin, or that starts in a job's bullets, sets its lines from further
/// right than the first).
fn pages_lines(pages: Vec<Vec<Glyph>>, width: f64, body: f64, out: &mut Vec<Line>) {
    let pages: Vec<Vec<Vec<Run>>> = pages
        .into_iter()
        .map(|glyphs| columns(runs(glyphs), width))
        .collect();
    let one_column_edge = (pages.iter().filter(|p| p.len() == 1))
        .flat_map(|p| p[0].iter().map(|r| r.x0))
        .fold(f64::MAX, f64::min);
    for page in pages {
        let one_column = page.len() == 1;
        for column in page {
            let edge = column.iter().map(|r| r.x0).fold(f64::MAX, f64::min);
            let edge = if one_column { one_column_edge } else { edge };
            column_lines(column, edge, body, out);
        }
    }
}

/// One page's lines into `out`, column by column, top to bottom.
#[cfg(test)]
fn page_lines(glyphs: Vec<Glyph>, width: f64, body: f64, out: &mut Vec<Line>) {
    pages_lines(vec![glyphs], width, body, out);
}

/// One column's lines (`left_edge` its left edge) into `out`, top to bottom.
fn column_lines(column: Vec<Run>, left_edge: f64, body: f64, out: &mut Vec<Line>) {
    let mut rows = baseline_rows(column);
    margin_headings_first(&mut rows);
    dates_beside_titles(&mut rows);
    hyphens_joined(&mut rows, body);
    rows.retain(|row| !row.is_empty());
    lines_of(rows, left_edge, body, out);
}

/// A column's runs as rows: runs on one baseline in one column are one line, its parts two spaces apart,
/// left to right.
fn baseline_rows(column: Vec<Run>) -> Vec<Vec<Run>> {
    let mut rows: Vec<Vec<Run>> = Vec::new();
    let mut sorted = column;
    sorted.sort_by(|a, b| a.y.total_cmp(&b.y).then(a.x0.total_cmp(&b.x0)));
    for r in sorted {
        match rows.last_mut() {
            Some(row) if (row[0].y - r.y).abs() <= row[0].size.min(r.size) * 0.35 => row.push(r),
            _ => rows.push(vec![r]),
        }
    }
    // A section's heading set in a margin beside its first line is a line of its own, before it.
    let rows = rows.into_iter().flat_map(|mut row| {
        row.sort_by(|a, b| a.x0.total_cmp(&b.x0));
        if row.len() > 1 && crate::headings::part(&unspaced(&row[0].text)).is_some() {
            let rest = row.split_off(1);
            vec![row, rest]
        } else {
            vec![row]
        }
    });
    rows.collect()
}

/// A heading in a margin, set larger than the text beside it, can stand a little below that text's first
/// line: it comes first.
fn margin_headings_first(rows: &mut [Vec<Run>]) {
    for i in 1..rows.len() {
        let (above, heading) = (&rows[i - 1], &rows[i]);
        let is_heading = heading.len() == 1
            && crate::headings::part(&unspaced(&heading[0].text)).is_some()
            && heading[0].size > above[0].size * 1.15;
        let opens = i < 2 || above[0].y - rows[i - 2][0].y > above[0].size * 1.75;
        if is_heading
            && opens
            && above[0].x0 > heading[0].x1
            && heading[0].y - above[0].y < heading[0].size
        {
            rows.swap(i - 1, i);
        }
    }
}

/// An entry's dates set flush right beside a title in a taller font (a script whose fallback font sets
/// the line box higher: "株式会社 山田製作所", its dates centred beside it) can stand on a baseline a little
/// above the title's: a row of dates alone, right of all of the next row, whose baseline is within that
/// row's letters' height above it, joins that row, after its text.
fn dates_beside_titles(rows: &mut [Vec<Run>]) {
    for i in 1..rows.len() {
        let [dates, title] = &mut rows[i - 1..=i] else {
            continue;
        };
        let text = |row: &[Run]| {
            row.iter()
                .map(|r| r.text.trim())
                .collect::<Vec<_>>()
                .join(" ")
        };
        let (Some(d), Some(t)) = (dates.first(), title.first()) else {
            continue;
        };
        let left_end = title.iter().map(|r| r.x1).fold(f64::MIN, f64::max);
        let beside = dates.iter().all(|r| r.x0 > left_end);
        let near = t.y > d.y && t.y - d.y < t.size * 0.8 && t.size > d.size;
        if beside
            && near
            && crate::dates::only(&text(dates)).is_some()
            && crate::dates::find(&text(title)).is_none()
        {
            title.append(dates);
        }
    }
}

/// A word hyphenated in a narrow cell of its own ("Bach-" over "elor", a degree in a column left of its
/// school): the word, whole, in the cell's line.
fn hyphens_joined(rows: &mut [Vec<Run>], body: f64) {
    for i in 1..rows.len() {
        let [above, below] = &mut rows[i - 1..=i] else {
            continue;
        };
        // A resume's line has a few cells: a row of thousands (a file built to be slow) is left as it
        // is, rather than each of its runs compared with each of the next row's.
        if above.len() > MAX_CELLS || below.len() > MAX_CELLS {
            continue;
        }
        cell_split(above, below, body);
        if above.len() < 2 {
            continue;
        }
        for cell in above
            .iter_mut()
            .filter(|r| r.text.ends_with(['\u{ad}', '-']))
        {
            let Some(k) = rest_below(below, cell.x0, body) else {
                continue;
            };
            let rest = below.remove(k);
            cell.text.pop();
            cell.text.push_str(rest.text.trim());
            cell.x1 = cell.x1.max(rest.x1);
        }
    }
}

/// The word's rest under a hyphenated cell starting at `x0`: one word, in lower case, under the cell's
/// start; where it is in `below`.
fn rest_below(below: &[Run], x0: f64, body: f64) -> Option<usize> {
    below.iter().position(|r| {
        (r.x0 - x0).abs() <= body * 0.5
            && r.text.starts_with(char::is_lowercase)
            && !r.text.trim().contains(char::is_whitespace)
    })
}

/// The cell run into the text beside it, a space apart ("Bach\u{ad} University of …"), with the word's
/// rest in the row `below`: split in two runs, the cell and the text.
fn cell_split(above: &mut Vec<Run>, below: &[Run], body: f64) {
    if let Some(k) = above
        .iter()
        .position(|r| r.text.contains("\u{ad} ") && rest_below(below, r.x0, body).is_some())
    {
        let run = &mut above[k];
        let (head, tail) = run.text.split_once("\u{ad} ").unwrap_or_default();
        let (head, tail) = (format!("{head}\u{ad}"), tail.to_owned());
        let share = head.chars().count() as f64 / run.text.chars().count().max(1) as f64;
        let split = run.x0 + (run.x1 - run.x0) * share;
        let rest = Run {
            x0: split + body * 0.3,
            text: tail,
            ..run.clone()
        };
        (run.text, run.x1) = (head, split);
        above.insert(k + 1, rest);
    }
}

/// A column's rows (`left_edge` its left edge) into `out` as lines: each with its size against the body
/// text's `body`, its indent, whether a gap stands before it, whether it carries on the line above, and
/// where its cells start.
fn lines_of(rows: Vec<Vec<Run>>, left_edge: f64, body: f64, out: &mut Vec<Line>) {
    let right_edge = rows
        .iter()
        .flat_map(|row| row.iter().map(|r| r.x1))
        .fold(f64::MIN, f64::max);
    let mut last_y: Option<(f64, f64)> = None;
    let mut last_end = f64::MIN;
    let (mut last_runs, mut last_size) = (0, 0.0);
    for row in rows {
        let size = row.iter().map(|r| r.size).fold(0.0, f64::max);
        let text = row
            .iter()
            .map(|r| unspaced(&r.text))
            .collect::<Vec<_>>()
            .join("   ");
        let y = row[0].y;
        let mut line = Line::plain(text.trim());
        line.size = (size / body) as f32;
        line.indent = ((row[0].x0 - left_edge) / body) as f32;
        line.gap = last_y.is_some_and(|(ly, ls)| y - ly > ls.max(size) * 1.75);
        line.heading = size > body * 1.15 && line.text.chars().count() <= 60;
        line.bold = row.iter().all(|r| r.bold);
        // Prose that ran on: the line above one run in this line's size that reached the column's right
        // edge (a title with its dates set flush right does not run on).
        line.wrapped = !line.gap
            && last_end >= right_edge - body * 4.0
            && last_runs == 1
            && (last_size - size).abs() <= size * 0.05;
        if row.len() > 1 {
            line.cells = row
                .iter()
                .map(|r| ((r.x0 - left_edge) / body) as f32)
                .collect();
        }
        last_end = row.last().map_or(f64::MIN, |r| r.x1);
        (last_runs, last_size) = (row.len(), size);
        last_y = Some((y, size));
        if !line.text.is_empty() {
            out.push(line);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(x0: f64, y: f64, text: &str) -> Run {
        Run {
            x0,
            x1: x0 + 6.0 * text.len() as f64,
            y,
            size: 10.0,
            bold: false,
            text: text.to_owned(),
        }
    }

    /// Dates centred beside a title set in a taller font (a fallback font's line box) stand a little
    /// above the title's baseline: they are the title's, not a line before it.
    #[test]
    fn dates_a_little_above_a_taller_title_are_its_own() {
        let title = Run {
            size: 14.0,
            ..run(40.0, 104.5, "株式会社 山田製作所")
        };
        let dates = Run {
            size: 9.0,
            ..run(380.0, 100.0, "12/2015 - 01/2018")
        };
        let under = run(40.0, 122.0, "Design agency");
        let mut out = Vec::new();
        column_lines(vec![dates, title, under], 40.0, 10.0, &mut out);
        let texts: Vec<&str> = out.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(
            texts,
            ["株式会社 山田製作所   12/2015 - 01/2018", "Design agency"]
        );
    }

    /// Two cards a row, a few lines each (a grid of skills): read card row by card row, though the space
    /// between two rows is less than one and a half of the median space in a column of so few lines.
    #[test]
    fn a_grid_of_short_cards_is_read_row_by_row() {
        let title = |x0: f64, y: f64, text: &str| Run {
            size: 12.0,
            bold: true,
            ..run(x0, y, text)
        };
        let runs = vec![
            title(40.0, 100.0, "Clinical"),
            run(40.0, 120.0, "Patient Assessment"),
            run(40.0, 145.0, "Epic EHR"),
            title(40.0, 180.0, "Systems"),
            run(40.0, 200.0, "Go Rust"),
            run(40.0, 225.0, "LLVM"),
            title(320.0, 100.0, "Compression"),
            run(320.0, 118.0, "Mpeg"),
            run(320.0, 140.0, "Zstd"),
            title(320.0, 180.0, "Cloud"),
            run(320.0, 198.0, "Linux"),
            run(320.0, 220.0, "Kubernetes"),
        ];
        let groups: Vec<Vec<String>> = (columns(runs, 600.0).into_iter())
            .map(|g| g.into_iter().map(|r| r.text).collect())
            .collect();
        assert_eq!(
            groups,
            [
                ["Clinical", "Patient Assessment", "Epic EHR"],
                ["Compression", "Mpeg", "Zstd"],
                ["Systems", "Go Rust", "LLVM"],
                ["Cloud", "Linux", "Kubernetes"],
            ]
        );
    }

    #[test]
    fn a_sidebar_under_a_header_is_read_column_by_column() {
        let mut runs = vec![run(
            40.0,
            40.0,
            "Ada Lovelace, Analytical Engineer and more",
        )];
        for k in 0..8 {
            runs.push(run(40.0, 80.0 + 17.0 * k as f64, "side"));
            runs.push(run(200.0, 85.0 + 14.0 * k as f64, "main column line"));
        }
        let groups = columns(runs, 600.0);
        let texts: Vec<Vec<&str>> = groups
            .iter()
            .map(|g| g.iter().map(|r| r.text.as_str()).collect())
            .collect();
        assert_eq!(texts.len(), 3, "{texts:?}");
        assert_eq!(texts[0], ["Ada Lovelace, Analytical Engineer and more"]);
        assert!(texts[1].iter().all(|t| *t == "side"));
        assert!(texts[2].iter().all(|t| *t == "main column line"));
    }

    /// A right-to-left page's sidebar: a band at the right, its lines flush right, the name at its top and
    /// larger than anything else; the main column at the left with its headings in Arabic. The band is read
    /// first, then the main column; a short main column of few lines beside it is still a column.
    #[test]
    fn a_right_to_left_sidebar_is_read_band_first() {
        let flush = |end: f64, text: &str| Run {
            x0: end - 6.0 * text.chars().count() as f64,
            x1: end,
            ..run(0.0, 0.0, text)
        };
        let mut runs = vec![Run {
            size: 20.0,
            y: 40.0,
            ..flush(560.0, "Ada Lovelace")
        }];
        for (k, text) in ["ada@example.com", "+1 555 0100", "London, UK"]
            .iter()
            .enumerate()
        {
            runs.push(Run {
                y: 70.0 + 14.0 * k as f64,
                ..flush(560.0, text)
            });
        }
        // The main column: a heading flush right every sixth line, prose at the left.
        for k in 0..30 {
            let y = 45.0 + 15.0 * k as f64;
            runs.push(match k % 6 {
                0 => Run {
                    y,
                    ..flush(360.0, "الخبرة العملية")
                },
                _ => run(
                    40.0,
                    y,
                    "a main column's line of prose, set the width of it",
                ),
            });
        }
        let groups = columns(runs, 600.0);
        let first: Vec<&str> = groups[0].iter().map(|r| r.text.as_str()).collect();
        assert_eq!(
            first,
            [
                "Ada Lovelace",
                "ada@example.com",
                "+1 555 0100",
                "London, UK"
            ],
            "{groups:?}"
        );
        assert!(groups[1].iter().all(|r| r.x1 <= 360.0));
    }

    /// A link carried under its line of parts is that line's last part; a link that stands on its own line
    /// after a gap, or under a line that ends in one, is not.
    #[test]
    fn a_link_carried_under_its_line_is_its_last_part() {
        let line = |text: &str, size: f32, gap: bool| Line {
            size,
            gap,
            ..Line::plain(text)
        };
        let mut lines = vec![
            line("Aug 2016 · Smoogle · application", 0.9, false),
            line("http://missdirection.example.com", 0.9, false),
            line(
                "Dec 2013 · Pied Piper · https://piedpiper.example.com",
                0.9,
                false,
            ),
            line("https://other.example.com", 0.9, false),
            line("May 2014 · Hooli", 0.9, false),
            line("https://hooli.example.com", 0.9, true),
        ];
        links_rejoined(&mut lines);
        let texts: Vec<&str> = lines.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "Aug 2016 · Smoogle · application · http://missdirection.example.com",
                "Dec 2013 · Pied Piper · https://piedpiper.example.com",
                "https://other.example.com",
                "May 2014 · Hooli",
                "https://hooli.example.com",
            ]
        );
    }

    /// Two columns of cards, their lines on baselines a little apart (a level and its keywords set in
    /// other sizes), then the page's one column again: a heading, and a job's line that crosses the gutter.
    /// The cards are read column by column; the heading after both, not inside the left one. A line that
    /// starts at the gutter and runs right of it is the right side's.
    #[test]
    fn a_heading_under_a_grid_of_cards_is_read_after_the_grid() {
        let mut runs = Vec::new();
        for k in 0..6 {
            runs.push(run(40.0, 100.0 + 14.0 * k as f64, "left card"));
            runs.push(run(220.0, 101.8 + 14.0 * k as f64, "right card"));
        }
        runs.push(run(220.0, 101.8 + 14.0 * 6.0, "right card"));
        runs.push(run(40.0, 220.0, "WORK"));
        runs.push(run(
            40.0,
            240.0,
            "A job's line that runs across the whole page's width",
        ));
        let texts: Vec<Vec<String>> = columns(runs, 600.0)
            .iter()
            .map(|g| g.iter().map(|r| r.text.clone()).collect())
            .collect();
        assert_eq!(texts.len(), 3, "{texts:?}");
        assert!(texts[0].iter().all(|t| t == "left card"));
        assert!(texts[1].iter().all(|t| t == "right card"));
        assert_eq!(texts[2][0], "WORK");
    }

    /// A grid of cards two rows deep, each card a bold title over lines set a little off the other
    /// column's baselines: read card row by card row (the first row's two cards, then the second's), as
    /// the page orders them, not the whole left column first.
    #[test]
    fn cards_in_rows_are_read_row_by_row() {
        let card = |x: f64, y: f64, title: &str, lines: usize| {
            let mut runs = vec![Run {
                bold: true,
                ..run(x, y, title)
            }];
            for k in 0..lines {
                runs.push(run(x, y + 16.0 + 13.0 * k as f64 + x / 200.0, "item"));
            }
            runs
        };
        let mut runs = card(40.0, 100.0, "First", 3);
        runs.extend(card(300.0, 100.0, "Second", 2));
        runs.extend(card(40.0, 180.0, "Third", 2));
        runs.extend(card(300.0, 180.0, "Fourth", 3));
        let titles: Vec<String> = columns(runs, 600.0)
            .iter()
            .flatten()
            .filter(|r| r.bold)
            .map(|r| r.text.clone())
            .collect();
        assert_eq!(titles, ["First", "Second", "Third", "Fourth"]);
    }

    /// A second page that starts in a job's bullets, set in from the first page's left edge: its lines
    /// keep that indent, read against the first page's edge.
    #[test]
    fn pages_of_one_column_share_their_left_edge() {
        let glyph = |x: f64, y: f64, text: &str| Glyph {
            x,
            y,
            width: 6.0 * text.len() as f64,
            size: 10.0,
            bold: false,
            text: text.to_owned(),
        };
        let first = vec![glyph(50.0, 100.0, "Title"), glyph(70.0, 115.0, "A bullet")];
        let second = vec![
            glyph(70.0, 100.0, "Another bullet"),
            glyph(70.0, 115.0, "And one more"),
        ];
        let mut out = Vec::new();
        pages_lines(vec![first, second], 600.0, 10.0, &mut out);
        let indents: Vec<f32> = out.iter().map(|l| l.indent).collect();
        assert_eq!(indents, [0.0, 2.0, 2.0, 2.0]);
    }

    #[test]
    fn places_set_flush_right_beside_titles_are_not_a_column() {
        // A template's entries (RenderCV's classic): the title and bullets at the left; each entry's
        // place flush right on the title's baseline, and the first entry's dates beside its first bullet.
        // Flush right at 560 (the `run` helper makes a run 6 wide for each byte).
        let right = |text: &str| 560.0 - 6.0 * text.len() as f64;
        let mut runs = Vec::new();
        for (k, place) in ["San Francisco, CA", "Seattle, WA", "Portland, OR"]
            .iter()
            .enumerate()
        {
            let y = 100.0 + 80.0 * k as f64;
            runs.push(run(40.0, y, "Northwind Payments, Staff Engineer"));
            for b in 1..4 {
                runs.push(run(50.0, y + 14.0 * b as f64, "• a bullet of the entry"));
            }
            runs.push(run(right(place), y, place));
        }
        let dates = "Mar 2021 - Feb 2022";
        runs.push(run(right(dates), 113.0, dates));
        let groups = columns(runs, 600.0);
        assert_eq!(groups.len(), 1, "read across, as rows");
    }

    #[test]
    fn rows_of_thousands_of_cells_are_left_as_they_are() {
        // Two baselines of 20,000 runs each, every run a cell ending in a soft hyphen with a word's rest
        // under it: no resume's line, so the hyphenation pass, which compares cells with the next row's,
        // leaves them alone (where no rest matched, it would compare 400 million pairs).
        let mut glyphs = Vec::new();
        for k in 0..20_000 {
            let x = k as f64 * 30.0;
            for (y, text) in [(100.0, "ab\u{ad}"), (112.0, "cd")] {
                glyphs.push(Glyph {
                    x,
                    y,
                    width: 12.0,
                    size: 10.0,
                    bold: false,
                    text: text.to_owned(),
                });
            }
        }
        let mut out = Vec::new();
        page_lines(glyphs, 600.0, 10.0, &mut out);
        // Left as they were: each row still holds its 20,000 parts.
        let parts = |l: &Line| l.text.split("   ").count();
        assert_eq!(out.iter().map(parts).sum::<usize>(), 40_000);
    }

    #[test]
    fn a_page_of_a_hundred_thousand_runs_is_split_in_passes_not_pairs() {
        // Two sides of 50,000 runs each, every one on a baseline of its own: comparing every pair of them
        // for every candidate gutter would not end in any reasonable time.
        let runs: Vec<Run> = (0..100_000)
            .map(|k| run(if k % 2 == 0 { 40.0 } else { 300.0 }, k as f64 * 0.5, "x"))
            .collect();
        let groups = columns(runs, 600.0);
        assert_eq!(groups.iter().map(Vec::len).sum::<usize>(), 100_000);
    }

    #[test]
    fn a_line_laid_out_right_to_left_reads_in_written_order() {
        // As drawn: the parts from the right, an Arabic word's letters from the right.
        let month: String = "ديسمبر".chars().rev().collect();
        let drawn = format!("https://x.example · Pied Piper · 2014 {month} – 2013 {month}");
        assert_eq!(
            right_to_left(&drawn),
            "ديسمبر 2013 – ديسمبر 2014 · Pied Piper · https://x.example"
        );
        assert_eq!(
            right_to_left("Javascript ,CSS ,HTML"),
            "HTML, CSS, Javascript"
        );
        // A part in one direction keeps its order; a left-to-right line is left as it is.
        assert_eq!(
            right_to_left("2712 Broadway St, CA 94115"),
            "2712 Broadway St, CA 94115"
        );
        // A part with no right-to-left letter is as it was drawn, its brackets and last "/" in place.
        assert_eq!(
            right_to_left(&format!(
                "(912) 555-4321 · https://www.ou.edu/ · 2014 {month}"
            )),
            "ديسمبر 2014 · https://www.ou.edu/ · (912) 555-4321"
        );
        let score: String = "4.0 :".to_owned() + &"المعدل".chars().rev().collect::<String>() + " •";
        assert_eq!(right_to_left(&score), "• المعدل: 4.0");
    }
}
