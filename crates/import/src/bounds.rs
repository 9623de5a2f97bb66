//! What one file may yield, counted as it is read: its text and its lines. A small file can ask for far
//! more than it holds (a link's megabyte target said a thousand times, a line for each of millions of
//! characters); a reader adds to [`Output`] as it goes, and the first line or byte past a bound ends the
//! reading in words that name it.

use crate::{Format, ImportError, Line};

/// The most text a file may yield, in bytes: four times the largest resume Redline keeps (a long career
/// with every section filled yields under 100 KB).
pub const MAX_TEXT_BYTES: usize = 4 * redline_resume::MAX_DOCUMENT_BYTES;

/// The most lines a file may yield: a 31-page resume read from its PDF has about 1,500; a line is some
/// 100 bytes however short its text.
pub const MAX_LINES: usize = 20_000;

/// The longest link target a Word or OpenDocument file may give, in bytes: the longest address any export
/// makes a link of (`redline_resume::outline::safe_href`).
pub const MAX_LINK_BYTES: usize = 2_000;

/// `n` written with thousands separated, as a person reads it (20,000).
pub fn grouped(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// The refusal of a file of `format` past a bound: "this Word document `crossed`; Redline reads at most
/// `most`".
pub fn refused(format: Format, crossed: &str, most: &str) -> ImportError {
    ImportError::OverBound(format!(
        "this {} {crossed}; Redline reads at most {most}",
        format.label()
    ))
}

/// The lines a reader has yielded so far, with the bytes of their text.
pub struct Output {
    format: Format,
    lines: Vec<Line>,
    bytes: usize,
}

impl Output {
    pub fn new(format: Format) -> Self {
        Output {
            format,
            lines: Vec::new(),
            bytes: 0,
        }
    }

    /// Whether `pending` more bytes of text (a line still being put together) fit.
    pub fn room(&self, pending: usize) -> Result<(), ImportError> {
        if self.bytes.saturating_add(pending) > MAX_TEXT_BYTES {
            return Err(refused(
                self.format,
                &format!("yields more than {} MB of text", MAX_TEXT_BYTES >> 20),
                &format!("{} MB", MAX_TEXT_BYTES >> 20),
            ));
        }
        Ok(())
    }

    /// `line`, added if it is within the bounds.
    pub fn push(&mut self, line: Line) -> Result<(), ImportError> {
        if self.lines.len() >= MAX_LINES {
            return Err(too_many_lines(self.format));
        }
        self.room(line.text.len())?;
        self.bytes += line.text.len();
        self.lines.push(line);
        Ok(())
    }

    pub fn into_lines(self) -> Vec<Line> {
        self.lines
    }
}

fn too_many_lines(format: Format) -> ImportError {
    refused(
        format,
        &format!("has more than {} lines", grouped(MAX_LINES)),
        &grouped(MAX_LINES),
    )
}

/// Lines read elsewhere (a PDF's, by the child process) checked against the same bounds.
pub fn check(format: Format, lines: &[Line]) -> Result<(), ImportError> {
    if lines.len() > MAX_LINES {
        return Err(too_many_lines(format));
    }
    let mut output = Output::new(format);
    output.bytes = lines.iter().map(|l| l.text.len()).sum();
    output.room(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_grouped_by_thousands() {
        assert_eq!(grouped(7), "7");
        assert_eq!(grouped(256), "256");
        assert_eq!(grouped(2_000), "2,000");
        assert_eq!(grouped(500_000), "500,000");
        assert_eq!(grouped(20_000_000), "20,000,000");
    }

    #[test]
    fn a_reader_past_its_lines_is_refused_in_words() {
        let mut output = Output::new(Format::Text);
        for _ in 0..MAX_LINES {
            output.push(Line::plain("x")).unwrap();
        }
        let e = output.push(Line::plain("x")).unwrap_err().to_string();
        assert_eq!(
            e,
            "this text has more than 20,000 lines; Redline reads at most 20,000; nothing was imported"
        );
    }
}
