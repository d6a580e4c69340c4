import { describe, expect, it } from 'vitest';
import { createI18n, LANGUAGES } from '../../i18n';
import { hasMarkers, wordMarkers } from './conflict-markers';

// Issue 23 item 14: the conflict markers of "Edit merged" read in the user's language, and a text
// with markers left in is refused whatever language its markers are in. The merged text is the
// engine's form (src/sources/merge.test.ts pins it), the words real i18next bundles.

/** One conflict as the engine's merge3 writes it (the form src/sources/merge.test.ts pins). */
const merged = 'one\n<<<<<<< mine\ntwo mine\n||||||| installed\ntwo\n=======\ntwo upstream\n>>>>>>> upstream\nthree\n';

const LABELS = {
  en: ['yours', 'installed', 'upstream'],
  'zh-CN': ['你的版本', '已安装的版本', '上游版本'],
  'zh-TW': ['你的版本', '已安裝的版本', '上游版本'],
  ja: ['自分の版', 'インストール済みの版', '上流の版'],
} as const;

describe('conflict markers in the user’s language', () => {
  for (const language of LANGUAGES) {
    it(`${language}: the labels are worded, the rest of the text is untouched, and the markers are still markers`, async () => {
      const i18n = await createI18n(language);
      const shown = wordMarkers(merged, i18n.t);
      const [mine, installed, upstream] = LABELS[language];
      expect(shown).toBe(`one\n<<<<<<< ${mine}\ntwo mine\n||||||| ${installed}\ntwo\n=======\ntwo upstream\n>>>>>>> ${upstream}\nthree\n`);
      expect(hasMarkers(shown)).toBe(true);
      // Any one marker left is enough to refuse.
      for (const line of shown.split('\n').filter((l) => /^[<|=>]{7}/.test(l)))
        expect(hasMarkers(`kept\n${line}\nkept\n`), line).toBe(true);
      expect(hasMarkers('one\ntwo mine and upstream\nthree\n')).toBe(false);
    });
  }
});
