// The JSON Resume document (schema 1.x) as the resume view reads it. Every field is optional, as in the
// schema, and unknown fields are kept as they are.
import { english } from "./words";

export interface Location {
  address?: string;
  postalCode?: string;
  city?: string;
  countryCode?: string;
  region?: string;
}

export interface Profile {
  network?: string;
  username?: string;
  url?: string;
}

export interface Basics {
  name?: string;
  label?: string;
  image?: string;
  email?: string;
  phone?: string;
  url?: string;
  summary?: string;
  location?: Location;
  profiles?: Profile[];
}

export interface Dated {
  startDate?: string;
  endDate?: string;
}

export interface Work extends Dated {
  name?: string;
  location?: string;
  description?: string;
  position?: string;
  url?: string;
  summary?: string;
  highlights?: string[];
}

export interface Volunteer extends Dated {
  organization?: string;
  position?: string;
  url?: string;
  summary?: string;
  highlights?: string[];
}

export interface Education extends Dated {
  institution?: string;
  url?: string;
  area?: string;
  studyType?: string;
  score?: string;
  courses?: string[];
}

export interface Award {
  title?: string;
  date?: string;
  awarder?: string;
  summary?: string;
}

export interface Certificate {
  name?: string;
  date?: string;
  url?: string;
  issuer?: string;
}

export interface Publication {
  name?: string;
  publisher?: string;
  releaseDate?: string;
  url?: string;
  summary?: string;
}

export interface Skill {
  name?: string;
  level?: string;
  keywords?: string[];
}

export interface Language {
  language?: string;
  fluency?: string;
}

export interface Interest {
  name?: string;
  keywords?: string[];
}

export interface Reference {
  name?: string;
  reference?: string;
}

export interface Project extends Dated {
  name?: string;
  description?: string;
  highlights?: string[];
  keywords?: string[];
  url?: string;
  roles?: string[];
  entity?: string;
  type?: string;
}

export interface Resume {
  basics?: Basics;
  work?: Work[];
  volunteer?: Volunteer[];
  education?: Education[];
  awards?: Award[];
  certificates?: Certificate[];
  publications?: Publication[];
  skills?: Skill[];
  languages?: Language[];
  interests?: Interest[];
  references?: Reference[];
  projects?: Project[];
  [unknown: string]: unknown;
}

/** A JSON Resume date (`YYYY`, `YYYY-MM` or `YYYY-MM-DD`) as a reader expects it, in English: "Dec 2013".
 * A resume in another language is shown in its own words (`wordsOf` in words.ts). */
export function formatDate(date: string | undefined): string {
  return english.formatDate(date);
}

/** A date range in English; an entry with a start and no end is ongoing. */
export function formatRange(item: Dated): string {
  return english.formatRange(item);
}

/** True when a section has something to show: a missing or empty section is not rendered. */
export function hasItems<T>(items: T[] | undefined): items is T[] {
  return Array.isArray(items) && items.length > 0;
}
