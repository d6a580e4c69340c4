import { describe, expect, it } from 'vitest';
import { decide } from '../security/launch-guard.js';
import { formatMessage, isMessageRef } from '../contract/index.js';
import { launchProblem, scriptWhy } from './launch-words.js';

describe('launch problem words', () => {
  it('every reason the script policy gives becomes a phrase the window can word', () => {
    const reasons = new Set<string>();
    for (const policy of ['never', 'ask'] as const)
      for (const status of ['unapproved', 'changed'] as const)
        for (const on of ['refuse', 'omit', 'skip'] as const) {
          const r = decide(policy, status, on).reason;
          if (r) reasons.add(r);
        }
    expect(reasons.size).toBeGreaterThanOrEqual(3);
    for (const r of reasons) {
      const why = scriptWhy(r);
      expect(isMessageRef(why), r).toBe(true);
      // The English the CLI prints is unchanged.
      expect(formatMessage(why as { key: string })).toBe(r);
    }
  });

  it('a problem carries its English and its key', () => {
    const p = launchProblem('pdf', 'missing', 'launch.problem.missing', { skill: 'pdf' });
    expect(p).toEqual({
      skill: 'pdf',
      code: 'missing',
      message: 'Skill "pdf" is attached but no longer in the catalog.',
      msg: { key: 'launch.problem.missing', params: { skill: 'pdf' } },
    });
  });
});

describe('workspace folder names', () => {
  it('keep an assistant name in Chinese or Japanese (bug 10), and stay one safe segment', async () => {
    const { assistantSlug, newConversationId, isValidConversationId } = await import('./conversations.js');
    expect(assistantSlug('代码审查助手')).toBe('代码审查助手');
    expect(assistantSlug('コードレビュー係')).toBe('コードレビュー係');
    expect(assistantSlug('ガイド')).toBe('ガイド');
    expect(assistantSlug('Café Helper!')).toBe('cafe-helper');
    expect(assistantSlug('../..')).toBe('assistant');
    expect(assistantSlug('a/b\\c')).toBe('a-b-c');
    const id = newConversationId('代码 审查');
    expect(id.startsWith('代码-审查-')).toBe(true);
    expect(isValidConversationId(id)).toBe(true);
    expect(isValidConversationId('../x')).toBe(false);
    expect(isValidConversationId('Abc')).toBe(false);
  });
});
