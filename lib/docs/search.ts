import { DOC_SECTIONS, type DocSection } from './content';

const STOP_WORDS = new Set([
  'the',
  'a',
  'an',
  'is',
  'are',
  'to',
  'of',
  'and',
  'or',
  'in',
  'on',
  'for',
  'how',
  'what',
  'do',
  'i',
  'my',
  'with',
  'can',
  'it',
  'does',
]);

function terms(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9_]+/)
    .filter((t) => t.length > 1 && !STOP_WORDS.has(t));
}

/** Ranks documentation sections by how many question terms they contain (title terms count double). */
export function searchDocs(question: string, page?: string, limit = 2): DocSection[] {
  const wanted = terms(question);
  const scored = DOC_SECTIONS.map((section) => {
    const bodyTerms = new Set(terms(section.body.join(' ')));
    const titleTerms = new Set(terms(section.title));
    let score = 0;
    for (const t of wanted) score += (bodyTerms.has(t) ? 1 : 0) + (titleTerms.has(t) ? 2 : 0);
    if (page && section.url.startsWith(page)) score += 1;
    return { section, score };
  });
  return scored
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, limit)
    .map((s) => s.section);
}
