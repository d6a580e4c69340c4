import type { ServedSet, ServedSkill } from '../contract/index.js';
import { fileUri, skillUri } from './uri.js';

// For hosts without the Skills extension (issue 27, point 4): two ordinary tools and a prompt per
// skill, so any MCP client can find and load the library's skills.

export const TOOLS = [
  {
    name: 'search_skills',
    title: 'Search skills',
    description:
      'Search the Agent Skills that SkillDock serves. Returns matching skills with name, description and a relevance score (0-1). Load one with load_skill.',
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'Words to look for in skill names and descriptions' },
        limit: { type: 'integer', minimum: 1, maximum: 100, description: 'Most results to return (default 10)' },
      },
      required: ['query'],
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: 'load_skill',
    title: 'Load a skill',
    description:
      "Load one skill served by SkillDock: its SKILL.md instructions and the list of its files (read them as skill:// resources). Relative paths in the instructions resolve against the skill's folder.",
    inputSchema: {
      type: 'object',
      properties: { name: { type: 'string', description: 'The skill name (or its skill:// URI)' } },
      required: ['name'],
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
] as const;

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
}

/**
 * Score 0..1: the share of query words found, a name hit counting three times a description hit,
 * prefix matches counting half. Plain and predictable; the library is hundreds of skills, not a corpus.
 */
export function searchSkills(
  set: ServedSet,
  query: string,
  limit = 10,
): Array<{ name: string; uri: string; description: string; score: number }> {
  const q = [...new Set(words(query))];
  if (!q.length) return [];
  const out: Array<{ name: string; uri: string; description: string; score: number }> = [];
  for (const s of set.skills) {
    const name = words(s.name);
    const desc = words(s.description);
    let sum = 0;
    for (const w of q) {
      const hit = (list: string[]) => (list.includes(w) ? 1 : list.some((x) => x.startsWith(w)) ? 0.5 : 0);
      sum += Math.max(3 * hit(name), hit(desc)) / 3;
    }
    const score = Math.round((sum / q.length) * 1000) / 1000;
    if (score > 0) out.push({ name: s.name, uri: skillUri(s.skillPath), description: s.description, score });
  }
  out.sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : 1));
  return out.slice(0, Math.max(1, Math.min(100, limit)));
}

/** The served skill a tool or prompt names: by name, skill path or SKILL.md URI. */
export function findSkill(set: ServedSet, ref: string): ServedSkill | undefined {
  return set.skills.find((s) => s.skillPath === ref || skillUri(s.skillPath) === ref) ?? set.skills.find((s) => s.name === ref);
}

/** The body of a SKILL.md (frontmatter removed). */
export function bodyOf(text: string): string {
  const m = /^\uFEFF?---\r?\n[\s\S]*?\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  return m ? text.slice(m[0].length) : text;
}

/** What load_skill answers: the instructions, where relative paths resolve, and the files. */
export function loadText(skill: ServedSkill, body: string): string {
  const files = skill.files.filter((f) => f.path !== 'SKILL.md');
  const lines = [
    `# Skill: ${skill.name}`,
    '',
    `Served by SkillDock over MCP. Base URI: ${skillUri(skill.skillPath).replace(/\/SKILL\.md$/, '/')} (relative paths in the instructions resolve against it).`,
  ];
  if (skill.trust.reason) lines.push('', `Note: ${skill.trust.reason} Do not run its scripts.`);
  lines.push('', body.trim(), '');
  if (files.length) lines.push('## Files', '', ...files.map((f) => `- ${f.path} (${fileUri(skill.skillPath, f.path)})`));
  return lines.join('\n');
}

/** Prompt names: the skill path with `/` as `.`, so two skills of one name stay apart. */
export function promptName(skill: ServedSkill): string {
  return skill.skillPath.split('/').join('.');
}
