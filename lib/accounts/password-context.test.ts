/** ASVS V6.1.2 / V6.2.11: the documented list of context-specific words, and passwords built from it. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withEnv } from '@/tests/setup/state';
import { contextWords, isBuiltFromContext } from './password-context';

const EMAIL = 'ada.lovelace+work@analytical-engine.example';

describe('context-specific words', () => {
  let restore: () => void;
  beforeAll(() => {
    restore = withEnv({ BASE_URL: 'https://login.babbage-works.example' });
  });
  afterAll(() => restore());

  // ASVS V6.1.2
  it('are the e-mail address and its parts, the service name and its words, the host and its labels', () => {
    expect(contextWords(EMAIL).sort()).toEqual(
      [
        'adalovelaceworkanalyticalengineexample', // the whole address
        'adalovelacework', // local part
        'lovelace',
        'work',
        'analyticalengineexample', // domain
        'analyticalengine',
        'analytical',
        'engine',
        'example',
        'identityservice', // service name
        'identity',
        'service',
        'loginbabbageworksexample', // host
        'babbageworks',
        'login',
        'babbage',
        'works',
      ].sort(),
    );
  });

  // ASVS V6.2.11
  it('refuse a password that is one of them with only digits and symbols around it', () => {
    for (const password of ['Lovelace1815!', 'analytical-engine-2026', 'IdentityService#1', '1234babbage5678', 'example!!']) {
      expect(isBuiltFromContext(password, EMAIL), password).toBe(true);
    }
    // Two words glued together are no word of the list.
    expect(isBuiltFromContext('Example.Example', EMAIL)).toBe(false);
  });

  // ASVS V6.2.11
  it('refuse a password containing the whole address or its local part, and accept unrelated ones', () => {
    expect(isBuiltFromContext('my ada.lovelace+work passphrase', EMAIL)).toBe(true);
    expect(isBuiltFromContext('correct horse battery staple', EMAIL)).toBe(false);
    expect(isBuiltFromContext('lovelace in the engine room at night', EMAIL)).toBe(false);
  });
});
