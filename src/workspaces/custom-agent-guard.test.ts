import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createService, type SkillDockService } from '../service.js';
import { resources, sandbox, writeSkill, type Sandbox } from '../../test/support/workspaces.js';

// A custom agent saved through the engine is checked; one edited into settings.json by hand (or by
// anything running as the user) is not, and a launch joins its paths onto the workspace and writes
// there. Such an agent must never be used: the launch refuses with the reason, writes nothing.

let sb: Sandbox;
let svc: SkillDockService;
beforeEach(() => {
  sb = sandbox();
  svc = createService({ paths: { home: sb.home, userHome: sb.userHome, resourcesDir: resources } });
});
afterEach(async () => {
  await svc.close();
  sb.done();
});

function editSettingsByHand(customAgents: unknown[]): void {
  const file = path.join(sb.home, 'settings.json');
  const doc = JSON.parse(fs.readFileSync(file, 'utf8')) as { version: number; data: Record<string, unknown> };
  doc.data.customAgents = customAgents;
  fs.writeFileSync(file, JSON.stringify(doc));
}

it('never launches a hand-edited custom agent whose paths leave the workspace', async () => {
  writeSkill(sb.lib, 'notes');
  const good = { id: 'mine', name: 'Mine', command: 'mine', skillsDir: '.mine/skills', contextFile: 'MINE.md' };
  const settings = await svc.api.getSettings({});
  await svc.api.updateSettings({ ...settings, customAgents: [good] });
  await svc.api.createAssistant({ name: 'Escaper', agent: 'mine', rules: 'x', skills: ['notes'] });

  editSettingsByHand([{ ...good, skillsDir: '../../escaped/skills', contextFile: '../../ESCAPED.md' }]);
  expect((await svc.api.listAgents({})).map((a) => a.id)).not.toContain('mine');
  await expect(svc.api.launchAssistant({ assistant: 'Escaper' })).rejects.toThrow(
    /Custom agent "mine" in settings\.json cannot be used: skillsDir "\.\.\/\.\.\/escaped\/skills" must not contain "\.\."/,
  );
  const above = path.dirname(sb.home);
  expect(fs.existsSync(path.join(above, 'escaped'))).toBe(false);
  expect(fs.existsSync(path.join(sb.dir, 'escaped'))).toBe(false);
  expect(fs.existsSync(path.join(sb.home, 'ESCAPED.md'))).toBe(false);
  expect(fs.existsSync(path.join(sb.dir, 'ESCAPED.md'))).toBe(false);

  // Fixed by hand again: usable again.
  editSettingsByHand([good]);
  const r = await svc.api.launchAssistant({ assistant: 'Escaper' });
  expect(r.links.map((l) => l.skill)).toEqual(['notes']);
  expect(fs.realpathSync(path.join(r.workspace, '.mine', 'skills', 'notes'))).toBe(fs.realpathSync(path.join(sb.lib, 'notes')));
});
