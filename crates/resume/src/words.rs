//! The words a resume is shown in: section headings, month names, “present”, the document's title and its
//! direction. They follow the resume's own language, `meta.language` (a BCP 47 tag such as `de`, `pt-BR`,
//! `ja` or `ar`), English when it has none or one Redline has no words for; a heading the user renamed
//! (`meta.headings`, by section key) wins over the language's own.
//!
//! One source for everything that shows a resume: the exports (HTML, PDF, Markdown, text) through
//! [`crate::outline`], the ATS check, and the window's view, which reads [`table`] as the JSON file
//! `ui/src/lib/words.json` (a test keeps that file equal to this one).

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// A language Redline has the words for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Language {
    English,
    German,
    French,
    Spanish,
    Portuguese,
    Japanese,
    Chinese,
    Arabic,
}

/// The section keys, in the order a reader meets them (and the order of each language's headings).
pub const SECTIONS: [&str; 11] = [
    "work",
    "volunteer",
    "education",
    "awards",
    "certificates",
    "publications",
    "skills",
    "languages",
    "interests",
    "references",
    "projects",
];

/// The longest heading a user may give a section, in characters; a longer one is cut there.
pub const MAX_HEADING_CHARS: usize = 80;

/// Primary language subtags written right to left: a resume in one of them lays out right to left, even
/// where Redline has no words for the language itself.
pub const RIGHT_TO_LEFT: [&str; 9] = ["ar", "he", "fa", "ur", "yi", "ps", "sd", "ug", "dv"];

struct Table {
    tag: &'static str,
    /// The language's name for itself, for menus.
    name: &'static str,
    headings: [&'static str; 11],
    /// Month names as they stand in a date, January first.
    months: [&'static str; 12],
    /// How a month and year are written: `{month}` and `{year}` are replaced.
    month_year: &'static str,
    present: &'static str,
    /// What the document is (its title is “name — this”).
    resume: &'static str,
    /// A degree's grade.
    score: &'static str,
    /// What separates the items of a list written as one line (keywords, roles, an address): “, ”, the
    /// ideographic “、”, the Arabic “، ”.
    comma: &'static str,
}

const TABLES: [Table; 8] = [
    Table {
        tag: "en",
        name: "English",
        headings: [
            "Work",
            "Volunteering",
            "Education",
            "Awards",
            "Certificates",
            "Publications",
            "Skills",
            "Languages",
            "Interests",
            "References",
            "Projects",
        ],
        months: [
            "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
        ],
        month_year: "{month} {year}",
        present: "Present",
        resume: "Resume",
        score: "Score",
        comma: ", ",
    },
    Table {
        tag: "de",
        name: "Deutsch",
        headings: [
            "Berufserfahrung",
            "Ehrenamt",
            "Ausbildung",
            "Auszeichnungen",
            "Zertifikate",
            "Veröffentlichungen",
            "Kenntnisse",
            "Sprachen",
            "Interessen",
            "Referenzen",
            "Projekte",
        ],
        months: [
            "Jan.", "Feb.", "März", "Apr.", "Mai", "Juni", "Juli", "Aug.", "Sept.", "Okt.", "Nov.",
            "Dez.",
        ],
        month_year: "{month} {year}",
        present: "heute",
        resume: "Lebenslauf",
        score: "Note",
        comma: ", ",
    },
    Table {
        tag: "fr",
        name: "Français",
        headings: [
            "Expérience professionnelle",
            "Bénévolat",
            "Formation",
            "Distinctions",
            "Certifications",
            "Publications",
            "Compétences",
            "Langues",
            "Centres d’intérêt",
            "Références",
            "Projets",
        ],
        months: [
            "janv.", "févr.", "mars", "avr.", "mai", "juin", "juil.", "août", "sept.", "oct.",
            "nov.", "déc.",
        ],
        month_year: "{month} {year}",
        present: "aujourd’hui",
        resume: "CV",
        score: "Mention",
        comma: ", ",
    },
    Table {
        tag: "es",
        name: "Español",
        headings: [
            "Experiencia laboral",
            "Voluntariado",
            "Formación",
            "Premios",
            "Certificados",
            "Publicaciones",
            "Habilidades",
            "Idiomas",
            "Intereses",
            "Referencias",
            "Proyectos",
        ],
        months: [
            "ene.", "feb.", "mar.", "abr.", "may.", "jun.", "jul.", "ago.", "sept.", "oct.",
            "nov.", "dic.",
        ],
        month_year: "{month} {year}",
        present: "actualidad",
        resume: "Currículum",
        score: "Nota",
        comma: ", ",
    },
    Table {
        tag: "pt",
        name: "Português",
        headings: [
            "Experiência profissional",
            "Voluntariado",
            "Formação",
            "Prêmios",
            "Certificados",
            "Publicações",
            "Competências",
            "Idiomas",
            "Interesses",
            "Referências",
            "Projetos",
        ],
        months: [
            "jan.", "fev.", "mar.", "abr.", "mai.", "jun.", "jul.", "ago.", "set.", "out.", "nov.",
            "dez.",
        ],
        month_year: "{month} {year}",
        present: "atual",
        resume: "Currículo",
        score: "Nota",
        comma: ", ",
    },
    Table {
        tag: "ja",
        name: "日本語",
        headings: [
            "職歴",
            "ボランティア活動",
            "学歴",
            "受賞歴",
            "資格",
            "出版物",
            "スキル",
            "語学",
            "興味・関心",
            "推薦者",
            "プロジェクト",
        ],
        months: [
            "1月", "2月", "3月", "4月", "5月", "6月", "7月", "8月", "9月", "10月", "11月", "12月",
        ],
        month_year: "{year}年{month}",
        present: "現在",
        resume: "履歴書",
        score: "成績",
        comma: "、",
    },
    Table {
        tag: "zh",
        name: "中文",
        headings: [
            "工作经历",
            "志愿服务",
            "教育背景",
            "获奖情况",
            "证书",
            "出版物",
            "技能",
            "语言",
            "兴趣爱好",
            "推荐人",
            "项目经历",
        ],
        months: [
            "1月", "2月", "3月", "4月", "5月", "6月", "7月", "8月", "9月", "10月", "11月", "12月",
        ],
        month_year: "{year}年{month}",
        present: "至今",
        resume: "简历",
        score: "成绩",
        comma: "、",
    },
    Table {
        tag: "ar",
        name: "العربية",
        headings: [
            "الخبرة العملية",
            "العمل التطوعي",
            "التعليم",
            "الجوائز",
            "الشهادات",
            "المنشورات",
            "المهارات",
            "اللغات",
            "الاهتمامات",
            "المراجع",
            "المشاريع",
        ],
        months: [
            "يناير",
            "فبراير",
            "مارس",
            "أبريل",
            "مايو",
            "يونيو",
            "يوليو",
            "أغسطس",
            "سبتمبر",
            "أكتوبر",
            "نوفمبر",
            "ديسمبر",
        ],
        month_year: "{month} {year}",
        present: "حتى الآن",
        resume: "السيرة الذاتية",
        score: "المعدل",
        comma: "، ",
    },
];

impl Language {
    /// Every language Redline has words for, English first.
    pub const ALL: [Language; 8] = [
        Language::English,
        Language::German,
        Language::French,
        Language::Spanish,
        Language::Portuguese,
        Language::Japanese,
        Language::Chinese,
        Language::Arabic,
    ];

    fn table(self) -> &'static Table {
        &TABLES[self as usize]
    }

    /// Its BCP 47 primary subtag (`en`, `de`, …).
    pub fn tag(self) -> &'static str {
        self.table().tag
    }

    /// Its name for itself (`Deutsch`, `日本語`).
    pub fn name(self) -> &'static str {
        self.table().name
    }

    /// The language of the BCP 47 tag `tag` (`de`, `pt-BR`, `zh-Hans-CN`), by its primary subtag.
    pub fn parse(tag: &str) -> Option<Language> {
        let primary = tag.split(['-', '_']).next()?.to_ascii_lowercase();
        Language::ALL.into_iter().find(|l| l.tag() == primary)
    }
}

/// How the resume's dates are written: the month's name (`Dec 2013`, in the resume's language), its
/// number (`12/2013`), or the year alone (`2013`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "kebab-case")]
pub enum Dates {
    #[default]
    Month,
    Numeric,
    Year,
}

/// A resume's words: its language, direction and headings, and how it writes dates.
#[derive(Debug, Clone, PartialEq)]
pub struct Words {
    pub language: Language,
    /// The resume's language tag as written (`pt-BR`), when it is a well-formed one; else the language's.
    pub tag: String,
    /// Written right to left.
    pub rtl: bool,
    headings: [String; 11],
    /// How a date is written (the design's `dates`).
    dates: Dates,
}

/// A tag kept only if it looks like BCP 47: letters, digits and hyphens, a letter first, at most 35
/// characters (the longest tag the standard needs). Anything else is ignored, never written into a file.
pub fn well_formed(tag: &str) -> Option<&str> {
    let t = tag.trim();
    let ok = !t.is_empty()
        && t.len() <= 35
        && t.starts_with(|c: char| c.is_ascii_alphabetic())
        && t.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        && t.split('-').all(|part| (1..=8).contains(&part.len()));
    ok.then_some(t)
}

/// The words of `resume`: `meta.language` and `meta.headings`.
pub fn words(resume: &Value) -> Words {
    let meta = &resume["meta"];
    let written = meta["language"].as_str().and_then(well_formed);
    let language = written
        .and_then(Language::parse)
        .unwrap_or(Language::English);
    let tag = written.unwrap_or(language.tag()).to_owned();
    let primary = tag.split('-').next().unwrap_or("").to_ascii_lowercase();
    let rtl = RIGHT_TO_LEFT.contains(&primary.as_str());
    let renamed = &meta["headings"];
    let headings = std::array::from_fn(|i| {
        renamed[SECTIONS[i]]
            .as_str()
            .map(|h| h.split_whitespace().collect::<Vec<_>>().join(" "))
            .filter(|h| !h.is_empty())
            .map(|h| h.chars().take(MAX_HEADING_CHARS).collect())
            .unwrap_or_else(|| language.table().headings[i].to_owned())
    });
    // The design's own key (`/meta/design/dates`), read here: the design's other options are not words.
    let dates = serde_json::from_value(meta["design"]["dates"].clone()).unwrap_or_default();
    Words {
        language,
        tag,
        rtl,
        headings,
        dates,
    }
}

impl Words {
    /// English words, left to right, no headings renamed.
    pub fn english() -> Words {
        words(&Value::Null)
    }

    /// The words of `language`, no headings renamed.
    pub fn of(language: Language) -> Words {
        words(&json!({"meta": {"language": language.tag()}}))
    }

    /// The heading of section `id` (`work`, `skills`, …); `id` itself for a key that is not a section.
    pub fn heading<'a>(&'a self, id: &'a str) -> &'a str {
        SECTIONS
            .iter()
            .position(|s| *s == id)
            .map_or(id, |i| &self.headings[i])
    }

    /// “Present”, for a range with no end.
    pub fn present(&self) -> &'static str {
        self.language.table().present
    }

    /// The document's title: “name — Resume” in the resume's language, or just the word.
    pub fn title(&self, name: &str) -> String {
        let resume = self.language.table().resume;
        if name.is_empty() {
            resume.to_owned()
        } else {
            format!("{name} — {resume}")
        }
    }

    /// What a degree's grade is called.
    pub fn score(&self) -> &'static str {
        self.language.table().score
    }

    /// A JSON Resume date as a reader of the language writes it: `2013-12-01` → `Dec 2013`, `Dez. 2013`,
    /// `2013年12月`; or as the design asks, `12/2013` (`2013/12` in Chinese and Japanese) or `2013`; a year
    /// alone stays; anything else is shown as written.
    pub fn month_year(&self, date: &str) -> String {
        let date = date.trim();
        let parts: Vec<&str> = date.split('-').collect();
        match parts.as_slice() {
            [y, m, ..] if y.len() == 4 && y.bytes().all(|b| b.is_ascii_digit()) => {
                match m.parse::<usize>() {
                    Ok(n @ 1..=12) if m.bytes().all(|b| b.is_ascii_digit()) => match self.dates {
                        Dates::Month => {
                            let table = self.language.table();
                            table
                                .month_year
                                .replace("{year}", y)
                                .replace("{month}", table.months[n - 1])
                        }
                        Dates::Numeric
                            if self.language.table().month_year.starts_with("{year}") =>
                        {
                            format!("{y}/{n:02}")
                        }
                        Dates::Numeric => format!("{n:02}/{y}"),
                        Dates::Year => (*y).to_owned(),
                    },
                    _ => date.to_owned(),
                }
            }
            _ => date.to_owned(),
        }
    }

    /// What separates the items of a list written on one line: `, ` in English, `、` in Japanese, `، ` in
    /// Arabic.
    pub fn comma(&self) -> &'static str {
        self.language.table().comma
    }

    /// What separates `items` on one line: the language's comma, except in a right-to-left resume whose list
    /// reads left to right (its first letter is Latin, say: `HTML, CSS`), which keeps the items' own `, `.
    pub fn comma_for<S: AsRef<str>>(&self, items: &[S]) -> &'static str {
        let first = items
            .iter()
            .flat_map(|i| i.as_ref().chars())
            .find(|c| c.is_alphabetic());
        if self.rtl && !first.is_some_and(right_to_left) {
            ", "
        } else {
            self.comma()
        }
    }

    /// The items of a list on one line, the empty ones left out, separated as [`Words::comma_for`] says.
    pub fn list(&self, items: &[String]) -> String {
        let items: Vec<&str> = items
            .iter()
            .map(String::as_str)
            .filter(|i| !i.is_empty())
            .collect();
        items.join(self.comma_for(&items))
    }

    /// A date range: `Dec 2013 – Present`, one date when both ends are the same month.
    pub fn range(&self, start: &str, end: &str) -> String {
        let (start, end) = (self.month_year(start), self.month_year(end));
        match (start.is_empty(), end.is_empty()) {
            (true, true) => String::new(),
            (false, true) => format!("{start} – {}", self.present()),
            (true, false) => end,
            (false, false) if start == end => start,
            (false, false) => format!("{start} – {end}"),
        }
    }
}

/// A letter of a script written right to left (Hebrew, Arabic, Syriac, Thaana, N'Ko and their presentation
/// forms).
pub fn right_to_left(c: char) -> bool {
    matches!(c, '\u{0590}'..='\u{08FF}' | '\u{FB1D}'..='\u{FDFF}' | '\u{FE70}'..='\u{FEFF}')
}

/// Every language's words as one JSON value: what the window's view reads (`ui/src/lib/words.json`).
pub fn table() -> Value {
    json!({
        "sections": SECTIONS,
        "maxHeadingChars": MAX_HEADING_CHARS,
        "rightToLeft": RIGHT_TO_LEFT,
        "languages": TABLES.iter().map(|t| json!({
            "tag": t.tag,
            "name": t.name,
            "headings": SECTIONS.iter().zip(t.headings).map(|(id, h)| (id.to_string(), json!(h))).collect::<serde_json::Map<_, _>>(),
            "months": t.months,
            "monthYear": t.month_year,
            "present": t.present,
            "resume": t.resume,
            "score": t.score,
            "comma": t.comma,
        })).collect::<Vec<_>>(),
    })
}
