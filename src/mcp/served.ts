import fs from 'node:fs';
import path from 'node:path';
import { isInside } from '../base/extpath.js';
import type { CatalogEntry, McpScope, MessageRef, ServedContent, ServedFile, ServedSet, ServedSkill } from '../contract/index.js';
import { formatMessage } from '../contract/messages-text.js';
import type { ServiceContext } from '../service-context.js';
import { fail } from '../errors.js';
import { getCatalog } from '../catalog/index.js';
import { getAssistants } from '../assistants/service.js';
import { getSecurity } from '../security/security-service.js';
import { getSettings } from '../settings/settings.js';
import { walkSkill } from '../skills/index.js';
import { sha256Hex } from '../skills/walk.js';
import { decodeText, resolveInSkill } from '../skills/edit-paths.js';
import { mimeTypeOf } from './mime.js';

// The engine side of `skilldock mcp`: which skills a scope serves, every file of each with its
// SHA-256 (SEP-2640 `resources`), and what trust withholds. Files are served only when listed here:
// a read names a listed path, so `..`, encoded separators, links that leave the folder and
// withheld scripts never reach the disk. The per-skill file list is cached by the catalog's folder
// digest, so a warm listing of 1,000 skills reads no file.

/** Agent Skills naming rule for `name` (the last segment of a skill URI). */
const SKILL_NAME = /^[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){0,63}$/;
/** Largest file served (a skill is instructions, not a data set). */
export const MCP_MAX_FILE_BYTES = 16 << 20;

interface Files {
  files: ServedFile[];
  /** Links whose target leaves the folder (or dangles): never served. */
  outside: string[];
}

export class McpServed {
  private readonly fileCache = new Map<string, { key: string; files: Files }>();
  private readonly setCache = new Map<string, { key: string; set: ServedSet }>();

  constructor(private readonly ctx: ServiceContext) {}

  /** The served skills of a scope. */
  async servedSet(scope: McpScope): Promise<ServedSet> {
    const { entries, hidden, generation } = await this.scopeEntries(scope);
    const unapproved = getSettings(this.ctx).trustedMcpUnapproved();
    // One trust decision for the whole set; `skip` keeps instructions and withholds the scripts.
    const decision = getSecurity(this.ctx).launchDecision(entries, { onChanged: unapproved === 'hide' ? 'omit' : 'skip' });
    const cacheKey = JSON.stringify(scope);
    const key = `${generation}|${unapproved}|${JSON.stringify(decision.skills.map((s) => [s.action, s.digest]))}`;
    const hit = this.setCache.get(cacheKey);
    if (hit && hit.key === key) return hit.set;
    const skills: ServedSkill[] = [];
    const names = new Map<string, number>();
    for (const e of entries) names.set(e.name, (names.get(e.name) ?? 0) + 1);
    entries.forEach((entry, i) => {
      const d = decision.skills[i];
      if (d.action === 'omit' || d.action === 'refuse' || (d.action === 'link-no-scripts' && unapproved === 'hide')) {
        const msg = withheldMsg(d.status, decision.policy, entry.name, true);
        hidden.push({ name: entry.name, reason: formatMessage(msg), msg });
        return;
      }
      const blocked = new Set(d.action === 'link-no-scripts' ? (d.blocked ?? []) : []);
      const all = this.filesOf(entry);
      const files = all.files.filter((f) => !blocked.has(f.path));
      const withheld = [...new Set([...blocked, ...all.outside])].sort();
      const msg = blocked.size ? withheldMsg(d.status, decision.policy, entry.name, false) : undefined;
      // Two served skills of one name: the folder name becomes the prefix (its last segment stays the name).
      const skillPath = names.get(entry.name)! > 1 ? `${entry.dirName}/${entry.name}` : entry.name;
      skills.push({
        name: entry.name,
        skillPath,
        entryId: entry.id,
        description: entry.description,
        frontmatter: entry.frontmatter ?? {},
        files,
        trust: { status: d.status, withheld, reason: msg ? formatMessage(msg) : null, ...(msg ? { msg } : {}) },
      });
    });
    const set: ServedSet = { skills, hidden, unapproved, generation };
    this.setCache.set(cacheKey, { key, set });
    return set;
  }

  /** One listed file of a served skill, read fresh. */
  async read(scope: McpScope, skillPath: string, rel: string): Promise<ServedContent> {
    const set = await this.servedSet(scope);
    const skill = set.skills.find((s) => s.skillPath === skillPath);
    if (!skill) throw fail('not-found', 'mcp.unknown-skill', { skill: skillPath });
    const file = skill.files.find((f) => f.path === rel);
    if (!file) {
      const key = skill.trust.withheld.includes(rel) ? 'mcp.file-withheld' : 'mcp.unknown-file';
      throw fail('not-found', key, { skill: skillPath, path: rel });
    }
    const entry = (await getCatalog(this.ctx).list({})).entries.find((e) => e.id === skill.entryId);
    if (!entry) throw fail('not-found', 'mcp.unknown-skill', { skill: skillPath });
    // Resolved part by part again: a link swapped in since the listing still cannot lead outside.
    const abs = resolveInSkill(entry.provenance.realPath, rel, 'read');
    let bytes: Buffer;
    try {
      const st = fs.statSync(abs);
      if (!st.isFile()) throw fail('not-found', 'mcp.unknown-file', { skill: skillPath, path: rel });
      if (st.size > MCP_MAX_FILE_BYTES) throw fail('refused', 'mcp.file-too-large', { path: rel, size: st.size });
      bytes = fs.readFileSync(abs);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw fail('not-found', 'mcp.unknown-file', { skill: skillPath, path: rel });
      throw err;
    }
    const text = file.mimeType.startsWith('text/') || file.mimeType === 'application/json' ? decodeText(bytes) : null;
    return {
      path: rel,
      mimeType: file.mimeType,
      digest: `sha256:${sha256Hex(bytes)}`,
      size: bytes.length,
      text,
      base64: text === null ? bytes.toString('base64') : null,
    };
  }

  private async scopeEntries(scope: McpScope): Promise<{ entries: CatalogEntry[]; hidden: ServedSet['hidden']; generation: number }> {
    const catalog = await getCatalog(this.ctx).list({});
    const hidden: ServedSet['hidden'] = [];
    let picked: CatalogEntry[];
    if (scope.assistant) {
      const view = await getAssistants(this.ctx).view(scope.assistant);
      picked = [];
      for (const s of view.skills) {
        if (s.entry) picked.push(s.entry);
        else hide(hidden, s.name, { key: 'mcp.not-found', params: { skill: s.name } });
      }
    } else if (scope.skills) {
      picked = [];
      for (const name of scope.skills) {
        const e =
          catalog.entries.find((x) => x.name === name && !x.shadowedBy) ??
          catalog.entries.find((x) => x.id === name) ??
          catalog.entries.find((x) => x.dirName === name && !x.shadowedBy);
        if (e) picked.push(e);
        else hide(hidden, name, { key: 'mcp.not-found', params: { skill: name } });
      }
    } else {
      picked = catalog.entries.filter((e) => !e.shadowedBy && (e.provenance.rootKind === 'library' || e.provenance.rootKind === 'builtin'));
    }
    const entries: CatalogEntry[] = [];
    const seen = new Set<string>();
    for (const e of picked) {
      if (seen.has(e.id)) continue;
      seen.add(e.id);
      const fm = e.frontmatter;
      // SEP-2640: the URI's last segment is the frontmatter name, which follows the naming rule.
      if (!fm || fm.name !== e.name || typeof fm.description !== 'string' || !SKILL_NAME.test(e.name)) {
        hide(hidden, e.name, { key: 'mcp.not-servable', params: { skill: e.name } });
        continue;
      }
      entries.push(e);
    }
    return { entries, hidden, generation: catalog.generation };
  }

  /** Every file of the skill's folder with its digest, cached by the catalog's folder digest. */
  private filesOf(entry: CatalogEntry): Files {
    const dir = entry.provenance.realPath;
    const key = `${dir}|${entry.digest}`;
    const hit = this.fileCache.get(entry.id);
    if (hit && hit.key === key) return hit.files;
    const walk = walkSkill(dir, { hash: true });
    const files: ServedFile[] = [];
    const outside: string[] = [];
    let real: string;
    try {
      real = fs.realpathSync(dir);
    } catch {
      real = dir;
    }
    for (const f of walk.files) {
      const rel = f.path.split(path.sep).join('/');
      if (f.symlink !== undefined) {
        const digest = linkedDigest(path.join(dir, f.path), real);
        if (digest) files.push({ path: rel, digest: `sha256:${digest.hex}`, size: digest.size, mimeType: mimeTypeOf(rel) });
        else outside.push(rel);
        continue;
      }
      const hex = walk.hashes.get(f.path);
      if (!hex) continue; // unreadable: nothing to promise
      files.push({ path: rel, digest: `sha256:${hex}`, size: f.size, mimeType: mimeTypeOf(rel) });
    }
    files.sort((a, b) => (a.path === 'SKILL.md' ? -1 : b.path === 'SKILL.md' ? 1 : a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    const out = { files, outside: outside.sort() };
    if (this.fileCache.size > 20_000) this.fileCache.clear();
    this.fileCache.set(entry.id, { key, files: out });
    return out;
  }
}

function hide(hidden: ServedSet['hidden'], name: string, msg: MessageRef): void {
  hidden.push({ name, reason: formatMessage(msg), msg });
}

function withheldMsg(status: string, policy: string, skill: string, whole: boolean): MessageRef {
  const why = policy === 'never' ? 'never' : status === 'changed' ? 'changed' : 'unapproved';
  return { key: `mcp.${whole ? 'hidden' : 'withheld'}.${why}`, params: { skill } };
}

/** The digest of a link's target when it is a regular file inside the skill's real folder, else null. */
function linkedDigest(abs: string, realSkill: string): { hex: string; size: number } | null {
  try {
    const target = fs.realpathSync(abs);
    if (!isInside(target, realSkill)) return null;
    const st = fs.statSync(target);
    if (!st.isFile() || st.size > MCP_MAX_FILE_BYTES) return null;
    return { hex: sha256Hex(fs.readFileSync(target)), size: st.size };
  } catch {
    return null;
  }
}

export function getMcpServed(ctx: ServiceContext): McpServed {
  return ctx.use('mcp-served', () => new McpServed(ctx));
}
