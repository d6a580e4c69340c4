import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import {
  formatMessage,
  SharedAssistantSchema,
  type AddFromSourceOutput,
  type ConflictChoice,
  type MessageRef,
  type SharedAssistant,
} from '../contract/index.js';
import type { ServiceContext } from '../service-context.js';
import { fail, SkillDockError } from '../errors.js';
import { getAssistants } from '../assistants/service.js';
import { libraryDir } from '../library/trash.js';
import { lstatOrNull } from '../library/tree.js';
import { getCatalog } from '../catalog/index.js';
import type { SourcesService } from './service.js';
import { readProvenance } from './store.js';
import { SOURCES_PARALLEL, startDeadline } from './limits.js';
import { mapLimit } from '../catalog/scan.js';

// Share an assistant as one small JSON file: persona (name, agent, rules) and each skill by name
// with its source, path and commit, or marked local-only. Import adds the missing skills from
// their sources at exactly those commits (usual conflict choices), then creates the assistant.

const MAX_FILE = 1024 * 1024;

export async function exportAssistant(ctx: ServiceContext, ref: string, out?: string): Promise<{ data: SharedAssistant; file?: string }> {
  const a = await getAssistants(ctx).view(ref, {});
  const prov = readProvenance(ctx, libraryDir(ctx));
  const data: SharedAssistant = {
    skilldock: 'assistant',
    version: 1,
    name: a.name,
    agent: a.agent,
    rules: a.rules,
    skills: a.skills.map((s) => {
      const p = s.rootKind === 'library' ? prov[s.name] : undefined;
      if (!p) return { name: s.name, localOnly: true };
      return {
        name: s.name,
        source: { url: p.source.url, ...(p.source.ref ? { ref: p.source.ref } : {}), path: p.path, commit: p.commit },
      };
    }),
  };
  if (!out) return { data };
  if (!path.isAbsolute(out)) throw fail('bad-request', 'sources.share.out-relative', { file: out });
  const st = lstatOrNull(out);
  if (st && (st.isSymbolicLink() || !st.isFile())) throw fail('refused', 'sources.share.out-not-file', { file: out });
  const tmp = path.join(path.dirname(out), `.${path.basename(out)}.${randomBytes(4).toString('hex')}.tmp`);
  fs.writeFileSync(tmp, JSON.stringify(data, null, 2) + '\n', { flag: 'wx' });
  fs.renameSync(tmp, out);
  return { data, file: out };
}

function readShared(file?: string, raw?: unknown): SharedAssistant {
  let value = raw;
  if (file !== undefined) {
    const st = lstatOrNull(file);
    if (!st || !st.isFile()) throw fail('not-found', 'sources.share.no-file', { file });
    if (st.size > MAX_FILE) throw fail('refused', 'sources.share.bad-file', { file, reason: 'size' });
    try {
      value = JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch {
      throw fail('bad-request', 'sources.share.bad-file', { file, reason: 'json' });
    }
  }
  const parsed = SharedAssistantSchema.safeParse(value);
  if (!parsed.success)
    throw fail('bad-request', 'sources.share.bad-file', { file: file ?? '-', reason: parsed.error.issues[0]?.path.join('.') || 'shape' });
  return parsed.data;
}

/** Each skill of one add, as the import of an assistant reports it. */
function addedSkills(r: AddFromSourceOutput): Imported[] {
  return (r.summary?.results ?? []).map((res) => {
    const n = res.name ?? '';
    if (['imported', 'replaced', 'kept-both'].includes(res.status)) return { name: n, status: 'added' };
    if (res.status === 'already-present') return { name: n, status: 'present' };
    return {
      name: n,
      status: res.status === 'conflict' ? 'conflict' : 'failed',
      ...(res.message ? { message: res.message } : {}),
      ...(res.msg ? { msg: res.msg } : {}),
    };
  });
}

type Imported = { name: string; status: 'added' | 'present' | 'conflict' | 'missing' | 'failed'; message?: string; msg?: MessageRef };

export async function importAssistant(
  ctx: ServiceContext,
  svc: SourcesService,
  input: { file?: string; data?: unknown; name?: string; onConflict?: ConflictChoice; allowEmpty?: boolean },
): Promise<{ assistantId: string | null; name: string; skills: Imported[]; refused?: MessageRef }> {
  const shared = readShared(input.file, input.data);
  const name = input.name ?? shared.name;
  // A taken name refuses the import before any skill is added: the window then offers another name.
  getAssistants(ctx).requireNameFree(name);
  const skills: Imported[] = [];
  const worded = (n: string, status: Imported['status'], msg: MessageRef): Imported => ({
    name: n,
    status,
    message: formatMessage(msg),
    msg,
  });
  const prov = readProvenance(ctx, libraryDir(ctx));
  // One add per (source, commit).
  const groups = new Map<string, { url: string; ref?: string; commit: string; names: string[] }>();
  for (const s of shared.skills) {
    if (!s.source) {
      const known = await getCatalog(ctx)
        .get(s.name)
        .then(() => true)
        .catch(() => false);
      skills.push(
        known
          ? { name: s.name, status: 'present' }
          : worded(s.name, 'missing', { key: 'sources.share.local-missing', params: { skill: s.name } }),
      );
      continue;
    }
    // The file's words: a ref git could take for an option, or a path out of the repository, is
    // refused for that skill before anything is fetched.
    const bad = svc.recordProblem(s.source.url, [s.source.ref], s.source.path);
    if (bad) {
      skills.push(worded(s.name, 'failed', bad));
      continue;
    }
    const have = prov[s.name];
    if (have && have.source.url === s.source.url && have.commit === s.source.commit && lstatOrNull(path.join(libraryDir(ctx), s.name))) {
      skills.push({ name: s.name, status: 'present' });
      continue;
    }
    const k = `${s.source.url}\n${s.source.commit}`;
    const g = groups.get(k) ?? { url: s.source.url, ...(s.source.ref ? { ref: s.source.ref } : {}), commit: s.source.commit, names: [] };
    g.names.push(s.name);
    groups.set(k, g);
  }
  // The sources are fetched in parallel (a few at a time) under one deadline for all of them; each
  // is added to the library as soon as it is fetched, one at a time.
  const deadline = startDeadline();
  let adding: Promise<unknown> = Promise.resolve();
  const inTurn = <T>(fn: () => Promise<T>): Promise<T> => {
    const next = adding.then(fn, fn);
    adding = next.catch(() => undefined);
    return next;
  };
  try {
    const outcomes = await mapLimit([...groups.values()], SOURCES_PARALLEL, async (g) => {
      const req = {
        source: g.url,
        ...(g.ref ? { ref: g.ref } : {}),
        skills: g.names,
        ...(input.onConflict ? { onConflict: input.onConflict } : {}),
      };
      try {
        const p = svc.parse(req.source, req.ref);
        const co = await svc.checkout(p, g.commit, deadline.signal);
        // An archive has no history to fetch a version from: what the URL serves now must be what
        // was shared, byte for byte, or the skills are not added.
        if (p.kind !== 'git' && co.commit !== g.commit) {
          co.done();
          throw fail('refused', 'sources.share.archive-changed', {
            source: g.url,
            commit: g.commit.slice(0, 12),
            now: co.commit.slice(0, 12),
          });
        }
        return { g, r: await inTurn(() => svc.addFrom(p, co, req)) };
      } catch (err) {
        return { g, err: deadline.explain(err, g.url) };
      }
    });
    for (const o of outcomes) {
      if ('err' in o) {
        const e = o.err as SkillDockError;
        const msg = e instanceof SkillDockError && e.msg ? e.msg : { key: 'common.internal', params: { reason: String(e?.message ?? e) } };
        for (const n of o.g.names) skills.push(worded(n, 'failed', msg));
      } else skills.push(...addedSkills(o.r));
    }
  } finally {
    deadline.done();
  }
  // The assistant, with every skill that is now available.
  const usable = shared.skills
    .filter((s) => skills.some((x) => x.name === s.name && (x.status === 'added' || x.status === 'present')))
    .map((s) => s.name);
  if (shared.skills.length > 0 && usable.length === 0 && input.allowEmpty !== true) {
    // An assistant whose every skill failed is not what the file shared: say so and let the user choose.
    const refused: MessageRef = { key: 'sources.share.no-skills', params: { name, count: shared.skills.length } };
    return { assistantId: null, name, skills, refused };
  }
  const view = await getAssistants(ctx).create({
    name,
    agent: shared.agent,
    rules: shared.rules,
    ...(usable.length ? { skills: usable } : {}),
  });
  return { assistantId: view.id, name: view.name, skills };
}
