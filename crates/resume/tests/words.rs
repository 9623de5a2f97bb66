//! Exports in the resume's language (`meta.language`): headings, month names, “present”, the document's
//! title, `lang` and direction; headings the user renamed (`meta.headings`); and the window's copy of the
//! words (`ui/src/lib/words.json`) kept equal to the Rust table it is made from.

use redline_resume::export::{self, Page, Template};
use redline_resume::outline::outline;
use redline_resume::words::{Language, MAX_HEADING_CHARS, SECTIONS, table, words};
use serde_json::{Value, json};

fn in_language(tag: &str) -> Value {
    let mut resume = redline_resume::sample();
    resume["meta"] = json!({ "language": tag });
    resume
}

#[test]
fn every_language_has_every_word() {
    let mut tags = Vec::new();
    for language in Language::ALL {
        tags.push(language.tag());
        assert_eq!(Language::parse(language.tag()), Some(language));
        let w = words(&in_language(language.tag()));
        assert_eq!(w.language, language);
        let headings: Vec<&str> = SECTIONS.iter().map(|id| w.heading(id)).collect();
        assert!(headings.iter().all(|h| !h.trim().is_empty()), "{tags:?}");
        let mut unique = headings.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(
            unique.len(),
            SECTIONS.len(),
            "{}: two sections share a heading",
            language.tag()
        );
        let months: Vec<String> = (1..=12)
            .map(|m| w.month_year(&format!("2013-{m:02}-01")))
            .collect();
        let mut distinct = months.clone();
        distinct.dedup();
        assert_eq!(distinct.len(), 12, "{months:?}");
        assert!(months.iter().all(|m| m.contains("2013")), "{months:?}");
        assert!(!w.present().is_empty() && !w.title("").is_empty());
        assert!(!w.comma().trim().is_empty(), "{}", language.tag());
    }
    assert_eq!(tags, ["en", "de", "fr", "es", "pt", "ja", "zh", "ar"]);
}

#[test]
fn a_tag_is_read_by_its_primary_subtag_and_anything_else_is_english() {
    for (tag, language, kept) in [
        ("de", Language::German, "de"),
        ("DE-at", Language::German, "DE-at"),
        ("pt-BR", Language::Portuguese, "pt-BR"),
        ("zh-Hans-CN", Language::Chinese, "zh-Hans-CN"),
        ("ar-EG", Language::Arabic, "ar-EG"),
        // A language with no words of its own keeps its tag (and its direction) with English words.
        ("he", Language::English, "he"),
        ("nl", Language::English, "nl"),
        // Not a tag at all: English, and never written into a file.
        ("\"><script>alert(1)</script>", Language::English, "en"),
        ("", Language::English, "en"),
        ("a-verylongsubtag", Language::English, "en"),
    ] {
        let w = words(&in_language(tag));
        assert_eq!((w.language, w.tag.as_str()), (language, kept), "{tag:?}");
    }
    let w = words(&json!({"meta": {"language": 42}}));
    assert_eq!(
        (w.language, w.tag.as_str(), w.rtl),
        (Language::English, "en", false)
    );
    for (tag, rtl) in [
        ("ar", true),
        ("he-IL", true),
        ("fa", true),
        ("en", false),
        ("ja", false),
    ] {
        assert_eq!(words(&in_language(tag)).rtl, rtl, "{tag}");
    }
}

#[test]
fn dates_follow_the_language() {
    for (tag, dec, present) in [
        ("en", "Dec 2013", "Present"),
        ("de", "Dez. 2013", "heute"),
        ("fr", "déc. 2013", "aujourd’hui"),
        ("es", "dic. 2013", "actualidad"),
        ("pt", "dez. 2013", "atual"),
        ("ja", "2013年12月", "現在"),
        ("zh", "2013年12月", "至今"),
        ("ar", "ديسمبر 2013", "حتى الآن"),
    ] {
        let w = words(&in_language(tag));
        assert_eq!(w.month_year("2013-12-01"), dec);
        assert_eq!(w.month_year("2013"), "2013");
        assert_eq!(w.month_year("soon"), "soon");
        assert_eq!(w.month_year("2013-13"), "2013-13");
        assert_eq!(w.range("2013-12-01", ""), format!("{dec} – {present}"));
        assert_eq!(
            w.range("2013-12", "2013-12-31"),
            dec,
            "one month is one date"
        );
        assert_eq!(w.range("", ""), "");
    }
}

#[test]
fn dates_are_written_as_the_design_asks() {
    for (tag, dates, dec) in [
        ("en", "numeric", "12/2013"),
        ("de", "numeric", "12/2013"),
        ("ja", "numeric", "2013/12"),
        ("en", "year", "2013"),
        ("ar", "year", "2013"),
        ("fr", "month", "déc. 2013"),
    ] {
        let mut resume = in_language(tag);
        resume["meta"]["design"] = json!({ "dates": dates });
        let w = words(&resume);
        assert_eq!(w.month_year("2013-12-01"), dec, "{tag} {dates}");
        assert_eq!(w.month_year("soon"), "soon");
        // Every export writes them so: the text export of the sample has its first job's start.
        let text = export::text(&resume);
        assert!(text.contains(&w.month_year("2013-12-01")), "{tag} {dates}");
    }
    // A design the schema refuses (an unknown way of writing dates) is no design: the month's name.
    let mut resume = in_language("en");
    resume["meta"]["design"] = json!({ "dates": "roman" });
    assert_eq!(words(&resume).month_year("2013-12-01"), "Dec 2013");
}

#[test]
fn exports_are_written_in_the_resume_s_language() {
    let mut german = in_language("de");
    german["work"][0].as_object_mut().unwrap().remove("endDate");
    let html = export::html(&german, Template::Classic, Page::A4);
    assert!(
        html.contains("<html lang=\"de\" dir=\"ltr\">"),
        "{}",
        &html[..200]
    );
    assert!(html.contains("<h2>Berufserfahrung</h2>") && html.contains("<h2>Kenntnisse</h2>"));
    assert!(html.contains("Richard Hendriks — Lebenslauf"));
    assert!(!html.contains("<h2>Work</h2>"));
    let (_, sections) = outline(&german);
    let work = &sections.iter().find(|s| s.id == "work").unwrap().entries[0];
    assert!(
        work.dates.contains("Dez. 2013") && work.dates.ends_with("heute"),
        "{}",
        work.dates
    );
    let md = export::markdown(&german);
    assert!(
        md.contains("## Berufserfahrung") && md.contains("Dez\\. 2013"),
        "{md}"
    );
    let text = export::text(&german);
    assert!(
        text.contains("BERUFSERFAHRUNG\n===============") && text.contains("Dez. 2013 – heute")
    );

    let arabic = in_language("ar");
    let html = export::html(&arabic, Template::Modern, Page::Letter);
    assert!(html.contains("<html lang=\"ar\" dir=\"rtl\">"));
    assert!(html.contains("<h2>الخبرة العملية</h2>"));
    assert!(
        html.contains("border-inline-start"),
        "the accent bar stands at the start of the line"
    );
    assert!(!html.contains("border-left") && !html.contains("padding-left"));
    assert!(
        html.contains("<li dir=\"ltr\">(912) 555-4321</li>")
            && html.contains("<li dir=\"auto\"><a href=\"mailto:"),
        "a phone number reads left to right, and a contact with letters in its own direction"
    );

    let english = export::html(&redline_resume::sample(), Template::Classic, Page::A4);
    assert!(
        english.contains("<html lang=\"en\" dir=\"ltr\">") && english.contains("<h2>Work</h2>")
    );
    assert!(english.contains("Dec 2013 – Dec 2014"));
}

/// A list written on one line (keywords, a project's roles, a degree and its field, the address) is separated
/// as the language writes it: ", " in English, the ideographic "、" in Japanese and Chinese, the Arabic
/// "، " in Arabic — where the list reads right to left: Latin keywords in an Arabic resume keep their ", ".
/// Before, every language had the English comma.
#[test]
fn a_list_on_one_line_is_separated_as_its_language_writes_it() {
    let arabic_items = |mut resume: Value| {
        resume["basics"]["location"] = json!({"city": "دبي", "countryCode": "AE"});
        resume["education"][0]["studyType"] = json!("بكالوريوس");
        resume["education"][0]["area"] = json!("علوم الحاسوب");
        resume["skills"][0]["keywords"] = json!(["بايثون", "جافا", "Rust"]);
        resume["projects"][0]["roles"] = json!(["قائد", "مصمم"]);
        resume
    };
    let latin = |tag: &str| {
        let mut resume = in_language(tag);
        resume["projects"][0]["roles"] = json!(["Lead", "Architect"]);
        resume
    };
    for (what, resume, comma) in [
        ("en", latin("en"), ", "),
        ("de", latin("de"), ", "),
        ("ja", latin("ja"), "、"),
        ("zh", latin("zh"), "、"),
        ("ar, Latin items", latin("ar"), ", "),
        ("ar, Arabic items", arabic_items(latin("ar")), "، "),
        ("he, Arabic items", arabic_items(latin("he")), ", "),
        ("en, Arabic items", arabic_items(latin("en")), ", "),
    ] {
        let w = words(&resume);
        let (header, sections) = outline(&resume);
        let entry = |id: &str| &sections.iter().find(|s| s.id == id).unwrap().entries[0];
        let (place, degree, roles, keywords) = if what.ends_with("Arabic items") {
            (
                vec!["دبي", "AE"],
                ["بكالوريوس", "علوم الحاسوب"],
                ["قائد", "مصمم"],
                vec!["بايثون", "جافا", "Rust"],
            )
        } else {
            (
                vec![
                    "2712 Broadway St",
                    "CA 94115",
                    "San Francisco",
                    "California",
                    "US",
                ],
                ["Bachelor", "Information Technology"],
                ["Lead", "Architect"],
                vec!["HTML", "CSS", "Javascript"],
            )
        };
        assert_eq!(w.comma_for(&keywords), comma, "{what}");
        assert_eq!(
            header.contacts.last().unwrap().text,
            place.join(comma),
            "{what}"
        );
        assert_eq!(entry("education").title, degree.join(comma), "{what}");
        let subtitle = &entry("projects").subtitle;
        assert!(subtitle.ends_with(&roles.join(comma)), "{what}: {subtitle}");
        let keywords = keywords.join(comma);
        assert!(
            export::markdown(&resume).contains(&keywords),
            "{what}: markdown"
        );
        assert!(export::text(&resume).contains(&keywords), "{what}: text");
    }
    let w = words(&in_language("ja"));
    assert_eq!(w.list(&["a".into(), String::new(), "b".into()]), "a、b");
}

#[test]
fn renamed_headings_are_used_everywhere_and_stay_text() {
    let mut resume = in_language("fr");
    resume["meta"]["headings"] = json!({
        "work": "  Experience\n at   scale ",
        "skills": "<b>Tools</b> & *stuff*",
        "education": "",
        "interests": 7,
        "projects": "x".repeat(MAX_HEADING_CHARS + 40),
    });
    let w = words(&resume);
    assert_eq!(w.heading("work"), "Experience at scale");
    assert_eq!(
        w.heading("education"),
        "Formation",
        "an empty name keeps the language's"
    );
    assert_eq!(
        w.heading("interests"),
        "Centres d’intérêt",
        "a name that is not text is ignored"
    );
    assert_eq!(w.heading("projects").chars().count(), MAX_HEADING_CHARS);
    assert_eq!(w.heading("unknown"), "unknown");

    let html = export::html(&resume, Template::Classic, Page::A4);
    assert!(html.contains("<h2>Experience at scale</h2>"));
    assert!(
        html.contains("<h2>&lt;b&gt;Tools&lt;/b&gt; &amp; *stuff*</h2>"),
        "a heading is text"
    );
    assert!(!html.contains("<b>Tools"));
    let md = export::markdown(&resume);
    assert!(md.contains("## \\<b\\>Tools\\</b\\> & \\*stuff\\*"), "{md}");
}

#[test]
fn the_window_reads_the_same_words() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../ui/src/lib/words.json");
    let mut expected = serde_json::to_string_pretty(&table()).unwrap();
    expected.push('\n');
    if std::env::var_os("REDLINE_UPDATE_BINDINGS").is_some() {
        std::fs::write(&path, &expected).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == expected,
        "ui/src/lib/words.json is not the table in crates/resume/src/words.rs: run the tests with \
         REDLINE_UPDATE_BINDINGS=1 and commit it"
    );
}
