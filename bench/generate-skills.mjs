// Generates N synthetic skills for benchmarks: varied sizes, some with references/ and scripts/,
// a few broken in the ways real skills break. Deterministic for a given seed.
//   node bench/generate-skills.mjs <dir> [n] [seed]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Small, fast, seedable PRNG (mulberry32). */
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

const WORDS = (
  'extract text tables forms pdf files merge split documents when user asks about spreadsheets charts ' +
  'deploy review code tests commit branch api schema database query migrate logs metrics alert image ' +
  'resize convert audio video transcript summary translate release notes changelog lint format style'
).split(' ');

function words(r, n) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(WORDS[Math.floor(r() * WORDS.length)]);
  return out.join(' ');
}

function bodyLines(r, n, refs) {
  const lines = ['# Instructions', ''];
  for (let i = 0; i < n; i++) {
    if (i % 12 === 0) lines.push(`## Step ${i / 12 + 1}`, '');
    lines.push(`${words(r, 6 + Math.floor(r() * 10))}.`);
  }
  for (const ref of refs) lines.push('', `See [${path.basename(ref)}](${ref}) for details.`);
  return lines.join('\n');
}

/** The ways a generated skill can be broken (about 1 in 100 skills). */
const BREAKAGES = ['no-frontmatter', 'bad-yaml', 'name-mismatch', 'broken-ref', 'no-description', 'lowercase-file'];

/**
 * Write `n` skills under `dir` (created). Returns counts of what was written.
 * @param {string} dir
 * @param {number} n
 * @param {{ seed?: number }} [opts]
 */
export function generateSkills(dir, n, opts = {}) {
  const r = rng(opts.seed ?? 42);
  fs.mkdirSync(dir, { recursive: true });
  const stats = { skills: 0, broken: 0, withReferences: 0, withScripts: 0, files: 0, bytes: 0 };
  const write = (file, text, mode) => {
    fs.writeFileSync(file, text, mode ? { mode } : undefined);
    stats.files++;
    stats.bytes += Buffer.byteLength(text);
  };
  const width = String(n).length;
  for (let i = 0; i < n; i++) {
    const name = `skill-${String(i).padStart(width, '0')}-${WORDS[i % WORDS.length]}`;
    const skillDir = path.join(dir, name);
    fs.mkdirSync(skillDir);
    stats.skills++;
    const broken = i % 100 === 37 ? BREAKAGES[Math.floor(i / 100) % BREAKAGES.length] : null;
    if (broken) stats.broken++;
    // Sizes: mostly small, a long tail of big ones (as in real collections).
    const size = r();
    const lines = size < 0.7 ? 5 + Math.floor(r() * 40) : size < 0.95 ? 40 + Math.floor(r() * 160) : 200 + Math.floor(r() * 500);
    const refs = [];
    if (r() < 0.25) {
      stats.withReferences++;
      fs.mkdirSync(path.join(skillDir, 'references'));
      const k = 1 + Math.floor(r() * 3);
      for (let j = 0; j < k; j++) {
        const ref = `references/topic-${j}.md`;
        refs.push(ref);
        write(path.join(skillDir, ref), `# Topic ${j}\n\n${words(r, 40 + Math.floor(r() * 400))}\n`);
      }
    }
    if (r() < 0.15) {
      stats.withScripts++;
      fs.mkdirSync(path.join(skillDir, 'scripts'));
      write(path.join(skillDir, 'scripts', 'run.sh'), `#!/bin/sh\n# ${words(r, 8)}\necho "$@"\n`, 0o755);
      refs.push('scripts/run.sh');
      if (r() < 0.5) {
        write(path.join(skillDir, 'scripts', 'helper.py'), `"""${words(r, 10)}"""\nimport sys\nprint(sys.argv)\n`);
      }
    }
    if (broken === 'broken-ref') refs.push('references/missing.md');
    const description = `${words(r, 8 + Math.floor(r() * 60))}. Use when the user asks to ${words(r, 4)}.`;
    const fmName = broken === 'name-mismatch' ? `${name}-other` : name;
    const fm = [`name: ${fmName}`];
    if (broken !== 'no-description') fm.push(`description: ${broken === 'bad-yaml' ? '[unclosed' : JSON.stringify(description)}`);
    if (r() < 0.3) fm.push('license: MIT');
    if (r() < 0.2) fm.push('metadata:', `  version: "1.${i % 10}"`, '  author: bench');
    const body = bodyLines(r, lines, refs);
    const text = broken === 'no-frontmatter' ? `${body}\n` : `---\n${fm.join('\n')}\n---\n\n${body}\n`;
    write(path.join(skillDir, broken === 'lowercase-file' ? 'skill.md' : 'SKILL.md'), text);
  }
  return stats;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [dir, n = '1000', seed = '42'] = process.argv.slice(2);
  if (!dir) {
    console.error('usage: node bench/generate-skills.mjs <dir> [n] [seed]');
    process.exit(2);
  }
  console.log(JSON.stringify(generateSkills(path.resolve(dir), Number(n), { seed: Number(seed) })));
}
