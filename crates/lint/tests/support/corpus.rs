//! The corpus's generator: resumes in English, German and French built from a seed, each with mistakes
//! seeded at known places and labelled (rule, family, field, span, words). The same seed always gives the
//! same resume. Two parts: `tuning` (what the rules were tuned on) and `held-out` (other seeds, other
//! carrier sentences, other grammar mistakes; never looked at while tuning).

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// One expected finding.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Label {
    pub rule: String,
    pub family: String,
    pub path: String,
    pub start: usize,
    pub end: usize,
    pub text: String,
}

/// One resume of the corpus and what a check must find in it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Case {
    pub name: String,
    pub resume: Value,
    pub expected: Vec<Label>,
}

/// SplitMix64: a small, seeded generator (the corpus must not change with a crate's version).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// What a language gives the generator: carrier bullets (with a figure and without), a summary, and
/// bullets that carry one mistake each, with the mistake's words.
struct Pools {
    tag: &'static str,
    numbered: [&'static [&'static str]; 2],
    plain: [&'static [&'static str]; 2],
    summary: &'static str,
    /// A job title, a field of study and an award in the language.
    titles: [&'static str; 3],
    weak: &'static [(&'static str, &'static str)],
    first_person: &'static [(&'static str, &'static str)],
    passive: &'static [(&'static str, &'static str)],
    same: [&'static str; 3],
    /// English only: bullets with their verb in the present (`Reduce`), for a job that has ended.
    present: &'static [(&'static str, &'static str)],
    /// English only: `[tuning, held-out]` sentences with one grammar mistake, and its words.
    grammar: [&'static [(&'static str, &'static str)]; 2],
}

const EN: Pools = Pools {
    tag: "en",
    numbered: [
        &[
            "Reduced deployment time by 40% across 12 services.",
            "Built a billing service that handles 3 million invoices a month.",
            "Led a team of 6 engineers through a migration to the cloud.",
            "Launched a mobile application used by 50,000 customers.",
        ],
        &[
            "Negotiated contracts with suppliers in 4 countries.",
            "Organized 12 workshops a year for the product teams.",
            "Improved checkout conversion by 8% in one quarter.",
        ],
    ],
    plain: [
        &[
            "Designed an onboarding process for new engineers.",
            "Automated nightly reports for the finance department.",
            "Mentored junior developers and reviewed their code every week.",
            "Migrated the payment platform to a new provider without downtime.",
        ],
        &[
            "Introduced automated testing for the customer portal.",
            "Coordinated releases with the support and marketing teams.",
            "Simplified the deployment pipeline for mobile applications.",
        ],
    ],
    summary: "Software engineer with 8 years of experience in payments and logistics.",
    titles: ["Software Engineer", "Computer Science", "Engineering Award"],
    weak: &[
        (
            "Responsible for the billing service and its reports.",
            "Responsible for",
        ),
        (
            "Worked on the new customer portal with 4 colleagues.",
            "Worked on",
        ),
        ("Helped with the migration of 12 databases.", "Helped with"),
    ],
    first_person: &[
        ("I reduced the backlog by 30% in one quarter.", "I"),
        ("Built a reporting tool for my department.", "my"),
    ],
    passive: &[
        (
            "Built a dashboard that was adopted by 5 teams.",
            "was adopted",
        ),
        (
            "Wrote a style guide that was used by every team.",
            "was used",
        ),
    ],
    same: [
        "Improved the search results for the product catalog.",
        "Improved the stability of the payment service.",
        "Improved the onboarding documentation.",
    ],
    present: &[
        (
            "Reduce support tickets by 25% with a new help center.",
            "Reduce",
        ),
        (
            "Manage the vendor relationships of the platform team.",
            "Manage",
        ),
    ],
    grammar: [
        &[
            ("She have led projects for 5 banks.", "have"),
            ("Worked closely with the the design team.", "the the"),
            ("Known for a honest approach to estimates.", "a"),
            ("Could of moved faster in 2019.", "Could of"),
            ("Ships code daily , and reviews it.", " ,"),
            ("Above all, i enjoy mentoring.", "i"),
        ],
        &[
            ("He have mentored 4 interns.", "have"),
            ("Enjoys working with with clients.", "with with"),
            ("Wrote a article on caching.", "a"),
            ("Should of automated it sooner.", "Should of"),
            ("Writes tests first , then code.", " ,"),
            ("In short, i lead by example.", "i"),
        ],
    ],
};

const DE: Pools = Pools {
    tag: "de",
    numbered: [
        &[
            "Einführung eines neuen Ticketsystems für 40 Mitarbeiter.",
            "Senkung der Betriebskosten um 15 Prozent.",
            "Leitung eines Teams von 6 Entwicklern.",
        ],
        &[
            "Betreuung von 120 Kunden in ganz Europa.",
            "Optimierung der Lieferkette mit 3 Partnern.",
            "Verkürzung der Lieferzeiten um 20 Prozent.",
        ],
    ],
    plain: [
        &[
            "Aufbau einer Datenbank für den Vertrieb.",
            "Entwicklung einer mobilen Anwendung für Pflegekräfte.",
            "Schulung neuer Kollegen in der Buchhaltung.",
            "Planung und Durchführung von Workshops.",
        ],
        &[
            "Einführung automatischer Tests für das Kundenportal.",
            "Verhandlung von Verträgen mit Lieferanten.",
            "Erstellung monatlicher Berichte für die Geschäftsleitung.",
        ],
    ],
    summary: "Softwareentwicklerin mit 8 Jahren Erfahrung in der Logistik.",
    titles: ["Softwareentwicklerin", "Informatik", "Innovationspreis"],
    weak: &[
        (
            "Verantwortlich für die Buchhaltung von 3 Filialen.",
            "Verantwortlich für",
        ),
        ("Zuständig für die Betreuung der Kunden.", "Zuständig für"),
    ],
    first_person: &[
        ("Ich habe die Kosten um 10 Prozent gesenkt.", "Ich"),
        ("Betreuung meiner Kunden in 4 Ländern.", "meiner"),
    ],
    passive: &[
        ("Das Projekt wurde in 6 Monaten abgeschlossen.", "wurde"),
        ("Die Software wurden von 200 Nutzern getestet.", "wurden"),
    ],
    same: [
        "Einführung eines Berichtswesens.",
        "Einführung neuer Prozesse im Einkauf.",
        "Einführung einer Schulung für Kollegen.",
    ],
    present: &[],
    grammar: [&[], &[]],
};

const FR: Pools = Pools {
    tag: "fr",
    numbered: [
        &[
            "Réduction des coûts d'exploitation de 15 %.",
            "Direction d'une équipe de 6 développeurs.",
            "Suivi de la satisfaction de 300 clients.",
        ],
        &[
            "Négociation de contrats avec des partenaires dans 4 pays.",
            "Animation de 12 ateliers par an pour les équipes.",
            "Augmentation des ventes de 8 % en un trimestre.",
        ],
    ],
    plain: [
        &[
            "Conception d'une application mobile pour les infirmiers.",
            "Mise en place de tests automatisés pour le portail client.",
            "Gestion des relations avec les fournisseurs.",
            "Formation des nouveaux collaborateurs à la comptabilité.",
        ],
        &[
            "Création d'une base de données pour le service commercial.",
            "Migration de la plateforme de paiement sans interruption.",
            "Rédaction de rapports mensuels pour la direction.",
        ],
    ],
    summary: "Ingénieure logicielle avec 8 ans d'expérience dans la logistique.",
    titles: [
        "Ingénieure logicielle",
        "Informatique",
        "Prix de l'innovation",
    ],
    weak: &[
        (
            "Responsable de la comptabilité de 3 agences.",
            "Responsable de",
        ),
        ("Chargé de la relation avec les clients.", "Chargé de"),
    ],
    first_person: &[
        ("J'ai réduit les délais de livraison de 20 %.", "J'"),
        ("Suivi de mes clients dans 4 pays.", "mes"),
    ],
    passive: &[
        ("Le projet a été livré en 6 mois.", "été livré"),
        ("Les outils ont été adoptés par 5 équipes.", "été adoptés"),
    ],
    same: [
        "Création d'un tableau de bord.",
        "Création de nouveaux processus d'achat.",
        "Création d'une formation pour les collègues.",
    ],
    present: &[],
    grammar: [&[], &[]],
};

/// The mistakes a resume may carry; each case gets a few, drawn by its seed.
#[derive(Debug, Clone, Copy)]
enum Mistake {
    Typo,
    Grammar,
    Weak,
    FirstPerson,
    Passive,
    TooLong,
    NoNumber,
    SameOpener,
    TenseEnded,
    TenseCurrent,
    EndBeforeStart,
    Future,
    Gap,
    NoEmail,
    NoPhone,
}

const MISTAKES: [Mistake; 15] = [
    Mistake::Typo,
    Mistake::Grammar,
    Mistake::Weak,
    Mistake::FirstPerson,
    Mistake::Passive,
    Mistake::TooLong,
    Mistake::NoNumber,
    Mistake::SameOpener,
    Mistake::TenseEnded,
    Mistake::TenseCurrent,
    Mistake::EndBeforeStart,
    Mistake::Future,
    Mistake::Gap,
    Mistake::NoEmail,
    Mistake::NoPhone,
];

/// The jobs' dates, most recent first, a month apart.
const JOBS: [(&str, &str); 3] = [
    ("2022-03", "2025-06"),
    ("2018-09", "2022-02"),
    ("2015-01", "2018-08"),
];

/// The whole corpus: `(part, cases)` for `tuning` and `held-out`.
pub fn corpus() -> Vec<(&'static str, Vec<Case>)> {
    ["tuning", "held-out"]
        .into_iter()
        .enumerate()
        .map(|(part, name)| {
            let mut cases = Vec::new();
            for pools in [&EN, &DE, &FR] {
                for n in 0..12u64 {
                    let seed = 1_000 * (part as u64 + 1) + 100 * cases.len() as u64 + n;
                    let clean = n < 2;
                    cases.push(case(pools, part, seed, clean));
                }
            }
            (name, cases)
        })
        .collect()
}

struct Builder<'p> {
    pools: &'p Pools,
    part: usize,
    rng: Rng,
    resume: Value,
    expected: Vec<Label>,
}

fn case(pools: &Pools, part: usize, seed: u64, clean: bool) -> Case {
    let mut b = Builder {
        pools,
        part,
        rng: Rng(seed),
        resume: Value::Null,
        expected: Vec::new(),
    };
    b.base();
    if !clean {
        // Every seeded resume has a typo, and in English a grammar mistake, beside its other mistakes.
        b.seed(Mistake::Typo);
        b.seed(Mistake::Grammar);
        let count = 2 + b.rng.below(3);
        for _ in 0..count {
            let mistake = *b.rng.pick(&MISTAKES);
            b.seed(mistake);
        }
    }
    for job in 0..JOBS.len() {
        let labelled = b
            .expected
            .iter()
            .any(|l| l.rule == "bullet.no-number" && l.path.starts_with(&format!("/work/{job}/")));
        if !labelled {
            b.no_number_label(job);
        }
    }
    let kind = if clean { "clean" } else { "seeded" };
    Case {
        name: format!("{}-{seed}-{kind}", pools.tag),
        resume: b.resume,
        expected: b.expected,
    }
}

impl Builder<'_> {
    fn base(&mut self) {
        let mut jobs = Vec::new();
        let companies = ["Nordlicht", "Meridian", "Halcyon"];
        for (k, (start, end)) in JOBS.iter().enumerate() {
            let numbered = self.pools.numbered[self.part];
            let plain = self.pools.plain[self.part];
            let first = self.rng.pick(numbered).to_string();
            let mut bullets = vec![first];
            while bullets.len() < 3 {
                let next = self.rng.pick(plain).to_string();
                if !bullets.contains(&next) {
                    bullets.push(next);
                }
            }
            jobs.push(json!({"name": companies[k], "position": self.pools.titles[0], "startDate": start, "endDate": end, "highlights": bullets}));
        }
        self.resume = json!({
            "basics": {"name": "Mira Kovač", "label": self.pools.titles[0], "email": "mira@example.com", "phone": "+49 30 1234567", "summary": self.pools.summary},
            "work": jobs,
            "education": [{"institution": "Fontane Institute", "area": self.pools.titles[1], "startDate": "2010-09", "endDate": "2014-07"}],
            "skills": [{"name": "Backend", "keywords": ["Rust", "PostgreSQL", "Kafka"]}],
            "meta": {"language": self.pools.tag}
        });
    }

    fn label(&mut self, rule: &str, path: String, start: usize, text: &str) {
        let family = match rule {
            "spelling" => "spelling",
            r if r.starts_with("grammar") => "grammar",
            _ => "rules",
        };
        let end = start + text.chars().count();
        self.expected.push(Label {
            rule: rule.to_owned(),
            family: family.to_owned(),
            path,
            start,
            end,
            text: text.to_owned(),
        });
    }

    /// Puts `text` in place of a bullet of job `job` not yet touched; gives its pointer, or `None`.
    fn replace_bullet(&mut self, job: usize, text: &str) -> Option<String> {
        let j = self.rng.below(3);
        let path = format!("/work/{job}/highlights/{j}");
        if self.expected.iter().any(|l| {
            l.path == path
                || l.path.starts_with(&format!("/work/{job}/highlights/"))
                    && l.rule == "bullet.no-number"
        }) {
            return None;
        }
        self.resume["work"][job]["highlights"][j] = json!(text);
        Some(path)
    }

    fn touched(&self, job: usize) -> bool {
        self.expected
            .iter()
            .any(|l| l.path.starts_with(&format!("/work/{job}/")))
    }

    fn seed(&mut self, mistake: Mistake) {
        let job = self.rng.below(3);
        let english = self.pools.tag == "en";
        match mistake {
            Mistake::Typo => self.typo(job),
            Mistake::Grammar if english => {
                let (sentence, words) = *self.rng.pick(self.pools.grammar[self.part]);
                let summary = self.resume["basics"]["summary"]
                    .as_str()
                    .unwrap()
                    .to_owned();
                if self.expected.iter().any(|l| l.path == "/basics/summary") {
                    return;
                }
                let joined = format!("{summary} {sentence}");
                let at = summary.chars().count()
                    + 1
                    + sentence[..sentence.find(words).unwrap()].chars().count();
                self.resume["basics"]["summary"] = json!(joined);
                self.label("grammar", "/basics/summary".into(), at, words);
            }
            Mistake::Weak | Mistake::FirstPerson | Mistake::Passive => {
                let (pool, rule) = match mistake {
                    Mistake::Weak => (self.pools.weak, "bullet.weak-opener"),
                    Mistake::FirstPerson => (self.pools.first_person, "bullet.first-person"),
                    _ => (self.pools.passive, "bullet.passive"),
                };
                let (bullet, words) = *self.rng.pick(pool);
                if let Some(path) = self.replace_bullet(job, bullet) {
                    let at = bullet[..bullet.find(words).unwrap()].chars().count();
                    self.label(rule, path, at, words);
                }
            }
            Mistake::TooLong => {
                let pool = self.pools.plain[self.part];
                let mut long = String::from(pool[0].trim_end_matches('.'));
                for (i, more) in pool.iter().enumerate().skip(1) {
                    // German writes its nouns with a capital inside a sentence too.
                    let more = more.trim_end_matches('.');
                    let more = if self.pools.tag == "de" {
                        more.to_owned()
                    } else {
                        format!("{}{}", more[..1].to_lowercase(), &more[1..])
                    };
                    long = format!("{long}; {more}");
                    if long.chars().count() > 190 || i == pool.len() - 1 {
                        break;
                    }
                }
                long.push('.');
                if long.chars().count() > 180
                    && let Some(path) = self.replace_bullet(job, &long)
                {
                    self.label("bullet.too-long", path, 0, &long.clone());
                }
            }
            Mistake::NoNumber => self.no_number(job),
            Mistake::SameOpener => {
                if self.touched(job) {
                    return;
                }
                self.resume["work"][job]["highlights"] = json!(self.pools.same);
                let word = self.pools.same[2].split(' ').next().unwrap();
                self.label(
                    "bullets.same-opener",
                    format!("/work/{job}/highlights/2"),
                    0,
                    word,
                );
                self.no_number_label(job);
            }
            Mistake::TenseEnded if english => {
                let (bullet, verb) = *self.rng.pick(self.pools.present);
                if let Some(path) = self.replace_bullet(job, bullet) {
                    self.label("tense.ended-job", path, 0, verb);
                }
            }
            Mistake::TenseCurrent if english => {
                if self.touched(0) || self.expected.iter().any(|l| l.rule.starts_with("dates")) {
                    return;
                }
                // The most recent job is held now; its bullets are told in the present, but one.
                self.resume["work"][0]
                    .as_object_mut()
                    .unwrap()
                    .remove("endDate");
                let bullets = [
                    "Lead a team of 6 engineers in 2 countries.",
                    "Design the data platform for the sales teams.",
                    "Mentor new engineers on the team.",
                ];
                self.resume["work"][0]["highlights"] = json!(bullets);
                let (bullet, verb) = ("Reduced cloud costs by 30% in one year.", "Reduced");
                let j = self.rng.below(3);
                self.resume["work"][0]["highlights"][j] = json!(bullet);
                self.label(
                    "tense.current-job",
                    format!("/work/0/highlights/{j}"),
                    0,
                    verb,
                );
            }
            Mistake::EndBeforeStart => {
                if self.touched(job) || self.expected.iter().any(|l| l.rule == "dates.gap") {
                    return;
                }
                let (start, end) = JOBS[job];
                self.resume["work"][job]["startDate"] = json!(end);
                self.resume["work"][job]["endDate"] = json!(start);
                self.label(
                    "dates.end-before-start",
                    format!("/work/{job}/endDate"),
                    0,
                    start,
                );
            }
            Mistake::Future => {
                if self.resume["awards"].is_array() {
                    return;
                }
                self.resume["awards"] = json!([{"title": self.pools.titles[2], "awarder": "Meridian", "date": "2031-05"}]);
                self.label("dates.future", "/awards/0/date".into(), 0, "2031-05");
            }
            Mistake::Gap => {
                if self.touched(1) || self.touched(2) {
                    return;
                }
                // The job before the last ends a year earlier: more than six months pass until the next.
                self.resume["work"][2]["endDate"] = json!("2017-08");
                self.label("dates.gap", "/work/1/startDate".into(), 0, JOBS[1].0);
            }
            Mistake::NoEmail | Mistake::NoPhone => {
                let (key, rule) = if matches!(mistake, Mistake::NoEmail) {
                    ("email", "contact.email-missing")
                } else {
                    ("phone", "contact.phone-missing")
                };
                if self.resume["basics"]
                    .as_object_mut()
                    .unwrap()
                    .remove(key)
                    .is_some()
                {
                    self.label(rule, format!("/basics/{key}"), 0, "");
                }
            }
            _ => {}
        }
    }

    /// A letter swapped, dropped, doubled or changed in a long word of a bullet: a typo.
    fn typo(&mut self, job: usize) {
        let j = self.rng.below(3);
        let path = format!("/work/{job}/highlights/{j}");
        if self.expected.iter().any(|l| l.path == path) {
            return;
        }
        let bullet = self.resume["work"][job]["highlights"][j]
            .as_str()
            .unwrap()
            .to_owned();
        let german = self.pools.tag == "de";
        let tokens: Vec<&str> = bullet.split(' ').collect();
        let candidates: Vec<usize> = (0..tokens.len())
            .filter(|&i| {
                let t = tokens[i].trim_end_matches(['.', ',', ';']);
                t.chars().count() >= 7
                    && t.chars().all(char::is_alphabetic)
                    && (german || t.starts_with(char::is_lowercase))
            })
            .collect();
        if candidates.is_empty() {
            return;
        }
        let i = *self.rng.pick(&candidates);
        let word: Vec<char> = tokens[i]
            .trim_end_matches(['.', ',', ';'])
            .chars()
            .collect();
        let tail = &tokens[i][word.iter().map(|c| c.len_utf8()).sum::<usize>()..];
        let at = 1 + self.rng.below(word.len() - 3);
        let mut typo = word.clone();
        match self.rng.below(3) {
            0 => typo.swap(at, at + 1),
            1 => {
                typo.remove(at);
            }
            _ => typo.insert(at, word[at]),
        }
        if typo == word {
            typo.remove(at);
        }
        let typo: String = typo.into_iter().collect();
        let start: usize = tokens[..i].iter().map(|t| t.chars().count() + 1).sum();
        let mut out = tokens.clone();
        let replaced = format!("{typo}{tail}");
        out[i] = &replaced;
        self.resume["work"][job]["highlights"][j] = json!(out.join(" "));
        self.label("spelling", path, start, &typo);
    }

    fn no_number(&mut self, job: usize) {
        if self.touched(job) {
            return;
        }
        let plain = self.pools.plain[self.part];
        let start = self.rng.below(plain.len());
        let bullets: Vec<&str> = (0..3).map(|k| plain[(start + k) % plain.len()]).collect();
        self.resume["work"][job]["highlights"] = json!(bullets);
        self.no_number_label(job);
    }

    fn no_number_label(&mut self, job: usize) {
        let first = self.resume["work"][job]["highlights"][0]
            .as_str()
            .unwrap()
            .to_owned();
        let numbered = first.chars().any(|c| c.is_ascii_digit())
            || self.resume["work"][job]["highlights"]
                .as_array()
                .unwrap()
                .iter()
                .any(|b| b.as_str().unwrap().chars().any(|c| c.is_ascii_digit()));
        if !numbered {
            self.label(
                "bullet.no-number",
                format!("/work/{job}/highlights/0"),
                0,
                &first,
            );
        }
    }
}
