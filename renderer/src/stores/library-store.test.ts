import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setClient } from '../client-port';
import { startEngine, type TestEngine } from '../test/engine';
import { useLibrary } from './library-store';
import { useSkill } from './skill-store';

// The stores pages now read (issue 11, page data through the stores), on a real engine: what is
// read when, what an event re-reads, answers for a view no longer shown dropped, failures worded
// with the last data kept. The test engine pushes no events; the tests call what sync.ts calls.

let engine: TestEngine;
beforeAll(async () => {
  engine = await startEngine();
  setClient(engine.client);
}, 60_000);
afterAll(async () => {
  await engine?.close();
});

const names = (list: Array<{ name: string }> | null) => (list ?? []).map((s) => s.name).sort();

describe('library store', () => {
  it('reads a watched list now and on each library change, and leaves an unwatched one alone', async () => {
    const lib = useLibrary.getState();
    const stopSkills = lib.watch('skills');
    const stopTrash = lib.watch('trash');
    await expect.poll(() => names(useLibrary.getState().skills.data)).toEqual(['bad-meta', 'code', 'docx', 'pdf']);
    await expect.poll(() => useLibrary.getState().trash.data).toEqual([]);

    await engine.client.api.deleteSkill({ name: 'code' }); // another door changes the library
    stopSkills();
    const rev = useLibrary.getState().rev;
    useLibrary.getState().libraryChanged();
    expect(useLibrary.getState().rev).toBe(rev + 1);
    await expect.poll(() => names(useLibrary.getState().trash.data)).toEqual(['code']);
    // Nobody shows the skills any more: not read again, so still as last read.
    expect(names(useLibrary.getState().skills.data)).toContain('code');
    stopTrash();
  });

  it('restore says when the name is taken, then restores under another name', async () => {
    const lib = useLibrary.getState();
    await lib.deleteSkill('docx');
    await lib.load('trash');
    const entry = useLibrary.getState().trash.data?.find((e) => e.name === 'docx');
    expect(entry).toBeDefined();
    await lib.createSkill('docx', 'plain', 'A new docx.');
    expect(await lib.restore(entry!)).toEqual({ taken: true });
    expect(await lib.restore(entry!, { as: 'docx-old' })).toMatchObject({ restored: 'docx-old', journalId: expect.any(String) });
    const { skills } = await engine.client.api.listLibrary({});
    expect(names(skills)).toEqual(expect.arrayContaining(['docx', 'docx-old']));
    const undone = await lib.undo();
    expect(undone.undone.op).toBe('restore');
  });

  it('the export view answers for the skill shown, not one asked before', async () => {
    const lib = useLibrary.getState();
    const first = lib.openExport('docx');
    const second = lib.openExport('pdf');
    await Promise.all([first, second]);
    const view = useLibrary.getState().exportView;
    expect(view?.name).toBe('pdf');
    expect(view?.targets?.length).toBeGreaterThan(0);
    lib.closeExport();
    expect(useLibrary.getState().exportView).toBeNull();
  });

  it('checks a new name with the engine', async () => {
    const check = await useLibrary.getState().checkName('Bad_Name');
    expect(check.name).toBe('Bad_Name');
    expect(check.diagnostics.some((d) => d.severity === 'error')).toBe(true);
    expect((await useLibrary.getState().checkName('pdf')).inLibrary).toBe(true);
  });
});

describe('skill store', () => {
  it('the view answers for the key asked last, whichever read ends first', async () => {
    const skill = useSkill.getState();
    const first = skill.loadActivation('pdf-key', 'pdf');
    const second = skill.loadActivation('docx-key', 'docx');
    await Promise.all([first, second]);
    const view = useSkill.getState().activation;
    expect(view?.key).toBe('docx-key');
    expect(view?.data?.entry.name).toBe('docx');
  });

  it('reads the security facts by folder, approves, and keeps a refusal listed after reading again', async () => {
    const pdf = await engine.client.api.getSkill({ name: 'pdf' });
    const skill = useSkill.getState();
    await skill.loadSecurity('pdf-sec', pdf.provenance.dir);
    expect(useSkill.getState().security?.data?.trust?.status).toBe('unapproved');
    expect(useSkill.getState().security?.data?.inventory?.hasExecutableSurface).toBe(true);
    await skill.approve(pdf.provenance.dir);
    expect(useSkill.getState().security?.data?.trust?.status).toBe('approved');
    // A folder that is no skill: the engine refuses; the facts are read again and the refusal stays listed.
    await skill.approve(`${pdf.provenance.dir}/no-such-folder`);
    const facts = useSkill.getState().security?.data;
    expect(facts?.trust?.status).toBe('approved');
    expect(facts?.errors).toHaveLength(1);
    expect(facts?.errors[0]).toMatch(/\S/);
    expect(useSkill.getState().securityBusy).toBe(false);
    await skill.revoke('pdf');
    expect(useSkill.getState().security?.data).toMatchObject({ errors: [], trust: { status: 'unapproved' } });
  });

  it('a file read answers for its key; a path outside the skill is refused in words', async () => {
    const pdf = await engine.client.api.getSkill({ name: 'pdf' });
    await useSkill.getState().readFile('f1', pdf.id, 'scripts/extract.sh', 1024);
    expect(useSkill.getState().file?.data?.content).toBe('echo extract\n');
    await useSkill.getState().readFile('f2', pdf.id, '../docx/SKILL.md', 1024);
    expect(useSkill.getState().file).toMatchObject({ key: 'f2', data: null });
    expect(useSkill.getState().file?.error).toBeTruthy();
  });
});

describe('when the engine is gone', () => {
  it('a failed read is worded and the last data stays', async () => {
    await useLibrary.getState().load('trash');
    const before = useLibrary.getState().trash.data;
    expect(before).not.toBeNull();
    await engine.close();
    await useLibrary.getState().load('trash');
    expect(useLibrary.getState().trash.data).toEqual(before);
    expect(useLibrary.getState().trash.error).toBeTruthy();
  });
});
