import { describe, expect, it } from 'vitest';
import { isValidStateId, stateIdFor, STATE_ID_MAX } from './state-id.js';

describe('stateIdFor', () => {
  it('joins the sanitized name and version', () => {
    expect(stateIdFor('code', '1.0.4')).toBe('code-1.0.4');
    expect(stateIdFor('pdf')).toBe('pdf');
    expect(stateIdFor('pdf', null)).toBe('pdf');
    expect(stateIdFor('pdf', '')).toBe('pdf');
    expect(stateIdFor('My Skill', 'v2 beta')).toBe('my-skill-v2-beta');
  });

  it('refuses traversal and absolute paths', () => {
    expect(stateIdFor('..')).toBeNull();
    expect(stateIdFor('.')).toBeNull();
    expect(stateIdFor('../x')).toBe('x');
    expect(stateIdFor('/abs/path')).toBe('abs-path');
    expect(stateIdFor('a/../../b')).toBe('a-b');
    expect(stateIdFor('C:\\Windows')).toBe('c-windows');
    expect(stateIdFor('x', '../../etc')).toBe('x-etc');
    expect(stateIdFor('a..b')).toBe('a.b');
    expect(stateIdFor('.hidden')).toBe('hidden');
    expect(stateIdFor('x', '...')).toBe('x');
  });

  it('folds or drops odd unicode', () => {
    expect(stateIdFor('café')).toBe('cafe');
    expect(stateIdFor('ｃｏｄｅ')).toBe('code'); // fullwidth
    expect(stateIdFor('a\u202Eb')).toBe('a-b'); // right-to-left override
    expect(stateIdFor('a\u0000b')).toBe('a-b');
    expect(stateIdFor('日本語')).toBeNull();
    expect(stateIdFor('\u{1F600}')).toBeNull();
    expect(stateIdFor('')).toBeNull();
    expect(stateIdFor('---')).toBeNull();
    expect(stateIdFor(42 as unknown as string)).toBeNull();
  });

  it('bounds the length and avoids Windows device names', () => {
    const id = stateIdFor('a'.repeat(500), '9'.repeat(500))!;
    expect(id.length).toBeLessThanOrEqual(STATE_ID_MAX);
    expect(isValidStateId(id)).toBe(true);
    expect(stateIdFor('con')).toBe('con_');
    expect(stateIdFor('NUL', '1')).toBe('nul_-1');
  });

  it('keeps a clean name as it is, and cleans one that only looks clean', () => {
    expect(stateIdFor('skill-0001-extract', '1.2.3')).toBe('skill-0001-extract-1.2.3');
    expect(stateIdFor('a_b.c-d')).toBe('a_b.c-d');
    expect(stateIdFor('a'.repeat(64))).toBe('a'.repeat(64));
    expect(stateIdFor('a'.repeat(65))).toBe('a'.repeat(64));
    expect(stateIdFor('a-.b')).toBe('a-b');
    expect(stateIdFor('Skill-a')).toBe('skill-a');
    expect(stateIdFor('a-b-')).toBe('a-b');
    expect(stateIdFor('a\nb')).toBe('a-b');
  });

  it('always produces valid ids', () => {
    const inputs = ['x', '..', '../../a', 'A B C', 'é', '-a-', 'a.', 'a.-b', '_x', 'a--b', 'x'.repeat(100), 'lpt1', 'foo.'];
    for (const name of inputs) {
      for (const v of [null, '1.0', '..', '-', 'ÄÖ', 'x'.repeat(40)]) {
        const id = stateIdFor(name, v);
        if (id !== null) expect(isValidStateId(id), `${name} ${v} -> ${id}`).toBe(true);
      }
    }
  });
});

describe('isValidStateId', () => {
  it('accepts produced ids and refuses unsafe ones', () => {
    for (const ok of ['code-1.0.4', 'pdf', 'a_b', '0x']) expect(isValidStateId(ok)).toBe(true);
    for (const bad of [
      '',
      '.',
      '..',
      '../x',
      'a/b',
      'a\\b',
      '/abs',
      '.hidden',
      'a..b',
      'a.',
      'a-',
      '-a',
      'A',
      'é',
      'con',
      'nul.txt',
      'x'.repeat(STATE_ID_MAX + 1),
      42,
      null,
    ]) {
      expect(isValidStateId(bad), String(bad)).toBe(false);
    }
  });
});
