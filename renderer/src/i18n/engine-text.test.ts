import { describe, expect, it } from 'vitest';
import { ENGINE_MESSAGES, formatMessage, messageKeys } from '../../../src/contract/index';
import { LANGUAGES, createI18n } from './index';
import { engineText, errorMessage, findingText, fixText } from './engine-text';
import { ApiError } from '../client/errors';

const sampleParams = (template: string): Record<string, string | number> =>
  Object.fromEntries([...template.matchAll(/\{\{\s*([\w.]+)\s*\}\}/g)].map((m) => [m[1], m[1] === 'count' ? 3 : `«${m[1]}»`]));

describe('engine messages in the UI', () => {
  it('every engine key is worded in every language, with every parameter filled in', async () => {
    for (const lang of LANGUAGES) {
      const i18n = await createI18n(lang);
      for (const key of messageKeys()) {
        const template = (ENGINE_MESSAGES as Record<string, string>)[key] ?? (ENGINE_MESSAGES as Record<string, string>)[`${key}_other`];
        const params = sampleParams(template);
        const text = engineText(i18n.t, { key, params }, '<<fallback>>');
        expect(text, `${lang} ${key}`).not.toBe('<<fallback>>');
        expect(text, `${lang} ${key}`).not.toMatch(/\{\{/);
        for (const [name, value] of Object.entries(params)) expect(text, `${lang} ${key} lost {{${name}}}`).toContain(String(value));
      }
    }
  });

  it('English in the window is exactly the engine’s English', async () => {
    const en = await createI18n('en');
    for (const key of messageKeys()) {
      const template = (ENGINE_MESSAGES as Record<string, string>)[key] ?? (ENGINE_MESSAGES as Record<string, string>)[`${key}_other`];
      const params = sampleParams(template);
      expect(engineText(en.t, { key, params }, '')).toBe(formatMessage({ key, params }));
    }
  });

  it('an error from the engine is worded in the user’s language; an unknown key keeps the engine’s text', async () => {
    const zh = await createI18n('zh-CN');
    const err = new ApiError('bad-request', 'Unknown method: frob', undefined, {
      key: 'common.unknown-method',
      params: { method: 'frob' },
    });
    expect(errorMessage(zh.t, err)).toBe('未知的方法：frob');
    const future = new ApiError('refused', 'Something new', undefined, { key: 'common.not-yet-known' });
    expect(errorMessage(zh.t, future)).toBe('Something new');
    expect(errorMessage(zh.t, new Error('plain'))).toBe('plain');
    expect(errorMessage(zh.t, { code: 'odd' })).toBe('{"code":"odd"}');
  });

  it('words nested phrases and lists inside a finding in the same language', async () => {
    const finding = {
      message: '`name` "Bad--" has upper-case letters, consecutive hyphens (`--`).',
      msg: {
        key: 'diag.name-invalid.message',
        params: { name: 'Bad--', problems: [{ key: 'diag.name-invalid.upper' }, { key: 'diag.name-invalid.double' }] },
      },
      fix: 'English fix.',
      fixMsg: { key: 'diag.name-invalid.fix' },
    };
    const en = await createI18n('en');
    expect(findingText(en.t, finding)).toBe(finding.message);
    expect(formatMessage(finding.msg)).toBe(finding.message);
    const ja = await createI18n('ja');
    expect(findingText(ja.t, finding)).toBe('`name`「Bad--」に大文字、連続したハイフン（`--`）が含まれています。');
    const zh = await createI18n('zh-CN');
    expect(
      findingText(zh.t, { message: 'x', msg: { key: 'diag.license-invalid.message', params: { kind: { key: 'diag.kind.list' } } } }),
    ).toBe('`license` 是列表，而不是字符串。');
    expect(fixText(zh.t, finding)).toBe('`name` 只能使用小写 a-z、0-9 和单个连字符，且不能以连字符开头或结尾。');
    expect(fixText(zh.t, { fix: undefined })).toBeUndefined();
  });

  it('no engine sentence reads as its English in zh-CN, zh-TW or ja', async () => {
    const english = ENGINE_MESSAGES as Record<string, string>;
    // Phrases that are the same in every language (separators, code-only words) are allowed.
    const same = new Set(['common.list-separator']);
    for (const lang of LANGUAGES.filter((l) => l !== 'en')) {
      const i18n = await createI18n(lang);
      for (const key of messageKeys()) {
        if (same.has(key)) continue;
        const template = english[key] ?? english[`${key}_other`];
        const params = sampleParams(template);
        expect(engineText(i18n.t, { key, params }, ''), `${lang} ${key}`).not.toBe(formatMessage({ key, params }));
      }
    }
  });
});
