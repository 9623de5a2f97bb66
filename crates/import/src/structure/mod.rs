//! Lines of a resume, in reading order, into JSON Resume: the header (name, label, contacts, profiles,
//! summary), then each section known by its heading, split into entries and their fields. Every line ends
//! up in the document or in the list of lines not placed.
//!
//! A room for each concern: `page` (a page's furniture), `lines` (bullets, paragraphs, lists on one line),
//! `header` and `contacts` (the name, contact details, profiles, a place), `entries` (a section's lines
//! into entries, an entry's title told from its subtitle), `fields` (a field as it is written), and one
//! for each kind of section: `work` (and volunteering), `education`, `awards` (and certificates and
//! publications), `projects`, `references`, `lists` (skills, languages, interests). The words a room
//! knows lines by are its own, in its `words`.

mod awards;
mod contacts;
mod education;
mod entries;
mod fields;
mod header;
mod lines;
mod lists;
mod page;
mod projects;
mod references;
mod work;

use redline_resume::words::{Language, Words};
use serde_json::{Map, Value, json};

use crate::dates;
use crate::headings::{self, Part, part};
use crate::{Line, Section};

use contacts::CONTACT_LABELS;
use entries::{BY_LABELS, ENTRY_LABELS, Raw, UNLABELLED, entries};
use fields::highlights;
pub use lines::strip_bullet;

/// What the lines said: the resume, and the lines that found no place in it.
#[derive(Debug, Clone, PartialEq)]
pub struct Read {
    pub document: Value,
    pub unplaced: Vec<String>,
}

/// The lines of one part of the resume.
struct Block<'a> {
    part: Option<Part>,
    /// The heading's line; none for the lines before the first heading.
    heading: Option<&'a Line>,
    lines: Vec<&'a Line>,
}

/// `lines` (in reading order) as a resume.
pub fn read(lines: &[Line]) -> Read {
    let mut unplaced = Vec::new();
    // A web page's own links ("Skip to content"), kept when a word processor saved the page: not the
    // resume's, so not placed in it (and listed, as every line not placed is).
    let (chrome, lines): (Vec<Line>, Vec<Line>) = lines
        .iter()
        .cloned()
        .partition(|l| page::furniture(&l.text));
    unplaced.extend(chrome.into_iter().map(|l| l.text));
    let (echoes, lines) = page::heading_echoes(lines);
    unplaced.extend(echoes.into_iter().map(|l| l.text));
    let lines = &lines[..];
    let (blocks, language) = blocks(lines);
    let (grouped, groups) = lists::skill_groups(&blocks);
    // Beside a sidebar's "About" of contact details, the summary may stand under a heading of its own.
    let summaries = (blocks.iter())
        .filter(|b| b.part == Some(Part::Summary))
        .count();
    let mut document = Map::new();
    let mut basics = Map::new();
    let mut summary: Vec<String> = Vec::new();
    for (i, block) in blocks.iter().enumerate() {
        match block.part {
            None if i == 0 => {
                header::header(&block.lines, &mut basics, &mut summary, &mut unplaced)
            }
            None if grouped[i] => {}
            None => {
                unplaced.extend(block.heading.map(|l| l.text.clone()));
                unplaced.extend(block.lines.iter().map(|l| l.text.clone()));
            }
            Some(Part::Summary) => header::about(
                &block.lines,
                summaries > 1,
                &mut basics,
                &mut summary,
                &mut unplaced,
            ),
            Some(Part::Contact) => {
                contacts::contact_block(&block.lines, &mut basics, &mut unplaced)
            }
            Some(Part::Section(id)) => {
                // A publication's authors ("Frodo Baggins, Richard Hendriks, Samwise Gamgee", the
                // person among them): JSON Resume has no place for them, so they are listed, not
                // taken for where it appeared.
                let name = basics.get("name").and_then(Value::as_str).unwrap_or("");
                let (authors, lines): (Vec<&Line>, Vec<&Line>) = block
                    .lines
                    .iter()
                    .partition(|l| id == Section::Publications && authors_with(&l.text, name));
                unplaced.extend(authors.into_iter().map(|l| l.text.clone()));
                added(&mut document, id, section(id, &lines, &mut unplaced));
            }
        }
    }
    if !summary.is_empty() {
        basics.insert("summary".into(), json!(summary.join("\n\n")));
    }
    added(&mut document, Section::Skills, groups);
    if !document.contains_key(Section::Skills.key())
        && let Some(skills) = lists::skills_unheaded(&mut unplaced)
    {
        document.insert(Section::Skills.key().into(), Value::Array(skills));
    }
    let mut out = Map::new();
    out.insert(Section::Basics.key().into(), Value::Object(basics));
    out.extend(document);
    if let Some(language) = language.filter(|l| *l != Language::English) {
        out.insert("meta".into(), json!({"language": language.tag()}));
    }
    Read {
        document: Value::Object(out),
        unplaced,
    }
}

/// `items` added to the section `id` of `document`, after those read before (a section may stand twice).
fn added(document: &mut Map<String, Value>, id: Section, items: Vec<Value>) {
    if items.is_empty() {
        return;
    }
    match document.get_mut(id.key()) {
        Some(Value::Array(list)) => list.extend(items),
        _ => {
            document.insert(id.key().to_owned(), Value::Array(items));
        }
    }
}

/// A list of names with `name` among them, or `name` alone: a publication's authors.
fn authors_with(text: &str, name: &str) -> bool {
    let key = |t: &str| t.trim().trim_matches('*').trim().to_lowercase();
    let names: Vec<String> = text
        .split([',', ';', '&'])
        .flat_map(|n| n.split(" and "))
        .map(key)
        .filter(|n| !n.is_empty())
        .collect();
    !name.trim().is_empty()
        && names.contains(&key(name))
        && names.iter().all(|n| n.split_whitespace().count() <= 4)
}

/// The lines split at their headings, and the language most of the headings were in.
fn blocks(lines: &[Line]) -> (Vec<Block<'_>>, Option<Language>) {
    let mut blocks = vec![Block {
        part: None,
        heading: None,
        lines: Vec::new(),
    }];
    let mut votes: Vec<(Language, usize)> = Vec::new();
    // The size the known section headings are set in: a heading the source marks but Redline does not
    // know starts a part of its own only at that level (smaller ones are entries' titles).
    let mut section_size: Option<f32> = None;
    // Whether the known headings are set in bold: an unknown line set otherwise is an entry's title.
    let mut section_bold: Option<bool> = None;
    // Whether the known headings are list items: a word processor keeps a web page's lists, and an
    // entry's title inside one ("• Acme Corp", marked a heading) is no heading of a part.
    let mut section_listed: Option<bool> = None;
    for (at, line) in lines.iter().enumerate() {
        if let Some((p, language)) = part(&line.text) {
            section_size.get_or_insert(line.size);
            section_bold.get_or_insert(line.bold);
            section_listed.get_or_insert(line.bullet);
            if let Some(language) = language {
                match votes.iter_mut().find(|(l, _)| *l == language) {
                    Some((_, n)) => *n += 1,
                    None => votes.push((language, 1)),
                }
            }
            blocks.push(Block {
                part: Some(p),
                heading: Some(line),
                lines: Vec::new(),
            });
        } else if line.heading
            && blocks.len() > 1
            && !blocks[0].lines.is_empty()
            && section_size.is_some_and(|size| line.size >= size - 0.01)
            // An entry's title set as large as the headings: the first line under one, or one with dates
            // on it or on a line of their own right under it.
            && !blocks.last().is_some_and(|b| b.part.is_some() && b.lines.is_empty())
            && dates::find(&line.text).is_none()
            && lines.get(at + 1).is_none_or(|next| dates::only(&next.text).is_none())
            && section_bold.is_none_or(|bold| bold == line.bold)
            && section_listed.is_none_or(|listed| listed == line.bullet)
            && !line.text.split_whitespace().any(contacts::is_url)
        {
            // A heading the source marks as one, but no part Redline knows: its lines are shown, not lost.
            blocks.push(Block {
                part: None,
                heading: Some(line),
                lines: Vec::new(),
            });
        } else if let Some(block) = blocks.last_mut() {
            block.lines.push(line);
        }
    }
    let language = votes.into_iter().max_by_key(|&(_, n)| n).map(|(l, _)| l);
    (blocks, language)
}

/// The lines of a section as its items: skills, languages and interests by their names, the other sections
/// as entries.
fn section(id: Section, lines: &[&Line], unplaced: &mut Vec<String>) -> Vec<Value> {
    let _ = unplaced;
    match id {
        Section::Skills | Section::Interests => lists::named_lists(id, lines),
        Section::Languages => lists::languages(lines),
        // Each reference ends at the line that names who gave it ("— Erlich Bachman").
        Section::References => references::by_attribution(lines)
            .into_iter()
            .flat_map(|group| entries(&group, false))
            .map(|raw| entry_value(id, raw, &Words::english()))
            .filter(|v| v.as_object().is_some_and(|m| !m.is_empty()))
            .collect(),
        _ => {
            let words = Words::english();
            entries(lines, id == Section::Projects)
                .into_iter()
                .map(|raw| entry_value(id, raw, &words))
                .filter(|v| v.as_object().is_some_and(|m| !m.is_empty()))
                .collect()
        }
    }
}

/// One entry of the section `id` as JSON Resume's: its labelled lists placed, then its fields read by the
/// section's own room.
fn entry_value(id: Section, mut raw: Raw, words: &Words) -> Value {
    let mut m = Map::new();
    let keywords = lists_placed(id, &mut raw);
    highlights(&mut m, "keywords", keywords);
    match id {
        Section::Work | Section::Volunteer => work::entry(id, raw, &mut m),
        Section::Education => education::entry(raw, words, &mut m),
        Section::Awards | Section::Certificates | Section::Publications => {
            awards::entry(id, raw, &mut m);
        }
        Section::References => references::entry(raw, &mut m),
        // Projects: skills, languages and interests are not read as entries (see `section`).
        _ => projects::entry(raw, &mut m),
    }
    Value::Object(m)
}

/// An entry's labelled lists put where its section keeps them: courses to an education's courses,
/// highlights to highlights, the rest (skills, tools) to a project's keywords (given back) or, elsewhere, a
/// highlight of their own.
fn lists_placed(id: Section, raw: &mut Raw) -> Vec<String> {
    let mut keywords = Vec::new();
    for (label, items) in std::mem::take(&mut raw.lists) {
        let courses = label.contains("course");
        if courses && id == Section::Education
            || label.contains("highlight")
            || label.contains("achievement")
        {
            raw.bullets.extend(items);
        } else if id == Section::Projects {
            keywords.extend(items);
        } else if label == UNLABELLED {
            // Elsewhere, lines under no label stay the description's.
            raw.paragraphs.extend(items);
        } else {
            raw.bullets.push(items.join(", "));
        }
    }
    keywords
}

/// Whether `label` ("Email", "Major courses", "GPA", "Note") is one the reader reads a field by and does
/// not keep: a contact's, an entry list's, a grade's in any of the languages.
pub fn is_label(label: &str) -> bool {
    let key = headings::key(label);
    CONTACT_LABELS.contains(&key.as_str())
        || ENTRY_LABELS.contains(&key.as_str())
        || matches!(key.as_str(), "gpa" | "grade" | "score")
        || BY_LABELS.iter().any(|l| headings::key(l) == key)
        || Language::ALL
            .iter()
            .any(|&lang| headings::key(Words::of(lang).score()) == key)
}

#[cfg(test)]
mod tests {
    use super::*;
    use contacts::location;

    fn lines(text: &str) -> Vec<Line> {
        crate::text::lines(text).unwrap()
    }

    /// A line as a word processor saved a web page's: marked a heading of `level` (0: none), a list item
    /// at list level `listed` (`None`: none).
    fn saved(text: &str, level: u8, listed: Option<u8>) -> Line {
        let mut line = Line::plain(text);
        line.heading = level > 0;
        line.size = if level > 0 {
            1.0 + 0.1 * f32::from(7 - level)
        } else {
            1.0
        };
        line.bullet = listed.is_some();
        line.indent = 2.0 * f32::from(listed.unwrap_or(0));
        line
    }

    #[test]
    fn a_web_page_a_word_processor_saved_is_read_by_its_cards_not_its_menu() {
        let ls = [
            saved("×", 0, None),
            saved("About", 0, Some(0)),
            saved("Work Experience", 0, Some(0)),
            saved("José Ortega", 2, None),
            saved("Head of Growth", 5, None),
            saved("jose@example.net", 0, None),
            saved("About", 0, None),
            saved("About", 4, None),
            saved("I leave code better than I found it.", 0, None),
            saved("Work Experience", 0, None),
            saved("Work Experience", 4, None),
            // A card in an unstyled list: its title a list item holding the list of its bullets.
            saved("Engineering Manager at Quantix AG", 0, Some(0)),
            saved("Jan, 2021 - Present 5 years, 11 months", 0, None),
            saved("Cut inventory waste by 40%.", 0, Some(1)),
            saved("Drove the billing pipeline.", 0, Some(1)),
            // A card whose title is marked a heading, in a list as large as the section's heading.
            saved("Cyberdyne", 4, Some(0)),
            saved("June, 2018 - October, 2020", 0, None),
            saved("High School Teacher", 5, None),
            saved("Wrote the on-call runbook.", 0, Some(1)),
            // A card whose title is a list item, its dates under it, with no list of its own.
            saved("Hooli Bank", 0, Some(0)),
            saved("2016-10 - 2018-05", 0, None),
            saved("Principal Consultant", 0, None),
        ];
        let read = read(&ls);
        let d = &read.document;
        assert_eq!(d["basics"]["name"], "José Ortega");
        assert_eq!(
            d["basics"]["summary"],
            "I leave code better than I found it."
        );
        let work = d["work"].as_array().unwrap();
        assert_eq!(work.len(), 3, "{work:#?}");
        assert_eq!(work[0]["position"], "Engineering Manager");
        assert_eq!(work[0]["name"], "Quantix AG");
        assert_eq!(work[0]["startDate"], "2021-01");
        assert_eq!(work[0]["highlights"].as_array().unwrap().len(), 2);
        assert_eq!(work[1]["name"], "Cyberdyne");
        assert_eq!(work[1]["position"], "High School Teacher");
        assert_eq!(work[1]["endDate"], "2020-10");
        assert_eq!(work[1]["highlights"][0], "Wrote the on-call runbook.");
        assert_eq!(work[2]["name"], "Hooli Bank");
        assert_eq!(work[2]["position"], "Principal Consultant");
        assert_eq!(work[2]["startDate"], "2016-10");
        // The menu, the button and the labels beside the headings are listed, not placed.
        for furniture in ["×", "About", "Work Experience"] {
            assert!(read.unplaced.iter().any(|u| u == furniture), "{furniture}");
        }
    }

    #[test]
    fn titles_as_large_as_the_headings_and_keywords_under_a_sentence_are_read() {
        let ls = [
            saved("Hannah Adeyemi", 1, None),
            saved("Experience", 3, None),
            // A company set as large as the section's heading, its dates on the line under it.
            saved("Østergaard & Associates", 3, None),
            saved("01/2024 - 01/2025", 5, None),
            saved("Attorney", 4, None),
            saved("Led an A/B testing framework.", 0, Some(0)),
            saved("Wayne Inc.", 3, None),
            saved("01/2019 - 01/2023", 5, None),
            saved("Lead Data Engineer", 4, None),
            saved("Led a fraud detection model.", 0, Some(0)),
            saved("Projects", 3, None),
            saved("Redline (Apr 2022 – Jan 2023)", 4, None),
            saved(
                "Analyzed an A/B testing framework for a team of 8.",
                0,
                None,
            ),
            saved("Salesforce, C#, Tableau, Ruby on Rails", 0, None),
        ];
        let read = read(&ls);
        let d = &read.document;
        let work = d["work"].as_array().unwrap();
        assert_eq!(work.len(), 2, "{work:#?}");
        assert_eq!(work[1]["name"], "Wayne Inc.");
        assert_eq!(work[1]["startDate"], "2019-01");
        let project = &d["projects"][0];
        assert_eq!(
            project["description"],
            "Analyzed an A/B testing framework for a team of 8."
        );
        assert_eq!(project["keywords"].as_array().unwrap().len(), 4);
    }

    #[test]
    fn a_plain_text_resume_is_read_into_its_fields() {
        let read = read(&lines(
            "Ada Lovelace\nAnalytical Engineer\nada@example.com | +44 20 7946 0000 | https://ada.example.com | London, UK\nlinkedin.com/in/adalovelace · github.com/ada\n\nSummary\nI write programs for engines that do not exist yet.\n\nExperience\nSenior Engineer — Analytical Engines Ltd · London\nJan 2020 – Present\n• Wrote the first program\n• Translated Menabrea's paper, adding notes\n  three times its length\n\nLead Programmer | Babbage & Co | 2015 – 2019\n- Planned the Bernoulli numbers\n\nEducation\nUniversity of London\nBSc in Mathematics\n2011 – 2014\n\nSkills\nLanguages: Rust, Python, SQL\nMathematics: Analysis, Algebra\n\nLanguages\nEnglish — Native\nFrench: Fluent\n\nHobbies\nPoetry, Horses\n",
        ));
        let d = &read.document;
        assert_eq!(d["basics"]["name"], "Ada Lovelace");
        assert_eq!(d["basics"]["label"], "Analytical Engineer");
        assert_eq!(d["basics"]["email"], "ada@example.com");
        assert_eq!(d["basics"]["phone"], "+44 20 7946 0000");
        assert_eq!(d["basics"]["url"], "https://ada.example.com");
        assert_eq!(d["basics"]["location"]["city"], "London");
        assert_eq!(d["basics"]["profiles"][0]["network"], "LinkedIn");
        assert_eq!(d["basics"]["profiles"][0]["username"], "adalovelace");
        assert_eq!(d["basics"]["profiles"][1]["network"], "GitHub");
        assert_eq!(
            d["basics"]["summary"],
            "I write programs for engines that do not exist yet."
        );
        let work = &d["work"];
        assert_eq!(work[0]["position"], "Senior Engineer");
        assert_eq!(work[0]["name"], "Analytical Engines Ltd");
        assert_eq!(work[0]["location"], "London");
        assert_eq!(work[0]["startDate"], "2020-01");
        assert!(work[0].get("endDate").is_none());
        assert_eq!(
            work[0]["highlights"][1],
            "Translated Menabrea's paper, adding notes three times its length"
        );
        assert_eq!(work[1]["position"], "Lead Programmer");
        assert_eq!(work[1]["name"], "Babbage & Co");
        assert_eq!(work[1]["endDate"], "2019");
        assert_eq!(d["education"][0]["institution"], "University of London");
        assert_eq!(d["education"][0]["studyType"], "BSc");
        assert_eq!(d["education"][0]["area"], "Mathematics");
        assert_eq!(d["skills"][0]["name"], "Languages");
        assert_eq!(d["skills"][0]["keywords"], json!(["Rust", "Python", "SQL"]));
        assert_eq!(
            d["languages"][1],
            json!({"language": "French", "fluency": "Fluent"})
        );
        assert_eq!(d["interests"][0]["keywords"], json!(["Poetry", "Horses"]));
        assert!(read.unplaced.is_empty(), "{:?}", read.unplaced);
        redline_resume::validate(d).unwrap();
    }

    #[test]
    fn references_end_at_their_names_and_levels_under_names_are_theirs() {
        let mut ls = lines(
            "Ada Lovelace\n\nReferences\nI managed Ada for 5 years.\n— Charles Babbage\nAvailable upon request.\n— Mary Somerville\n\nLanguages\n",
        );
        ls.push(Line::plain("English   French"));
        ls.push(Line::plain("Native   B2"));
        let d = read(&ls).document;
        assert_eq!(
            d["references"],
            json!([
                {"name": "Charles Babbage", "reference": "I managed Ada for 5 years."},
                {"name": "Mary Somerville", "reference": "Available upon request."}
            ])
        );
        assert_eq!(
            d["languages"],
            json!([
                {"language": "English", "fluency": "Native"},
                {"language": "French", "fluency": "B2"}
            ])
        );
    }

    /// Jobs as a PDF gives them: titles in bold, a company's name that ends in an abbreviation, a place
    /// with no town, a job with no dates (a dash where they would stand) and nothing under its two title
    /// lines, then a job whose first line has the same shape.
    #[test]
    fn jobs_set_in_bold_are_split_where_their_titles_are() {
        let bold = |text: &str, cells: &[f32]| {
            let mut l = Line::plain(text);
            l.bold = true;
            l.cells = cells.to_vec();
            l
        };
        let mut ls = lines("Ada Lovelace\n\nExperience\n");
        ls.extend([
            bold("Accountant", &[]),
            bold("Hooli B.V.", &[]),
            Line::plain("Jan 2022 – Jan 2023"),
            Line::plain("Remote (EU)"),
            Line::plain("• Closed the books."),
            bold("Cyberdyne Systems, LLP   —", &[0.0, 40.0]),
            bold("Intern", &[]),
            bold(
                "The Gallery at Little Washington   2020 — 2022",
                &[0.0, 37.0],
            ),
            bold("Frontend Developer", &[]),
            Line::plain("• Built the gallery's site."),
        ]);
        let work = &read(&ls).document["work"];
        assert_eq!(work[0]["name"], "Hooli B.V.");
        assert_eq!(work[0]["location"], "Remote (EU)");
        assert_eq!(work[0]["startDate"], "2022-01");
        assert_eq!(
            work[1],
            json!({"position": "Intern", "name": "Cyberdyne Systems, LLP"})
        );
        assert_eq!(work[2]["name"], "The Gallery at Little Washington");
        assert_eq!(work[2]["position"], "Frontend Developer");
        assert_eq!(work[2]["startDate"], "2020");
    }

    #[test]
    fn a_list_under_an_award_is_kept_in_its_summary() {
        let read = read(&lines(
            "Ada Lovelace\n\nAwards\nFirst Program Prize\nNov 2014 · Royal Society\n• For the notes on the engine\n• Read aloud in London\n",
        ));
        let award = &read.document["awards"][0];
        assert_eq!(award["title"], "First Program Prize");
        assert_eq!(award["awarder"], "Royal Society");
        assert_eq!(award["date"], "2014-11");
        assert_eq!(
            award["summary"],
            "For the notes on the engine\nRead aloud in London"
        );
    }

    #[test]
    fn a_word_processor_s_paragraphs_are_read_as_their_fields() {
        let read = read(&lines(
            "Ada Lovelace\nEngineer\n\nProjects\nDifference Engine\nAug 2016 - Aug 2017\nA machine that adds numbers\nBrass\nSteam Power\n- Built the first part of it\n- Showed it in London\n\nEducation\nUniversity of London\nMathematics\nBachelor\n2011 - 2014\n\nInterests\nMathematics\n- Analysis\n- Poetry\n\nReferences\n“She wrote the first program.”\nCharles Babbage\n",
        ));
        let d = &read.document;
        let project = &d["projects"][0];
        assert_eq!(project["name"], "Difference Engine");
        assert_eq!(project["keywords"], json!(["Brass", "Steam Power"]));
        assert_eq!(
            project["highlights"],
            json!(["Built the first part of it", "Showed it in London"])
        );
        assert_eq!(d["education"][0]["studyType"], "Bachelor");
        assert_eq!(d["education"][0]["area"], "Mathematics");
        assert_eq!(
            d["interests"][0],
            json!({"name": "Mathematics", "keywords": ["Analysis", "Poetry"]})
        );
        assert_eq!(d["references"][0]["name"], "Charles Babbage");
        assert_eq!(
            d["references"][0]["reference"],
            "She wrote the first program."
        );
    }

    #[test]
    fn conventions_of_published_themes_are_read() {
        let read = read(&lines(
            "Ada Lovelace\nAnalytical Engineer\n2 Marylebone Rd, NW1 5LR, London, England (GB)\nadal · https://twitter.com/adal   enginefan · https://soundcloud.example.com/enginefan\n\nContact\nEmail\nada@example.com\nGitHub\nada\n\nExperience\nSenior Engineer at Analytical Engines Ltd   Jan 2020 - Dec 2021\nLondon, UK\nSkills: Rust · SQL\n\nSkills\nLanguages   Mathematics\nExpert   Advanced\nRust · Python   Analysis · Algebra\n\nReferences\n“She wrote the first program.”\n— Charles Babbage\n",
        ));
        let d = &read.document;
        let place = &d["basics"]["location"];
        assert_eq!(place["address"], "2 Marylebone Rd");
        assert_eq!(place["postalCode"], "NW1 5LR");
        assert_eq!(place["city"], "London");
        assert_eq!(place["region"], "England");
        assert_eq!(place["countryCode"], "GB");
        // The same with no commas, as a theme runs its lines together.
        assert_eq!(
            location("2712 Broadway St San Francisco California CA 94115 US"),
            json!({"address": "2712 Broadway St", "city": "San Francisco", "region": "California",
                   "postalCode": "CA 94115", "countryCode": "US"})
        );
        assert_eq!(
            location("350 Fifth Avenue New York NY 10118"),
            json!({"address": "350 Fifth Avenue", "city": "New York", "postalCode": "NY 10118"})
        );
        assert_eq!(
            location("221B Baker Street"),
            json!({"city": "221B Baker Street"})
        );
        let profiles = &d["basics"]["profiles"];
        assert_eq!(profiles[0]["network"], "Twitter");
        assert_eq!(profiles[0]["username"], "adal");
        assert_eq!(profiles[1]["network"], "SoundCloud");
        assert_eq!(profiles[1]["username"], "enginefan");
        assert_eq!(profiles[2], json!({"network": "GitHub", "username": "ada"}));
        assert_eq!(d["basics"]["email"], "ada@example.com");
        let work = &d["work"][0];
        assert_eq!(work["position"], "Senior Engineer");
        assert_eq!(work["name"], "Analytical Engines Ltd");
        assert_eq!(work["location"], "London, UK");
        assert_eq!(work["highlights"], json!(["Rust, SQL"]));
        // A grid of skills, read column by column.
        assert_eq!(
            d["skills"],
            json!([
                {"name": "Languages", "level": "Expert", "keywords": ["Rust", "Python"]},
                {"name": "Mathematics", "level": "Advanced", "keywords": ["Analysis", "Algebra"]},
            ])
        );
        assert_eq!(d["references"][0]["name"], "Charles Babbage");
        assert_eq!(
            d["references"][0]["reference"],
            "She wrote the first program."
        );
        assert!(read.unplaced.is_empty(), "{:?}", read.unplaced);
    }

    #[test]
    fn a_typst_or_latex_template_s_icons_furniture_and_comma_titles_are_read() {
        let source = "Last updated in Nov 2026\nMara Lindqvist\n\u{f3c5} Oakland, CA | \u{f0e0} mara@example.org\n\u{f09b} maralq   \u{e61b} @mlq\n\nExperience\nNorthwind Payments, Staff Engineer\nMar 2021 – present\n• Led six engineers\n\nEducation\nUniversity of Washington, MS in Computer Science\n2013 – 2014\nMara Lindqvist - Page 1 of 2\n\nPublications\nLedger notes\nFrodo Baggins, Mara Lindqvist\nHooli Press\n";
        let ls = lines(source);
        let read = read(&ls);
        let d = &read.document;
        assert_eq!(d["basics"]["name"], "Mara Lindqvist");
        assert_eq!(
            d["basics"]["location"],
            json!({"city": "Oakland", "region": "CA"})
        );
        assert_eq!(d["basics"]["profiles"][0]["network"], "GitHub");
        assert_eq!(d["basics"]["profiles"][0]["username"], "maralq");
        assert_eq!(d["basics"]["profiles"][1]["network"], "X");
        assert_eq!(d["basics"]["profiles"][1]["username"], "mlq");
        assert_eq!(d["work"][0]["position"], "Staff Engineer");
        assert_eq!(d["work"][0]["name"], "Northwind Payments");
        assert_eq!(d["education"][0]["institution"], "University of Washington");
        assert_eq!(d["education"][0]["studyType"], "MS");
        assert_eq!(d["education"][0]["area"], "Computer Science");
        assert_eq!(d["publications"][0]["name"], "Ledger notes");
        assert_eq!(d["publications"][0]["publisher"], "Hooli Press");
        // The page's furniture and the authors have no place: listed, not lost, not taken for fields.
        for line in [
            "Last updated in Nov 2026",
            "Mara Lindqvist - Page 1 of 2",
            "Frodo Baggins, Mara Lindqvist",
        ] {
            assert!(
                read.unplaced.iter().any(|u| u == line),
                "{:?}",
                read.unplaced
            );
        }
        let texts: Vec<String> = ls.iter().map(|l| l.text.clone()).collect();
        assert_eq!(
            crate::score::dropped(&texts, d, &read.unplaced),
            Vec::<String>::new()
        );
        // Had a line gone missing, the check says which.
        let mut less = read.unplaced.clone();
        less.retain(|u| !u.starts_with("Frodo"));
        assert_eq!(
            crate::score::dropped(&texts, d, &less),
            ["Frodo Baggins, Mara Lindqvist"]
        );
    }

    #[test]
    fn lines_under_a_heading_redline_does_not_know_are_listed_not_lost() {
        let mut ls = lines("Ada Lovelace\n\nWork\nEngineer\n2020 – 2021\n");
        let mut odd = Line::plain("Things I Like");
        odd.heading = true;
        ls.push(odd);
        ls.push(Line::plain("Long walks"));
        let read = read(&ls);
        assert_eq!(read.unplaced, ["Things I Like", "Long walks"]);
        assert_eq!(read.document["work"][0]["position"], "Engineer");
    }

    /// A line of the page as a PDF gives it: its size against the body's, marked a heading or bold, a
    /// space above it or not, and its row's cells (two for a row of chips).
    fn set(text: &str, size: f32, (heading, bold, gap): (bool, bool, bool), cells: usize) -> Line {
        Line {
            size,
            heading,
            bold,
            gap,
            cells: vec![0.0; cells],
            ..Line::plain(text)
        }
    }

    /// A sidebar (macchiato's): "About" holds a place and user names, the summary stands under a heading
    /// of its own, and each skill sits under a heading Redline does not know, its level and rows of its
    /// keywords under it. A project's keywords stand as chips under its description; a project's title,
    /// set as large as the headings but in bold, or with its link, is no heading.
    #[test]
    fn a_sidebar_of_details_and_skills_with_no_skills_heading_reads_into_its_fields() {
        const HEADING: (bool, bool, bool) = (true, false, true);
        const TITLE: (bool, bool, bool) = (true, true, true);
        const TEXT: (bool, bool, bool) = (false, false, false);
        const CHIPS: (bool, bool, bool) = (true, false, false);
        let ls = [
            set("Mateo Horváth", 3.6, TITLE, 0),
            set("About", 1.27, HEADING, 0),
            set("Sydney AU", 1.09, TEXT, 0),
            set("mhorvath", 1.09, (false, false, true), 0),
            set("Web Development", 1.27, HEADING, 0),
            set("Intermediate", 1.09, (false, true, true), 0),
            set("TypeScript   Accessibility", 1.16, CHIPS, 2),
            set("Vue.js   React", 1.16, CHIPS, 2),
            set("Design", 1.27, HEADING, 0),
            set("Figma   Sketch", 1.16, CHIPS, 2),
            set("Summary", 1.27, HEADING, 0),
            set(
                "I make slow things fast and keep them that way.",
                1.0,
                TEXT,
                0,
            ),
            set("Projects", 1.27, HEADING, 0),
            set("Miss Direction", 1.27, TITLE, 0),
            set(
                "Coordinated an analytics dashboard for a team of 6.",
                1.09,
                TEXT,
                0,
            ),
            set("Terraform   Spark", 0.91, TEXT, 0),
            set("Atlas ∙ https://github.com/aatlas", 1.27, HEADING, 0),
            set(
                "Managed the search ranking service for a team of 2.",
                1.09,
                TEXT,
                0,
            ),
        ];
        let read = read(&ls);
        let d = &read.document;
        assert_eq!(read.unplaced, Vec::<String>::new(), "{d:#}");
        assert_eq!(d["basics"]["location"]["city"], "Sydney");
        assert_eq!(d["basics"]["location"]["countryCode"], "AU");
        assert_eq!(d["basics"]["profiles"][0]["username"], "mhorvath");
        assert_eq!(
            d["basics"]["summary"],
            "I make slow things fast and keep them that way."
        );
        assert_eq!(
            d["skills"],
            json!([
                {"name": "Web Development", "level": "Intermediate",
                 "keywords": ["TypeScript", "Accessibility", "Vue.js", "React"]},
                {"name": "Design", "keywords": ["Figma", "Sketch"]},
            ])
        );
        assert_eq!(d["projects"][0]["keywords"], json!(["Terraform", "Spark"]));
        assert_eq!(d["projects"][1]["name"], "Atlas");
        assert_eq!(d["projects"][1]["url"], "https://github.com/aatlas");
    }

    /// Skills under headings of their own that end the page are read as those before a known heading.
    #[test]
    fn skills_under_headings_of_their_own_at_the_end_are_read() {
        const HEADING: (bool, bool, bool) = (true, false, true);
        let ls = [
            set("Ada Lovelace", 2.0, (true, true, false), 0),
            set("Summary", 1.27, HEADING, 0),
            set(
                "I write programs for engines that do not exist yet.",
                1.0,
                (false, false, false),
                0,
            ),
            set("Mathematics", 1.27, HEADING, 0),
            set("Analysis", 1.0, (false, false, false), 0),
            set("Languages of machines", 1.27, HEADING, 0),
            set("Notes", 1.0, (false, false, false), 0),
        ];
        let read = read(&ls);
        assert_eq!(read.unplaced, Vec::<String>::new());
        assert_eq!(read.document["skills"][1]["name"], "Languages of machines");
        assert_eq!(read.document["skills"][1]["keywords"], json!(["Notes"]));
    }

    /// One heading Redline does not know over a line of prose is no skill: its lines are listed.
    #[test]
    fn a_lone_unknown_heading_over_prose_is_no_skill() {
        const PROSE: (bool, bool, bool) = (false, false, false);
        let ls = [
            set("Ada Lovelace", 2.0, (true, true, false), 0),
            set("Summary", 1.27, (true, false, true), 0),
            set(
                "I write programs for engines that do not exist yet.",
                1.0,
                PROSE,
                0,
            ),
            set("Things I Like", 1.27, (true, false, true), 0),
            set("Long walks by the sea, in any weather.", 1.0, PROSE, 0),
        ];
        let read = read(&ls);
        assert_eq!(
            read.unplaced,
            ["Things I Like", "Long walks by the sea, in any weather."]
        );
        assert!(read.document.get("skills").is_none());
    }

    /// A place with no commas ending in a country's code; user names beside icons the text does not
    /// have; a role "at" an organisation, its commas and the organisation's own "at" kept; a volunteer's
    /// role under the organisation.
    #[test]
    fn places_handles_and_roles_at_organisations_are_told_apart() {
        let read = read(&lines(
            "Hannah Adeyemi\nHigh School Teacher\n東京 東京都 JP\nadeyemi   hannah17 · https://dribbble.com/hannah17\n\nExperience\nSales Director, EMEA at Initech   2019 – 2021\nBarista at The Inn at Union Square   2015 – 2018\n\nVolunteer\nCode for America\nMentor\n2023\n",
        ));
        let d = &read.document;
        assert_eq!(
            d["basics"]["location"],
            json!({"city": "東京", "region": "東京都", "countryCode": "JP"})
        );
        let profiles = &d["basics"]["profiles"];
        assert_eq!(profiles[0]["username"], "adeyemi");
        assert_eq!(profiles[1]["username"], "hannah17");
        assert_eq!(profiles[1]["network"], "Dribbble");
        assert_eq!(d["work"][0]["position"], "Sales Director, EMEA");
        assert_eq!(d["work"][0]["name"], "Initech");
        assert_eq!(d["work"][1]["position"], "Barista");
        assert_eq!(d["work"][1]["name"], "The Inn at Union Square");
        assert_eq!(d["volunteer"][0]["organization"], "Code for America");
        assert_eq!(d["volunteer"][0]["position"], "Mentor");
    }
}
