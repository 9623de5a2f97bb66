//! A section's lines split into entries, each as the lines gave it ([`Raw`]): its title lines and dates,
//! its paragraphs, its bullets and its labelled lists. Which of its title lines is its title and which
//! its subtitle is read in `titles`.

mod titles;
mod words;

use crate::Line;
use crate::dates::{self, Span};
use crate::headings;

use super::contacts::is_url;
use super::lines::{
    a_keyword, ends_sentence, join_wrapped, keyword_items, list_items, short, strip_bullet,
};

pub(super) use titles::{split_parts, subtitle_parts, title_and_subtitle};
pub(super) use words::{BY_LABELS, ENTRY_LABELS};

/// One entry as the lines gave it.
#[derive(Default)]
pub(super) struct Raw {
    /// Title lines, the dates taken out.
    pub(super) head: Vec<String>,
    /// Which head line the dates were on.
    dates_on: Option<usize>,
    pub(super) dates: Option<Span>,
    pub(super) paragraphs: Vec<String>,
    pub(super) bullets: Vec<String>,
    /// Lists under a label ("Skills: a · b"): the label's key and the items.
    pub(super) lists: Vec<(String, Vec<String>)>,
    /// The last line was a paragraph's: a next line may continue it.
    in_paragraph: bool,
}

impl Raw {
    fn has_body(&self) -> bool {
        !self.paragraphs.is_empty() || !self.bullets.is_empty()
    }
    fn is_empty(&self) -> bool {
        self.head.is_empty() && self.dates.is_none() && !self.has_body()
    }
}

/// Whether `text` is only a dash or two.
fn is_dash(text: &str) -> bool {
    let t = text.trim();
    !t.is_empty() && t.chars().count() <= 2 && t.chars().all(|c| matches!(c, '-' | '–' | '—'))
}

/// The entries of a section whose entries have titles and dates.
/// `keywords_first`: a list of words one to a bullet right under a title is the entry's keywords (a
/// project's), not its highlights.
pub(super) fn entries(lines: &[&Line], keywords_first: bool) -> Vec<Raw> {
    let mut reader = Entries {
        lines,
        keywords_first,
        out: Vec::new(),
        current: Raw::default(),
        last_bullet: None,
        last_was_head: false,
        items_spaced: false,
        entry_indent: lines.first().map_or(0.0, |l| l.indent),
        title_style: None,
        styled_otherwise: false,
        last_style: None,
        title_pair: None,
        title_cells: 0,
    };
    let mut skip = 0;
    for (at, &line) in lines.iter().enumerate() {
        if skip > 0 {
            skip -= 1;
            continue;
        }
        skip = reader.line(at, line);
    }
    let Entries {
        mut out, current, ..
    } = reader;
    if !current.is_empty() {
        out.push(current);
    }
    out
}

/// A section's lines as [`entries`] reads them, one after the other: the entries read, the one being
/// read, and what the lines before said about the next.
struct Entries<'a> {
    lines: &'a [&'a Line],
    keywords_first: bool,
    out: Vec<Raw>,
    current: Raw,
    /// The last list item, while lines may still carry it on.
    last_bullet: Option<&'a Line>,
    /// The last line was a title line.
    last_was_head: bool,
    /// The list's items stand apart, a space between them.
    items_spaced: bool,
    /// Where the entry's text stands: its title's indent.
    entry_indent: f32,
    /// How the entry's first line is set, when the source marks it (a heading, or bold throughout).
    title_style: Option<Style>,
    /// A line set otherwise has been read into the entry since its first.
    styled_otherwise: bool,
    /// How the line before was set.
    last_style: Option<Style>,
    /// How the entry's first two lines are set, when they are set apart from each other (a title over a
    /// smaller line of dates and places).
    title_pair: Option<(Style, Style)>,
    /// How many parts set apart by wide gaps the entry's first line has (a title with its dates flush
    /// right: two).
    title_cells: usize,
}

/// How a line is set: marked a heading, bold, its size (in twentieths of the body's).
#[derive(Clone, Copy, PartialEq, Eq)]
struct Style {
    heading: bool,
    bold: bool,
    size: i32,
}

impl Style {
    fn of(line: &Line) -> Style {
        Style {
            heading: line.heading,
            bold: line.bold,
            size: (line.size * 20.0).round() as i32,
        }
    }

    /// Whether the source sets it apart from body text: a heading, bold, or larger.
    fn marked(self) -> bool {
        self.heading || self.bold || self.size >= 22
    }
}

impl<'a> Entries<'a> {
    /// Reads `line` (the one at `at`) into the entry being read, or starts the next entry with it; how many
    /// of the lines after it were read with it (a list of keywords, one to a line).
    fn line(&mut self, at: usize, line: &'a Line) -> usize {
        if line.text.trim().is_empty() {
            return 0;
        }
        let (started, entries) = (self.current.is_empty(), self.out.len());
        let read = self.read(at, line);
        let style = Style::of(line);
        if started || self.out.len() > entries {
            self.title_style = style.marked().then_some(style);
            self.styled_otherwise = false;
            self.title_pair = self
                .style_pair(at)
                .filter(|(first, second)| first != second);
            self.title_cells = line.cells.len();
        } else if self.title_style.is_some_and(|s| s != style) {
            self.styled_otherwise = true;
        }
        self.last_style = Some(style);
        read
    }

    /// How the line at `at` and the one after it are set.
    fn style_pair(&self, at: usize) -> Option<(Style, Style)> {
        let next = self.lines.get(at + 1)?;
        Some((Style::of(self.lines[at]), Style::of(next)))
    }

    /// [`Entries::line`]'s reading, `line` not blank.
    fn read(&mut self, at: usize, line: &'a Line) -> usize {
        let text = line.text.trim();
        let text = self.undated(text);
        let after_head = std::mem::replace(&mut self.last_was_head, false);
        if self.labelled(text) {
            return 0;
        }
        let drawn_bullet = self.drawn_bullet(line, text);
        if let Some(n) = self.keyword_bullets_at(at) {
            return n - 1;
        }
        if self.bullet(at, line, text, drawn_bullet) {
            return 0;
        }
        self.last_bullet = None;
        if self.chips_at(at, line, text) {
            return 0;
        }
        if let Some(n) = self.keyword_lines_at(at) {
            return n - 1;
        }
        self.title_or_body(at, line, text, after_head);
        0
    }

    /// `text` without the dates set flush right beside the entry's first bullet or the first line of its
    /// description (the title's line held its place): those are the entry's dates, not the line's words.
    fn undated<'t>(&mut self, text: &'t str) -> &'t str {
        match text.rsplit_once("   ") {
            Some((before, last))
                if !self.current.head.is_empty()
                    && self.current.dates.is_none()
                    && (strip_bullet(before).is_some() || !short(before)) =>
            {
                match dates::only(last) {
                    Some(span) => {
                        self.current.dates = Some(span);
                        before.trim_end()
                    }
                    None => text,
                }
            }
            _ => text,
        }
    }

    /// A label over a list, or a labelled list: read into the entry; false when `text` is neither.
    fn labelled(&mut self, text: &str) -> bool {
        // "Highlights", "Courses": a label over a list, which the list's own field says.
        if !self.current.head.is_empty() && ENTRY_LABELS.contains(&headings::key(text).as_str()) {
            self.current.in_paragraph = false;
            self.last_bullet = None;
            return true;
        }
        // "Skills: a · b", "Major courses: a · b": a labelled list is the entry's keywords or courses, a
        // bullet's own too ("• Technologies: a, b").
        if !self.current.head.is_empty()
            && let Some((label, rest)) = strip_bullet(text).unwrap_or(text).split_once(':')
            && ENTRY_LABELS.contains(&headings::key(label).as_str())
            && !rest.trim().is_empty()
        {
            self.current
                .lists
                .push((headings::key(label), keyword_items(rest)));
            self.current.in_paragraph = false;
            return true;
        }
        false
    }

    /// Whether `line` is an item of a list whose bullets are drawn, not written (a browser's `<ul>`
    /// printed): its items stand in from the entry's left edge.
    fn drawn_bullet(&self, line: &Line, text: &str) -> bool {
        let current = &self.current;
        !current.head.is_empty()
            && line.indent >= self.entry_indent + 1.0
            // Right under a one-line title, a line set in a little is the title's second line.
            // (A sentence is no title's line.)
            && (current.has_body()
                || current.head.len() >= 2
                || line.indent >= self.entry_indent + 2.0
                || !short(text))
            && !text.starts_with(|c: char| c.is_lowercase())
            && list_items(text).is_none()
            && !(line.wrapped && self.items_spaced && !line.gap)
            // A line under an item that ran on to the edge, its sentence unfinished, carries it on.
            && !(self.last_bullet.is_some() && self.runs_on(line, text))
            && self.last_bullet.is_none_or(|b| b.indent + 0.3 >= line.indent)
            // Right under the title, the line with the entry's dates is its second line, however far in
            // it stands (a right-to-left page sets a short line far from the left).
            && !(current.dates.is_none() && !current.has_body() && dates::find(text).is_some())
    }

    /// Whether `line` (`text`) carries on the last item where items are set with no space between them,
    /// each wrapped flush with its first line: the item ran on to the edge with its sentence unfinished, and
    /// this line does not open with a capital (an item of its own does; a sentence's middle, a number or a
    /// sum do not).
    fn runs_on(&self, line: &Line, text: &str) -> bool {
        line.wrapped
            && !line.gap
            && !text.starts_with(char::is_uppercase)
            && (self.current.bullets.last()).is_some_and(|b| !ends_sentence(b))
    }

    /// Words one to a bullet right under an entry's title, before anything else of it (a theme's
    /// keywords over the description): a list of their own, of how many lines.
    fn keyword_bullets_at(&mut self, at: usize) -> Option<usize> {
        let current = &mut self.current;
        if self.keywords_first
            && !current.head.is_empty()
            && !current.has_body()
            && current.lists.is_empty()
            && let Some(n) = keyword_bullets(&self.lines[at..])
        {
            let items = self.lines[at..at + n].iter().map(|l| {
                strip_bullet(l.text.trim())
                    .unwrap_or(l.text.trim())
                    .to_owned()
            });
            current.lists.push(("keywords".into(), items.collect()));
            return Some(n);
        }
        None
    }

    /// A list item, its bullet written or drawn, or a line that carries on the last one: read into the
    /// entry's bullets; false when `line` is neither.
    fn bullet(&mut self, at: usize, line: &'a Line, text: &str, drawn_bullet: bool) -> bool {
        // A list item the source marks a heading too, one that holds a list of its own, or one with
        // its dates under it (a word processor keeps a web page's cards in their list), is an entry's
        // title.
        let listed =
            line.bullet && !line.heading && !self.holds_a_list(at) && !self.dated_below(at)
                || drawn_bullet;
        if let Some(item) = strip_bullet(text).or(listed.then_some(text)) {
            // A list whose items stand apart (a space between them): a line with none before it
            // carries on the item above.
            self.items_spaced = self.last_bullet.is_some() && line.gap;
            self.current.bullets.push(item.to_owned());
            self.current.in_paragraph = false;
            self.last_bullet = Some(line);
            return true;
        }
        if let Some(bullet) = self.last_bullet
            && (!line.gap && line.indent > bullet.indent + 0.3
                || line.wrapped && self.items_spaced && (line.indent - bullet.indent).abs() <= 0.3
                || (line.indent - bullet.indent).abs() <= 0.3 && self.runs_on(line, text)
                || text.starts_with(|c: char| c.is_lowercase()) && !is_url(text))
            && let Some(last) = self.current.bullets.last_mut()
        {
            join_wrapped(last, text);
            return true;
        }
        false
    }

    /// Whether the list item at `at` holds a list of its own: the next item, a line or two below, stands
    /// in further.
    fn holds_a_list(&self, at: usize) -> bool {
        let item = self.lines[at];
        (self.lines[at + 1..].iter().take(3))
            .find(|l| l.bullet)
            .is_some_and(|next| next.indent > item.indent + 0.3)
    }

    /// Whether the list item at `at` is short, no sentence, and the line under it is its dates and no
    /// list item: the item is a card's title (a sentence over a line of dates is a bullet, the dates
    /// the next entry's).
    fn dated_below(&self, at: usize) -> bool {
        let item = self.lines[at].text.trim();
        short(item)
            && !ends_sentence(item)
            && (self.lines.get(at + 1))
                .is_some_and(|next| !next.bullet && dates::only(&next.text).is_some())
    }

    /// A row of keywords set smaller than the description right over it (a project's chips: "Terraform",
    /// "Spark   Kafka"), before any bullet: a list of its own; false when `line` is not one.
    fn chips_at(&mut self, at: usize, line: &Line, text: &str) -> bool {
        let current = &mut self.current;
        let above = at.checked_sub(1).map(|k| self.lines[k]);
        let smaller = above.is_some_and(|a| line.size < a.size - 0.05 && !short(&a.text));
        if !current.in_paragraph || !current.bullets.is_empty() || !smaller || line.bullet {
            return false;
        }
        let items = keyword_items(text);
        if !items.iter().all(|i| a_keyword(i)) || ends_sentence(text) {
            return false;
        }
        current.lists.push((UNLABELLED.into(), items));
        current.in_paragraph = false;
        true
    }

    /// Words one to a line between a description and its bullets (a project's keywords as a word
    /// processor keeps them): a list of their own, of how many lines.
    fn keyword_lines_at(&mut self, at: usize) -> Option<usize> {
        let current = &mut self.current;
        if (!current.paragraphs.is_empty() || self.keywords_first && current.head.len() >= 2)
            && current.bullets.is_empty()
            && let Some(n) = keyword_lines(&self.lines[at..])
        {
            let items = self.lines[at..at + n]
                .iter()
                .map(|l| l.text.trim().to_owned());
            current.lists.push((UNLABELLED.into(), items.collect()));
            current.in_paragraph = false;
            return Some(n);
        }
        None
    }

    /// A line that is no list's: the next entry's first, a title line, or the description's.
    fn title_or_body(&mut self, at: usize, line: &Line, text: &str, after_head: bool) {
        // A dash set flush right where a title's dates would stand, for an entry with none.
        let text = match text.rsplit_once("   ") {
            Some((before, dash)) if !before.trim().is_empty() && is_dash(dash) => before.trim_end(),
            _ => text,
        };
        let span = dates::find(text);
        let rest = span
            .as_ref()
            .map_or_else(|| text.to_owned(), |s| dates::without(text, s));
        let headish = short(text) || span.is_some() && short(&rest);
        if self.starts_entry(at, line, text, headish, span.is_some()) {
            self.out.push(std::mem::take(&mut self.current));
        }
        self.set_edge(line, text);
        if !self.head_line(at, text, span, rest, headish) {
            self.body_line(line, text, after_head);
        }
    }

    /// Whether `line` (`headish`: short enough for a title, `dated`: with dates) starts the next entry.
    fn starts_entry(&self, at: usize, line: &Line, text: &str, headish: bool, dated: bool) -> bool {
        let current = &self.current;
        // A short line right under a paragraph's last is that paragraph's end, not a new title; a list on
        // one line after the body is the entry's keywords.
        let continues_paragraph = current.in_paragraph && !line.gap;
        // A title's line can read as a list ("Quillmark, Senior Engineer   Seattle, WA"): after a space,
        // with dates on the line under it, it is the next entry's.
        let next_dated = || {
            self.lines
                .get(at + 1)
                .is_some_and(|next| dates::find(&next.text).is_some())
        };
        // A line set as the entry's title was (a heading, bold throughout, larger), after lines set
        // otherwise: the next entry's title, whatever its words, and no paragraph's end.
        let style = Some(Style::of(line));
        let styled_as_title =
            self.styled_otherwise && self.title_style == style && self.last_style != style;
        // A short line over a line set as the entry's first two were, after a sentence or a bullet
        // ended: the next entry's title and its line of dates and places.
        let body_ended = !current.in_paragraph
            || (current.paragraphs.last()).is_some_and(|p| p.trim_end().ends_with(['.', '!', '?']));
        let paired_as_title = headish
            && current.has_body()
            && body_ended
            && self.title_pair.is_some()
            && self.style_pair(at) == self.title_pair;
        // A line of the shape the entry's first had (a title and, flush right, its dates or a dash where
        // they are not), set as it was, under two title lines and no body: the next entry's, the one before
        // having no more than its title lines.
        let shaped_as_title = self.title_cells >= 2
            && line.cells.len() == self.title_cells
            && self.title_style == style
            && current.head.len() >= 2
            && !current.has_body();
        if !current.is_empty() && (styled_as_title || paired_as_title || shaped_as_title) {
            return true;
        }
        !current.is_empty()
            && headish
            && !continues_paragraph
            && (list_items(text).is_none() || line.gap && current.dates.is_some() && next_dated())
            && (current.has_body() || dated && current.dates.is_some())
    }

    /// The entry's left edge, where its title's text stands, as `line` sets it.
    fn set_edge(&mut self, line: &Line, text: &str) {
        if self.current.is_empty() {
            self.entry_indent = line.indent;
        } else if !self.current.has_body() {
            // A date set far right above the title does not set the entry's left edge.
            self.entry_indent = self.entry_indent.min(line.indent);
        }
        // The dates in a column of their own left of the title ("Dec 2013 – Dec 2014   CEO, Pied Piper",
        // LaTeX's moderncv): the entry's left edge is the title's, where its text stands.
        let first_cell = text.split("   ").next().unwrap_or(text);
        if !self.current.has_body()
            && let [first, title, ..] = line.cells[..]
            && title > first
            && dates::find(first_cell).is_some_and(|s| dates::without(first_cell, &s).is_empty())
        {
            self.entry_indent = title;
        }
    }

    /// A title line (`rest`: `text` without its dates `span`), or under the title the description's
    /// first line, which runs on into the next: read into the entry; false when `text` is neither.
    fn head_line(
        &mut self,
        at: usize,
        text: &str,
        span: Option<Span>,
        rest: String,
        headish: bool,
    ) -> bool {
        let current = &mut self.current;
        // Under the title, a line that runs on into the next (a word broken at its end, a sentence carried
        // on in lower case): the description's first line, though short; the dates beside it the entry's.
        let runs_on = self.lines.get(at + 1).is_some_and(|next| {
            next.wrapped && !next.gap && next.text.trim_start().starts_with(char::is_lowercase)
        });
        if headish && runs_on && !current.head.is_empty() && !current.has_body() {
            let first = match span.filter(|_| current.dates.is_none()) {
                Some(span) => {
                    current.dates = Some(span);
                    rest
                }
                None => text.to_owned(),
            };
            current.paragraphs.push(first);
            current.in_paragraph = true;
            return true;
        }
        if headish && !current.has_body() && (current.head.len() < 3 || span.is_some()) {
            if let Some(span) = span.filter(|_| current.dates.is_none()) {
                current.dates = Some(span);
                if !rest.is_empty() {
                    current.dates_on = Some(current.head.len());
                    current.head.push(rest);
                }
            } else {
                current.head.push(text.to_owned());
                self.last_was_head = true;
            }
            return true;
        }
        false
    }

    /// A line of the entry's description: the paragraph above carried on, or a new one.
    fn body_line(&mut self, line: &Line, text: &str, after_head: bool) {
        let current = &mut self.current;
        match current.paragraphs.last_mut() {
            // A list of keywords under a paragraph's finished sentence is a paragraph of its own (the
            // entry's keywords), wherever no space sets it apart (a Word file's paragraphs).
            Some(last)
                if current.in_paragraph
                    && !line.gap
                    && !(ends_sentence(last) && keyword_list(text)) =>
            {
                join_wrapped(last, text);
            }
            // A long line taken for the entry's last title line, with this one right under it: a
            // paragraph's first line, wrapped.
            None if !line.gap
                && after_head
                && (current.head.len() >= 2 || text.starts_with(|c: char| c.is_lowercase()))
                && current.dates_on != Some(current.head.len() - 1)
                && current
                    .head
                    .last()
                    .is_some_and(|h| h.split_whitespace().count() >= 8) =>
            {
                let mut first = current.head.pop().unwrap_or_default();
                join_wrapped(&mut first, text);
                current.paragraphs.push(first);
            }
            _ => current.paragraphs.push(text.to_owned()),
        }
        current.in_paragraph = true;
    }
}

/// Whether `text` is a list of keywords and no sentence: "Salesforce, C#, Ruby on Rails".
fn keyword_list(text: &str) -> bool {
    !ends_sentence(text) && list_items(text).is_some_and(|items| items.iter().all(|i| a_keyword(i)))
}

/// The key of a list that stood under no label ([`keyword_lines`]).
pub(super) const UNLABELLED: &str = "";

/// How many lines from the first are bullets of a keyword each, two or more, followed by a line that is
/// not a bullet; `None` when they are not.
fn keyword_bullets(lines: &[&Line]) -> Option<usize> {
    let item = |l: &Line| {
        let t = l.text.trim();
        let bare = strip_bullet(t).or(l.bullet.then_some(t));
        bare.is_some_and(a_keyword)
    };
    let (n, next) = run_of(lines, item)?;
    (!next.bullet && strip_bullet(next.text.trim()).is_none()).then_some(n)
}

/// How many lines from the first are a list of words one to a line (two or more, each of at most three
/// words and no sentence, none a date, none bold, all of a size) right before a bulleted line; `None`
/// when they are not (a title in bold over its bullets starts an entry).
fn keyword_lines(lines: &[&Line]) -> Option<usize> {
    let size = lines.first()?.size;
    let word = |l: &Line| {
        let t = l.text.trim();
        !l.bullet
            && !l.bold
            && (l.size - size).abs() < 0.05
            && strip_bullet(t).is_none()
            && a_keyword(t)
    };
    let (n, next) = run_of(lines, word)?;
    (next.bullet || strip_bullet(next.text.trim()).is_some()).then_some(n)
}

/// How many lines from the first are each `item` — two to [`MAX_KEYWORDS`], looked ahead no further — and
/// the line after them; `None` for a shorter or longer run, or one that ends the lines.
fn run_of<'a>(lines: &[&'a Line], item: impl Fn(&Line) -> bool) -> Option<(usize, &'a Line)> {
    let n = lines
        .iter()
        .take(MAX_KEYWORDS + 1)
        .take_while(|l| item(l))
        .count();
    let next = lines.get(n).filter(|_| (2..=MAX_KEYWORDS).contains(&n))?;
    Some((n, *next))
}

/// The most keywords one to a line an entry is read with: a longer run is not a list of keywords, and
/// each line of a file is looked ahead from at most this far (a file of a million short lines stays linear).
pub(super) const MAX_KEYWORDS: usize = 64;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_of_words_longer_than_a_list_of_keywords_is_not_one() {
        let word = Line::plain("Brass");
        let mut bullet = Line::plain("Built it");
        bullet.bullet = true;
        for n in [2, MAX_KEYWORDS] {
            let mut run: Vec<&Line> = vec![&word; n];
            run.push(&bullet);
            assert_eq!(keyword_lines(&run), Some(n));
        }
        let mut long: Vec<&Line> = vec![&word; 100_000];
        long.push(&bullet);
        assert_eq!(keyword_lines(&long), None);
        let mut bullets: Vec<&Line> = vec![&bullet; 100_000];
        bullets.push(&word);
        assert_eq!(keyword_bullets(&bullets), None);
    }
}
