import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatWhen } from './format-date';

// Issue 23 item 18: Trash and History said "12/7/2026, 12:06:03 AM" where the rest of the window said
// "Dec 7, 2026, 12:06 AM". One formatter per language; no page formats a date on its own.

const at = new Date(2026, 11, 7, 0, 6, 3);

describe('formatWhen', () => {
  it('writes the day as the language does and the time to the minute', () => {
    expect(formatWhen(at, 'en')).toBe('Dec 7, 2026, 12:06 AM');
    expect(formatWhen(at.toISOString(), 'en')).toBe('Dec 7, 2026, 12:06 AM');
    expect(formatWhen(at.getTime(), 'en')).toBe('Dec 7, 2026, 12:06 AM');
    expect(formatWhen(at, 'ja')).toBe('2026/12/07 0:06');
    expect(formatWhen(at, 'zh-CN')).toBe('2026年12月7日 00:06');
  });

  it('shows an unreadable value as given, and nothing for nothing', () => {
    expect(formatWhen('not a date', 'en')).toBe('not a date');
    expect(formatWhen('', 'en')).toBe('');
  });
});

describe('the renderer formats dates in one place', () => {
  const src = path.resolve(__dirname, '..');
  const files = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
      const p = path.join(dir, d.name);
      if (d.isDirectory()) return files(p);
      return /\.tsx?$/.test(d.name) && !/\.test\.tsx?$/.test(d.name) ? [p] : [];
    });
  const OWN_FORMAT = /\.toLocale(?:Date|Time)?String\(|new Intl\.DateTimeFormat\(|\.toUTCString\(/;

  it('has no toLocaleString or DateTimeFormat outside format-date.ts', () => {
    const offenders = files(src)
      .filter((f) => path.basename(f) !== 'format-date.ts')
      .filter((f) => OWN_FORMAT.test(fs.readFileSync(f, 'utf8')))
      .map((f) => path.relative(src, f));
    expect(offenders).toEqual([]);
  });
});
