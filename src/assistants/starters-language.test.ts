import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LanguageSchema, type Language } from '../contract/index.js';
import type { SkillDockService } from '../service.js';
import { makeEnv, type TestEnv } from '../../test/support/assistants.js';

// Issue 23 item 14: the starter assistants speak the user's language. They are read-only and never
// stored: the engine words them in the language of the settings, a switch of language changes no
// user data, and a duplicate keeps the words it was made with.

const LANGUAGES = LanguageSchema.options;
const NAMES: Record<Language, string[]> = {
  en: ['Code Reviewer', 'Skill Author', 'Researcher'],
  'zh-CN': ['代码审查员', '技能作者', '研究员'],
  'zh-TW': ['程式碼審查員', '技能作者', '研究員'],
  ja: ['コードレビュアー', 'スキル作成者', 'リサーチャー'],
};
/** A character every non-English persona has and no English one does. */
const SCRIPT: Record<Exclude<Language, 'en'>, RegExp> = { 'zh-CN': /[\u4e00-\u9fff]/, 'zh-TW': /[\u4e00-\u9fff]/, ja: /[\u3040-\u30ff]/ };

const codeSpans = (text: string) => [...text.matchAll(/`[^`]+`/g)].map((m) => m[0]).sort();

let env: TestEnv;
let svc: SkillDockService;

beforeEach(() => {
  env = makeEnv();
  svc = env.service();
});
afterEach(() => env.cleanup());

const starters = async () => (await svc.api.listAssistants({})).filter((a) => a.builtin);

describe('starter assistants in the user’s language', () => {
  it('names and words every starter in each language of the settings; English before one is chosen', async () => {
    expect((await starters()).map((s) => s.name)).toEqual(NAMES.en);
    const english = (await starters()).map((s) => s.rules);
    for (const language of LANGUAGES) {
      await svc.api.updateSettings({ language });
      const list = await starters();
      expect(
        list.map((s) => s.name),
        language,
      ).toEqual(NAMES[language]);
      expect(list.map((s) => s.id)).toEqual(['starter-code-reviewer', 'starter-skill-author', 'starter-researcher']);
      for (const [i, s] of list.entries()) {
        if (language === 'en') expect(s.rules).toBe(english[i]);
        else {
          expect(s.rules, `${s.id} in ${language}`).toMatch(SCRIPT[language]);
          expect(s.rules.split('\n')[0]).toBe(`# ${NAMES[language][i]}`);
          // Skill names, paths and commands are not words: every code span stays as it is.
          expect(codeSpans(s.rules), `${s.id} in ${language}`).toEqual(codeSpans(english[i]!));
        }
      }
    }
    // The two Chinese scripts are not the same text.
    await svc.api.updateSettings({ language: 'zh-CN' });
    const simplified = (await starters())[0]!.rules;
    await svc.api.updateSettings({ language: 'zh-TW' });
    expect((await starters())[0]!.rules).not.toBe(simplified);
  });

  it('finds a starter by its name in any language, and keeps every one of those names reserved', async () => {
    await svc.api.updateSettings({ language: 'ja' });
    expect((await svc.api.getAssistant({ assistant: 'Code Reviewer' })).id).toBe('starter-code-reviewer');
    expect((await svc.api.getAssistant({ assistant: '研究員' })).id).toBe('starter-researcher');
    await expect(svc.api.createAssistant({ name: 'researcher', agent: 'claude' })).rejects.toMatchObject({
      code: 'conflict',
      msg: { key: 'assistants.name-taken-starter', params: { name: 'researcher' } },
    });
    await expect(svc.api.createAssistant({ name: '代码审查员', agent: 'claude' })).rejects.toMatchObject({
      msg: { key: 'assistants.name-taken-starter' },
    });
  });

  it('a duplicate keeps the words of the language it was made in; a language switch changes no user data', async () => {
    await svc.api.updateSettings({ language: 'ja' });
    const copy = await svc.api.duplicateAssistant({ assistant: 'starter-code-reviewer', name: 'コードレビュアー のコピー' });
    expect(copy.rules).toMatch(SCRIPT.ja);
    const file = path.join(env.home, 'assistants.json');
    const before = fs.readFileSync(file, 'utf8');
    await svc.api.updateSettings({ language: 'en' });
    expect((await starters())[0]!.name).toBe('Code Reviewer');
    const again = await svc.api.getAssistant({ assistant: copy.id });
    expect(again.name).toBe('コードレビュアー のコピー');
    expect(again.rules).toBe(copy.rules);
    expect(fs.readFileSync(file, 'utf8')).toBe(before);
  });

  it('ships a name and a persona file for every starter in every language', () => {
    const dir = path.join(env.resourcesDir, 'assistants');
    const file = JSON.parse(fs.readFileSync(path.join(dir, 'starters.json'), 'utf8')) as {
      starters: Array<{ rulesFile: string; names: Record<string, string> }>;
    };
    for (const s of file.starters) {
      expect(Object.keys(s.names).sort()).toEqual(LANGUAGES.filter((l) => l !== 'en').sort());
      for (const l of LANGUAGES) {
        if (l !== 'en')
          expect(fs.existsSync(path.join(dir, s.rulesFile.replace(/\.md$/, `.${l}.md`))), `${s.rulesFile} in ${l}`).toBe(true);
      }
    }
  });
});
