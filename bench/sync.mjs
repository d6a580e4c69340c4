// `skilldock sync` over a library of 1,000 skills and a file:// remote, against its floor on the
// same content: a working clone of the remote where `git status` + `git fetch` run (no-op sync), and
// `git status` + `git fetch` + `git commit -a` + `git push` after one skill changed (sync of one change).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadEngine, median, removeAtExit } from './engine.mjs';

const SKILLS = 1000;
const ROUNDS = 5;
const TARGET = 1.5;
const IDENT = ['-c', 'user.name=bench', '-c', 'user.email=bench@example.invalid', '-c', 'core.hooksPath=/dev/null'];
const git = (cwd, ...args) => execFileSync('git', [...IDENT, ...args], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

export default async function run({ log, root }) {
  const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sd-bench-sync-')));
  removeAtExit(tmp);
  const eng = await loadEngine(root, tmp, "export { createService } from './src/service.ts';");
  const home = path.join(tmp, 'home');
  for (let i = 0; i < SKILLS; i++) {
    const dir = path.join(home, 'library', `skill-${i}`);
    fs.mkdirSync(path.join(dir, 'references'), { recursive: true });
    fs.writeFileSync(
      path.join(dir, 'SKILL.md'),
      `---\nname: skill-${i}\ndescription: Does thing ${i} when asked.\n---\n\n# skill ${i}\n\nStep one.\n`,
    );
    fs.writeFileSync(path.join(dir, 'references', 'notes.md'), `notes for ${i}\n`);
  }
  const remote = path.join(tmp, 'remote.git');
  git(tmp, 'init', '-q', '--bare', remote);
  git(remote, 'symbolic-ref', 'HEAD', 'refs/heads/main');
  const service = eng.createService({ paths: { home, userHome: path.join(tmp, 'user'), resourcesDir: path.join(root, 'resources') } });
  try {
    await service.api.syncSetup({ url: `file://${remote}` });
    const clone = path.join(tmp, 'clone');
    git(tmp, 'clone', '-q', `file://${remote}`, clone);
    const time = (fn) => {
      const t = performance.now();
      fn();
      return performance.now() - t;
    };
    const floor0 = [];
    const ours0 = [];
    const floor1 = [];
    const ours1 = [];
    for (let r = 0; r < ROUNDS; r++) {
      floor0.push(time(() => (git(clone, 'status', '--porcelain'), git(clone, 'fetch', '-q', 'origin'))));
      let t = performance.now();
      const same = await service.api.syncRun({});
      ours0.push(performance.now() - t);
      if (same.status !== 'up-to-date') throw new Error(`no-op sync said ${same.status}`);
      fs.writeFileSync(path.join(clone, 'skills', 'skill-1', 'references', 'notes.md'), `clone round ${r}\n`);
      floor1.push(
        time(() => {
          git(clone, 'status', '--porcelain');
          git(clone, 'fetch', '-q', 'origin');
          git(clone, 'commit', '-q', '-a', '-m', 'one change');
          git(clone, 'push', '-q', 'origin', 'HEAD:refs/heads/floor');
        }),
      );
      fs.writeFileSync(path.join(home, 'library', 'skill-0', 'references', 'notes.md'), `round ${r}\n`);
      t = performance.now();
      const one = await service.api.syncRun({});
      ours1.push(performance.now() - t);
      if (one.status !== 'pushed') throw new Error(`one-change sync said ${one.status}`);
    }
    const [f0, o0, f1, o1] = [floor0, ours0, floor1, ours1].map(median);
    log(
      `sync no-op, ${SKILLS} skills: ${(o0 / f0).toFixed(2)}x floor (git status + fetch ${f0.toFixed(0)} ms, ours ${o0.toFixed(0)} ms) target <= ${TARGET}`,
    );
    log(
      `sync one skill changed, ${SKILLS} skills: ${(o1 / f1).toFixed(2)}x floor (status + fetch + commit + push ${f1.toFixed(0)} ms, ours ${o1.toFixed(0)} ms) target <= ${TARGET}`,
    );
  } finally {
    await service.close();
  }
}
