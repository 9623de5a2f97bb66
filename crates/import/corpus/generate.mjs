// A seeded generator of resumes over the JSON Resume schema (shared/data/jsonresume/schema.json), varying
// what real resumes vary: names and places of one to five words (with "at", "&", commas, accents, particles
// and non-Latin scripts), one to eight jobs, zero to four schools, short and long bullets, summaries and
// none, every section kind present in some and absent in others, and dates at each precision the schema
// allows (YYYY, YYYY-MM, YYYY-MM-DD), current jobs with no end. `generate(count, seed)` is deterministic: the
// resume at an index depends only on the seed and the index, never on `count`. Resumes at odd indices are
// held out (`split`): the reader is never tuned on them. No network, no external data: the word lists are
// below. basics.location and basics.profiles are always there (an object with parts left out; a list of zero
// to three), because the elegant theme reads both unguarded; every other field and section may be missing.

// ---------------------------------------------------------------------------------------------------------
// Randomness

/** mulberry32: a 32-bit seeded PRNG returning floats in [0, 1). */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A seed for one resume, mixed from the corpus seed and the index (so resumes are independent). */
function mix(seed, index) {
  let h = (Math.imul(seed >>> 0, 0x9e3779b1) ^ Math.imul(index + 1, 0x85ebca6b)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d) >>> 0;
  return (h ^ (h >>> 15)) >>> 0;
}

function makeRng(seed) {
  const next = mulberry32(seed);
  const int = (lo, hi) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = (list) => list[Math.floor(next() * list.length)];
  const chance = (p) => next() < p;
  const sample = (list, n) => {
    const copy = [...list];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [copy[i], copy[j]] = [copy[j], copy[i]];
    }
    return copy.slice(0, Math.min(n, copy.length));
  };
  /** One of `weights`' keys, drawn in proportion to its value. */
  const weighted = (weights) => {
    const entries = Object.entries(weights);
    let r = next() * entries.reduce((sum, [, w]) => sum + w, 0);
    for (const [key, w] of entries) if ((r -= w) < 0) return key;
    return entries[entries.length - 1][0];
  };
  return { next, int, pick, chance, sample, weighted };
}

// ---------------------------------------------------------------------------------------------------------
// Word lists

const FIRST = [
  "James", "Maria", "José", "Zoë", "Chloé", "Søren", "Björn", "Ana", "Łukasz", "Renée", "Aoife", "Siobhán",
  "Priya", "Arjun", "Mei", "Wei", "Olúwaseun", "Chidi", "Fatima", "Omar", "Noah", "Emma", "Liam", "Olivia",
  "Ethan", "Sofía", "Mateo", "Camille", "François", "Jürgen", "Håkon", "Ingrid", "Dmitri", "Katarzyna",
  "Thảo", "Kenji", "Yuki", "Hyun-woo", "Anne-Marie", "Jean-Luc", "Tomás", "Inés", "Agnès", "Zoltán",
  "Grace", "Daniel", "Sarah", "Michael", "Elena", "Lucas", "Ayşe", "Mohammed", "Nadia", "Rohan", "Hannah",
];
const MIDDLE = ["J.", "Marie", "Ann", "R.", "Lee", "Elizabeth", "K.", "Alexander", "Luís", "T."];
const LAST = [
  "Smith", "Johnson", "Núñez", "García", "Müller", "Østergaard", "Kowalski", "Nguyễn", "O'Brien",
  "MacDonald", "Fernández", "Dubois", "Lefèvre", "Rossi", "Kuznetsov", "Yılmaz", "Şahin", "Patel", "Okafor",
  "Tanaka", "Kim", "Lindqvist", "Brontë", "Gonçalves", "Jiménez", "Schäfer", "Novák", "Dvořák",
  "Hernández-Ruiz", "Smith-Jones", "Al-Farsi", "Chen", "Adeyemi", "Horváth", "Williams", "Brown", "Taylor",
  "Andersson", "Papadopoulos", "Moreau", "Ivanova", "Haddad", "Mendoza", "Walsh", "Reddy", "Sato",
];
const UNHYPHENATED_LAST = LAST.filter((name) => !name.includes("-"));
const SPANISH_FIRST = [
  "María", "José", "Juan", "Carlos", "Ana", "Luis", "Lucía", "Sofía", "Mateo", "Inés", "Tomás",
];
const SPANISH_LAST = ["López", "Martínez", "Ortega", "Sánchez", "Ruiz", "Domínguez", "Vega", "Castillo"];
const PARTICLES = ["van der", "van", "de", "de la", "von", "da", "dos", "di", "ter", "bin", "al"];
const NON_LATIN_NAMES = [
  "Γιώργος Παπαδόπουλος", "Ελένη Νικολάου", "Анна Смирнова", "Дмитрий Иванович Петров", "王小明", "李娜",
  "张伟", "山田 太郎", "佐藤 花子", "김민준", "이서연", "Олександр Шевченко", "Μαρία Κωνσταντίνου-Οικονόμου",
];
const MIXED_NAMES = [
  "Wei Zhang (张伟)", "Yuki Sato (佐藤 由紀)", "Eleni Nikolaou (Ελένη Νικολάου)", "Min-jun Kim (김민준)",
];

const LABELS = [
  "Software Engineer", "Senior Product Designer", "Data Scientist", "Registered Nurse", "Marketing Manager",
  "Full-Stack Developer", "Chief Financial Officer", "Mechanical Engineer",
  "Research Scientist, Computational Biology", "UX Researcher", "Site Reliability Engineer", "Accountant",
  "High School Teacher", "Project Manager", "Graphic Designer", "Sales Director, EMEA", "Staff Engineer",
  "Operations Analyst", "Attorney at Law", "Head of Growth & Partnerships", "Programmer",
  "Frontend Developer", "Machine Learning Engineer", "Supply Chain Coordinator", "Pastry Chef",
];
const POSITIONS = [
  ...LABELS, "Intern", "Senior Software Engineer II", "VP, Engineering", "Barista", "Teaching Assistant",
  "Co-founder & CTO", "Junior Developer", "Engineering Manager", "Principal Consultant", "Store Manager",
  "Research Assistant", "Lead Data Engineer", "Customer Success Manager", "Technical Writer",
];

/** [city, region, countryCode, postalCode] */
const PLACES = [
  ["Austin", "Texas", "US", "78701"], ["San Francisco", "California", "US", "94103"],
  ["New York", "NY", "US", "10001"], ["Salt Lake City", "Utah", "US", "84101"],
  ["São Paulo", "SP", "BR", "01310-100"],
  ["Rio de Janeiro", "RJ", "BR", "20040-002"], ["Buenos Aires", "CABA", "AR", "C1002"],
  ["Montréal", "Québec", "CA", "H2X 1Y4"], ["Toronto", "Ontario", "CA", "M5V 2T6"],
  ["Zürich", "ZH", "CH", "8001"],
  ["München", "Bayern", "DE", "80331"], ["Berlin", "Berlin", "DE", "10115"],
  ["Kraków", "Małopolskie", "PL", "31-001"],
  ["Reykjavík", "", "IS", "101"], ["Paris", "Île-de-France", "FR", "75002"],
  ["Saint-Étienne", "Auvergne-Rhône-Alpes", "FR", "42000"], ["London", "England", "GB", "EC1A 1BB"],
  ["Dublin", "Leinster", "IE", "D02 X285"], ["Amsterdam", "Noord-Holland", "NL", "1012 JS"],
  ["Москва", "", "RU", "101000"], ["Αθήνα", "Αττική", "GR", "105 57"], ["東京", "東京都", "JP", "100-0001"],
  ["Bengaluru", "Karnataka", "IN", "560001"], ["Lagos", "Lagos State", "NG", "100001"],
  ["Ciudad de México", "CDMX", "MX", "06000"], ["Santa Cruz de Tenerife", "Canarias", "ES", "38001"],
  ["Sydney", "NSW", "AU", "2000"], ["Singapore", "", "SG", "018989"], ["Seoul", "", "KR", "04524"],
  ["Chapel Hill", "North Carolina", "US", "27514"],
];
const STREETS = [
  "Main St", "Broadway", "Oak Avenue", "Calle de Alcalá", "Hauptstraße", "Rue de Rivoli", "Elm Road",
];
const COUNTRY_NAMES = {
  US: "USA", BR: "Brazil", AR: "Argentina", CA: "Canada", CH: "Switzerland", DE: "Germany", PL: "Poland",
  IS: "Iceland", FR: "France", GB: "UK", IE: "Ireland", NL: "Netherlands", RU: "Russia", GR: "Greece",
  JP: "Japan", IN: "India", NG: "Nigeria", MX: "Mexico", ES: "Spain", AU: "Australia", SG: "Singapore",
  KR: "South Korea",
};

const NETWORKS = [
  ["GitHub", "https://github.com/"], ["LinkedIn", "https://www.linkedin.com/in/"],
  ["Twitter", "https://twitter.com/"], ["GitLab", "https://gitlab.com/"],
  ["Mastodon", "https://mastodon.social/@"], ["Stack Overflow", "https://stackoverflow.com/users/4821/"],
  ["Dribbble", "https://dribbble.com/"], ["Behance", "https://www.behance.net/"],
];
const EMAIL_DOMAINS = [
  "example.com", "mail.example.org", "example.net", "inbox.example.com", "post.example.de",
];

const COMPANY_ROOTS = [
  "Globex", "Initech", "Umbrella", "Hooli", "Vandelay", "Zentrix", "Aperture", "Nakatomi", "Quantix",
  "Brightline", "Northwind", "Lumière", "Écolab", "Telefónica", "Blue Harbor", "Pied Piper", "Cyberdyne",
  "Stark", "Wayne", "Acme", "Soylent", "Tyrell", "Massive Dynamic", "Oscorp", "Bluth", "Dunder Mifflin",
];
const COMPANY_SUFFIXES = [
  "Labs", "Systems", "Corporation", "Health", "Analytics", "Logistics", "Partners", "Group", "Software",
  "Bank", "Foods", "Robotics", "Media", "Consulting", "Technologies",
];
const LEGAL = [", Inc.", " Inc.", " GmbH", " S.A.", " Ltd.", ", LLC", " AG", " B.V.", ", LLP"];
const AT_PLACES = ["Union Square", "Riverside", "Hudson Yards", "Meadowood", "the Pier", "Little Washington"];
const AT_NOUNS = ["The Inn", "The Clinic", "Studio", "The Bakery", "The Gallery", "Kitchen"];
const THE_ADJ = ["Great", "Little", "Old", "Northern", "Blue", "Honest"];
const THE_NOUNS = ["Paper", "Steel", "Bread", "Garden", "Lantern", "Tea"];
const OF_NOUNS = ["Bank", "University", "Children's Hospital", "City"];
const NON_LATIN_COMPANIES = ["株式会社 山田製作所", "Яндекс", "ООО «Ромашка»", "Παπαδόπουλος Α.Ε.", "삼성전자"];
const WORK_LOCATIONS = [
  "Remote", "Austin, TX", "Berlin, Germany", "São Paulo, Brazil", "London, UK", "Palo Alto, CA",
  "Montréal, QC", "New York, NY", "Zürich", "Bengaluru, India", "Remote (EU)", "Tokyo, Japan",
];
const COMPANY_DESCRIPTIONS = [
  "Fintech startup", "Global logistics provider", "Series B healthcare company",
  "Awesome compression company",
  "Regional grocery chain", "Non-profit hospital network", "Enterprise software vendor", "Design agency",
  "Public research university", "Municipal government", "E-commerce marketplace for handmade goods",
];

// Phrases for summaries and bullets.
const VERBS = [
  "Designed", "Built", "Led", "Rewrote", "Migrated", "Launched", "Automated", "Scaled", "Negotiated",
  "Streamlined", "Introduced", "Coordinated", "Redesigned", "Analyzed", "Managed", "Drove", "Established",
];
const THINGS = [
  "the billing pipeline", "a real-time analytics dashboard", "the customer onboarding flow",
  "an internal design system", "the mobile checkout", "a fraud detection model", "the data warehouse",
  "quarterly budget forecasts", "the hiring process for the platform team", "a patient intake workflow",
  "the search ranking service", "supplier contracts across three regions", "the public API",
  "an A/B testing framework", "legacy COBOL batch jobs", "the release process", "a seasonal tasting menu",
];
const TECH = [
  "Rust", "TypeScript", "Kubernetes", "PostgreSQL", "React", "Python", "Go", "Terraform", "Kafka", "Spark",
  "Excel and Power BI", "Salesforce", "SAP", "Figma", "AWS Lambda", "C++", "GraphQL", "dbt", "Snowflake",
  "Swift", "Java", "Node.js", "Tableau", "Docker", "Vue.js", "Django", "Ruby on Rails", "C#", ".NET",
];
const METRICS = [
  "page load time", "churn", "infrastructure costs", "ticket backlog", "build times", "error rates",
  "time to hire", "inventory waste", "onboarding time", "p99 latency", "customer complaints", "food cost",
];
const GROWTHS = ["revenue", "conversion", "retention", "test coverage", "throughput", "NPS", "sales"];
const TEAMS = ["product", "legal", "finance", "design", "sales", "clinical staff", "vendors", "support"];
const SHORT_BULLETS = [
  "Led a team of {n} engineers.", "Mentored {n} junior developers.", "Promoted to {position} in {year}.",
  "Owned {thing}.", "Cut {metric} by {pct}%.", "Shipped {thing} to {n}k users.", "Grew {growth} {pct}%.",
  "Wrote the on-call runbook.", "Interviewed {n}0+ candidates.", "Spoke at {conference} {year}.",
  "Managed a ${n}M budget.", "Built {thing} in {tech}.",
];
const LONG_BULLETS = [
  "{verb} {thing} using {tech} and {tech2}, reducing {metric} by {pct}% and saving roughly ${n}0k a year.",
  "{verb} {thing} end to end with {team} and {team2}, which grew {growth} from {a}% to {b}% within {n} " +
    "months while keeping {metric} flat.",
  "{verb} {thing}, replacing a fragile set of scripts that had paged the team {n} times a week; the new " +
    "design has run for {m} months without an incident.",
  "{verb} {thing} for {n} markets, working across {m} time zones with {team} to agree on priorities, write " +
    "the specification and run a staged rollout behind feature flags.",
  "{verb} {thing} in {tech}, cutting {metric} from {a} seconds to under {m} and freeing the team to work " +
    "on {thing2}.",
];
const SUMMARY_SENTENCES = [
  "{label} with {n} years of experience in {field} and {field2}.",
  "I build {thing} that people rely on every day, and I care about {value} as much as about speed.",
  "Most recently at {company}, where I {verbLower} {thing} and grew {growth} by {pct}%.",
  "Comfortable across {tech}, {tech2} and {tech3}, and happiest close to the customer.",
  "Known for clear writing, calm incident response and a habit of leaving code better than I found it.",
  "Looking for a role where {field} meets {field2}, ideally on a small team with a big mandate.",
  "Fluent in English and {language}; has lived and worked in {m} countries.",
  "Previously a {position} before moving into {field}.",
];
const FIELDS = [
  "distributed systems", "healthcare operations", "B2B marketing", "data engineering", "product design",
  "financial planning", "machine learning", "supply chain management", "web accessibility", "compilers",
  "early childhood education", "cloud security", "pastry and baking", "developer tooling",
];
const VALUES = ["correctness", "accessibility", "maintainability", "patient safety", "clarity", "privacy"];
const CONFERENCES = ["RustConf", "PyCon", "JSConf EU", "Strange Loop", "KubeCon", "SIGGRAPH", "re:Invent"];

const INSTITUTIONS = [
  "University of Texas at Austin", "École Polytechnique", "Universidad de Buenos Aires",
  "Massachusetts Institute of Technology", "University of Oxford", "Technische Universität München",
  "Universidade de São Paulo", "Indian Institute of Technology Bombay", "University of California, Berkeley",
  "ETH Zürich", "Université de Montréal", "Stanford University", "Georgia Institute of Technology",
  "University of Illinois at Urbana-Champaign", "Trinity College Dublin", "Politecnico di Milano",
  "Seoul National University", "東京大学", "Московский государственный университет", "Austin Community College",
  "Lincoln High School", "Uniwersytet Jagielloński", "Kungliga Tekniska högskolan", "Universität Wien",
  "Arizona State University", "Carnegie Mellon University", "University of Colorado at Boulder",
  "University of Maryland, College Park", "Open University", "Le Cordon Bleu",
  "Αριστοτέλειο Πανεπιστήμιο Θεσσαλονίκης",
];
/** Degrees from the highest level down: a resume lists its schools in this order. */
const DEGREE_LEVELS = [
  ["Ph.D.", "Doctor of Philosophy", "PhD", "Dr. rer. nat.", "Doctorate"],
  ["M.Sc.", "Master of Science", "MBA", "M.A.", "M.Eng.", "Master", "Master of Fine Arts"],
  ["B.Sc.", "Bachelor", "Bachelor of Arts", "B.A.", "B.Eng.", "BS", "Licenciatura", "Bachelor of Science"],
  ["Associate of Applied Science", "Diploma", "High School Diploma", "Certificate", "A.A."],
];
const AREAS = [
  "Computer Science", "Electrical Engineering", "Economics", "Mathematics", "Physics", "Nursing",
  "Business Administration", "Fine Arts", "Mechanical Engineering", "Molecular Biology", "Statistics",
  "English Literature", "Psychology", "Chemical Engineering", "Information Systems", "History",
  "Applied Mathematics and Statistics", "Culinary Arts", "Human-Computer Interaction", "Finance",
];
const SCORES = [
  "3.8/4.0", "3.67", "4.0", "First Class Honours", "summa cum laude", "GPA: 3.9", "1,3", "18/20",
  "Distinction", "With honors", "2:1", "92%",
];
const COURSES = [
  "CS 101 - Introduction to Programming", "MATH 221 - Linear Algebra", "ECON 310: Game Theory",
  "Distributed Systems", "Organic Chemistry II", "DB1101 - Basic SQL", "Operating Systems",
  "Advanced Pastry Techniques", "Statistical Learning", "Compilers", "Corporate Finance",
  "Human Factors in Design", "Pharmacology", "Real Analysis",
];

const VOLUNTEER_ORGS = [
  "Red Cross", "Habitat for Humanity", "Code for America", "CoderDojo", "Central Texas Food Bank",
  "Médecins Sans Frontières", "Big Brothers Big Sisters", "Girls Who Code", "Animal Rescue League",
  "Wikimedia Deutschland", "Cruz Roja Argentina",
];
const VOLUNTEER_POSITIONS = [
  "Volunteer", "Mentor", "Board Member", "Treasurer", "Tutor", "Event Coordinator", "Teacher",
];
const AWARD_TITLES = [
  "Employee of the Year", "Dean's List", "Best Paper Award", "Hackathon Winner, 1st Place",
  "President's Club",
  "Fulbright Scholarship", "Innovation Award", "30 Under 30", "Teacher of the Month", "Outstanding Reviewer",
];
const AWARD_SUMMARIES = ["Received for {thing}.", "One of {n} recipients worldwide.", "There is no spoon."];
const AWARDERS = [
  "Techcrunch", "ACM", "IEEE", "Forbes", "Fulbright Commission", "Hooli", "University Senate", "MIT Hacks",
];
const CERTIFICATES = [
  ["AWS Certified Solutions Architect – Associate", "Amazon Web Services"],
  ["Certified Kubernetes Administrator", "CNCF"],
  ["Project Management Professional (PMP)", "PMI"], ["Certified Public Accountant", "AICPA"],
  ["Google Data Analytics Certificate", "Google"], ["Certified ScrumMaster", "Scrum Alliance"],
  ["CFA Level II", "CFA Institute"], ["CCNA", "Cisco"], ["TOEFL iBT 112", "ETS"], ["ServSafe Manager", "NRA"],
];
const PUBLISHERS = [
  "IEEE Transactions on Software Engineering", "ACM SIGMOD", "Nature Communications", "O'Reilly Media",
  "Journal of Applied Physics", "NeurIPS", "The Pragmatic Engineer", "Hooli", "Springer",
];
const TITLE_ADJ = [
  "Scalable", "Robust", "Practical", "Incremental", "Fast", "Private", "Explainable", "Lossless",
];
const TITLE_NOUNS = [
  "Inference", "Compression", "Scheduling", "Type Checking", "Forecasting", "Search", "Replication",
];
const TITLE_DOMAINS = [
  "Sparse Graphs", "Edge Devices", "Clinical Notes", "Streaming Data", "Small Teams", "3D Media",
];

const SKILL_GROUPS = [
  ["Web Development", ["HTML", "CSS", "JavaScript", "TypeScript", "React", "Vue.js", "Accessibility"]],
  ["Data Engineering", ["Spark", "Kafka", "Airflow", "dbt", "Snowflake", "SQL"]],
  ["Cloud Infrastructure", ["AWS", "GCP", "Kubernetes", "Terraform", "Docker", "Linux"]],
  ["Machine Learning", ["PyTorch", "scikit-learn", "NumPy", "pandas", "XGBoost", "NLP"]],
  ["Design", ["Figma", "Sketch", "Prototyping", "User Research", "Typography"]],
  ["Systems Programming", ["Rust", "C", "C++", "Go", "Assembly", "LLVM"]],
  ["Leadership", ["Hiring", "Mentoring", "Roadmapping", "Stakeholder Management"]],
  ["Accounting & Finance", ["GAAP", "Excel", "QuickBooks", "Forecasting", "Audit"]],
  ["Clinical", ["Triage", "Patient Assessment", "Epic EHR", "IV Therapy"]],
  ["Compression", ["Mpeg", "MP4", "GIF", "Huffman coding"]],
];
const SKILL_LEVELS = ["Master", "Advanced", "Intermediate", "Beginner", "Expert", "Proficient"];
const LANGUAGES = [
  "English", "Spanish", "French", "German", "Mandarin", "Portuguese", "Japanese", "Arabic", "Hindi", "Polish",
  "Русский", "Ελληνικά", "Italiano",
];
const FLUENCIES = [
  "Native speaker", "Native", "Fluent", "Professional working proficiency", "Intermediate", "Beginner", "C1",
  "B2",
];
const INTERESTS = [
  ["Photography", ["Film", "Street", "Darkroom"]], ["Rock climbing", ["Bouldering", "Trad"]],
  ["Chess", ["Blitz", "Endgames"]], ["Open source", ["Rust", "Documentation"]],
  ["Cooking", ["Fermentation", "Bread"]],
  ["Marathon running", []], ["Jazz piano", ["Bebop", "Bill Evans"]], ["Wikipedia", ["Copy editing"]],
  ["Philosophy", ["Friedrich Nietzsche", "Stoicism"]],
];
const REFERENCE_TEXTS = [
  "{name} was the most dependable engineer on my team and the first person others went to for help.",
  "I managed {name} for {n} years. {name} turned vague requests into plans, and plans into shipped work.",
  "Available upon request.",
  "{name} rebuilt our reporting from scratch and trained the whole department to use it. I recommend " +
    "{name} without reservation.",
];
const PROJECT_NAMES = [
  "Redline", "Atlas", "Open Transit Map", "Budget Buddy", "Miss Direction", "Tiny Compiler", "Harvest",
  "Lighthouse", "Pocket Pantry", "Signal Flare", "Project Ω", "Data Commons for Austin",
];
const PROJECT_TYPES = ["application", "talk", "volunteering", "presentation", "conference", "library"];
const PROJECT_ROLES = ["Team Lead", "Speaker", "Writer", "Maintainer", "Designer", "Contributor"];

// ---------------------------------------------------------------------------------------------------------
// Text

/** `template` with each {key} replaced: from `vars` when given there, otherwise drawn from the word lists. */
function fill(rng, template, vars = {}) {
  const draw = {
    n: () => rng.int(2, 12), m: () => rng.int(2, 9), pct: () => rng.int(5, 80), a: () => rng.int(2, 30),
    b: () => rng.int(31, 90), year: () => rng.int(2008, 2024), verb: () => rng.pick(VERBS),
    verbLower: () => rng.pick(VERBS).toLowerCase(),
    thing: () => rng.pick(THINGS), thing2: () => rng.pick(THINGS),
    tech: () => rng.pick(TECH), tech2: () => rng.pick(TECH), tech3: () => rng.pick(TECH),
    metric: () => rng.pick(METRICS), growth: () => rng.pick(GROWTHS), team: () => rng.pick(TEAMS),
    team2: () => rng.pick(TEAMS), position: () => rng.pick(POSITIONS), field: () => rng.pick(FIELDS),
    field2: () => rng.pick(FIELDS), value: () => rng.pick(VALUES), conference: () => rng.pick(CONFERENCES),
    language: () => rng.pick(LANGUAGES.slice(1, 10)), company: () => companyName(rng),
    label: () => rng.pick(LABELS), name: () => personName(rng),
  };
  const once = {};
  return template.replace(/\{(\w+)\}/g, (_, key) => {
    if (key in vars) return vars[key];
    // A name drawn for a template stays the same name within it.
    if (key === "name") return (once.name ??= draw.name());
    return String(draw[key]());
  });
}

const bullet = (rng) =>
  rng.chance(0.45) ? fill(rng, rng.pick(SHORT_BULLETS)) : fill(rng, rng.pick(LONG_BULLETS));

function summary(rng, label) {
  const count = rng.chance(0.4) ? 1 : rng.int(2, 6);
  const sentences = rng.sample(SUMMARY_SENTENCES, count);
  return sentences.map((s) => fill(rng, s, { label: label ?? rng.pick(LABELS) })).join(" ");
}

/** A sentence or two about a job, a project or a volunteer role. */
function blurb(rng) {
  const first = fill(rng, "{verb} {thing} for a team of {n}.");
  return rng.chance(0.5) ? first : `${first} ${fill(rng, "Worked closely with {team} on {thing2}.")}`;
}

// ---------------------------------------------------------------------------------------------------------
// Names, places, contacts

/** A draw of `draw` that has at most five words (drawing again while it has more). */
function upToFive(draw) {
  for (;;) {
    const text = draw();
    if (text.split(/\s+/).length <= 5) return text;
  }
}

/** A person's name of one to five words. */
const personName = (rng) => upToFive(() => anyPersonName(rng));

function anyPersonName(rng) {
  const first = () => rng.pick(FIRST);
  const last = () => rng.pick(LAST);
  const kinds = { plain: 50, middle: 13, particle: 10, spanish: 8, one: 4, nonLatin: 7, mixed: 3, four: 5 };
  switch (rng.weighted(kinds)) {
    case "plain": return `${first()} ${last()}`;
    case "middle": return `${first()} ${rng.pick(MIDDLE)} ${last()}`;
    case "particle": return `${first()} ${rng.pick(PARTICLES)} ${rng.pick(UNHYPHENATED_LAST)}`;
    case "spanish": {
      const given = rng.sample(SPANISH_FIRST, rng.chance(0.4) ? 2 : 1).join(" ");
      return `${given} ${rng.sample(SPANISH_LAST, 2).join(" ")}`;
    }
    case "one": return rng.chance(0.5) ? first() : last();
    case "nonLatin": return rng.pick(NON_LATIN_NAMES);
    case "mixed": return rng.pick(MIXED_NAMES);
    default: return `${first()} ${rng.pick(MIDDLE)} ${rng.pick(PARTICLES.slice(0, 3))} ${last()}`;
  }
}

/** `text` in lowercase ASCII letters and digits only (accents dropped), or "" for a non-Latin text. */
function ascii(text) {
  const folded = text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
  const special = { ø: "o", ł: "l", ß: "ss", æ: "ae", đ: "d", ı: "i", ω: "o" };
  return [...folded].map((c) => special[c] ?? c).join("").replace(/[^a-z0-9 ]/g, "").trim();
}

function handle(rng, name) {
  const words = ascii(name).split(/\s+/).filter(Boolean);
  if (words.length === 0) return `user${rng.int(100, 9999)}`;
  const styles = [
    words.join(""), words.join("-"), `${words[0][0]}${words[words.length - 1]}`,
    `${words[0]}${rng.int(1, 99)}`, words[words.length - 1],
  ];
  return rng.pick(styles);
}

function email(rng, name) {
  const words = ascii(name).split(/\s+/).filter(Boolean);
  const domain = rng.pick(EMAIL_DOMAINS);
  if (words.length === 0) return `contact${rng.int(1, 999)}@${domain}`;
  const first = words[0], last = words[words.length - 1];
  const numbered = `${first}_${last}${rng.int(1, 99)}`;
  const local = rng.pick([`${first}.${last}`, `${first[0]}${last}`, first, numbered]);
  return `${local}@${domain}`;
}

function phone(rng) {
  const d = (n) => Array.from({ length: n }, () => rng.int(0, 9)).join("");
  return rng.pick([
    `(${rng.int(201, 989)}) 555-${d(4)}`, `+1 ${rng.int(201, 989)}-555-${d(4)}`, `+44 20 7946 ${d(4)}`,
    `+49 30 ${d(6)}`, `${rng.int(201, 989)}.555.${d(4)}`, `+55 11 9${d(4)}-${d(4)}`,
    `+33 6 ${d(2)} ${d(2)} ${d(2)} ${d(2)}`,
  ]);
}

/** basics.location: always an object (the elegant theme reads its fields unguarded), with parts left out. */
function location(rng) {
  const [city, region, countryCode, postalCode] = rng.pick(PLACES);
  const out = {};
  if (rng.chance(0.2)) {
    out.address = `${rng.int(1, 4999)} ${rng.pick(STREETS)}`;
    if (rng.chance(0.3)) out.address += `\n${rng.pick(["Apt 4B", "Hinterhaus 5. Etage li.", "Suite 200"])}`;
    if (rng.chance(0.8)) out.postalCode = postalCode;
  }
  if (rng.chance(0.9)) out.city = city;
  if (region && rng.chance(0.6)) out.region = region;
  if (rng.chance(0.75)) out.countryCode = countryCode;
  return out;
}

/** One to three profiles (basics.profiles is always a list, maybe empty: the elegant theme slices it). */
function profiles(rng, name) {
  return rng.sample(NETWORKS, rng.int(1, 3)).map(([network, base]) => {
    const username = handle(rng, name);
    const profile = { network, username };
    if (rng.chance(0.8)) profile.url = `${base}${username}`;
    return profile;
  });
}

function personalUrl(rng, name) {
  const slug = handle(rng, name).replace(/-/g, "");
  return rng.pick([
    `https://${slug}.dev`, `https://www.${slug}.example.com`, `http://example.com/~${slug}`,
    `https://${slug}.github.io/`,
  ]);
}

function basics(rng) {
  const name = personName(rng);
  const out = { name };
  const label = rng.chance(0.8) ? rng.pick(LABELS) : undefined;
  if (label) out.label = label;
  if (rng.chance(0.85)) out.email = email(rng, name);
  if (rng.chance(0.7)) out.phone = phone(rng);
  if (rng.chance(0.45)) out.url = personalUrl(rng, name);
  if (rng.chance(0.7)) out.summary = summary(rng, label);
  out.location = location(rng);
  out.profiles = rng.chance(0.7) ? profiles(rng, name) : [];
  return out;
}

/** A company's name of one to five words: legal suffixes, "&", commas, "at", accents, other scripts. */
const companyName = (rng) => upToFive(() => anyCompanyName(rng));

function anyCompanyName(rng) {
  const root = () => rng.pick(COMPANY_ROOTS);
  const surname = () => rng.pick(LAST);
  switch (rng.weighted({ root: 15, suffix: 25, legal: 20, amp: 12, at: 8, the: 8, of: 7, nonLatin: 3 })) {
    case "root": return root();
    case "suffix": return `${root()} ${rng.pick(COMPANY_SUFFIXES)}`;
    case "legal": {
      const name = root();
      const suffix = rng.chance(0.4) ? ` ${rng.pick(COMPANY_SUFFIXES)}` : "";
      return `${name}${suffix}${rng.pick(LEGAL)}`;
    }
    case "amp": return rng.pick([
      `${surname()} & ${surname()}`,
      `${surname()} & ${surname()}, LLP`,
      `${surname()}, ${surname()} & Associates`,
    ]);
    case "at": return `${rng.pick(AT_NOUNS)} at ${rng.pick(AT_PLACES)}`;
    case "the": return `The ${rng.pick(THE_ADJ)} ${rng.pick(THE_NOUNS)} Company`;
    case "of": return `${rng.pick(OF_NOUNS)} of ${rng.pick(PLACES)[0]}`;
    default: return rng.pick(NON_LATIN_COMPANIES);
  }
}

const slug = (rng, text) => ascii(text).replace(/\s+/g, "") || `site${rng.int(1, 999)}`;
const orgUrl = (rng, text) =>
  rng.pick([`https://www.${slug(rng, text)}.example.com`, `http://${slug(rng, text)}.example.org/`]);

// ---------------------------------------------------------------------------------------------------------
// Dates: months counted from year 0 (2025-06 is 2025 * 12 + 5); each resume writes its dates at one
// precision, or (in some) each date at its own.

const NOW = 2025 * 12 + 5;

function date(ctx, month) {
  const { rng } = ctx;
  const precision = ctx.precision === "mixed" ? rng.pick(["Y", "YM", "YMD"]) : ctx.precision;
  const y = String(Math.floor(month / 12));
  if (precision === "Y") return y;
  const ym = `${y}-${String((month % 12) + 1).padStart(2, "0")}`;
  if (precision === "YM") return ym;
  return `${ym}-${String(rng.chance(0.5) ? 1 : rng.int(2, 28)).padStart(2, "0")}`;
}

/** startDate and endDate (or neither, or only the start) for a span ending at `end` (undefined: ongoing). */
function span(ctx, start, end, { noEnd = 0.1, none = 0.05 } = {}) {
  const { rng } = ctx;
  if (rng.chance(none)) return {};
  const out = { startDate: date(ctx, start) };
  if (end !== undefined && !rng.chance(noEnd)) out.endDate = date(ctx, end);
  return out;
}

/** A month between `from` and now. */
const someMonth = (ctx, from) => ctx.rng.int(Math.min(from, NOW - 1), NOW);

// ---------------------------------------------------------------------------------------------------------
// Sections

function job(ctx, start, end) {
  const { rng } = ctx;
  const out = { name: companyName(rng), position: rng.pick(POSITIONS) };
  if (rng.chance(0.5)) out.location = rng.pick(WORK_LOCATIONS);
  if (rng.chance(0.25)) out.description = rng.pick(COMPANY_DESCRIPTIONS);
  if (rng.chance(0.3)) out.url = orgUrl(rng, out.name);
  Object.assign(out, span(ctx, start, end, { noEnd: 0, none: 0.03 }));
  if (rng.chance(0.4)) out.summary = blurb(rng);
  const count = rng.int(0, 6);
  if (count > 0 || rng.chance(0.3)) out.highlights = Array.from({ length: count }, () => bullet(rng));
  return out;
}

/** One to eight jobs, the latest first (it may be ongoing), and the month before the earliest. */
function work(ctx) {
  const { rng } = ctx;
  const count = Number(rng.weighted({ 1: 12, 2: 18, 3: 20, 4: 16, 5: 12, 6: 9, 7: 7, 8: 6 }));
  const current = rng.chance(0.5);
  let cursor = NOW - rng.int(0, 4);
  const jobs = [];
  for (let i = 0; i < count; i++) {
    const start = cursor - rng.int(4, 60);
    jobs.push(job(ctx, start, i === 0 && current ? undefined : cursor));
    cursor = start - rng.int(0, 6);
  }
  return { jobs, before: cursor };
}

function school(ctx, level, start, end) {
  const { rng } = ctx;
  const out = { institution: rng.pick(INSTITUTIONS) };
  if (rng.chance(0.25)) out.url = orgUrl(rng, out.institution);
  if (level < 3 ? rng.chance(0.92) : rng.chance(0.4)) out.area = rng.pick(AREAS);
  if (rng.chance(0.92)) out.studyType = rng.pick(DEGREE_LEVELS[level]);
  const when = rng.weighted({ both: 60, endOnly: 20, none: 10, startOnly: 10 });
  if (when !== "none" && when !== "endOnly") out.startDate = date(ctx, start);
  if (when === "both" || when === "endOnly") out.endDate = date(ctx, end);
  if (rng.chance(0.3)) out.score = rng.pick(SCORES);
  if (rng.chance(0.2)) out.courses = rng.sample(COURSES, rng.int(1, 4));
  return out;
}

/** Zero to four schools, the highest degree first, ending before `before`. */
function education(ctx, before) {
  const { rng } = ctx;
  const count = Number(rng.weighted({ 0: 8, 1: 40, 2: 30, 3: 15, 4: 7 }));
  const levels = rng.sample([0, 1, 2, 3], count).sort();
  let cursor = before - rng.int(0, 12);
  return levels.map((level) => {
    const start = cursor - 12 * [5, 2, 4, 3][level] + rng.int(-6, 6);
    const entry = school(ctx, level, start, cursor);
    cursor = start - rng.int(0, 24);
    return entry;
  });
}

function volunteer(ctx, from) {
  const { rng } = ctx;
  const start = someMonth(ctx, from);
  const out = { organization: rng.pick(VOLUNTEER_ORGS), position: rng.pick(VOLUNTEER_POSITIONS) };
  if (rng.chance(0.4)) out.url = orgUrl(rng, out.organization);
  Object.assign(out, span(ctx, start, rng.chance(0.7) ? Math.min(NOW, start + rng.int(3, 36)) : undefined));
  if (rng.chance(0.6)) out.summary = blurb(rng);
  if (rng.chance(0.5)) out.highlights = Array.from({ length: rng.int(1, 3) }, () => bullet(rng));
  return out;
}

function award(ctx, from) {
  const { rng } = ctx;
  const out = { title: rng.pick(AWARD_TITLES) };
  if (rng.chance(0.85)) out.date = date(ctx, someMonth(ctx, from));
  if (rng.chance(0.8)) out.awarder = rng.pick(AWARDERS);
  if (rng.chance(0.5)) out.summary = fill(rng, rng.pick(AWARD_SUMMARIES));
  return out;
}

function certificate(ctx, from) {
  const { rng } = ctx;
  const [name, issuer] = rng.pick(CERTIFICATES);
  const out = { name };
  if (rng.chance(0.8)) out.date = date(ctx, someMonth(ctx, from));
  if (rng.chance(0.8)) out.issuer = issuer;
  if (rng.chance(0.4)) out.url = `https://certs.example.com/verify/${rng.int(10000, 99999)}`;
  return out;
}

function publication(ctx, from) {
  const { rng } = ctx;
  const title = `${rng.pick(TITLE_ADJ)} ${rng.pick(TITLE_NOUNS)} for ${rng.pick(TITLE_DOMAINS)}`;
  const out = { name: rng.chance(0.2) ? `On ${title}` : title };
  if (rng.chance(0.85)) out.publisher = rng.pick(PUBLISHERS);
  if (rng.chance(0.85)) out.releaseDate = date(ctx, someMonth(ctx, from));
  if (rng.chance(0.5)) {
    out.url = `https://doi.example.org/10.${rng.int(1000, 9999)}/${rng.int(100000, 999999)}`;
  }
  if (rng.chance(0.5)) out.summary = fill(rng, "A study of {thing} and {metric} across {n} deployments.");
  return out;
}

function skills(ctx) {
  const { rng } = ctx;
  return rng.sample(SKILL_GROUPS, rng.int(1, 6)).map(([name, keywords]) => {
    const out = { name };
    if (rng.chance(0.6)) out.level = rng.pick(SKILL_LEVELS);
    if (rng.chance(0.85)) out.keywords = rng.sample(keywords, rng.int(1, keywords.length));
    return out;
  });
}

function languages(ctx) {
  const { rng } = ctx;
  return rng.sample(LANGUAGES, rng.int(1, 4)).map((language) => {
    const out = { language };
    if (rng.chance(0.9)) out.fluency = rng.pick(FLUENCIES);
    return out;
  });
}

function interests(ctx) {
  const { rng } = ctx;
  return rng.sample(INTERESTS, rng.int(1, 4)).map(([name, keywords]) => {
    const out = { name };
    if (keywords.length > 0 && rng.chance(0.7)) {
      out.keywords = rng.sample(keywords, rng.int(1, keywords.length));
    }
    return out;
  });
}

function reference(ctx) {
  const { rng } = ctx;
  const name = personName(rng);
  const out = { name };
  if (rng.chance(0.95)) out.reference = fill(rng, rng.pick(REFERENCE_TEXTS), { name: name.split(" ")[0] });
  return out;
}

function project(ctx, from) {
  const { rng } = ctx;
  const out = { name: rng.pick(PROJECT_NAMES) };
  if (rng.chance(0.8)) out.description = blurb(rng);
  if (rng.chance(0.5)) out.highlights = Array.from({ length: rng.int(1, 4) }, () => bullet(rng));
  if (rng.chance(0.5)) out.keywords = rng.sample(TECH, rng.int(1, 5));
  const start = someMonth(ctx, from);
  if (rng.chance(0.6)) {
    Object.assign(out, span(ctx, start, Math.min(NOW, start + rng.int(1, 24)), { noEnd: 0.3, none: 0 }));
  }
  if (rng.chance(0.5)) out.url = `https://github.com/${handle(rng, out.name)}`;
  if (rng.chance(0.3)) out.roles = rng.sample(PROJECT_ROLES, rng.int(1, 3));
  if (rng.chance(0.2)) out.entity = companyName(rng);
  if (rng.chance(0.3)) out.type = rng.pick(PROJECT_TYPES);
  return out;
}

/** How often each section beyond basics, work and education is in a typical resume. */
const SECTION_ODDS = {
  volunteer: 0.35, awards: 0.4, certificates: 0.35, publications: 0.25, skills: 0.8, languages: 0.5,
  interests: 0.35, references: 0.3, projects: 0.45,
};

/** The optional sections, each a function of the context and the month the career began. */
const SECTIONS = {
  volunteer: (ctx, from) => Array.from({ length: ctx.rng.int(1, 3) }, () => volunteer(ctx, from)),
  awards: (ctx, from) => Array.from({ length: ctx.rng.int(1, 4) }, () => award(ctx, from)),
  certificates: (ctx, from) => Array.from({ length: ctx.rng.int(1, 4) }, () => certificate(ctx, from)),
  publications: (ctx, from) => Array.from({ length: ctx.rng.int(1, 4) }, () => publication(ctx, from)),
  skills: (ctx) => skills(ctx),
  languages: (ctx) => languages(ctx),
  interests: (ctx) => interests(ctx),
  references: (ctx) => Array.from({ length: ctx.rng.int(1, 3) }, () => reference(ctx)),
  projects: (ctx, from) => Array.from({ length: ctx.rng.int(1, 4) }, () => project(ctx, from)),
};

// ---------------------------------------------------------------------------------------------------------
// Resumes

/** The resume at `index` of the corpus drawn with `seed`. */
export function resume(index, seed) {
  const rng = makeRng(mix(seed, index));
  const ctx = { rng, precision: rng.weighted({ Y: 25, YM: 40, YMD: 20, mixed: 15 }) };
  const shape = rng.weighted({ typical: 80, minimal: 10, full: 10 });
  const out = { basics: basics(rng) };
  const { jobs, before } = work(ctx);
  out.work = shape === "minimal" ? jobs.slice(0, 1) : jobs;
  if (shape === "minimal") return out;
  const schools = education(ctx, before);
  if (schools.length > 0 || rng.chance(0.3)) out.education = schools;
  for (const [key, odds] of Object.entries(SECTION_ODDS)) {
    if (shape === "full" || rng.chance(odds)) out[key] = SECTIONS[key](ctx, before);
    else if (rng.chance(0.05)) out[key] = [];
  }
  return out;
}

/** `count` resumes drawn with `seed`: resume i is `resume(i, seed)`. */
export function generate(count, seed) {
  return Array.from({ length: count }, (_, index) => resume(index, seed));
}

/** The part of the corpus the resume at `index` is in: odd indices are held out, even ones tune. */
export const split = (index) => (index % 2 === 1 ? "heldOut" : "tuning");
