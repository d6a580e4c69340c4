// `skilldock check` of 200 installed skills from 20 git sources served by `git daemon` on
// loopback, against its floor measured in the same run: 20 parallel `git ls-remote` of the same
// sources (no shell, like the engine). A ratio near 1 is the proof of one remote round per source.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadEngine, median, removeAtExit } from './engine.mjs';

const SOURCES = 20;
const PER_SOURCE = 10;
const ROUNDS = 5;
const TARGET = 1.3;

const lsRemote = (url) =>
  new Promise((resolve, reject) =>
    execFile('git', ['ls-remote', url], { env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } }, (err, out) =>
      err ? reject(err) : resolve(out),
    ),
  );

export default async function run({ log, root }) {
  const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sd-bench-sources-')));
  removeAtExit(tmp);
  const eng = await loadEngine(
    root,
    tmp,
    "export { createService } from './src/service.ts'; export { makeRepo, skillMd, startGitDaemon } from './test/support/git-servers.ts';",
  );
  const gitRoot = path.join(tmp, 'git');
  for (let s = 0; s < SOURCES; s++) {
    const files = {};
    for (let k = 0; k < PER_SOURCE; k++) {
      const name = `s${s}-skill-${k}`;
      files[`skills/${name}/SKILL.md`] = eng.skillMd(name, `Step ${k} of source ${s}.`);
      files[`skills/${name}/notes.md`] = `notes ${s} ${k}\n`;
    }
    eng.makeRepo(gitRoot, `src${s}`, files);
  }
  const daemon = await eng.startGitDaemon(path.join(gitRoot, 'served'));
  const home = path.join(tmp, 'home');
  const service = eng.createService({ paths: { home, userHome: path.join(tmp, 'user'), resourcesDir: path.join(root, 'resources') } });
  try {
    const urls = Array.from({ length: SOURCES }, (_, s) => `${daemon.base}/src${s}.git`);
    for (const url of urls) await service.api.addFromSource({ source: url });
    const floor = [];
    const ours = [];
    let last;
    for (let r = 0; r < ROUNDS; r++) {
      let t = performance.now();
      await Promise.all(urls.map(lsRemote));
      floor.push(performance.now() - t);
      t = performance.now();
      last = await service.api.checkSources({});
      ours.push(performance.now() - t);
    }
    const upToDate = last.results.filter((x) => x.status === 'up-to-date').length;
    if (last.results.length !== SOURCES * PER_SOURCE || upToDate !== SOURCES * PER_SOURCE) {
      throw new Error(`check saw ${last.results.length} skills, ${upToDate} up to date`);
    }
    const f = median(floor);
    const o = median(ours);
    log(
      `sources check ${SOURCES * PER_SOURCE} skills from ${SOURCES} loopback sources: ${(o / f).toFixed(2)}x floor (20 parallel git ls-remote ${f.toFixed(0)} ms, ours ${o.toFixed(0)} ms) target <= ${TARGET}`,
    );
  } finally {
    await service.close();
    await daemon.stop();
  }
}
