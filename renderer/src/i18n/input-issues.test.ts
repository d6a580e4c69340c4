import { describe, expect, it } from 'vitest';
import { formatMessage, type MessageRef } from '../../../src/contract/index';
import { ApiError } from '../client/errors';
import { createI18n } from './index';
import { errorMessage } from './engine-text';

// A refused input (src/input-issues.ts) is worded by the window: the field's label, the problem
// and its limit in the user's language, each issue a message nested in `input.invalid`.

const tooLong: MessageRef = {
  key: 'input.invalid',
  params: {
    issues: [
      { key: 'input.issue.too-long', params: { field: { key: 'input.field.name' }, max: 100 } },
      { key: 'input.issue.required', params: { field: { key: 'input.field.agent' } } },
      { key: 'input.issue.wrong-type', params: { field: 'skills.0.name', expected: { key: 'input.type.string' } } },
      { key: 'input.more', params: { count: 2 } },
    ],
  },
};
const error = new ApiError('bad-request', formatMessage(tooLong), undefined, tooLong);

describe('refused input in the window’s language', () => {
  it('words each issue with its field, limit and count', async () => {
    const expected = {
      'zh-CN': '输入有误：名称太长了（最多 100 个字符）、请填写代理、skills.0.name应为文本、另有 2 处问题',
      'zh-TW': '輸入有誤：名稱太長了（最多 100 個字元）、請填寫代理、skills.0.name應為文字、另有 2 處問題',
      ja: '入力内容に問題があります：名前が長すぎます（最大 100 文字）、エージェントを入力してください、skills.0.nameはテキストで指定してください、ほか 2 件の問題',
    } as const;
    for (const [lang, text] of Object.entries(expected)) {
      const i18n = await createI18n(lang as keyof typeof expected);
      expect(errorMessage(i18n.t, error), lang).toBe(text);
    }
    const en = await createI18n('en');
    expect(errorMessage(en.t, error)).toBe(
      'Invalid input: name is too long (at most 100 characters), agent is required, skills.0.name must be text, and 2 more problems',
    );
  });

  it('an issue key this window does not know shows its key inside the worded sentence, never a placeholder', async () => {
    const future: MessageRef = { key: 'input.invalid', params: { issues: [{ key: 'input.issue.from-the-future' }] } };
    const zh = await createI18n('zh-CN');
    // The outer sentence is worded; the unknown inner phrase falls back to its key, never a raw {{placeholder}}.
    const text = errorMessage(zh.t, new ApiError('bad-request', 'Invalid input: ?', undefined, future));
    expect(text).toBe('输入有误：input.issue.from-the-future');
  });
});
