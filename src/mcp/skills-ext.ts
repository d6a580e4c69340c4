import type { ServedSet, ServedSkill } from '../contract/index.js';
import { dirUri, fileUri, skillUri } from './uri.js';

// The Skills extension's shapes (SEP-2640 v1, upstream commit 0eb05fe) built from a served set:
// `skills/list` entries, `resources/list` rows, `resources/directory/read` children, and the
// earlier drafts' `skill://index.json`. Pure functions: the server wires them to requests.

export const EXTENSION_ID = 'io.modelcontextprotocol/skills';
/** SkillDock's own `_meta` prefix (the extension reserves `io.modelcontextprotocol.skills/`). */
const TRUST_META = 'io.skilldock/trust';
/** SEP-2549 list caching: a freshness hint; `list_changed` still invalidates at once. */
export const LIST_TTL_MS = 60_000;

export interface SkillEntry {
  uri: string;
  frontmatter: Record<string, unknown>;
  resources: Array<{ uri: string; digest: string }>;
  _meta: Record<string, unknown>;
}

export function trustMeta(s: ServedSkill): Record<string, unknown> {
  return {
    [TRUST_META]: {
      status: s.trust.status,
      withheld: s.trust.withheld,
      reason: s.trust.reason,
      ...(s.trust.msg ? { msg: s.trust.msg } : {}),
    },
  };
}

export function skillEntry(s: ServedSkill): SkillEntry {
  return {
    uri: skillUri(s.skillPath),
    frontmatter: s.frontmatter,
    resources: s.files.map((f) => ({ uri: fileUri(s.skillPath, f.path), digest: f.digest })),
    _meta: trustMeta(s),
  };
}

export interface ResourceRow {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType: string;
  size?: number;
  _meta?: Record<string, unknown>;
}

/** Every served file as a resource (SKILL.md first in each skill, with name and description). */
export function resourceRows(set: ServedSet): ResourceRow[] {
  const rows: ResourceRow[] = [];
  for (const s of set.skills) {
    for (const f of s.files) {
      if (f.path === 'SKILL.md') {
        rows.push({
          uri: fileUri(s.skillPath, f.path),
          name: s.name,
          description: s.description,
          mimeType: 'text/markdown',
          size: f.size,
          _meta: trustMeta(s),
        });
      } else {
        rows.push({
          uri: fileUri(s.skillPath, f.path),
          name: f.path.slice(f.path.lastIndexOf('/') + 1),
          title: `${s.name}/${f.path}`,
          mimeType: f.mimeType,
          size: f.size,
        });
      }
    }
  }
  return rows;
}

/** The served skill a decoded path belongs to and the file path inside it (longest skill path wins). */
export function locate(set: ServedSet, decoded: string): { skill: ServedSkill; rel: string } | null {
  let best: { skill: ServedSkill; rel: string } | null = null;
  for (const s of set.skills) {
    if (decoded === s.skillPath) {
      if (!best || s.skillPath.length > best.skill.skillPath.length) best = { skill: s, rel: '' };
    } else if (decoded.startsWith(`${s.skillPath}/`)) {
      if (!best || s.skillPath.length > best.skill.skillPath.length) best = { skill: s, rel: decoded.slice(s.skillPath.length + 1) };
    }
  }
  return best;
}

/** Direct children of a directory of a served skill (`rel` '' is the skill root); null when no such directory. */
export function directoryChildren(skill: ServedSkill, rel: string): ResourceRow[] | null {
  const prefix = rel ? `${rel}/` : '';
  const files: ResourceRow[] = [];
  const dirs = new Set<string>();
  for (const f of skill.files) {
    if (!f.path.startsWith(prefix)) continue;
    const rest = f.path.slice(prefix.length);
    const slash = rest.indexOf('/');
    if (slash < 0) files.push({ uri: fileUri(skill.skillPath, f.path), name: rest, mimeType: f.mimeType, size: f.size });
    else dirs.add(rest.slice(0, slash));
  }
  if (rel && !files.length && !dirs.size) return null;
  const dirRows = [...dirs].sort().map((d) => ({ uri: dirUri(skill.skillPath, prefix + d), name: d, mimeType: 'inode/directory' }));
  return [...files, ...dirRows];
}

/** `skill://index.json` as the pre-v1 drafts defined it (agentskills discovery index, plus digest). */
export function indexJson(set: ServedSet): string {
  const skills = set.skills.map((s) => ({
    name: s.name,
    type: 'skill-md',
    description: s.description,
    url: skillUri(s.skillPath),
    digest: s.files.find((f) => f.path === 'SKILL.md')?.digest,
  }));
  return JSON.stringify({ $schema: 'https://schemas.agentskills.io/discovery/0.2.0/schema.json', skills }, null, 2);
}

/** A stable fingerprint of what is served: a change here is a `list_changed`. */
export function fingerprint(set: ServedSet): string {
  return JSON.stringify(set.skills.map((s) => [s.skillPath, s.description, s.files.map((f) => [f.path, f.digest]), s.trust.withheld]));
}
