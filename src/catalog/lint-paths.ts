import fs from 'node:fs';
import path from 'node:path';
import type { LintReport } from '../contract/index.js';
import { fail } from '../errors.js';
import { countDiagnostics, duplicateDiagnostic } from './entries.js';
import { mapChildren, type RootEnv } from './root-state.js';
import { listRoot, resolveChild } from './scan.js';
import { analyzeForLint, lintReport, type ChildJob, type LintChildResult, type LintSkillReport } from './child-tasks.js';

// `lint <path>...`: each path is a skill folder (or its SKILL.md) or a root whose children are
// skills. A root also gets the root-level codes: duplicates, dangling links, loops, nesting.

type Report = LintSkillReport;

const SKILL_FILE = /^skill\.md$/i;

async function statOrNull(p: string): Promise<fs.Stats | null> {
  return fs.promises.stat(p).catch(() => null);
}

async function holdsSkillFile(dir: string): Promise<boolean> {
  const names = await fs.promises.readdir(dir).catch(() => [] as string[]);
  return names.some((n) => SKILL_FILE.test(n));
}

const analyzeOne = analyzeForLint;
const report = lintReport;

async function lintRoot(env: RootEnv, rootPath: string): Promise<Report[] | null> {
  const listing = await listRoot(rootPath);
  const real = await fs.promises.realpath(rootPath);
  const { names, kinds } = listing;
  const job: ChildJob = { task: 'lint', rootPath, rootReal: real, trustListing: true };
  const out = await mapChildren<LintChildResult>(
    env,
    job,
    names,
    names.map((n) => kinds.get(n)),
  );
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
      if (!lst) throw fail('bad-request', 'path.missing', { path: p });
      // A dangling or looping link given by name: report it like a root would.
      const parent = path.dirname(abs);
      const s = resolveChild(parent, await fs.promises.realpath(parent), path.basename(abs), 'link');
      if (s?.kind === 'broken') push({ name: null, dir: abs, diagnostics: [s.diagnostic] });
      continue;
    }
    if (st?.isFile()) {
      if (!SKILL_FILE.test(path.basename(abs))) throw fail('bad-request', 'path.not-skill', { path: p });
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
