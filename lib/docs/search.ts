import { DOC_SECTIONS, type DocSection } from './content';

/** Words that say nothing about the topic of a question. */
const STOP_WORDS = new Set(
  (
    'a an and are as at be by can could do does for from get got how i if in into is it its me my of on or our should so that the their them ' +
    'there this to use using want was we what when where which who why will with would you your'
  ).split(' '),
);

/**
 * A word's plain form, so "tokens", "refreshing" and "verified" meet "token", "refresh" and
 * "verify" in the text. Deliberately small: it only has to bring a question and our own docs together.
 */
function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && word.endsWith('ied')) return `${word.slice(0, -3)}y`;
  if (word.length > 5 && word.endsWith('ing')) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith('ed') && !word.endsWith('eed')) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us')) return word.slice(0, -1);
  return word;
}

function terms(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9_]+/)
    .filter((t) => t.length > 1 && !STOP_WORDS.has(t))
    .map(stem);
}

interface IndexedSection {
  section: DocSection;
  /** Title words and keywords weigh 3, words of the text 1. */
  weights: Map<string, number>;
}

const TITLE_WEIGHT = 3;

function indexSection(section: DocSection): IndexedSection {
  const weights = new Map<string, number>();
  for (const term of terms(section.body.join(' '))) weights.set(term, 1);
  for (const term of terms([section.title, ...(section.keywords ?? [])].join(' '))) weights.set(term, TITLE_WEIGHT);
  return { section, weights };
}

const INDEX = DOC_SECTIONS.map(indexSection);

/** Rare words tell sections apart; a word every section uses ("sign", "api") tells little. */
const RARITY = (() => {
  const sectionsWith = new Map<string, number>();
  for (const { weights } of INDEX) for (const term of weights.keys()) sectionsWith.set(term, (sectionsWith.get(term) ?? 0) + 1);
  return (term: string) => Math.log(1 + INDEX.length / (sectionsWith.get(term) ?? INDEX.length));
})();

/** Sections scoring below this share of the best one are left out: an answer stays on its topic. */
const RELEVANT_SHARE = 0.5;

/**
 * Ranks documentation sections for a question: each question word counts by where the section has it
 * (title or keywords over text) and by how rare it is across the docs. `page` (the page the question
 * was asked on) breaks ties.
 */
export function searchDocs(question: string, page?: string, limit = 2): DocSection[] {
  const wanted = [...new Set(terms(question))];
  const scored = INDEX.map(({ section, weights }) => {
    let score = 0;
    for (const term of wanted) score += (weights.get(term) ?? 0) * RARITY(term);
    if (score > 0 && page && section.url.startsWith(page)) score += 0.01;
    return { section, score };
  });
  const best = Math.max(0, ...scored.map((s) => s.score));
  return scored
    .filter((s) => s.score > 0 && s.score >= best * RELEVANT_SHARE)
    .sort((a, b) => b.score - a.score)
    .slice(0, limit)
    .map((s) => s.section);
}
