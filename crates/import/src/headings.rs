//! Which part of a resume a heading starts, in the eight languages Redline writes and the variants people
//! use ("Experience", "Professional Experience", "Employment History", "Berufserfahrung", "職歴", …).
//! Headings are compared by their letters only, lower case, so "S K I L L S", "Skills:" and "SKILLS" are
//! one heading.

use std::collections::HashMap;
use std::sync::OnceLock;

use redline_resume::words::Language;

use crate::Section;

/// What a heading starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// A JSON Resume section of entries (work, skills, …).
    Section(Section),
    /// A summary or profile: `basics.summary`.
    Summary,
    /// Contact details: read as the header's.
    Contact,
}

/// Headings people use beyond each language's own (which come from [`redline_resume::words`]).
const VARIANTS: &[(&str, Part)] = &[
    ("experience", Part::Section(Section::Work)),
    ("workexperience", Part::Section(Section::Work)),
    ("professionalexperience", Part::Section(Section::Work)),
    ("relevantexperience", Part::Section(Section::Work)),
    ("employment", Part::Section(Section::Work)),
    ("employmenthistory", Part::Section(Section::Work)),
    ("workhistory", Part::Section(Section::Work)),
    ("careerhistory", Part::Section(Section::Work)),
    ("career", Part::Section(Section::Work)),
    ("professionalhistory", Part::Section(Section::Work)),
    ("berufspraxis", Part::Section(Section::Work)),
    ("beruflicherwerdegang", Part::Section(Section::Work)),
    ("erfahrung", Part::Section(Section::Work)),
    ("expérience", Part::Section(Section::Work)),
    ("expériences", Part::Section(Section::Work)),
    ("expériencesprofessionnelles", Part::Section(Section::Work)),
    ("experiencia", Part::Section(Section::Work)),
    ("experienciaprofesional", Part::Section(Section::Work)),
    ("experiência", Part::Section(Section::Work)),
    ("職務経歴", Part::Section(Section::Work)),
    ("工作经验", Part::Section(Section::Work)),
    ("الخبرة", Part::Section(Section::Work)),
    ("volunteer", Part::Section(Section::Volunteer)),
    ("volunteerexperience", Part::Section(Section::Volunteer)),
    ("volunteerwork", Part::Section(Section::Volunteer)),
    ("education", Part::Section(Section::Education)),
    ("educationandtraining", Part::Section(Section::Education)),
    ("academicbackground", Part::Section(Section::Education)),
    ("bildung", Part::Section(Section::Education)),
    ("studium", Part::Section(Section::Education)),
    ("bildungsweg", Part::Section(Section::Education)),
    ("éducation", Part::Section(Section::Education)),
    ("educación", Part::Section(Section::Education)),
    ("educação", Part::Section(Section::Education)),
    ("教育经历", Part::Section(Section::Education)),
    ("awards", Part::Section(Section::Awards)),
    ("honors", Part::Section(Section::Awards)),
    ("honours", Part::Section(Section::Awards)),
    ("honorsawards", Part::Section(Section::Awards)),
    ("awardsandhonors", Part::Section(Section::Awards)),
    ("achievements", Part::Section(Section::Awards)),
    ("prix", Part::Section(Section::Awards)),
    ("certifications", Part::Section(Section::Certificates)),
    ("licenses", Part::Section(Section::Certificates)),
    (
        "licensescertifications",
        Part::Section(Section::Certificates),
    ),
    (
        "licensesandcertifications",
        Part::Section(Section::Certificates),
    ),
    ("zertifizierungen", Part::Section(Section::Certificates)),
    ("certificaciones", Part::Section(Section::Certificates)),
    ("certificações", Part::Section(Section::Certificates)),
    ("technicalskills", Part::Section(Section::Skills)),
    ("coreskills", Part::Section(Section::Skills)),
    ("keyskills", Part::Section(Section::Skills)),
    ("competencies", Part::Section(Section::Skills)),
    ("corecompetencies", Part::Section(Section::Skills)),
    ("expertise", Part::Section(Section::Skills)),
    ("skillsandexpertise", Part::Section(Section::Skills)),
    ("fähigkeiten", Part::Section(Section::Skills)),
    ("fachkenntnisse", Part::Section(Section::Skills)),
    ("competencias", Part::Section(Section::Skills)),
    ("habilidades", Part::Section(Section::Skills)),
    ("专业技能", Part::Section(Section::Skills)),
    ("sprachkenntnisse", Part::Section(Section::Languages)),
    ("言語", Part::Section(Section::Languages)),
    ("语言能力", Part::Section(Section::Languages)),
    ("hobbies", Part::Section(Section::Interests)),
    ("hobbys", Part::Section(Section::Interests)),
    ("interestsandhobbies", Part::Section(Section::Interests)),
    ("centresdintérêt", Part::Section(Section::Interests)),
    ("趣味", Part::Section(Section::Interests)),
    ("personalprojects", Part::Section(Section::Projects)),
    ("sideprojects", Part::Section(Section::Projects)),
    ("opensourceprojects", Part::Section(Section::Projects)),
    ("opensource", Part::Section(Section::Projects)),
    ("selectedprojects", Part::Section(Section::Projects)),
    ("项目", Part::Section(Section::Projects)),
    ("summary", Part::Summary),
    ("profile", Part::Summary),
    ("professionalsummary", Part::Summary),
    ("professionalprofile", Part::Summary),
    ("about", Part::Summary),
    ("aboutme", Part::Summary),
    ("objective", Part::Summary),
    ("careerobjective", Part::Summary),
    ("profil", Part::Summary),
    ("kurzprofil", Part::Summary),
    ("zusammenfassung", Part::Summary),
    ("résumé", Part::Summary),
    ("resumen", Part::Summary),
    ("perfil", Part::Summary),
    ("perfilprofesional", Part::Summary),
    ("resumo", Part::Summary),
    ("sobremí", Part::Summary),
    ("sobremim", Part::Summary),
    ("概要", Part::Summary),
    ("自己pr", Part::Summary),
    ("个人简介", Part::Summary),
    ("自我评价", Part::Summary),
    ("نبذة", Part::Summary),
    ("الملخص", Part::Summary),
    ("contact", Part::Contact),
    ("contactinformation", Part::Contact),
    ("contactdetails", Part::Contact),
    ("profiles", Part::Contact),
    ("links", Part::Contact),
    ("socialprofiles", Part::Contact),
    ("kontakt", Part::Contact),
    ("coordonnées", Part::Contact),
    ("contacto", Part::Contact),
    ("contato", Part::Contact),
    ("連絡先", Part::Contact),
    ("联系方式", Part::Contact),
    ("معلوماتالاتصال", Part::Contact),
];

/// `text`'s letters, lower case: how headings are compared. Arabic's lam and alefs are left out: a PDF's
/// lam-alef ligature is one glyph for two letters, which readers give back in either order.
pub fn key(text: &str) -> String {
    text.chars()
        .filter(|c| c.is_alphanumeric() && !matches!(c, 'ل' | 'ا' | 'أ' | 'إ' | 'آ'))
        .flat_map(char::to_lowercase)
        .collect()
}

/// The part the heading `text` starts, and the language whose own heading it is (if it is one).
pub fn part(text: &str) -> Option<(Part, Option<Language>)> {
    // "Work Experience (3)": a count of the section's entries after its heading.
    let text = match text
        .trim_end()
        .strip_suffix(')')
        .and_then(|t| t.rsplit_once('('))
    {
        Some((heading, count))
            if !count.is_empty() && count.chars().all(|c| c.is_ascii_digit()) =>
        {
            heading
        }
        _ => text,
    };
    let key = key(text);
    // A heading is a few words: a sentence that happens to say "experience" is not one.
    if key.is_empty() || key.chars().count() > 40 || text.chars().count() > 60 {
        return None;
    }
    headings().get(&key).copied()
}

/// Every heading the reader knows, by its [`key`]: each language's own headings first (the first language
/// that has one names it), then the [`VARIANTS`]. Made once: `part` is asked of every line of a file.
fn headings() -> &'static HashMap<String, (Part, Option<Language>)> {
    static HEADINGS: OnceLock<HashMap<String, (Part, Option<Language>)>> = OnceLock::new();
    HEADINGS.get_or_init(|| {
        let mut headings = HashMap::new();
        for language in Language::ALL {
            let words = redline_resume::words::Words::of(language);
            for section in Section::LISTED {
                (headings.entry(key(words.heading(section.key()))))
                    .or_insert((Part::Section(section), Some(language)));
            }
        }
        for &(variant, part) in VARIANTS {
            headings.entry(key(variant)).or_insert((part, None));
        }
        headings
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_count_after_a_heading_is_not_part_of_it() {
        assert_eq!(
            part("Work Experience(1)").map(|(p, _)| p),
            part("Work Experience").map(|(p, _)| p)
        );
        assert!(part("Projects (12)").is_some());
        assert!(part("Projects (many)").is_none());
    }

    #[test]
    fn headings_are_known_in_every_language_and_in_their_variants() {
        assert_eq!(
            part("Work").unwrap(),
            (Part::Section(Section::Work), Some(Language::English))
        );
        assert_eq!(
            part("S K I L L S").unwrap().0,
            Part::Section(Section::Skills)
        );
        assert_eq!(
            part("Professional Experience:").unwrap().0,
            Part::Section(Section::Work)
        );
        assert_eq!(
            part("Berufserfahrung").unwrap(),
            (Part::Section(Section::Work), Some(Language::German))
        );
        assert_eq!(part("職歴").unwrap().1, Some(Language::Japanese));
        assert_eq!(part("الخبرة العملية").unwrap().1, Some(Language::Arabic));
        // The lam-alef ligature read back in the other order.
        assert_eq!(
            part("االهتمامات").unwrap().0,
            Part::Section(Section::Interests)
        );
        assert_eq!(
            part("Centres d’intérêt").unwrap().0,
            Part::Section(Section::Interests)
        );
        assert_eq!(part("About me").unwrap().0, Part::Summary);
        assert!(part("Experience building compression at scale for years").is_none());
        assert!(part("Pied Piper").is_none());
    }
}
