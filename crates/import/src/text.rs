//! Plain text and Markdown into lines: `#` headings and `-` items as the source marks them, a blank line
//! as a paragraph's end, Markdown's emphasis, escapes and links reduced to their text.

use crate::bounds::Output;
use crate::{Format, ImportError, Line};

/// The lines of a text or Markdown file; refused past [`crate::MAX_LINES`] lines.
pub fn lines(text: &str) -> Result<Vec<Line>, ImportError> {
    let mut out = Output::new(Format::Text);
    let mut gap = false;
    for raw in text.lines() {
        let trimmed = raw.trim();
        if trimmed.is_empty() || is_rule(trimmed) {
            gap = true;
            continue;
        }
        let indent = raw.len() - raw.trim_start().len();
        let mut line = Line::plain("");
        line.gap = gap;
        line.indent = indent as f32 / 2.0;
        gap = false;
        let mut body = trimmed;
        let hashes = body.chars().take_while(|&c| c == '#').count();
        if (1..=6).contains(&hashes) && body[hashes..].starts_with(' ') {
            body = body[hashes..].trim();
            // `#` and `##` are the name and the sections; deeper ones are entries' titles.
            line.heading = hashes == 2;
            line.size = 1.0 + (7 - hashes) as f32 * 0.1;
        }
        line.text = markdown_text(body);
        if !line.text.is_empty() {
            out.push(line)?;
        }
    }
    Ok(out.into_lines())
}

/// A line of only `=`, `-`, `*` or `_`: an underline or a rule.
fn is_rule(line: &str) -> bool {
    // A two-letter CJK heading is underlined with two `=`.
    let n = line.chars().count();
    (n >= 3
        && line
            .chars()
            .all(|c| matches!(c, '=' | '-' | '*' | '_' | ' ')))
        || (n >= 2 && line.chars().all(|c| c == '='))
}

/// Markdown's inline marks taken off: `**b**`, `*i*`, `\.` escapes, `[text](<url>)` → `text <url>`
/// (a link whose text is its target keeps one of them).
fn markdown_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            '\\' => {
                if let Some((_, next)) = chars.next() {
                    out.push(next);
                }
            }
            '*' | '_' if emphasis(text, i, c) => {}
            '[' => {
                if let Some((label, target, used)) = link(&text[i..]) {
                    let label = markdown_text(label);
                    let bare = target.trim_start_matches("mailto:");
                    if label == bare || label == target || target.is_empty() {
                        out.push_str(&label);
                    } else {
                        out.push_str(&format!("{label} <{target}>"));
                    }
                    while chars.peek().is_some_and(|&(j, _)| j < i + used) {
                        chars.next();
                    }
                } else {
                    out.push(c);
                }
            }
            _ => out.push(c),
        }
    }
    out.trim().to_owned()
}

/// Whether the `*` or `_` at `i` marks emphasis (next to a word on one side only), not a character.
fn emphasis(text: &str, i: usize, c: char) -> bool {
    let before = text[..i].chars().next_back();
    let after = text[i + c.len_utf8()..].chars().next();
    let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric());
    if c == '_' && word(before) && word(after) {
        return false;
    }
    !(before.is_none_or(char::is_whitespace) && after.is_none_or(char::is_whitespace))
}

/// A Markdown link at the start of `text`: (label, target, bytes used).
fn link(text: &str) -> Option<(&str, &str, usize)> {
    let close = text.find("](")?;
    let label = &text[1..close];
    let rest = &text[close + 2..];
    let (target, used) = if let Some(inner) = rest.strip_prefix('<') {
        let end = inner.find(">)")?;
        (&inner[..end], close + 2 + 1 + end + 2)
    } else {
        let end = rest.find(')')?;
        (&rest[..end], close + 2 + end + 1)
    };
    Some((label, target, used))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_marks_are_taken_off_and_headings_kept() {
        let ls = lines(
            "# Ada\n\n**Engineer**\n\n[ada\\@x\\.com](<mailto:ada@x.com>) · [Site](https://a.example)\n\n## Work\n\n- One\n",
        )
        .unwrap();
        let texts: Vec<&str> = ls.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "Ada",
                "Engineer",
                "ada@x.com · Site <https://a.example>",
                "Work",
                "- One"
            ]
        );
        assert!(ls[3].heading && ls[3].gap);
        assert!(!ls[1].heading);
        assert_eq!(markdown_text("snake_case_name"), "snake_case_name");
    }
}
