import type { IndexedSkillWithBody } from '../../src/contract/index.js';

/** One skill as a catalog's index keeps it, for search tests: plain, no findings, no scripts. */
export function indexedSkill(
  name: string,
  description: string,
  body = '',
  extra: Partial<IndexedSkillWithBody> = {},
): IndexedSkillWithBody {
  return {
    catalog: 'c',
    path: `skills/${name}`,
    name,
    description,
    digest: `d-${name}`,
    files: ['SKILL.md'],
    scripts: false,
    errors: 0,
    warnings: 0,
    droppedBy: [],
    security: { high: 0, medium: 0, low: 0, executable: false },
    risk: 'none',
    body,
    ...extra,
  };
}
