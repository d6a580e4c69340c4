import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Approval, SkillOrigin } from '../contract/index.js';
import { StoredAssistantSchema, type AssistantsFile } from '../assistants/model.js';
import type { ServiceContext } from '../service-context.js';
import { getLibrary } from '../library/library-service.js';
import { libraryDir } from '../library/trash.js';
import { writeProvenance } from '../sources/store.js';
import { getAssistants } from '../assistants/service.js';
import { getSecurity } from '../security/security-service.js';
import { getInventory } from '../security/surface.js';
import { getSettings } from '../settings/settings.js';
import { SYNCED_SETTINGS, unitOf } from './layout.js';
import type { FlatTree } from './repo.js';

// Bringing a merged tree into this machine, unit by unit, through the engine's own paths: skills
// through the library's import (replace; the old version goes to the trash, one journaled
// operation, crash-safe by its write-ahead log), removed skills through delete (to the trash),
// approvals through approve/revoke (sealed, journaled) and only for the exact digest this
// machine's copy has, assistants and settings through their stores.

export interface Applied {
  skills: string[];
  removed: string[];
  assistants: number;
  approvals: string[];
  /** Approvals that arrived for scripts that differ here: not applied. */
  notApplied: string[];
  refused: string[];
}

const parse = <T>(b: Buffer | undefined): T | null => {
  try {
    return b ? (JSON.parse(b.toString('utf8')) as T) : null;
  } catch {
    return null;
  }
};

export async function applyTree(
  ctx: ServiceContext,
  before: FlatTree,
  after: FlatTree,
  blobs: (oids: string[]) => Promise<Map<string, Buffer>>,
): Promise<Applied> {
  const out: Applied = { skills: [], removed: [], assistants: 0, approvals: [], notApplied: [], refused: [] };
  const changed = new Set<string>();
  for (const p of new Set([...before.keys(), ...after.keys()])) if (before.get(p)?.oid !== after.get(p)?.oid) changed.add(p);
  if (changed.size === 0) return out;
  const data = await blobs([...changed].filter((p) => after.has(p)).map((p) => after.get(p)!.oid));
  const units = new Set([...changed].map(unitOf));
  const skillUnits = [...units].filter((u) => u.startsWith('skill:')).map((u) => u.slice(6));
  const keep: string[] = [];
  const staging = path.join(ctx.paths.home, 'staging', `sync-${randomBytes(6).toString('hex')}`);
  try {
    for (const name of skillUnits) {
      const files = [...after.keys()].filter((p) => p.startsWith(`skills/${name}/`));
      if (files.length === 0) {
        if (fs.existsSync(path.join(libraryDir(ctx), name))) out.removed.push(name);
        continue;
      }
      const dir = path.join(staging, name);
      const all = await blobs(files.map((p) => after.get(p)!.oid));
      for (const p of files) {
        const abs = path.join(dir, ...p.split('/').slice(2));
        fs.mkdirSync(path.dirname(abs), { recursive: true });
        fs.writeFileSync(abs, all.get(after.get(p)!.oid)!, { mode: after.get(p)!.mode === '100755' ? 0o755 : 0o644 });
      }
      keep.push(dir);
    }
    if (keep.length) {
      const r = await getLibrary(ctx).importPaths({ paths: keep, onConflict: 'replace' });
      for (const x of r.results) {
        if (x.libraryName && ['imported', 'replaced', 'unchanged', 'same'].includes(x.status)) out.skills.push(x.libraryName);
        else out.refused.push(x.name ?? path.basename(x.source));
      }
    }
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
  for (const name of out.removed) await getLibrary(ctx).delete(name);
  const origins: Record<string, SkillOrigin> = {};
  for (const u of units) {
    if (u.startsWith('origins/') && after.has(u)) {
      const o = parse<SkillOrigin>(data.get(after.get(u)!.oid));
      if (o) origins[u.slice(8, -5)] = o;
    }
  }
  if (Object.keys(origins).length) writeProvenance(ctx, origins);
  out.assistants = applyAssistants(
    ctx,
    [...units].filter((u) => u.startsWith('assistants/')),
    after,
    data,
  );
  await applyApprovals(
    ctx,
    [...units].filter((u) => u.startsWith('approvals/')),
    after,
    data,
    out,
  );
  if (units.has('settings.json') && after.has('settings.json')) {
    const s = parse<Record<string, unknown>>(data.get(after.get('settings.json')!.oid)) ?? {};
    const patch = Object.fromEntries(SYNCED_SETTINGS.filter((k) => s[k] !== undefined).map((k) => [k, s[k]]));
    try {
      getSettings(ctx).update(patch);
    } catch {
      out.refused.push('settings.json'); // a value this version does not take: the rest still applied
    }
  }
  return out;
}

function applyAssistants(ctx: ServiceContext, units: string[], after: FlatTree, data: Map<string, Buffer>): number {
  if (!units.length) return 0;
  type Stored = AssistantsFile['assistants'][number];
  const incoming = new Map<string, Stored | null>();
  for (const u of units) {
    // checked like the file itself: an assistant that does not fit is not taken (its file stays in the repository)
    const a = after.has(u) ? StoredAssistantSchema.safeParse(parse<unknown>(data.get(after.get(u)!.oid))) : null;
    if (a && !a.success) continue;
    incoming.set(u.slice(11, -5), a ? a.data : null);
  }
  getAssistants(ctx).store.update((cur) => {
    const list = cur.assistants.filter((a) => !incoming.has(a.id) || incoming.get(a.id));
    for (const [id, a] of incoming) {
      if (!a || a.id !== id) continue;
      const at = list.findIndex((x) => x.id === id);
      if (at >= 0) list[at] = a;
      else list.push(a);
    }
    return { ...cur, assistants: list };
  });
  return units.length;
}

async function applyApprovals(ctx: ServiceContext, units: string[], after: FlatTree, data: Map<string, Buffer>, out: Applied) {
  const sec = getSecurity(ctx);
  for (const u of units) {
    const name = u.slice(10, -5);
    const dir = path.join(libraryDir(ctx), name);
    const local = sec.list().find((a) => a.name === name);
    const a = after.has(u) ? parse<Approval>(data.get(after.get(u)!.oid)) : null;
    if (!a) {
      // revoked elsewhere: narrowing trust is always taken
      if (local) await sec.revoke(name);
      continue;
    }
    let digest: string | null;
    try {
      digest = getInventory(dir).digest;
    } catch {
      digest = null; // no such skill here: nothing to approve
    }
    // an approval is taken only for the very scripts this machine has
    if (digest !== a.digest) {
      out.notApplied.push(name);
      continue;
    }
    if (local?.digest === a.digest) continue;
    const t = await sec.approve({ dir });
    if (t.digest !== a.digest)
      await sec.revoke(name); // changed in between: not what was approved elsewhere
    else out.approvals.push(name);
  }
}
