import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SkillDockEvent } from '../contract/index.js';
import { createService } from '../service.js';
import { securityEnv, writeSkill, type SecurityEnv } from '../../test/support/security.js';

// Issue 32: damaging approvals.json dropped every approval (a first approval had no backup, and a
// later one's backup was the version before it). The store now keeps as approvals.json.bak the last
// version it wrote, read back and validated, and a damaged file is set aside and replaced by it.

let env: SecurityEnv;
beforeEach(() => {
  env = securityEnv();
});
afterEach(async () => {
  await env.cleanup();
});

const skill = (name: string) =>
  writeSkill(path.join(env.home, 'library'), name, `# ${name}\n\n\`\`\`bash\nsh scripts/run.sh\n\`\`\`\n`, {
    'scripts/run.sh': 'echo hi\n',
  });

describe('approvals.json keeps a verified copy', () => {
  it.each([
    ['cut to 40 bytes', (t: string) => t.slice(0, 40)],
    ['emptied', () => ''],
    ['valid JSON of the wrong shape', () => '{"version":1,"data":{"approvals":"all"}}'],
  ])('damaged (%s), every approval comes back from the copy, and the damaged file is kept', async (_what, damage) => {
    for (const n of ['one', 'two']) skill(n);
    await env.service.api.approveSkill({ name: 'one' });
    const file = path.join(env.home, 'approvals.json');
    // the copy holds the first approval already: there was no backup at all before
    expect(JSON.parse(fs.readFileSync(`${file}.bak`, 'utf8')).data.approvals.map((a: { name: string }) => a.name)).toEqual(['one']);
    await env.service.api.approveSkill({ name: 'two' });
    const text = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(file, damage(text));

    // the next process reads it: both approvals, from the verified copy; the damaged file set aside
    const next = createService({ paths: { home: env.home, userHome: env.userHome, resourcesDir: env.resourcesDir } });
    const events: SkillDockEvent[] = [];
    next.on((e) => events.push(e));
    try {
      expect((await next.api.listApprovals({})).map((a) => a.name)).toEqual(['one', 'two']);
      expect(events.find((e) => e.type === 'store-corrupt')).toMatchObject({ file, recoveredFrom: 'backup' });
      const aside = fs.readdirSync(env.home).filter((n) => n.startsWith('approvals.json.corrupt-'));
      expect(aside).toHaveLength(1);
      expect(fs.readFileSync(path.join(env.home, aside[0]!), 'utf8')).toBe(damage(text));
      expect(fs.readFileSync(file, 'utf8')).toBe(text);
    } finally {
      await next.close();
    }
  });
});
