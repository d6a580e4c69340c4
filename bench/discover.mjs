// Discover (issue 29). Two measurements:
// 1. search: 200 mixed queries (topic words, two words, typos, prefixes, filters) over an index of
//    20,000 skills with bodies of 100-600 words: median and p95 per query through the service
//    (index sync, filters, installed marks included). Targets: median <= 10 ms, p95 <= 30 ms.
// 2. refresh: a git catalog of 1,000 skills served by `git daemon`, after one upstream commit that
//    changes 3 skills, against its floor measured in the same run: `git fetch` of that commit into
//    a copy of the repository at the previous one, plus `git diff --name-only`. Target <= 1.5x.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadEngine, median, removeAtExit } from './engine.mjs';

const SKILLS = 20_000;
const QUERIES = 200;
const REFRESH_SKILLS = 1000;
const ROUNDS = Number(process.env.SD_ROUNDS || 5);

function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYL = [
  'ka',
  'lo',
  'mi',
  'pe',
  'ru',
  'sa',
  'ti',
  'vo',
  'ne',
  'da',
  'ex',
  'port',
  'form',
  'ing',
  'ter',
  'con',
  'pro',
  'ver',
  'ly',
  'tion',
];
const TOPICS = (
  'pdf extract tables forms spreadsheet chart deploy kubernetes review pull commit branch schema database migrate logs metrics ' +
  'alert image resize convert audio video transcript summary translate release changelog lint format invoice receipt calendar ' +
  'email slack jira figma design tokens accessibility testing playwright terraform docker security audit secrets python rust'
).split(' ');

const FUNCTION_WORDS = 'the a to of and in is for it with when you that this on be as use or if from by an your can'.split(' ');

/** A corpus with a realistic shape: function words in every text, topic words in a few percent, a long tail. */
export function corpus(n) {
  const r = rng(29);
  const vocab = [];
  for (let i = 0; i < 12000; i++) {
    let w = '';
    const k = 2 + Math.floor(r() * 3);
    for (let j = 0; j < k; j++) w += SYL[Math.floor(r() * SYL.length)];
    vocab.push(w);
  }
  // As in English text: about 40% of words are function words, the rest a long-tailed vocabulary.
  const zipf = () => vocab[Math.floor(vocab.length * Math.pow(r(), 2))];
  const word = (topic) => {
    const x = r();
    return x < 0.08 ? topic : x < 0.48 ? FUNCTION_WORDS[Math.floor(r() * FUNCTION_WORDS.length)] : zipf();
  };
  const words = (k, topic) => Array.from({ length: k }, () => word(topic)).join(' ');
  const skills = [];
  for (let i = 0; i < n; i++) {
    const topic = TOPICS[i % TOPICS.length];
    const name = `${topic}-${vocab[i % vocab.length]}-${i}`;
    const risk = i % 17 === 0 ? 'high' : i % 5 === 0 ? 'low' : 'none';
    skills.push({
      catalog: 'bench',
      path: `skills/${name}`,
      name,
      description: `${words(12, topic)}. Use when the user asks about ${topic}.`,
      commit: 'a'.repeat(40),
      digest: `d${i}`,
      files: ['SKILL.md'],
      scripts: i % 7 === 0,
      errors: 0,
      warnings: 0,
      droppedBy: i % 11 === 0 ? ['codex'] : [],
      security: { high: risk === 'high' ? 1 : 0, medium: 0, low: risk === 'low' ? 1 : 0, executable: i % 7 === 0 },
      risk,
      body: `---\nname: ${name}\n---\n\n# ${name}\n\n${words(100 + Math.floor(r() * 500), topic)}\n`,
    });
  }
  return { skills, vocab };
}

export function queries(vocab) {
  const r = rng(7);
  const pick = (xs) => xs[Math.floor(r() * xs.length)];
  const typo = (w) => {
    const i = 1 + Math.floor(r() * (w.length - 2));
    return w.slice(0, i) + w.slice(i + 1);
  };
  const out = [];
  for (let i = 0; i < QUERIES; i++) {
    const t = pick(TOPICS);
    switch (i % 8) {
      case 0:
        out.push({ query: t });
        break;
      case 1:
        out.push({ query: `${t} ${pick(TOPICS)}` });
        break;
      case 2:
        out.push({ query: typo(t.length > 4 ? t : 'spreadsheet') });
        break;
      case 3:
        out.push({ query: t.slice(0, Math.max(3, t.length - 2)) });
        break;
      case 4:
        out.push({ query: `${pick(vocab)} ${t}` });
        break;
      case 5:
        out.push({ query: t, scripts: false, maxRisk: 'low' });
        break;
      case 6:
        out.push({ query: `${t} ${pick(vocab)}`, agent: 'codex' });
        break;
      default:
        out.push({ query: `how do I ${t} the ${pick(TOPICS)} files` });
    }
  }
  return out;
}

const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const ms = (x) => `${x.toFixed(1)} ms`;

async function searchBench(eng, root, tmp, log) {
  const home = path.join(tmp, 'search-home');
  const { skills, vocab } = corpus(SKILLS);
  const dir = path.join(home, 'catalogs', 'bench');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(home, 'catalogs', 'catalogs.json'),
    JSON.stringify({
      version: 1,
      data: { catalogs: [{ id: 'bench', kind: 'git', url: 'https://example.invalid/bench.git', enabled: true }] },
    }),
  );
  fs.writeFileSync(
    path.join(dir, 'index.json'),
    JSON.stringify({ version: 1, id: 'bench', url: 'x', commit: 'a'.repeat(40), refreshedAt: new Date().toISOString(), skills }),
  );
  const paths = { home, userHome: path.join(tmp, 'user'), resourcesDir: path.join(root, 'resources') };
  // The first process builds the search index and saves it; every later one loads it.
  let service = eng.createService({ paths });
  let t = performance.now();
  const first = await service.api.searchSkills({ query: 'pdf' });
  const build = performance.now() - t;
  await service.close();
  if (!first.results.length) throw new Error('no results for pdf');
  const saved = fs.statSync(path.join(home, 'catalogs', 'search-index.json')).size;
  service = eng.createService({ paths });
  try {
    t = performance.now();
    await service.api.searchSkills({ query: 'pdf' });
    const load = performance.now() - t;
    const times = [];
    let hits = 0;
    for (const q of queries(vocab)) {
      t = performance.now();
      const r = await service.api.searchSkills(q);
      times.push({ ms: performance.now() - t, q });
      hits += r.results.length ? 1 : 0;
    }
    const ts = times.map((x) => x.ms);
    const med = median(ts);
    const p95 = pct(ts, 0.95);
    const slow = [...times].sort((a, b) => b.ms - a.ms).slice(0, 3);
    log(
      `discover search ${SKILLS} skills, ${QUERIES} mixed queries: median ${ms(med)} (target <= 10), p95 ${ms(p95)} (target <= 30), ` +
        `max ${ms(Math.max(...ts))}; ${hits}/${QUERIES} queries found something; slowest ${slow.map((x) => `${JSON.stringify(x.q)} ${ms(x.ms)}`).join(', ')}`,
    );
    log(
      `discover search index ${SKILLS} skills: first search builds and saves it ${ms(build)}; a new process loads it ` +
        `(${(saved / 1048576).toFixed(0)} MB) at its first search ${ms(load)} (${(build / load).toFixed(1)}x faster)`,
    );
  } finally {
    await service.close();
  }
}

const run = (args, cwd) =>
  new Promise((resolve, reject) =>
    execFile('git', args, { cwd, env: { ...process.env, GIT_TERMINAL_PROMPT: '0' }, maxBuffer: 64 << 20 }, (err, out) =>
      err ? reject(err) : resolve(out),
    ),
  );

async function refreshBench(eng, root, tmp, log) {
  const gitRoot = path.join(tmp, 'git');
  const files = { 'README.md': 'catalog' };
  for (let i = 0; i < REFRESH_SKILLS; i++) {
    const name = `skill-${String(i).padStart(4, '0')}`;
    files[`skills/${name}/SKILL.md`] = eng.skillMd(name, `Body of ${name}, version 0.`);
    if (i % 4 === 0) files[`skills/${name}/references/notes.md`] = `notes ${i}\n`;
  }
  const repo = eng.makeRepo(gitRoot, 'catalog', files);
  const daemon = await eng.startGitDaemon(path.join(gitRoot, 'served'));
  const url = `${daemon.base}/catalog.git`;
  const home = path.join(tmp, 'refresh-home');
  const service = eng.createService({ paths: { home, userHome: path.join(tmp, 'user2'), resourcesDir: path.join(root, 'resources') } });
  const floorRepo = path.join(tmp, 'floor');
  try {
    for (const c of (await service.api.listCatalogs({})).catalogs) await service.api.setCatalogEnabled({ id: c.id, enabled: false });
    await service.api.addCatalog({ url, id: 'bench' });
    let t = performance.now();
    const full = (await service.api.refreshCatalogs({ ids: ['bench'] })).results[0];
    const fullMs = performance.now() - t;
    if (full.skills !== REFRESH_SKILLS) throw new Error(`indexed ${full.skills}`);
    // The floor's repository: the same depth-1 history at the same commit, made the same way. It
    // keeps the commit fetched in a ref as a clone does, so its fetch sends only what changed.
    fs.mkdirSync(floorRepo);
    await run(['init', '-q'], floorRepo);
    await run(['fetch', '-q', '--depth', '1', '--no-tags', url, '+HEAD:refs/floor/fetched'], floorRepo);
    await run(['checkout', '-q', '--detach', 'FETCH_HEAD'], floorRepo);
    const floor = [];
    const ours = [];
    for (let round = 0; round < ROUNDS; round++) {
      const change = {};
      for (let k = 0; k < 3; k++) {
        const name = `skill-${String((round * 97 + k * 311) % REFRESH_SKILLS).padStart(4, '0')}`;
        change[`skills/${name}/SKILL.md`] = eng.skillMd(name, `Body of ${name}, version ${round + 1}.`);
      }
      repo.commit(change, `round ${round}`);
      t = performance.now();
      await run(['fetch', '-q', '--depth', '1', '--no-tags', url, '+HEAD:refs/floor/fetched'], floorRepo);
      await run(['diff', '--name-only', 'HEAD', 'FETCH_HEAD'], floorRepo);
      floor.push(performance.now() - t);
      await run(['checkout', '-q', '--detach', 'FETCH_HEAD'], floorRepo); // not timed: the next round starts from here
      t = performance.now();
      const r = (await service.api.refreshCatalogs({ ids: ['bench'], force: true })).results[0];
      ours.push(performance.now() - t);
      if (r.changed !== 3 || r.skills !== REFRESH_SKILLS) throw new Error(`round ${round}: ${JSON.stringify(r)}`);
    }
    const f = median(floor);
    const o = median(ours);
    log(
      `discover refresh ${REFRESH_SKILLS}-skill git catalog after a commit changing 3 skills: ${(o / f).toFixed(2)}x floor ` +
        `(floor git fetch + git diff --name-only ${ms(f)}, ours ${ms(o)}, ${ROUNDS} rounds, medians) target <= 1.5; first full index ${ms(fullMs)}`,
    );
  } finally {
    await service.close();
    await daemon.stop();
  }
}

export default async function runBench({ log, root }) {
  const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sd-bench-discover-')));
  removeAtExit(tmp);
  const eng = await loadEngine(
    root,
    tmp,
    "export { createService } from './src/service.ts'; export { makeRepo, skillMd, startGitDaemon } from './test/support/git-servers.ts';",
  );
  if (!process.env.SD_NOSEARCH) await searchBench(eng, root, tmp, log);
  await refreshBench(eng, root, tmp, log);
}
