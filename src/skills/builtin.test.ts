import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeSkill } from './index.js';
import { RESOURCES } from '../../test/support/skills.js';

// The skills SkillDock ships must lint clean: no errors and no warnings.
const dir = path.join(RESOURCES, 'skills');
const names = fs
  .readdirSync(dir, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort();

describe('built-in skills', () => {
  it('ships at least two', () => {
    expect(names).toEqual(expect.arrayContaining(['writing-skills', 'skill-state']));
  });

  for (const name of names) {
    it(`${name} lints clean`, async () => {
      const a = await analyzeSkill(path.join(dir, name), { resourcesDir: RESOURCES });
      expect(a.diagnostics.filter((d) => d.severity !== 'info')).toEqual([]);
      expect(a.name).toBe(name);
      expect(a.description?.length).toBeGreaterThan(50);
      expect(a.legacyPaths).toEqual([]);
      expect(a.stateId).toMatch(new RegExp(`^${name}-`));
    });
  }
});
