import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeWorld, resourcesDir, type World } from '../../test/support/library.js';
import { SkillDockService } from '../service.js';
import type { IndexedSkillWithBody } from '../contract/index.js';
import { SkillSearch } from './search.js';
import { indexedSkill } from '../../test/support/indexed-skill.js';

// The saved search index (<home>/catalogs/search-index.json): written by the first search, loaded
// by the next process instead of built again, brought in line when a catalog's index changes, and
// built anew (never a crash) when it cannot be used. Each new SkillDockService is what a new CLI
// run is: nothing in memory. The index file is rewritten only when something changed, so an
// unchanged inode shows a process loaded the saved index rather than building its own.

let w: World;
const others: SkillDockService[] = [];

/** The digest follows the description, as a skill's content digest follows its files. */
const skill = (name: string, description: string, body = '') =>
  indexedSkill(name, description, body, { catalog: 'col', commit: 'a'.repeat(40), digest: `d-${name}-${description}` });

const saved = () => path.join(w.home, 'catalogs', 'search-index.json');
const inode = () => fs.statSync(saved()).ino;

function writeCatalogIndex(skills: IndexedSkillWithBody[]): void {
  const dir = path.join(w.home, 'catalogs', 'col');
  fs.mkdirSync(dir, { recursive: true });
  const tmp = path.join(dir, 'index.json.tmp');
  const index = { version: 1, id: 'col', url: 'https://example.invalid/col.git', refreshedAt: new Date().toISOString(), skills };
  fs.writeFileSync(tmp, JSON.stringify(index));
  fs.renameSync(tmp, path.join(dir, 'index.json')); // as writeIndex does: a new file each time
}

/** A new process: a service with nothing in memory over the same home. */
function next(): SkillDockService {
  const s = new SkillDockService({ paths: { home: w.home, userHome: w.userHome, resourcesDir } });
  others.push(s);
  return s;
}

async function names(s: SkillDockService, query: string): Promise<string[]> {
  return (await s.api.searchSkills({ query })).results.map((r) => r.name);
}

const CORPUS = [
  skill('pdf-tools', 'Extract text and tables from PDF files.'),
  skill('release-notes', 'Write release notes from the changelog.'),
  skill('spreadsheet', 'Charts and formulas in spreadsheets.', 'Pivot tables and gantt charts.'),
];

beforeEach(async () => {
  w = makeWorld();
  for (const c of (await w.service.api.listCatalogs({})).catalogs) await w.service.api.setCatalogEnabled({ id: c.id, enabled: false });
  await w.service.api.addCatalog({ url: 'https://example.invalid/col.git', id: 'col' });
  writeCatalogIndex(CORPUS);
});

afterEach(async () => {
  for (const s of others.splice(0)) await s.close();
  await w.done();
});

describe('the saved search index', () => {
  it('is written by the first search and loaded, not rebuilt, by the next process', async () => {
    expect(fs.existsSync(saved())).toBe(false);
    expect(await names(w.service, 'pdf')).toEqual(['pdf-tools']);
    expect(SkillSearch.fromSaved(JSON.parse(fs.readFileSync(saved(), 'utf8')))?.size()).toBe(3);
    const ino = inode();
    expect(await names(next(), 'pdf')).toEqual(['pdf-tools']);
    expect(await names(next(), 'gantt')).toEqual(['spreadsheet']);
    expect(inode()).toBe(ino);
  });

  it('follows a changed catalog index: an added, a changed and a removed skill', async () => {
    await names(w.service, 'pdf');
    const ino = inode();
    writeCatalogIndex([CORPUS[0]!, skill('release-notes', 'Draft announcements for a launch.'), skill('keynote', 'Slide decks.')]);
    const s = next();
    expect(await names(s, 'announcements')).toEqual(['release-notes']);
    expect(await names(s, 'changelog')).toEqual([]);
    expect(await names(s, 'slide')).toEqual(['keynote']);
    expect(await names(s, 'spreadsheets')).toEqual([]);
    const ino2 = inode();
    expect(ino2).not.toBe(ino);
    // The rewritten index is whole: the next process loads it as it is.
    expect(await names(next(), 'slide')).toEqual(['keynote']);
    expect(await names(next(), 'pdf')).toEqual(['pdf-tools']);
    expect(inode()).toBe(ino2);
  });

  it('keeps a disabled catalog indexed but out of results: turning it on again rebuilds nothing', async () => {
    await names(w.service, 'pdf');
    const ino = inode();
    await w.service.api.setCatalogEnabled({ id: 'col', enabled: false });
    expect(await names(next(), 'pdf')).toEqual([]);
    expect((await next().api.searchSkills({ query: '' })).total).toBe(0);
    await w.service.api.setCatalogEnabled({ id: 'col', enabled: true });
    expect(await names(next(), 'pdf')).toEqual(['pdf-tools']);
    expect(inode()).toBe(ino);
    await w.service.api.removeCatalog({ id: 'col' });
    expect(await names(next(), 'pdf')).toEqual([]);
    expect(SkillSearch.fromSaved(JSON.parse(fs.readFileSync(saved(), 'utf8')))?.size()).toBe(0);
  });

  const damage: [string, (text: string) => string][] = [
    ['cut short', (t) => t.slice(0, Math.floor(t.length / 2))],
    ['not an object', () => 'null'],
    ['documents of the wrong type', (t) => JSON.stringify({ ...JSON.parse(t), docs: 5 })],
    ['a document of the wrong shape', (t) => JSON.stringify({ ...JSON.parse(t), docs: [{ key: 1 }] })],
    ['the format of another version', (t) => JSON.stringify({ ...JSON.parse(t), format: 'skilldock-search-0' })],
    ['MiniSearch data of the wrong type', (t) => JSON.stringify({ ...JSON.parse(t), index: { index: 'x' } })],
    [
      'a document the index does not hold',
      (t) => {
        const d = JSON.parse(t) as { docs: { key: string }[] };
        d.docs[0]!.key = d.docs[0]!.key.replace('pdf-tools', 'other');
        return JSON.stringify(d);
      },
    ],
    [
      // Reads back whole and loads, then fails inside MiniSearch at the first search.
      'field lengths missing',
      (t) => {
        const d = JSON.parse(t) as { index: { fieldLength: unknown } };
        d.index.fieldLength = {};
        return JSON.stringify(d);
      },
    ],
  ];

  it.each(damage)('a saved index with %s is built anew, never a crash', async (_what, spoil) => {
    await names(w.service, 'pdf');
    fs.writeFileSync(saved(), spoil(fs.readFileSync(saved(), 'utf8')));
    const s = next();
    expect(await names(s, 'pdf')).toEqual(['pdf-tools']);
    expect(await names(s, 'gantt')).toEqual(['spreadsheet']);
    expect(SkillSearch.fromSaved(JSON.parse(fs.readFileSync(saved(), 'utf8')))?.size()).toBe(3);
  });
});
