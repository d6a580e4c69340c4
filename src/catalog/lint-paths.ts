import fs from 'node:fs';
import path from 'node:path';
import type { Diagnostic, LintReport } from '../contract/index.js';
import { SkillDockError } from '../errors.js';
import { countDiagnostics, duplicateDiagnostic } from './entries.js';
import { analyzerFor, type RootEnv } from './root-state.js';
import { listRoot, mapLimit, nestedDiagnostic, probeChild, resolveChild } from './scan.js';
import type { SkillAnalysis } from '../skills/index.js';
import type { Listed } from '../skills/walk.js';

// `lint <path>...`: each path is a skill folder (or its SKILL.md) or a root whose children are
// skills. A root also gets the root-level codes: duplicates, dangling links, loops, nesting.

type Report = LintReport['skills'][number];

const SKILL_FILE = /^skill\.md$/i;

async function statOrNull(p: string): Promise<fs.Stats | null> {
  return fs.promises.stat(p).catch(() => null);
}

async function holdsSkillFile(dir: string): Promise<boolean> {
  const names = await fs.promises.readdir(dir).catch(() => [] as string[]);
  return names.some((n) => SKILL_FILE.test(n));
}

async function analyzeOne(env: RootEnv, dir: string, dirName: string, listing?: Listed[]): Promise<SkillAnalysis> {
  return env.analyze(dir, { resourcesDir: env.resourcesDir, dirName, digest: false, ...(listing ? { listing } : {}) });
}

function report(a: SkillAnalysis, dir: string, extra: Diagnostic[] = []): Report {
  return { name: typeof a.name === 'string' ? a.name : null, dir, diagnostics: [...a.diagnostics, ...extra] };
}

async function lintRoot(envIn: RootEnv, rootPath: string): Promise<Report[] | null> {
  const listing = await listRoot(rootPath);
  const env = { ...envIn, analyze: analyzerFor(envIn, listing.names.length) };
  const real = await fs.promises.realpath(rootPath);
  const out = await mapLimit(listing.names, env.concurrency, async (name): Promise<{ reports: Report[]; skillLike: boolean }> => {
    const resolved = await resolveChild(rootPath, real, name, listing.kinds.get(name));
    if (!resolved) return { reports: [], skillLike: false };
    if (resolved.kind === 'broken') return { reports: [{ name: null, dir: resolved.dir, diagnostics: [resolved.diagnostic] }], skillLike: true };
    const { child } = resolved;
    const probe = await probeChild(child);
    if (probe.kind === 'skill') return { reports: [report(await analyzeOne(env, child.dir, child.dirName, probe.listing), child.dir)], skillLike: true };
    if (probe.kind === 'nested') {
      const nested = await Promise.all(
        probe.nested.map(async (dir) => report(await analyzeOne(env, dir, path.basename(dir)), dir, [nestedDiagnostic(dir, env.registry)])),
      );
      return { reports: nested, skillLike: true };
    }
    // A folder in a root without SKILL.md: worth a `skill-file-missing`, unless hidden (.git...).
    if (child.dirName.startsWith('.')) return { reports: [], skillLike: false };
    return { reports: [report(await analyzeOne(env, child.dir, child.dirName), child.dir)], skillLike: false };
  });
  if (!out.some((o) => o.skillLike)) return null; // nothing skill-like below: the path is one skill
  const reports = out.flatMap((o) => o.reports);
  // Same name twice in one root (direct children only: nested ones are already reported).
  const byName = new Map<string, Report[]>();
  for (const r of reports) {
    if (r.name === null || path.dirname(r.dir) !== rootPath) continue;
    byName.set(r.name, [...(byName.get(r.name) ?? []), r]);
  }
  for (const [name, group] of byName) {
    if (group.length < 2) continue;
    for (const r of group) {
      const others = group.filter((o) => o !== r).map((o) => path.basename(o.dir));
      r.diagnostics.push(duplicateDiagnostic(name, others, path.join(r.dir, 'SKILL.md'), rootPath, env.registry));
    }
  }
  return reports;
}

export async function lintPaths(paths: string[], env: RootEnv): Promise<LintReport> {
  const skills: Report[] = [];
  const seen = new Set<string>();
  const push = (r: Report) => {
    if (seen.has(r.dir)) return;
    seen.add(r.dir);
    skills.push(r);
  };
  for (const p of paths) {
    const abs = path.resolve(p);
    const st = await statOrNull(abs);
    if (!st) {
      const lst = await fs.promises.lstat(abs).catch(() => null);
      if (!lst) throw new SkillDockError('bad-request', `No such file or directory: ${p}`);
      // A dangling or looping link given by name: report it like a root would.
      const parent = path.dirname(abs);
      const s = await resolveChild(parent, await fs.promises.realpath(parent), path.basename(abs), 'link');
      if (s?.kind === 'broken') push({ name: null, dir: abs, diagnostics: [s.diagnostic] });
      continue;
    }
    if (st?.isFile()) {
      if (!SKILL_FILE.test(path.basename(abs))) throw new SkillDockError('bad-request', `Not a skill folder or SKILL.md: ${p}`);
      const dir = path.dirname(abs);
      push(report(await analyzeOne(env, dir, path.basename(dir)), dir));
      continue;
    }
    if (st?.isDirectory() && !(await holdsSkillFile(abs))) {
      const reports = await lintRoot(env, abs);
      if (reports) {
        reports.forEach(push);
        continue;
      }
    }
    push(report(await analyzeOne(env, abs, path.basename(abs)), abs));
  }
  const totals = countDiagnostics(skills.flatMap((s) => s.diagnostics));
  return {
    skills,
    summary: { skills: skills.length, errors: totals.errors, warnings: totals.warnings, infos: totals.infos },
  };
}

