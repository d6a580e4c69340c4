// Launch of an assistant with 50 skills, in process through the real service (catalog lookup,
// security's script decision, links, state dirs, context file, write guard, conversation record),
// against what copy-based managers do: copy the same 50 skill folders into a fresh workspace.
// Both measured in this run, on two skill sets: the shared generator's (small: ~2 files a skill)
// and the same skills grown to the size of published skills (references, scripts, assets: ~20
// files, ~150 KB each). The link step alone (no catalog, no security) is printed too, and so is the
// first launch (cold: security reads every skill's files once).
// The service runs as the desktop app and the browser server run it: the catalog is watched (file
// events keep it fresh, so a lookup does not re-check every skill folder), and security reuses what
// it read while the catalog digest holds and its own watch of the skill's folders has not fired.
// The default script policy ("ask") is used, with every skill approved during setup.
//   target: median <= 50 ms, and >= 10x faster than the copy
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadEngine, median, removeAtExit } from './engine.mjs';
import { generateSkills } from './generate-skills.mjs';

const SKILLS = 50;
const RUNS = 25;

/** Grow a generated skill to a published skill's shape: references, a few scripts, assets. */
function grow(dir, i) {
  const put = (rel, bytes) => {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), `${rel} ${i}\n`.repeat(Math.ceil(bytes / (rel.length + 8))));
  };
  for (let k = 0; k < 6; k++) put(`references/guide-${k}.md`, 6000);
  for (let k = 0; k < 3; k++) put(`scripts/tool-${k}.py`, 3000);
  for (let k = 0; k < 9; k++) put(`assets/template-${k}.xml`, 12000);
}

async function measure(engine, root, tmp, label, shape) {
  const home = path.join(tmp, label, 'home');
  const userHome = path.join(tmp, label, 'user');
  fs.mkdirSync(userHome, { recursive: true });
  // A few generated skills are broken on purpose; generate extra and attach 50 good ones.
  const lib = path.join(home, 'library');
  generateSkills(lib, SKILLS + 10, { seed: 7 });
  if (shape === 'published') fs.readdirSync(lib).forEach((name, i) => grow(path.join(lib, name), i));
  const svc = engine.createService({ paths: { home, userHome, resourcesDir: path.join(root, 'resources') } });
  // As the app and the server do at startup (catalog watched, home files synced); resolves once watching.
  await svc.live();
  const catalog = await svc.api.listCatalog({});
  const good = catalog.entries
    .filter((e) => e.provenance.rootKind === 'library' && e.counts.errors === 0 && !e.shadowedBy)
    .slice(0, SKILLS);
  if (good.length < SKILLS) throw new Error(`only ${good.length} usable generated skills`);
  // Default policy "ask": the user approved each skill's scripts once (setup, not measured).
  for (const e of good) await svc.api.approveSkill({ name: e.name });
  await svc.api.createAssistant({ name: 'Bench', agent: 'claude', rules: 'Bench persona.', skills: good.map((e) => e.name) });

  const ours = [];
  const t0 = process.hrtime.bigint();
  const first = await svc.api.launchAssistant({ assistant: 'Bench' }); // cold: first catalog use, security reads every skill
  const cold = Number(process.hrtime.bigint() - t0) / 1e6;
  if (first.links.length !== SKILLS) throw new Error('launch did not link every skill');
  for (let i = 0; i < RUNS; i++) {
    const t = process.hrtime.bigint();
    const r = await svc.api.launchAssistant({ assistant: 'Bench' });
    ours.push(Number(process.hrtime.bigint() - t) / 1e6);
    if (r.links.length !== SKILLS || !r.links.every((l) => l.ok)) throw new Error('launch did not link every skill');
  }
  await svc.close();

  // The link step alone: workspace, links checked, state dirs, context file, guard (no catalog, no security).
  const agent = engine.findAgent(path.join(root, 'resources'), 'claude');
  const skills = good.map((entry) => ({ name: entry.name, missing: false, entry }));
  const core = [];
  for (let i = 0; i < RUNS + 1; i++) {
    const t = process.hrtime.bigint();
    engine.launchWorkspace({ home, userHome, agent, assistant: { id: 'b', name: 'Core', rules: '' }, skills, cli: null });
    if (i > 0) core.push(Number(process.hrtime.bigint() - t) / 1e6);
  }

  const copies = [];
  const copyRoot = path.join(tmp, label, 'copies');
  for (let i = 0; i < RUNS + 1; i++) {
    const t = process.hrtime.bigint();
    const dest = path.join(copyRoot, `ws-${i}`, '.claude', 'skills');
    fs.mkdirSync(dest, { recursive: true });
    for (const e of good) fs.cpSync(e.provenance.realPath, path.join(dest, e.name), { recursive: true });
    if (i > 0) copies.push(Number(process.hrtime.bigint() - t) / 1e6); // first run warms the page cache
  }
  return {
    cold,
    ours: median(ours),
    core: median(core),
    copy: median(copies),
    files: good.reduce((n, e) => n + e.fileCount, 0),
    bytes: good.reduce((n, e) => n + e.size, 0),
  };
}

export default async function launchBench({ log, root }) {
  const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sd-bench-launch-')));
  try {
    const engine = await loadEngine(
      root,
      tmp,
      "export { createService } from './src/service.ts'; export { launchWorkspace } from './src/workspaces/launch.ts'; export { findAgent } from './src/agents/registry.ts';",
    );
    for (const shape of ['generated', 'published']) {
      const m = await measure(engine, root, tmp, shape, shape);
      const set = `${SKILLS} ${shape}-size skills (${m.files} files, ${(m.bytes / 1e6).toFixed(1)} MB)`;
      const ok = (b) => (b ? 'ok' : 'MISS');
      log(
        `launch ${set}: median ${m.ours.toFixed(1)} ms (target <= 50 ms: ${ok(m.ours <= 50)}); ${(m.copy / m.ours).toFixed(1)}x faster than copying (copy ${m.copy.toFixed(1)} ms) target >= 10x: ${ok(m.copy / m.ours >= 10)}`,
      );
      log(
        `  ${shape}: first launch (cold) ${m.cold.toFixed(1)} ms; link step alone (no catalog, no security) ${m.core.toFixed(1)} ms = ${(m.copy / m.core).toFixed(1)}x faster than the copy`,
      );
    }
  } finally {
    removeAtExit(tmp);
  }
}
