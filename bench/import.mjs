// Library import of a parent folder of 1,000 skills against a plain recursive copy (fs.cpSync) of
// the same tree, both measured in this run on this disk. The engine is bundled with esbuild and run
// in-process (the way the app and the server run it), so process start-up is not part of either.
//   node bench/import.mjs   (or through `npm run bench`)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadEngine, median, removeAtExit } from './engine.mjs';
import { generateSkills } from './generate-skills.mjs';

const TARGET = 3.0;
const SKILLS = 1000;
const ROUNDS = 3;

export default async function run({ log, root }) {
  const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sd-bench-import-')));
  try {
    const { createService } = await loadEngine(root, tmp, "export { createService } from './src/service.ts';");
    const src = path.join(tmp, 'skills');
    const stats = generateSkills(src, SKILLS, { seed: 7 });
    const copyTimes = [];
    const importTimes = [];
    let summary;
    for (let round = 0; round < ROUNDS; round++) {
      const dest = path.join(tmp, `copy-${round}`);
      globalThis.gc?.();
      let t = performance.now();
      fs.cpSync(src, dest, { recursive: true });
      copyTimes.push(performance.now() - t);

      const home = path.join(tmp, `home-${round}`);
      fs.mkdirSync(home);
      const service = createService({ paths: { home, userHome: path.join(tmp, 'user'), resourcesDir: path.join(root, 'resources') } });
      globalThis.gc?.();
      t = performance.now();
      summary = await service.api.importPaths({ paths: [src] });
      importTimes.push(performance.now() - t);
      await service.close();
    }
    const counts = {};
    for (const r of summary.results) counts[r.status] = (counts[r.status] ?? 0) + 1;
    const tally = Object.entries(counts)
      .map(([k, v]) => `${v} ${k}`)
      .join(', ');
    const floor = median(copyTimes);
    const ours = median(importTimes);
    const ratio = ours / floor;
    log(
      `library import ${SKILLS} skills: ${ratio.toFixed(1)}x plain copy (copy ${floor.toFixed(0)} ms, import ${ours.toFixed(0)} ms, ` +
        `${tally}; ${stats.files} files) target <= ${TARGET.toFixed(1)}${ratio <= TARGET ? '' : '  OVER TARGET'}`,
    );
  } finally {
    removeAtExit(tmp);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  await run({ log: console.log, root: path.dirname(path.dirname(fileURLToPath(import.meta.url))) });
}
