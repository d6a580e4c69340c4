import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { makeWorld, snapshot, writeSkill, type World } from '../../test/support/library.js';
import { rawZip, SKILL_MD, type RawEntry } from '../../test/support/zips.js';

// Random archives (seeded, so a failure repeats; bounded in count and time) fed to import: whatever
// they hold, the library is either unchanged or holds exactly the valid skills they carried, and
// nothing is left in staging.

const CASES = 60;
const SEED = 0x5d0c;

/** xorshift32, seeded: a failing case repeats. */
function random(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => ((x ^= x << 13), (x ^= x >>> 17), (x ^= x << 5), (x >>> 0) / 4294967296);
}

/** Hostile names and entries, each enough to refuse the whole archive. */
const HOSTILE: Array<(r: () => number) => RawEntry> = [
  () => ({ name: 'x/../../escape.txt', data: Buffer.from('x') }),
  () => ({ name: '/abs/SKILL.md', data: Buffer.from('x') }),
  () => ({ name: 'a\\b.txt', data: Buffer.from('x') }),
  () => ({ name: 'link', data: Buffer.from('/etc/passwd'), unixMode: 0o120777 }),
  () => ({ name: 'dev', data: Buffer.alloc(0), unixMode: 0o060644 }),
  () => ({ name: 'enc.txt', data: Buffer.alloc(20), flags: 1, uncompressedSize: 8 }),
  (r) => ({ name: `${'d/'.repeat(40 + Math.floor(r() * 20))}deep.txt`, data: Buffer.from('x') }),
  () => ({ name: 'Twin/a.txt', data: Buffer.from('x') }),
];

let w: World;
beforeEach(() => {
  w = makeWorld();
});
afterEach(async () => {
  await w.done();
});

it(`${CASES} random archives: refused and nothing changed, or exactly their valid skills imported`, async () => {
  await w.service.api.importPaths({ paths: [writeSkill(path.join(w.src, 'keeper'), 'keeper', { 'k.txt': 'keep' })] });
  const r = random(SEED);
  const end = Date.now() + 60_000;
  let imported = 0;
  let refused = 0;
  for (let n = 0; n < CASES && Date.now() < end; n++) {
    const entries: RawEntry[] = [];
    const valid: string[] = [];
    const skills = Math.floor(r() * 4);
    for (let i = 0; i < skills; i++) {
      const name = `fz${n}-${i}`;
      entries.push({ name: `${name}/SKILL.md`, data: SKILL_MD(name), deflate: r() < 0.5 });
      if (r() < 0.5) entries.push({ name: `${name}/notes/n.txt`, data: Buffer.from(`note ${n} ${i}\n`) });
      valid.push(name);
    }
    // a folder without SKILL.md is not a skill, and is ignored
    if (r() < 0.3) entries.push({ name: `junk${n}/readme.txt`, data: Buffer.from('not a skill') });
    const hostile = r() < 0.4;
    if (hostile) {
      const h = HOSTILE[Math.floor(r() * HOSTILE.length)]!(r);
      entries.splice(Math.floor(r() * (entries.length + 1)), 0, h);
      if (h.name === 'Twin/a.txt') entries.push({ name: 'twin/b.txt', data: Buffer.from('y') });
    }
    let zip = rawZip(entries);
    // some archives are damaged on the way: a flipped byte or a cut
    const damage = r();
    if (damage < 0.15 && zip.length > 0) {
      zip = Buffer.from(zip);
      const at = Math.floor(r() * zip.length);
      zip[at] = zip[at]! ^ (1 + Math.floor(r() * 255));
    } else if (damage < 0.25) {
      zip = zip.subarray(0, Math.floor(r() * zip.length));
    }
    const file = path.join(w.src, `case${n}.zip`);
    fs.writeFileSync(file, zip);

    const lib = path.join(w.home, 'library');
    const before = snapshot(lib);
    const out = await w.service.api.importPaths({ paths: [file] });
    const after = snapshot(lib);
    const added = Object.keys(after).filter((k) => !(k in before));
    const changed = Object.keys(before).filter((k) => after[k] !== before[k]);
    expect(changed, `case ${n}: existing files changed`).toEqual([]);
    const addedSkills = [...new Set(added.map((k) => k.split('/')[0]))].sort();
    if (addedSkills.length === 0) {
      refused++;
    } else {
      // exactly the valid skills, each whole, and only when nothing hostile was in the archive
      imported++;
      expect(hostile, `case ${n}: imported from a hostile archive`).toBe(false);
      expect(addedSkills, `case ${n}`).toEqual([...valid].sort());
      for (const s of valid) expect(fs.readFileSync(path.join(lib, s, 'SKILL.md'))).toEqual(SKILL_MD(s));
      expect(out.results.filter((x) => x.status === 'imported').length).toBe(valid.length);
    }
    const staging = path.join(w.home, 'staging');
    const left = fs.existsSync(staging) ? fs.readdirSync(staging).flatMap((d) => fs.readdirSync(path.join(staging, d))) : [];
    expect(left, `case ${n}: staging left behind`).toEqual([]);
  }
  // the seed gives both kinds of outcome, and the earlier skill was never touched
  expect(imported).toBeGreaterThan(5);
  expect(refused).toBeGreaterThan(5);
  expect(fs.readFileSync(path.join(w.home, 'library', 'keeper', 'k.txt'), 'utf8')).toBe('keep');
});
