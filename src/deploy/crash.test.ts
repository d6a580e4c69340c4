import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeWorld, writeSkill, type World } from '../../test/support/library.js';
import { bundleChild, pendingLines, pendingPath, runChild, seeded as random, view } from '../../test/support/crash-kit.js';
import { SkillDockService } from '../service.js';

// kill -9 at every step of a deploy (and of a delete that carries over to deployments): after the
// next engine's doctor --repair, every entry in the agents' folders and the record are either as
// before or as chosen, never half, and undo still takes a finished apply back whole.

let script: string;
beforeAll(async () => {
  script = await bundleChild();
}, 60_000);
afterAll(() => {
  fs.rmSync(path.dirname(script), { recursive: true, force: true });
});

interface Case {
  method: string;
  /** `TAKE` stands for the foreign entry's path in the world. */
  input: unknown;
}

/** The agents' folders (links by target) and the record of what was placed. */
function state(w: World): unknown {
  const file = path.join(w.home, 'deployments.json');
  const record = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split(w.root).join('<root>') : null;
  const lib = path.join(w.home, 'library');
  return { user: view(w, w.userHome), record, library: fs.existsSync(lib) ? fs.readdirSync(lib).sort() : [] };
}

async function setup(w: World): Promise<void> {
  const names = ['a', 'b', 'c'];
  await w.service.api.importPaths({ paths: names.map((n) => writeSkill(path.join(w.src, n), n, { 'x/y.txt': n })) });
  await w.service.api.deploySet({ skills: ['a'], agents: ['claude'], mode: 'link' });
  await w.service.api.deploySet({ skills: ['b'], agents: ['qwen'], mode: 'copy' });
  writeSkill(path.join(w.userHome, '.gemini', 'skills', 'c'), 'c', { 'mine.txt': 'foreign' });
}

async function nextEngine<T>(w: World, fn: (s: SkillDockService) => Promise<T>): Promise<T> {
  const s = new SkillDockService({ paths: { home: w.home, userHome: w.userHome, resourcesDir: w.service.ctx.paths.resourcesDir } });
  try {
    return await fn(s);
  } finally {
    await s.close();
  }
}

const cases: Record<string, Case> = {
  // links become copies, a copy becomes a link, a foreign entry is taken (to the trash), new folders made
  deploy: {
    method: 'deploySet',
    input: { skills: ['a', 'b', 'c'], agents: ['claude', 'qwen', 'gemini', 'codex'], mode: 'copy', take: ['TAKE'] },
  },
  // the library's delete carries over: the link and the copy go with it
  delete: { method: 'deleteSkill', input: { name: 'a' } },
};

const SEED = Number(process.env.CRASH_SEED ?? Date.now() % 100_000);
const POINTS = Number(process.env.CRASH_POINTS ?? 8);

describe(`kill -9 at random steps of an apply (seed ${SEED})`, () => {
  for (const [name, c] of Object.entries(cases)) {
    it(
      name,
      async () => {
        const model: { after?: unknown } = {};
        const fix = (w: World) => JSON.parse(JSON.stringify(c.input).replace('TAKE', path.join(w.userHome, '.gemini', 'skills', 'c')));
        // killed right after its journal entry: it counts as done, and says how many steps it has
        const steps = await crashOnce(c, fix, 'committed', model);
        expect(steps).toBeGreaterThan(3);
        // the first and last steps and random ones between (seeded: a failure names its point)
        const points = new Set([1, steps]);
        const rnd = random(SEED + name.length);
        while (points.size < Math.min(steps, POINTS)) points.add(1 + Math.floor(rnd() * steps));
        for (const at of points) await crashOnce(c, fix, at, model);
      },
      120_000,
    );
  }
});

/** One world: set up, run the case in a child killed at `at`, repair, compare with before and the model. */
async function crashOnce(c: Case, fix: (w: World) => unknown, at: number | 'committed', model: { after?: unknown }): Promise<number> {
  const w = makeWorld();
  try {
    await setup(w);
    const before = state(w);
    const run = await runChild(script, w, c.method, fix(w), at);
    const steps = pendingLines(w);
    if (at === 'committed') expect(run.signal, run.err).toBe('SIGKILL');
    await nextEngine(w, async (s) => {
      const repair = await s.api.doctor({ repair: true });
      expect(repair.rolledBack?.failed ?? [], JSON.stringify(repair)).toEqual([]);
      expect(fs.existsSync(pendingPath(w))).toBe(false);
      const now = JSON.parse(JSON.stringify(state(w)).split(w.root).join('<root>'));
      const was = JSON.parse(JSON.stringify(before).split(w.root).join('<root>'));
      if (JSON.stringify(now) === JSON.stringify(was)) return;
      model.after ??= now;
      expect(now, `killed at ${at}`).toEqual(model.after);
      await s.api.undo({});
      expect(JSON.parse(JSON.stringify(state(w)).split(w.root).join('<root>')), `undo after a kill at ${at}`).toEqual(was);
    });
    return steps;
  } finally {
    await w.done();
  }
}

describe('two SkillDock processes applying at once', () => {
  it('take turns under the library lock: both applies land whole, the record holds both', async () => {
    const w = makeWorld();
    try {
      await setup(w);
      const [one, two] = await Promise.all([
        runChild(script, w, 'deploySet', { skills: ['a', 'b'], agents: ['codex', 'copilot'], mode: 'link' }),
        runChild(script, w, 'deploySet', { skills: ['c', 'a'], agents: ['qwen'], mode: 'copy' }),
      ]);
      expect([one.code, two.code], one.err + two.err).toEqual([0, 0]);
      await nextEngine(w, async (s) => {
        const st = await s.api.deployStatus({});
        const on = (skill: string, agent: string) => st.cells.find((x) => x.skill === skill && x.agent === agent);
        for (const [skill, agent] of [
          ['a', 'codex'],
          ['b', 'copilot'],
          ['c', 'qwen'],
          ['a', 'qwen'],
        ] as const) {
          expect(on(skill, agent), `${skill} for ${agent}`).toMatchObject({ on: true, state: 'in-sync' });
        }
        expect(st.entries.filter((e) => e.managed && e.state !== 'in-sync')).toEqual([]);
        expect((await s.api.journal({})).entries.filter((e) => e.op === 'deploy')).toHaveLength(4);
      });
    } finally {
      await w.done();
    }
  }, 60_000);
});
