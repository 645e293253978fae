/** The one text rule for human-readable names (text.ts). */
import { describe, expect, it } from 'vitest';
import { displayName, isOneLine, ONE_LINE_MESSAGE, oneLineText } from './text';

describe('the one-line text rule', () => {
  it('refuses line breaks, tabs, C0 and C1 controls, line and paragraph separators and every bidirectional control', () => {
    for (const text of ['a\nb', 'a\rb', 'a\tb', 'a\u0000b', 'a\u007fb', 'a\u0085b', 'a\u009bb', 'a\u2028b', 'a\u2029b', 'a\u061cb', 'a\u200eb', 'a\u200fb']) {
      expect(isOneLine(text), JSON.stringify(text)).toBe(false);
    }
    for (let code = 0x202a; code <= 0x202e; code++) expect(isOneLine(`a${String.fromCharCode(code)}b`), code.toString(16)).toBe(false);
    for (let code = 0x2066; code <= 0x2069; code++) expect(isOneLine(`a${String.fromCharCode(code)}b`), code.toString(16)).toBe(false);
  });

  it('keeps every script, joiners and emoji', () => {
    for (const text of ['Ada Lovelace', 'Zoë Ødegård', 'محمد', 'אבי', '李小龙', 'क्\u200dष', 'नम\u200cस्ते', '👩\u200d💻 Dev', 'O’Brien & Co. (EU)']) {
      expect(isOneLine(text), text).toBe(true);
    }
  });

  it('trims, bounds the length and names the rule in its message', () => {
    expect(displayName.parse('  Ada  ')).toBe('Ada');
    expect(displayName.safeParse('   ').success).toBe(false);
    expect(displayName.safeParse('a'.repeat(101)).success).toBe(false);
    expect(displayName.safeParse('\u202egnp.exe').error?.issues.map((issue) => issue.message)).toEqual([ONE_LINE_MESSAGE]);
    expect(oneLineText(500, { allowEmpty: true }).parse('')).toBe('');
    expect(oneLineText(10, { emptyMessage: 'Enter a name.' }).safeParse(' ').error?.issues[0]?.message).toBe('Enter a name.');
  });
});
