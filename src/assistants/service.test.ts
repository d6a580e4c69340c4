import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SkillDockEvent } from '../contract/index.js';
import type { SkillDockService } from '../service.js';
import { SkillDockError } from '../errors.js';
import { getAssistants } from './service.js';
import { makeEnv, writeSkill, type TestEnv } from '../../test/support/assistants.js';

let env: TestEnv;
let svc: SkillDockService;
let events: SkillDockEvent[];

beforeEach(() => {
  env = makeEnv();
  writeSkill(path.join(env.resourcesDir, 'skills'), 'guide');
  writeSkill(path.join(env.home, 'library'), 'pdf');
  writeSkill(path.join(env.home, 'library'), 'docx');
  writeSkill(path.join(env.userHome, '.claude', 'skills'), 'claude-only');
  // Same name in two roots: the library one shadows the user one.
  writeSkill(path.join(env.userHome, '.claude', 'skills'), 'pdf', 'A different pdf skill.');
  svc = env.service();
  events = [];
  svc.on((e) => events.push(e));
});

afterEach(async () => {
  await env.cleanup();
});

const changes = () => events.filter((e) => e.type === 'assistants-changed');

async function expectError(p: Promise<unknown>, code: string, message: RegExp): Promise<void> {
  await expect(p).rejects.toMatchObject({ code, message: expect.stringMatching(message) });
}

describe('assistants: create, get, list', () => {
  it('creates an assistant, stores it versioned on disk, and finds it by id and by name', async () => {
    const v = await svc.api.createAssistant({ name: 'Reviewer', agent: 'claude', rules: '# Be terse' });
    expect(v).toMatchObject({ name: 'Reviewer', agent: 'claude', rules: '# Be terse', builtin: false, skills: [], defaultWorkspace: null });
    expect(v.id).toMatch(/^ast-[0-9a-f]{12}$/);
    const onDisk = JSON.parse(fs.readFileSync(path.join(env.home, 'assistants.json'), 'utf8'));
    expect(onDisk.version).toBe(1);
    expect(onDisk.data.assistants.map((a: { id: string }) => a.id)).toEqual([v.id]);
    expect((await svc.api.getAssistant({ assistant: v.id })).name).toBe('Reviewer');
    expect((await svc.api.getAssistant({ assistant: 'reviewer' })).id).toBe(v.id);
    expect((await svc.api.getAssistant({ assistant: '  REVIEWER ' })).id).toBe(v.id);
    const list = await svc.api.listAssistants({});
    expect(list.filter((a) => !a.builtin).map((a) => a.name)).toEqual(['Reviewer']);
    expect(changes()).toEqual([{ type: 'assistants-changed', action: 'created', id: v.id }]);
  });

  it('refuses a duplicate name case-insensitively, a starter name, and an unknown agent', async () => {
    await svc.api.createAssistant({ name: 'Reviewer', agent: 'claude' });
    await expectError(svc.api.createAssistant({ name: 'reviewer', agent: 'gemini' }), 'conflict', /already .*"Reviewer"/);
    await expectError(svc.api.createAssistant({ name: 'code reviewer', agent: 'gemini' }), 'conflict', /built-in starter/);
    await expectError(svc.api.createAssistant({ name: 'X', agent: 'nope' }), 'not-found', /Unknown agent "nope".*claude/);
    await expectError(svc.api.createAssistant({ name: '   ', agent: 'claude' }), 'bad-request', /name/);
    expect((await svc.api.listAssistants({})).filter((a) => !a.builtin)).toHaveLength(1);
  });

  it('accepts a custom agent from settings', async () => {
    await svc.api.updateSettings({
      customAgents: [{ id: 'mine', name: 'Mine', command: 'mine', skillsDir: '.mine/skills', contextFile: 'MINE.md' }],
    });
    const v = await svc.api.createAssistant({ name: 'Custom', agent: 'mine' });
    expect(v.agentMissing).toBe(false);
    await svc.api.updateSettings({ customAgents: [] });
    expect((await svc.api.getAssistant({ assistant: 'Custom' })).agentMissing).toBe(true);
  });

  it('says which assistants exist when one is unknown', async () => {
    await svc.api.createAssistant({ name: 'Reviewer', agent: 'claude' });
    await expectError(svc.api.getAssistant({ assistant: 'Nobody' }), 'not-found', /Unknown assistant "Nobody".*Reviewer/);
  });
});

describe('assistants: edit', () => {
  it('renames, changes agent, rules and default workspace, and keeps the id', async () => {
    const v = await svc.api.createAssistant({ name: 'Reviewer', agent: 'claude' });
    await svc.api.createAssistant({ name: 'Other', agent: 'claude' });
    const ws = path.join(env.dir, 'project');
    const u = await svc.api.updateAssistant({ assistant: 'Reviewer', name: 'Critic', agent: 'gemini', rules: 'new', defaultWorkspace: ws });
    expect(u).toMatchObject({ id: v.id, name: 'Critic', agent: 'gemini', rules: 'new', defaultWorkspace: ws, createdAt: v.createdAt });
    expect(u.updatedAt >= v.updatedAt).toBe(true);
    // Changing only the case of one's own name is allowed; taking another's name is not.
    expect((await svc.api.updateAssistant({ assistant: v.id, name: 'CRITIC' })).name).toBe('CRITIC');
    await expectError(svc.api.updateAssistant({ assistant: v.id, name: 'other' }), 'conflict', /"Other"/);
    await expectError(svc.api.updateAssistant({ assistant: v.id, agent: 'nope' }), 'not-found', /Unknown agent/);
    await expectError(svc.api.updateAssistant({ assistant: v.id, defaultWorkspace: 'relative/dir' }), 'bad-request', /absolute/);
    expect((await svc.api.updateAssistant({ assistant: v.id, defaultWorkspace: null })).defaultWorkspace).toBeNull();
    expect(changes().filter((e) => e.action === 'updated')).toHaveLength(3);
  });
});

describe('assistants: attach and detach', () => {
  it('attaches skills from the builtin, library and user roots with their provenance', async () => {
    await svc.api.createAssistant({ name: 'R', agent: 'claude' });
    const v = await svc.api.attachSkills({ assistant: 'R', skills: ['guide', 'pdf', 'claude-only'] });
    const byName = Object.fromEntries(v.skills.map((s) => [s.name, s]));
    expect(byName.guide).toMatchObject({ rootId: 'builtin', rootKind: 'builtin', missing: false, relocated: false, changed: false });
    expect(byName.guide.rootPath).toBe(path.join(env.resourcesDir, 'skills'));
    // The name means the skill agents load: the library one, not the shadowed user one.
    expect(byName.pdf).toMatchObject({ rootId: 'library', rootKind: 'library' });
    expect(byName.pdf.entry?.provenance.dir).toBe(path.join(env.home, 'library', 'pdf'));
    expect(byName['claude-only']).toMatchObject({ rootKind: 'user', rootPath: path.join(env.userHome, '.claude', 'skills') });
    expect(byName.pdf.digest).toBe(byName.pdf.entry?.digest);
    expect(v.missingCount).toBe(0);
    expect(changes().at(-1)).toMatchObject({ action: 'skills-attached' });
  });

  it('attaches a shadowed skill when a root is named, and re-attaching a name re-pins it', async () => {
    await svc.api.createAssistant({ name: 'R', agent: 'claude' });
    await svc.api.attachSkills({ assistant: 'R', skills: ['pdf'] });
    const v = await svc.api.attachSkills({ assistant: 'R', skills: ['pdf'], rootId: 'user:.claude/skills' });
    expect(v.skills).toHaveLength(1);
    expect(v.skills[0]).toMatchObject({ rootKind: 'user', missing: false, relocated: false });
    expect(v.skills[0].entry?.description).toBe('A different pdf skill.');
    await expectError(
      svc.api.attachSkills({ assistant: 'R', skills: [{ name: 'guide', rootId: 'library' }] }),
      'not-found',
      /"guide" is not in root library \(found in builtin\)/,
    );
  });

  it('refuses unknown skill names all at once and attaches nothing', async () => {
    await svc.api.createAssistant({ name: 'R', agent: 'claude' });
    await expectError(svc.api.attachSkills({ assistant: 'R', skills: ['pdf', 'nope', 'nada'] }), 'not-found', /unknown skills: nope, nada/);
    expect((await svc.api.getAssistant({ assistant: 'R' })).skills).toEqual([]);
  });

  it('shows a skill deleted from disk as missing, and lets it be detached', async () => {
    await svc.api.createAssistant({ name: 'R', agent: 'claude', skills: ['docx', 'guide'] });
    fs.rmSync(path.join(env.home, 'library', 'docx'), { recursive: true });
    const v = await svc.api.getAssistant({ assistant: 'R' });
    const docx = v.skills.find((s) => s.name === 'docx')!;
    expect(docx).toMatchObject({ missing: true, entry: null, rootId: 'library' });
    expect(v.missingCount).toBe(1);
    const after = await svc.api.detachSkills({ assistant: 'R', skills: ['docx'] });
    expect(after.skills.map((s) => s.name)).toEqual(['guide']);
    // Detaching never touches the skill on disk.
    expect(fs.existsSync(path.join(env.home, 'library', 'pdf', 'SKILL.md'))).toBe(true);
  });

  it('detach leaves the skill in the library and refuses names that are not attached', async () => {
    await svc.api.createAssistant({ name: 'R', agent: 'claude', skills: ['pdf', 'docx'] });
    const v = await svc.api.detachSkills({ assistant: 'R', skills: ['pdf'] });
    expect(v.skills.map((s) => s.name)).toEqual(['docx']);
    expect(fs.existsSync(path.join(env.home, 'library', 'pdf', 'SKILL.md'))).toBe(true);
    await expectError(svc.api.detachSkills({ assistant: 'R', skills: ['pdf', 'docx'] }), 'not-found', /not attached to "R": pdf/);
    expect((await svc.api.getAssistant({ assistant: 'R' })).skills.map((s) => s.name)).toEqual(['docx']);
    expect(changes().at(-1)).toMatchObject({ action: 'skills-detached' });
  });

  it('flags a skill that changed since it was attached, and one that moved to another root', async () => {
    await svc.api.createAssistant({ name: 'R', agent: 'claude', skills: ['docx', 'claude-only'] });
    fs.appendFileSync(path.join(env.home, 'library', 'docx', 'SKILL.md'), '\nMore steps.\n');
    // The user adopts claude-only into the library and removes the original.
    fs.cpSync(path.join(env.userHome, '.claude', 'skills', 'claude-only'), path.join(env.home, 'library', 'claude-only'), {
      recursive: true,
    });
    fs.rmSync(path.join(env.userHome, '.claude', 'skills', 'claude-only'), { recursive: true });
    const v = await svc.api.getAssistant({ assistant: 'R' });
    const byName = Object.fromEntries(v.skills.map((s) => [s.name, s]));
    expect(byName.docx).toMatchObject({ changed: true, missing: false, relocated: false });
    expect(byName['claude-only']).toMatchObject({ missing: false, relocated: true, rootKind: 'user' });
    expect(byName['claude-only'].entry?.provenance.rootId).toBe('library');
  });

  it('an attach check (script trust) holds skills back: the others are attached, the held ones named; all held refuses', async () => {
    await svc.api.createAssistant({ name: 'R', agent: 'claude' });
    const seen: string[] = [];
    const error = new SkillDockError(
      'refused',
      'docx needs approval',
      { skill: 'docx', status: 'unapproved' },
      {
        key: 'security.attach-ask',
        params: { skill: 'docx' },
      },
    );
    const remove = getAssistants(svc.ctx).addAttachCheck((entries, a) => {
      seen.push(`${a.name}:${entries.map((e) => e.name).join(',')}`);
      return entries.filter((e) => e.name === 'docx').map((entry) => ({ entry, status: 'unapproved', error }));
    });
    const partly = await svc.api.attachSkills({ assistant: 'R', skills: ['pdf', 'docx'] });
    expect(partly.skills.map((s) => s.name)).toEqual(['pdf']);
    expect(partly.waiting).toEqual([
      { name: 'docx', status: 'unapproved', msg: { key: 'security.attach-ask', params: { skill: 'docx' } } },
    ]);
    // Every skill held back: nothing to attach, and the hold's error says why.
    await expectError(svc.api.attachSkills({ assistant: 'R', skills: ['docx'] }), 'refused', /docx needs approval/);
    // A new assistant is all or nothing: it is not created with part of its skills.
    await expectError(svc.api.createAssistant({ name: 'S', agent: 'claude', skills: ['pdf', 'docx'] }), 'refused', /docx needs approval/);
    remove();
    expect((await svc.api.attachSkills({ assistant: 'R', skills: ['docx'] })).waiting).toBeUndefined();
    expect(seen).toEqual(['R:pdf,docx', 'R:docx', 'S:pdf,docx']);
    expect((await svc.api.getAssistant({ assistant: 'R' })).skills.map((s) => s.name)).toEqual(['pdf', 'docx']);
  });

  it('resolves skills picked from a project root against that project', async () => {
    const project = path.join(env.dir, 'proj');
    writeSkill(path.join(project, '.claude', 'skills'), 'proj-skill');
    await svc.api.createAssistant({ name: 'R', agent: 'claude' });
    const v = await svc.api.attachSkills({ assistant: 'R', skills: ['proj-skill'], project });
    expect(v.skills[0]).toMatchObject({ rootKind: 'project', rootPath: path.join(project, '.claude', 'skills'), missing: false });
    // Later, without naming the project, the skill is still found through its recorded root.
    const again = await svc.api.getAssistant({ assistant: 'R' });
    expect(again.skills[0]).toMatchObject({ missing: false, relocated: false });
    expect(again.skills[0].entry?.provenance.dir).toBe(path.join(project, '.claude', 'skills', 'proj-skill'));
  });
});

describe('assistants: duplicate and delete', () => {
  it('names a copy of a copy from the original, never "R copy 2 copy" (issue 23 item 14)', async () => {
    await svc.api.createAssistant({ name: 'Q', agent: 'codex' });
    await svc.api.duplicateAssistant({ assistant: 'Q' });
    const second = await svc.api.duplicateAssistant({ assistant: 'Q copy' });
    const third = await svc.api.duplicateAssistant({ assistant: second.name });
    expect([second.name, third.name]).toEqual(['Q copy 2', 'Q copy 3']);
  });

  it('duplicates with a free name and its own id, then deletes', async () => {
    const a = await svc.api.createAssistant({ name: 'R', agent: 'codex', rules: 'x', skills: ['pdf'] });
    const b = await svc.api.duplicateAssistant({ assistant: 'R' });
    const c = await svc.api.duplicateAssistant({ assistant: 'R' });
    expect([b.name, c.name]).toEqual(['R copy', 'R copy 2']);
    expect(b).toMatchObject({ agent: 'codex', rules: 'x', builtin: false });
    expect(b.id).not.toBe(a.id);
    expect(b.skills.map((s) => s.name)).toEqual(['pdf']);
    const named = await svc.api.duplicateAssistant({ assistant: a.id, name: 'Mine' });
    expect(named.name).toBe('Mine');
    await expectError(svc.api.duplicateAssistant({ assistant: a.id, name: 'r copy' }), 'conflict', /already/);
    // Editing the copy leaves the original alone.
    await svc.api.detachSkills({ assistant: b.id, skills: ['pdf'] });
    expect((await svc.api.getAssistant({ assistant: a.id })).skills).toHaveLength(1);
    expect(await svc.api.deleteAssistant({ assistant: 'r' })).toEqual({ id: a.id, name: 'R' });
    await expectError(svc.api.getAssistant({ assistant: a.id }), 'not-found', /Unknown assistant/);
    expect(fs.existsSync(path.join(env.home, 'library', 'pdf', 'SKILL.md'))).toBe(true);
    expect(changes().map((e) => e.action)).toEqual(['created', 'duplicated', 'duplicated', 'duplicated', 'skills-detached', 'deleted']);
  });
});

describe('assistants: starters', () => {
  it('lists the starters read-only, on registry agents, and refuses to change them', async () => {
    const starters = (await svc.api.listAssistants({})).filter((a) => a.builtin);
    expect(starters.map((s) => s.name)).toEqual(expect.arrayContaining(['Code Reviewer', 'Skill Author', 'Researcher']));
    for (const s of starters) {
      expect(s.id).toMatch(/^starter-/);
      expect(s.rules.length).toBeGreaterThan(50);
      const v = await svc.api.getAssistant({ assistant: s.id });
      expect(v.agentMissing).toBe(false);
    }
    const before = fs.existsSync(path.join(env.home, 'assistants.json'));
    await expectError(svc.api.updateAssistant({ assistant: 'Code Reviewer', rules: 'x' }), 'refused', /built-in starter.*duplicate/);
    await expectError(svc.api.attachSkills({ assistant: 'Code Reviewer', skills: ['pdf'] }), 'refused', /built-in/);
    await expectError(svc.api.detachSkills({ assistant: 'Code Reviewer', skills: ['pdf'] }), 'refused', /built-in/);
    await expectError(svc.api.deleteAssistant({ assistant: 'starter-researcher' }), 'refused', /built-in/);
    expect(fs.existsSync(path.join(env.home, 'assistants.json'))).toBe(before);
    expect(changes()).toEqual([]);
  });

  it('every skill a starter names ships in resources/skills (none shows as missing)', async () => {
    const real = makeEnv({ realBuiltins: true });
    try {
      const service = real.service();
      for (const s of (await service.api.listAssistants({})).filter((a) => a.builtin)) {
        const v = await service.api.getAssistant({ assistant: s.id });
        expect(
          v.skills.filter((k) => k.missing).map((k) => k.name),
          s.name,
        ).toEqual([]);
        for (const k of v.skills) expect(k.entry?.provenance.rootKind).toBe('builtin');
      }
    } finally {
      await real.cleanup();
    }
  });

  it('duplicates a starter into an editable assistant', async () => {
    const copy = await svc.api.duplicateAssistant({ assistant: 'code reviewer' });
    expect(copy).toMatchObject({ name: 'Code Reviewer copy', builtin: false, agent: 'claude' });
    const starter = getAssistants(svc.ctx).get('starter-code-reviewer');
    expect(copy.rules).toBe(starter.rules);
    const edited = await svc.api.updateAssistant({ assistant: copy.id, name: 'My Reviewer', rules: 'mine' });
    expect(edited.rules).toBe('mine');
    expect(getAssistants(svc.ctx).get('starter-code-reviewer').rules).toBe(starter.rules);
  });
});

describe('assistants: through service.call (what IPC and HTTP use)', () => {
  it('validates payloads and returns errors as { code, message }', async () => {
    expect(await svc.call('createAssistant', { name: 7, agent: 'claude' })).toMatchObject({ ok: false, error: { code: 'bad-request' } });
    expect(await svc.call('deleteAssistant', { assistant: 'Researcher' })).toMatchObject({ ok: false, error: { code: 'refused' } });
    const made = await svc.call('createAssistant', { name: '  Spaced  ', agent: 'qwen' });
    expect(made).toMatchObject({ ok: true, value: { name: 'Spaced', rules: '', skills: [], missingCount: 0, agentMissing: false } });
    const attached = await svc.call('attachSkills', { assistant: 'spaced', skills: [{ name: 'pdf', rootId: 'library' }] });
    expect(attached).toMatchObject({ ok: true, value: { skills: [{ name: 'pdf', rootId: 'library', missing: false }] } });
  });
});

describe('assistants: persistence', () => {
  it('a second service on the same home sees every change (no in-memory cache)', async () => {
    const other = env.service();
    await svc.api.createAssistant({ name: 'A', agent: 'claude' });
    await other.api.createAssistant({ name: 'B', agent: 'gemini' });
    await svc.api.attachSkills({ assistant: 'B', skills: ['pdf'] });
    const names = (await other.api.listAssistants({})).filter((a) => !a.builtin).map((a) => a.name);
    expect(names).toEqual(['A', 'B']);
    expect((await other.api.getAssistant({ assistant: 'b' })).skills.map((s) => s.name)).toEqual(['pdf']);
    await expectError(other.api.createAssistant({ name: 'a', agent: 'claude' }), 'conflict', /"A"/);
  });

  it('a corrupt assistants.json is moved aside and the last good version is used', async () => {
    await svc.api.createAssistant({ name: 'A', agent: 'claude' });
    await svc.api.createAssistant({ name: 'B', agent: 'claude' });
    const file = path.join(env.home, 'assistants.json');
    fs.writeFileSync(file, '{"version":1,"data":{"assistants":[{"id":');
    const names = (await svc.api.listAssistants({})).filter((a) => !a.builtin).map((a) => a.name);
    expect(names).toEqual(['A']); // the backup taken before B was written
    expect(fs.readdirSync(env.home).some((n) => n.startsWith('assistants.json.corrupt-'))).toBe(true);
    expect(events.some((e) => e.type === ('store-corrupt' as string))).toBe(true);
  });
});
