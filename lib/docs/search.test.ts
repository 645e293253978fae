/**
 * The local help answerer (no provider configured) finds the section a new developer needs for the
 * questions they ask first. Each question names the section that must come first.
 */
import { describe, expect, it } from 'vitest';
import { DOC_SECTIONS } from './content';
import { searchDocs } from './search';

const QUESTIONS: [question: string, section: string][] = [
  ['How do I add sign in to my Express app?', 'quickstart'],
  ['How do I get an API key?', 'api-keys'],
  ['How do I verify a webhook signature?', 'webhooks'],
  ['How do refresh tokens work?', 'tokens'],
  ['Can people sign in with passkeys instead of passwords?', 'passkeys'],
  ['How do I invite members to my organization?', 'organizations'],
  ['What happens when I hit the rate limit?', 'rate-limits'],
  ['What does an error response look like?', 'errors'],
  ['Is PKCE required, and which code_challenge_method?', 'oauth'],
  ['How do I log a user out of my app?', 'logout'],
  ['Which scopes give me the user’s email address?', 'scopes'],
  ['How do I page through a long list?', 'pagination'],
  ['Where do I find the codes the dev mailbox writes?', 'operating'],
  ['Where do I get a client ID and secret for my application?', 'portal'],
  ['Can I retry a request safely without creating two?', 'idempotency'],
];

describe('the local help answerer', () => {
  it.each(QUESTIONS)('answers “%s” from the %s section first', (question, slug) => {
    expect(searchDocs(question, '/docs', 3)[0]?.slug).toBe(slug);
  });

  it('has a section for every expected answer, each with a unique slug', () => {
    const slugs = DOC_SECTIONS.map((section) => section.slug);
    expect(new Set(slugs).size).toBe(slugs.length);
    for (const [, slug] of QUESTIONS) expect(slugs).toContain(slug);
  });

  it('leaves out sections far less relevant than the best, and answers nothing to an unrelated question', () => {
    const sections = searchDocs('How do I verify a webhook signature?', '/docs', 3).map((section) => section.slug);
    expect(sections).not.toContain('mcp');
    expect(sections).not.toContain('pagination');
    expect(searchDocs('zebra xylophone quantum')).toEqual([]);
  });
});
