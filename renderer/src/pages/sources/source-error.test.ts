import { describe, expect, it } from 'vitest';
import { createI18n } from '../../i18n';
import { splitGitDetail } from './source-error';

describe('splitGitDetail', () => {
  it("words the refusal in the window's language and keeps git's English output apart", async () => {
    const i18n = await createI18n('zh-CN');
    const msg = { key: 'sources.not-repo', params: { source: '/srv/x', detail: 'fatal: not a git repository' } };
    const out = splitGitDetail(i18n.t, msg, 'English fallback');
    expect(out.detail).toBe('fatal: not a git repository');
    expect(out.text).toBe('/srv/x 不是 SkillDock 能读取的 git 仓库：见下方 git 的输出');
  });

  it('finds git output inside a nested message (a check that could not reach the source)', async () => {
    const i18n = await createI18n('zh-CN');
    const inner = { key: 'sources.unreachable-skill', params: { source: 'git://h/r', skill: 'alpha', detail: 'fatal: unable to connect' } };
    const out = splitGitDetail(
      i18n.t,
      { key: 'sources.check.unreachable', params: { skill: 'alpha', source: 'git://h/r', detail: inner } },
      'x',
    );
    expect(out.detail).toBe('fatal: unable to connect');
    expect(out.text).toContain('alpha');
    expect(out.text).toContain('见下方 git 的输出');
    expect(out.text).not.toMatch(/fatal|could not/i);
  });

  it('leaves a message without git output whole, and falls back to the English text without a key', async () => {
    const i18n = await createI18n('ja');
    const out = splitGitDetail(i18n.t, { key: 'sources.no-skills', params: { source: 'o/r' } }, 'x');
    expect(out.detail).toBeUndefined();
    expect(out.text).toContain('o/r');
    expect(out.text).not.toBe('x');
    expect(splitGitDetail(i18n.t, undefined, 'plain')).toEqual({ text: 'plain' });
  });
});
