import { describe, expect, it } from 'vitest';
import { isUidp } from '../../src/uidp/uidp.js';

const root = '0123456789abcdef0123456789abcdef01234567';
const segment = '89abcdef01234567';

describe('isUidp', () => {
  it('takes a root and any number of 16-hex segments', () => {
    expect(isUidp(root)).toBe(true);
    expect(isUidp(`${root}/${segment}`)).toBe(true);
    expect(isUidp(`${root}/${segment}/${segment}/${segment}`)).toBe(true);
  });

  it('refuses anything else: lengths, case, empty or extra segments, other characters', () => {
    for (const text of [
      '',
      root.slice(1),
      `${root}0`,
      root.toUpperCase(),
      `${root}/`,
      `/${root}`,
      `${root}//${segment}`,
      `${root}/${segment.slice(1)}`,
      `${root}/${segment}0`,
      `${root}/${segment}/`,
      `${root}/${segment.replace('8', 'g')}`,
      `${root}\n`,
      `${root}/${segment}\n`,
    ])
      expect(isUidp(text), JSON.stringify(text)).toBe(false);
  });
});
