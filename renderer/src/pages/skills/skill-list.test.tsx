// @vitest-environment happy-dom
import '../../test/setup';
import { afterEach, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import type { CatalogEntry } from '../../../../src/contract/index';
import { createI18n } from '../../i18n';
import { TID, rowId } from '../../testids';
import { useRisks } from '../../stores/risk-store';
import { SkillList } from './skill-list';

afterEach(() => {
  cleanup();
  useRisks.setState({ byId: new Map(), generation: null });
});

const entries: CatalogEntry[] = Array.from({ length: 10_000 }, (_, i) => ({
  id: `library/s${i}`,
  name: `skill-${i}`,
  dirName: `s${i}`,
  description: `Description ${i}`,
  frontmatter: {},
  provenance: { rootId: 'library', rootKind: 'library', rootPath: '/l', dir: `/l/s${i}`, realPath: `/l/s${i}`, linked: i === 1 },
  digest: 'd',
  diagnostics: [],
  counts: { errors: i === 0 ? 2 : 0, warnings: i === 1 ? 1 : 0, infos: 0 },
  shadowedBy: i === 2 ? 'user/s2' : undefined,
  shadows: [],
  stateId: null,
  legacyPaths: [],
  size: 1,
  fileCount: 1,
}));

it('keeps only a screenful of the 10,000 rows in the DOM, with badges, and opens a row', async () => {
  const i18n = await createI18n('en');
  const opened: string[] = [];
  render(
    <I18nextProvider i18n={i18n}>
      <SkillList entries={entries} onOpen={(id) => opened.push(id)} />
    </I18nextProvider>,
  );
  const rows = screen.getByTestId(TID.skillsList).querySelectorAll('[role="listitem"]');
  expect(rows.length).toBeGreaterThan(5);
  expect(rows.length).toBeLessThan(60);
  const first = screen.getByTestId(rowId(TID.skillRow, 'library/s0'));
  expect(first.querySelector(`[data-testid="${TID.skillBadgeErrors}"]`)?.textContent).toBe('2 errors');
  expect(screen.getByTestId(rowId(TID.skillRow, 'library/s1')).querySelector(`[data-testid="${TID.skillBadgeLinked}"]`)).not.toBeNull();
  expect(screen.getByTestId(rowId(TID.skillRow, 'library/s2')).querySelector(`[data-testid="${TID.skillBadgeShadowed}"]`)).not.toBeNull();
  fireEvent.click(screen.getByTestId(rowId(TID.skillRow, 'library/s3')));
  expect(opened).toEqual(['library/s3']);
});

it('shows the security scan as a badge: red for a high finding, orange for medium, in the user language', async () => {
  const finding = { code: 'scan-pipe-to-shell', severity: 'error' as const, message: 'x', file: 'scripts/install.sh', line: 3 };
  useRisks.setState({
    byId: new Map([
      [
        'library/s4',
        { entryId: 'library/s4', name: 'skill-4', high: 1, medium: 2, low: 0, findings: [{ ...finding, level: 'high' as const }] },
      ],
      ['library/s5', { entryId: 'library/s5', name: 'skill-5', high: 0, medium: 2, low: 1, findings: [] }],
      ['library/s6', { entryId: 'library/s6', name: 'skill-6', high: 0, medium: 0, low: 4, findings: [] }],
    ]),
    generation: 1,
  });
  const badge = (id: string) => screen.getByTestId(rowId(TID.skillRow, id)).querySelector(`[data-testid="${TID.skillBadgeRisk}"]`);
  for (const [lang, high, medium] of [
    ['en', 'High risk (1)', 'Medium risk (2)'],
    ['ja', '高リスク（1）', '中リスク（2）'],
  ] as const) {
    const i18n = await createI18n(lang);
    render(
      <I18nextProvider i18n={i18n}>
        <SkillList entries={entries} onOpen={() => {}} />
      </I18nextProvider>,
    );
    expect(badge('library/s4')?.textContent).toContain(high);
    expect(badge('library/s4')?.getAttribute('data-level')).toBe('high');
    expect(badge('library/s4')?.getAttribute('title')).toBe('scripts/install.sh:3 scan-pipe-to-shell');
    expect(badge('library/s5')?.textContent).toContain(medium);
    expect(badge('library/s5')?.getAttribute('data-level')).toBe('medium');
    expect(badge('library/s6')).toBeNull(); // low findings are advice, not a badge
    expect(badge('library/s7')).toBeNull();
    cleanup();
  }
});
