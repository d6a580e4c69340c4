import { describe, expect, it } from 'vitest';
import { ENGINE_MESSAGES, formatMessage, messageKeys, type MessageParams } from '../../../src/contract/index';
import { LANGUAGES, createI18n } from './index';
import { engineText, errorMessage } from './engine-text';
import { ApiError } from '../client/errors';

const sampleParams = (template: string): MessageParams =>
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
  });
});
