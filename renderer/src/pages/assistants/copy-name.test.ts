import { describe, expect, it } from 'vitest';
import type { Assistant } from '../../../../src/contract/index';
import { createI18n } from '../../i18n';
import { copyNameIn, takenIn } from './copy-name';

// Issue 23 item 14: a duplicated assistant was named with an English " copy" in every language, and a
// copy of a copy became "Code Reviewer copy 2 copy". Real i18next, every language.

const list = (...names: string[]) => names.map((name, i) => ({ id: `a${i}`, name }) as Assistant);

describe('copyNameIn', () => {
  it('names a copy in the user language, counts on from the original, and skips taken names', async () => {
    const en = (await createI18n('en')).t;
    expect(copyNameIn(en, 'Code Reviewer', takenIn(list('Code Reviewer')))).toBe('Code Reviewer copy');
    const taken = takenIn(list('Code Reviewer', 'Code Reviewer copy', 'code reviewer COPY 2'));
    expect(copyNameIn(en, 'Code Reviewer', taken)).toBe('Code Reviewer copy 3');
    expect(copyNameIn(en, 'Code Reviewer copy 2', taken)).toBe('Code Reviewer copy 3');
    expect(copyNameIn(en, 'Code Reviewer copy', taken)).toBe('Code Reviewer copy 3');

    const ja = (await createI18n('ja')).t;
    expect(copyNameIn(ja, 'レビュー係', takenIn(list('レビュー係')))).toBe('レビュー係 のコピー');
    expect(copyNameIn(ja, 'レビュー係 のコピー', takenIn(list('レビュー係', 'レビュー係 のコピー')))).toBe('レビュー係 のコピー 2');
    const zh = (await createI18n('zh-CN')).t;
    expect(copyNameIn(zh, 'Reviewer (v2.*)', takenIn(list()))).toBe('Reviewer (v2.*) 副本');
    expect(copyNameIn(zh, 'Reviewer (v2.*) 副本 4', takenIn(list('Reviewer (v2.*) 副本')))).toBe('Reviewer (v2.*) 副本 2');
  });
});
