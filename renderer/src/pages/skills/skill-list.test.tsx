// @vitest-environment happy-dom
import '../../test/setup';
import { afterEach, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import type { CatalogEntry } from '../../../../src/contract/index';
import { createI18n } from '../../i18n';
import { TID, rowId } from '../../testids';
import { SkillList } from './skill-list';

afterEach(() => cleanup());

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
