//! Which part of a resume a heading starts, in the eight languages Redline writes and the variants people
//! use ("Experience", "Professional Experience", "Employment History", "Berufserfahrung", "職歴", …).
//! Headings are compared by their letters only, lower case, so "S K I L L S", "Skills:" and "SKILLS" are
//! one heading.

use redline_resume::words::{Language, SECTIONS};

/// What a heading starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// A JSON Resume section (`work`, `skills`, …).
    Section(&'static str),
    /// A summary or profile: `basics.summary`.
    Summary,
    /// Contact details: read as the header's.
    Contact,
}

/// Headings people use beyond each language's own (which come from [`redline_resume::words`]).
const VARIANTS: &[(&str, Part)] = &[
    ("experience", Part::Section("work")),
    ("workexperience", Part::Section("work")),
    ("professionalexperience", Part::Section("work")),
    ("relevantexperience", Part::Section("work")),
    ("employment", Part::Section("work")),
    ("employmenthistory", Part::Section("work")),
    ("workhistory", Part::Section("work")),
    ("careerhistory", Part::Section("work")),
    ("career", Part::Section("work")),
    ("professionalhistory", Part::Section("work")),
    ("berufspraxis", Part::Section("work")),
    ("beruflicherwerdegang", Part::Section("work")),
    ("erfahrung", Part::Section("work")),
    ("expérience", Part::Section("work")),
    ("expériences", Part::Section("work")),
    ("expériencesprofessionnelles", Part::Section("work")),
    ("experiencia", Part::Section("work")),
    ("experienciaprofesional", Part::Section("work")),
    ("experiência", Part::Section("work")),
    ("職務経歴", Part::Section("work")),
    ("工作经验", Part::Section("work")),
    ("الخبرة", Part::Section("work")),
    ("volunteer", Part::Section("volunteer")),
    ("volunteerexperience", Part::Section("volunteer")),
    ("volunteerwork", Part::Section("volunteer")),
    ("education", Part::Section("education")),
    ("educationandtraining", Part::Section("education")),
    ("academicbackground", Part::Section("education")),
    ("bildung", Part::Section("education")),
    ("studium", Part::Section("education")),
    ("bildungsweg", Part::Section("education")),
    ("éducation", Part::Section("education")),
    ("educación", Part::Section("education")),
    ("educação", Part::Section("education")),
    ("教育经历", Part::Section("education")),
    ("awards", Part::Section("awards")),
    ("honors", Part::Section("awards")),
    ("honours", Part::Section("awards")),
    ("honorsawards", Part::Section("awards")),
    ("awardsandhonors", Part::Section("awards")),
    ("achievements", Part::Section("awards")),
    ("prix", Part::Section("awards")),
    ("certifications", Part::Section("certificates")),
    ("licenses", Part::Section("certificates")),
    ("licensescertifications", Part::Section("certificates")),
    ("licensesandcertifications", Part::Section("certificates")),
    ("zertifizierungen", Part::Section("certificates")),
    ("certificaciones", Part::Section("certificates")),
    ("certificações", Part::Section("certificates")),
    ("technicalskills", Part::Section("skills")),
    ("coreskills", Part::Section("skills")),
    ("keyskills", Part::Section("skills")),
    ("competencies", Part::Section("skills")),
    ("corecompetencies", Part::Section("skills")),
    ("expertise", Part::Section("skills")),
    ("skillsandexpertise", Part::Section("skills")),
    ("fähigkeiten", Part::Section("skills")),
    ("fachkenntnisse", Part::Section("skills")),
    ("competencias", Part::Section("skills")),
    ("habilidades", Part::Section("skills")),
    ("专业技能", Part::Section("skills")),
    ("sprachkenntnisse", Part::Section("languages")),
    ("言語", Part::Section("languages")),
    ("语言能力", Part::Section("languages")),
    ("hobbies", Part::Section("interests")),
    ("hobbys", Part::Section("interests")),
    ("interestsandhobbies", Part::Section("interests")),
    ("centresdintérêt", Part::Section("interests")),
    ("趣味", Part::Section("interests")),
    ("personalprojects", Part::Section("projects")),
    ("sideprojects", Part::Section("projects")),
    ("opensourceprojects", Part::Section("projects")),
    ("opensource", Part::Section("projects")),
    ("selectedprojects", Part::Section("projects")),
    ("项目", Part::Section("projects")),
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
    for language in Language::ALL {
        let words = redline_resume::words::Words::of(language);
        for id in SECTIONS {
            if self::key(words.heading(id)) == key {
                return Some((Part::Section(id), Some(language)));
            }
        }
    }
    VARIANTS
        .iter()
        .find(|(k, _)| self::key(k) == key)
        .map(|&(_, part)| (part, None))
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
            (Part::Section("work"), Some(Language::English))
        );
        assert_eq!(part("S K I L L S").unwrap().0, Part::Section("skills"));
        assert_eq!(
            part("Professional Experience:").unwrap().0,
            Part::Section("work")
        );
        assert_eq!(
            part("Berufserfahrung").unwrap(),
            (Part::Section("work"), Some(Language::German))
        );
        assert_eq!(part("職歴").unwrap().1, Some(Language::Japanese));
        assert_eq!(part("الخبرة العملية").unwrap().1, Some(Language::Arabic));
        // The lam-alef ligature read back in the other order.
        assert_eq!(part("االهتمامات").unwrap().0, Part::Section("interests"));
        assert_eq!(
            part("Centres d’intérêt").unwrap().0,
            Part::Section("interests")
        );
        assert_eq!(part("About me").unwrap().0, Part::Summary);
        assert!(part("Experience building compression at scale for years").is_none());
        assert!(part("Pied Piper").is_none());
    }
}
