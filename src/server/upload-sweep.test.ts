import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SkillDockService } from '../service.js';
import { startServer, type RunningServer } from './server.js';
import { hostHeaders, rawRequest } from '../../test/support/server.js';

// Dropped batches under <home>/uploads go once their import is over (issue 12, bug 8): a real
// server on loopback, real uploads, real imports; old batches are swept at start, never through a link.

const repoResources = path.resolve(__dirname, '../../resources');
let tmp: string;
let home: string;
let uploads: string;
let service: SkillDockService;
const servers: RunningServer[] = [];

beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), 'sd-sweep-'));
  home = path.join(tmp, 'home');
  uploads = path.join(home, 'uploads');
  service = new SkillDockService({ paths: { home, userHome: path.join(tmp, 'user'), resourcesDir: repoResources } });
});

afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
  await service.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function serve(): Promise<RunningServer> {
  const server = await startServer({ service, stagingDir: uploads, watchCatalog: false });
  servers.push(server);
  return server;
}

function post(server: RunningServer, route: string, body: string | Buffer, type = 'application/json') {
  return rawRequest(server.port, {
    method: 'POST',
    path: route,
    headers: hostHeaders(server.port, server.token, { 'content-type': type }),
    body,
  });
}

/** Upload files as the browser does (begin, one request per file, finish); the staged paths. */
async function upload(server: RunningServer, files: Record<string, string>): Promise<{ batch: string; paths: string[] }> {
  const { batch } = JSON.parse((await post(server, '/api/upload/begin', '{}')).body).value as { batch: string };
  for (const [rel, text] of Object.entries(files)) {
    const q = new URLSearchParams({ batch, path: rel });
    const res = await post(server, `/api/upload/file?${q.toString()}`, text, 'application/octet-stream');
    expect(res.status, rel).toBe(200);
  }
  const fin = JSON.parse((await post(server, `/api/upload/finish?batch=${batch}`, '{}')).body).value as { paths: string[] };
  return { batch, paths: fin.paths };
}

async function importPaths(server: RunningServer, body: Record<string, unknown>) {
  const res = await post(server, '/api/importPaths', JSON.stringify(body));
  return JSON.parse(res.body) as { ok: boolean; value: { conflicts: number; results: { status: string; name: string | null }[] } };
}

const skill = (name: string, text = 'v1') => ({
  [`${name}/SKILL.md`]: `---\nname: ${name}\ndescription: Does ${text}.\n---\n\n# ${name}\n`,
});
const batches = () => (fs.existsSync(uploads) ? fs.readdirSync(uploads) : []);

describe('uploaded batches', () => {
  it('go once their import is over: imported, refused, or answered after a conflict; kept while the conflict is asked', async () => {
    const server = await serve();
    // Imported: the staged copy goes, the library keeps its own.
    const first = await upload(server, skill('tool'));
    expect(batches()).toEqual([first.batch]);
    const done = await importPaths(server, { paths: first.paths });
    expect(done.value.results.map((r) => r.status)).toEqual(['imported']);
    expect(batches()).toEqual([]);
    expect(fs.existsSync(path.join(home, 'library', 'tool', 'SKILL.md'))).toBe(true);

    // Refused (no SKILL.md anywhere): goes too.
    const junk = await upload(server, { 'notes/readme.txt': 'no skill here' });
    expect((await importPaths(server, { paths: junk.paths })).value.results.map((r) => r.status)).toEqual(['refused']);
    expect(batches()).toEqual([]);

    // A conflict: kept while the question is open, so the answer can run on the same staged paths.
    const second = await upload(server, skill('tool', 'v2'));
    const asked = await importPaths(server, { paths: second.paths });
    expect(asked.value.conflicts).toBe(1);
    expect(batches()).toEqual([second.batch]);
    const answered = await importPaths(server, { paths: second.paths, resolutions: { tool: 'keep-both' } });
    expect(answered.value.results.map((r) => r.status)).toEqual(['kept-both']);
    expect(batches()).toEqual([]);
    expect(fs.readFileSync(path.join(home, 'library', 'tool-2', 'SKILL.md'), 'utf8')).toContain('Does v2');

    // Answered with skip for everything: the batch goes as well.
    const third = await upload(server, skill('tool', 'v3'));
    expect((await importPaths(server, { paths: third.paths })).value.conflicts).toBe(1);
    await importPaths(server, { paths: third.paths, resolutions: { tool: 'skip' } });
    expect(batches()).toEqual([]);

    // A call that fails its schema changes nothing it should not; an import of paths outside uploads leaves batches alone.
    const pending = await upload(server, skill('other'));
    const outside = path.join(tmp, 'outside-skill');
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(outside, 'SKILL.md'), '---\nname: outside-skill\ndescription: d.\n---\n');
    expect((await importPaths(server, { paths: [outside] })).ok).toBe(true);
    expect(batches()).toEqual([pending.batch]);
  });

  it('older than the limit are swept at start, links inside unlinked and never followed; young and foreign entries stay', async () => {
    const outside = path.join(tmp, 'outside');
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(outside, 'keep.txt'), 'precious');
    const old = `b-${String(Date.now() - 7 * 60 * 60 * 1000).padStart(13, '0')}-0123456789abcdef`;
    const young = `b-${String(Date.now() - 60 * 1000).padStart(13, '0')}-fedcba9876543210`;
    fs.mkdirSync(path.join(uploads, old, 'skill'), { recursive: true });
    fs.writeFileSync(path.join(uploads, old, 'skill', 'SKILL.md'), 'x');
    fs.symlinkSync(outside, path.join(uploads, old, 'skill', 'link-to-outside'));
    fs.mkdirSync(path.join(uploads, young));
    fs.mkdirSync(path.join(uploads, 'not-a-batch'));
    await serve();
    expect(batches().sort()).toEqual([young, 'not-a-batch'].sort());
    expect(fs.readFileSync(path.join(outside, 'keep.txt'), 'utf8')).toBe('precious');
  });

  it('are never deleted through an uploads folder that is a link', async () => {
    const elsewhere = path.join(tmp, 'elsewhere');
    const old = `b-${String(Date.now() - 7 * 60 * 60 * 1000).padStart(13, '0')}-0123456789abcdef`;
    fs.mkdirSync(path.join(elsewhere, old), { recursive: true });
    fs.writeFileSync(path.join(elsewhere, old, 'file.txt'), 'not ours to delete');
    fs.mkdirSync(home, { recursive: true });
    fs.symlinkSync(elsewhere, uploads);
    await serve();
    expect(fs.readFileSync(path.join(elsewhere, old, 'file.txt'), 'utf8')).toBe('not ours to delete');
  });
});
