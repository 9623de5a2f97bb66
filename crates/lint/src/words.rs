//! A string cut into words, each with its offset in characters, and what is not a word to spell: links,
//! e-mail addresses, dates and versions, code (`snake_case`, `camelCase`, `C++`, `C#`, `.NET`, `node.js`)
//! and acronyms in capitals.

/// The letters of a word, with apostrophes inside it (`don't`, `l'équipe`).
fn in_word(c: char) -> bool {
    c.is_alphabetic() || c == '\'' || c == '’'
}

/// The words of `text`: maximal runs of letters (apostrophes inside kept), each with the offset of its
/// first character, in characters.
pub(crate) fn words(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start: Option<(usize, usize)> = None;
    for (position, (at, c)) in text.char_indices().enumerate() {
        match (in_word(c), start) {
            (true, None) => start = Some((position, at)),
            (false, Some((chars, bytes))) => {
                push_trimmed(&mut out, chars, &text[bytes..at]);
                start = None;
            }
            _ => {}
        }
    }
    if let Some((chars, bytes)) = start {
        push_trimmed(&mut out, chars, &text[bytes..]);
    }
    out
}

/// Pushes `word` without apostrophes at its ends (quotes, not part of the word).
fn push_trimmed<'a>(out: &mut Vec<(usize, &'a str)>, chars: usize, word: &'a str) {
    let quote = |c: char| c == '\'' || c == '’';
    let lead = word.chars().take_while(|c| quote(*c)).count();
    let trimmed = word.trim_start_matches(quote).trim_end_matches(quote);
    if !trimmed.is_empty() {
        out.push((chars + lead, trimmed));
    }
}

/// The words of `text` a dictionary should know, each as `(start, word)` in characters: words inside a
/// link, an e-mail address, a number, a version or code are left out, and so are acronyms in capitals and
/// words written in camel case.
pub(crate) fn to_spell(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut position = 0;
    for chunk in text.split(char::is_whitespace) {
        if !chunk.is_empty() && !code_like(chunk) {
            let pieces = words(chunk).into_iter();
            out.extend(
                pieces
                    .filter(|(_, w)| !acronym_or_camel(w))
                    .map(|(at, w)| (position + at, w)),
            );
        }
        // The separator is one whitespace character.
        position += chunk.chars().count() + 1;
    }
    out
}

/// Whether a run of text between spaces is a link, an address, a number, a version, a path or code.
fn code_like(chunk: &str) -> bool {
    let trimmed =
        chunk.trim_matches(|c: char| !c.is_alphanumeric() && c != '.' && c != '+' && c != '#');
    let inner_dot = trimmed
        .trim_end_matches('.')
        .char_indices()
        .any(|(i, c)| c == '.' && trimmed[i + 1..].starts_with(char::is_alphanumeric));
    chunk.contains("://")
        || chunk.starts_with("www.")
        || chunk
            .chars()
            .any(|c| c.is_ascii_digit() || "@_+#\\{}<>=|~$%^*".contains(c))
        || trimmed.starts_with('.')
        || inner_dot
}

/// `NASA`, `AWS`, `iOS`, `PostgreSQL`, `GoogleMaps`: a name, not a word of the language.
fn acronym_or_camel(word: &str) -> bool {
    let letters: Vec<char> = word.chars().filter(|c| c.is_alphabetic()).collect();
    let upper = letters.iter().filter(|c| c.is_uppercase()).count();
    let inner_upper = letters.iter().skip(1).any(|c| c.is_uppercase());
    (letters.len() >= 2 && upper == letters.len()) || (inner_upper && upper < letters.len())
}

/// The first word of `text` with its character span, if `text` opens with one (after spaces and bullet
/// marks).
pub(crate) fn first_word(text: &str) -> Option<(usize, usize, &str)> {
    let (start, word) = words(text).into_iter().next()?;
    let before: String = text.chars().take(start).collect();
    before
        .chars()
        .all(|c| !c.is_alphanumeric())
        .then(|| (start, start + word.chars().count(), word))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_carry_their_offsets_in_characters() {
        let found = words("Größe: l'équipe, don't 'quoted'");
        assert_eq!(
            found,
            vec![(0, "Größe"), (7, "l'équipe"), (17, "don't"), (24, "quoted")]
        );
    }

    #[test]
    fn code_links_numbers_and_acronyms_are_not_spelled() {
        let text = "Shipped C++ and C# on .NET, see https://x.io/a or me@x.io, v2.3 in 3.11, \
                    my_var, getHTTP, NASA and node.js; then wrte it.";
        let spelled: Vec<_> = to_spell(text).into_iter().map(|(_, w)| w).collect();
        assert_eq!(
            spelled,
            vec![
                "Shipped", "and", "on", "see", "or", "in", "and", "then", "wrte", "it"
            ]
        );
        let (at, _) = to_spell(text)[8];
        assert_eq!(text.chars().skip(at).take(4).collect::<String>(), "wrte");
    }

    #[test]
    fn the_first_word_follows_bullet_marks_only() {
        assert_eq!(first_word("• Led a team"), Some((2, 5, "Led")));
        assert_eq!(first_word("3 teams led"), None);
    }
}
