import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import yazl from 'yazl';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { libraryNames, makeWorld, runWorldCli, snapshot, type World } from '../../test/support/library.js';
import { skillMd } from '../../test/support/git-servers.js';
import { SkillDockError } from '../errors.js';
import { DOWNLOAD_LIMITS, fetchArchive } from './download.js';
import { parseSource } from './parse.js';

// Direct archive URLs (.zip, .skill, .tar.gz, .tgz) as sources, served by a real HTTP server on
// loopback: add, check, update, undo, and every refusal (HTTP errors, redirects, size, time,
// hostile tar entries) with the library unchanged and nothing left in staging.

interface Route {
  status?: number;
  headers?: Record<string, string>;
  body?: Buffer;
  /** Never answer (the idle limit must stop the download). */
  hang?: boolean;
}

let w: World;
let server: http.Server;
let base: string;
const routes = new Map<string, Route>();
const hits = new Map<string, number>();
const open = new Set<http.ServerResponse>();

function zipOf(files: Record<string, string>): Promise<Buffer> {
  const z = new yazl.ZipFile();
  for (const [name, text] of Object.entries(files)) z.addBuffer(Buffer.from(text), name);
  z.end();
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    z.outputStream.on('data', (c: Buffer) => chunks.push(c));
    z.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    z.outputStream.on('error', reject);
  });
}

/** A real `.tar.gz` made by the system's GNU tar from real files. */
function tarOf(files: Record<string, string>, format: 'gnu' | 'pax' = 'gnu'): Buffer {
  const dir = fs.mkdtempSync(path.join(w.root, 'tar-'));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  const out = path.join(w.root, `${path.basename(dir)}.tar.gz`);
  execFileSync('tar', [`--format=${format}`, '-czf', out, '-C', dir, '.']);
  return fs.readFileSync(out);
}

/** One hand-made tar header (for entries GNU tar would not write from real files). */
function header(name: string, type: string, size = 0, link = ''): Buffer {
  const h = Buffer.alloc(512);
  h.write(name, 0, 100, 'utf8');
  h.write('0000644\0', 100);
  h.write('0000000\0', 108);
  h.write('0000000\0', 116);
  h.write(`${size.toString(8).padStart(11, '0')}\0`, 124);
  h.write('00000000000\0', 136);
  h.write(type, 156);
  h.write(link, 157, 100);
  h.write('ustar\0' + '00', 257, 'latin1');
  h.fill(0x20, 148, 156);
  let sum = 0;
  for (const b of h) sum += b;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
  return h;
}

function handTar(entries: Array<{ name: string; type?: string; text?: string; link?: string }>): Buffer {
  const parts: Buffer[] = [];
  for (const e of entries) {
    const data = Buffer.from(e.text ?? '');
    parts.push(header(e.name, e.type ?? '0', data.length, e.link));
    if (data.length) parts.push(data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  parts.push(Buffer.alloc(1024));
  return zlib.gzipSync(Buffer.concat(parts));
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

beforeAll(async () => {
  w = makeWorld();
  server = http.createServer((req, res) => {
    const p = (req.url ?? '/').split('?')[0]!;
    hits.set(p, (hits.get(p) ?? 0) + 1);
    const r = routes.get(p);
    if (!r) {
      res.writeHead(404).end();
      return;
    }
    if (r.hang) {
      open.add(res);
      return;
    }
    res.writeHead(r.status ?? 200, r.headers ?? {});
    res.end(r.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const res of open) res.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await w?.done();
});

const lib = () => path.join(w.home, 'library');
const libNames = () => libraryNames(w);
const staging = () => {
  const st = path.join(w.home, 'staging', 'sources');
  return fs.existsSync(st) ? fs.readdirSync(st) : [];
};

beforeEach(async () => {
  for (const n of libNames()) await w.service.api.deleteSkill({ name: n });
  routes.clear();
  hits.clear();
});

async function refusal(p: Promise<unknown>): Promise<SkillDockError> {
  const before = fs.existsSync(lib()) ? snapshot(lib()) : {};
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SkillDockError);
  expect(fs.existsSync(lib()) ? snapshot(lib()) : {}).toEqual(before);
  expect(staging()).toEqual([]);
  return err as SkillDockError;
}

describe('archive URLs as sources', () => {
  it('adds the skills of a release zip over http, checks (one download per archive), updates and undoes', async () => {
    const v1 = await zipOf({
      'pack-1.0/skills/alpha/SKILL.md': skillMd('alpha'),
      'pack-1.0/skills/alpha/notes.txt': 'one\ntwo\n',
      'pack-1.0/skills/beta/SKILL.md': skillMd('beta'),
    });
    routes.set('/pack.zip', { body: v1 });
    const url = `${base}/pack.zip`;
    const r = await w.service.api.addFromSource({ source: url });
    // the version folder is the archive's root: paths stay the same in the next release
    expect(r.found.map((f) => f.path)).toEqual(['skills/alpha', 'skills/beta']);
    expect(r.commit).toBe(sha(v1));
    expect(libNames()).toEqual(['alpha', 'beta']);
    const prov = (await w.service.api.listProvenance({})).skills;
    expect(prov.alpha).toMatchObject({ source: { kind: 'archive', url, given: url }, commit: sha(v1), path: 'skills/alpha' });
    expect(staging()).toEqual([]);

    hits.clear();
    let c = await w.service.api.checkSources({});
    expect(c.results.map((x) => [x.skill, x.status])).toEqual([
      ['alpha', 'up-to-date'],
      ['beta', 'up-to-date'],
    ]);
    expect(hits.get('/pack.zip')).toBe(1);

    // A new release: another version folder, alpha changed, a file added.
    const v2 = await zipOf({
      'pack-1.1/skills/alpha/SKILL.md': skillMd('alpha', 'Use it better.'),
      'pack-1.1/skills/alpha/notes.txt': 'one\ntwo\n',
      'pack-1.1/skills/alpha/extra.md': 'new',
      'pack-1.1/skills/beta/SKILL.md': skillMd('beta'),
    });
    routes.set('/pack.zip', { body: v2 });
    hits.clear();
    c = await w.service.api.checkSources({});
    expect(c.results.find((x) => x.skill === 'alpha')).toMatchObject({
      status: 'update-available',
      fromCommit: sha(v1),
      toCommit: sha(v2),
      added: ['extra.md'],
      changed: ['SKILL.md'],
    });
    expect(c.results.find((x) => x.skill === 'beta')?.status).toBe('up-to-date');
    expect(hits.get('/pack.zip')).toBe(1);
    expect(staging()).toEqual([]);

    const u = await w.service.api.updateSkills({ names: ['alpha'] });
    expect(u.results[0]).toMatchObject({ skill: 'alpha', status: 'updated', toCommit: sha(v2) });
    expect(fs.readFileSync(path.join(lib(), 'alpha', 'SKILL.md'), 'utf8')).toContain('Use it better.');
    expect(fs.existsSync(path.join(lib(), 'alpha', 'extra.md'))).toBe(true);
    await w.service.api.undo({});
    expect(fs.readFileSync(path.join(lib(), 'alpha', 'SKILL.md'), 'utf8')).not.toContain('Use it better.');
  });

  it('adds from GNU and pax .tar.gz (long names), a .tgz over a redirect, and a file:// archive', async () => {
    const long = `skills/${'deep-'.repeat(12)}tool`;
    routes.set('/a.tar.gz', { body: tarOf({ [`${long}/SKILL.md`]: skillMd('gnu-tool'), 'README.md': 'x' }) });
    routes.set('/b.tgz', { body: tarOf({ 'skills/pax-tool/SKILL.md': skillMd('pax-tool'), 'skills/pax-tool/run.sh': 'echo' }, 'pax') });
    let r = await w.service.api.addFromSource({ source: `${base}/a.tar.gz` });
    expect(r.found.map((f) => [f.path, f.name])).toEqual([[long, 'gnu-tool']]);
    // a redirect is followed; the name decides the format, so the URL itself ends in .tgz here
    routes.set('/v/b.tgz', { status: 301, headers: { location: `${base}/b.tgz` } });
    r = await w.service.api.addFromSource({ source: `${base}/v/b.tgz` });
    expect(r.found.map((f) => f.name)).toEqual(['pax-tool']);
    expect(fs.readFileSync(path.join(lib(), 'pax-tool', 'run.sh'), 'utf8')).toBe('echo');
    const file = path.join(w.root, 'single.zip');
    fs.writeFileSync(file, await zipOf({ 'solo/SKILL.md': skillMd('solo') }));
    r = await w.service.api.addFromSource({ source: `file://${file}` });
    expect(r.found.map((f) => [f.path, f.name])).toEqual([['', 'solo']]);
    expect(libNames()).toEqual(['gnu-tool', 'pax-tool', 'solo']);
  });

  it('refuses HTTP errors, redirect loops, too-big downloads and broken archives, each naming the source', async () => {
    const missing = `${base}/gone.zip`;
    expect((await refusal(w.service.api.addFromSource({ source: missing }))).msg).toEqual({
      key: 'sources.download.http',
      params: { source: missing, status: 404 },
    });
    routes.set('/loop.zip', { status: 302, headers: { location: '/loop.zip' } });
    expect((await refusal(w.service.api.addFromSource({ source: `${base}/loop.zip` }))).msg?.key).toBe('sources.download.redirects');
    expect(hits.get('/loop.zip')).toBe(DOWNLOAD_LIMITS.maxRedirects + 1);
    const big = Buffer.alloc(DOWNLOAD_LIMITS.maxDownloadBytes + 1);
    routes.set('/big.zip', { body: big });
    expect((await refusal(w.service.api.addFromSource({ source: `${base}/big.zip` }))).msg?.key).toBe('sources.download.too-big');
    // no length declared (chunked): the cap counts the bytes as they come
    routes.set('/chunked.zip', { body: big, headers: { 'transfer-encoding': 'chunked' } });
    expect((await refusal(w.service.api.addFromSource({ source: `${base}/chunked.zip` }))).msg?.key).toBe('sources.download.too-big');
    const closed = 'http://127.0.0.1:1/x.zip';
    expect((await refusal(w.service.api.addFromSource({ source: closed }))).msg).toMatchObject({
      key: 'sources.download.failed',
      params: { source: closed, detail: 'ECONNREFUSED' },
    });
    routes.set('/broken.zip', { body: Buffer.from('PK\u0003\u0004 not a zip') });
    const broken = await refusal(w.service.api.addFromSource({ source: `${base}/broken.zip` }));
    expect(broken.msg).toMatchObject({ key: 'archive.refused', params: { archive: 'broken.zip', why: { key: 'archive.corrupt' } } });
  });

  it('stops a server that never answers at the idle limit', async () => {
    routes.set('/slow.zip', { hang: true });
    const scratch = fs.mkdtempSync(path.join(w.root, 'dl-'));
    const p = parseSource(`${base}/slow.zip`);
    const err = await fetchArchive(p, scratch, { ...DOWNLOAD_LIMITS, idleMs: 300 }).then(
      () => undefined,
      (e: unknown) => e as SkillDockError,
    );
    expect(err?.msg?.key).toBe('sources.download.timeout');
    expect(fs.readdirSync(scratch)).toEqual([]);
  });

  it('refuses hostile .tar.gz entries before writing anything', async () => {
    const cases: Array<[string, Buffer, string]> = [
      [
        'link.tar.gz',
        handTar([
          { name: 'skills/a/SKILL.md', text: skillMd('a') },
          { name: 'skills/a/pw', type: '2', link: '/etc/passwd' },
        ]),
        'archive.symlink',
      ],
      [
        'hard.tar.gz',
        handTar([
          { name: 'skills/a/SKILL.md', text: skillMd('a') },
          { name: 'skills/a/h', type: '1', link: 'skills/a/SKILL.md' },
        ]),
        'archive.hardlink',
      ],
      [
        'slip.tar.gz',
        handTar([
          { name: 'skills/a/SKILL.md', text: skillMd('a') },
          { name: 'skills/../../evil', text: 'x' },
        ]),
        'archive.zip-slip',
      ],
      ['abs.tar.gz', handTar([{ name: '/etc/evil', text: 'x' }]), 'archive.absolute'],
      [
        'dev.tar.gz',
        handTar([
          { name: 'skills/a/SKILL.md', text: skillMd('a') },
          { name: 'skills/a/tty', type: '3' },
        ]),
        'archive.special',
      ],
      [
        'twin.tar.gz',
        handTar([
          { name: 'skills/a/SKILL.md', text: skillMd('a') },
          { name: 'skills/A/x.md', text: 'x' },
        ]),
        'archive.case-twin',
      ],
      [
        'twice.tar.gz',
        handTar([
          { name: 'skills/a/SKILL.md', text: skillMd('a') },
          { name: 'skills/a/SKILL.md', text: 'x' },
        ]),
        'archive.twice',
      ],
      ['bomb.tar.gz', zlib.gzipSync(Buffer.alloc(40 * 1024 * 1024)), 'archive.too-big'],
      ['junk.tar.gz', zlib.gzipSync(Buffer.from('not a tar archive at all')), 'archive.tar-corrupt'],
    ];
    // a header whose checksum does not match
    const bad = zlib.gunzipSync(handTar([{ name: 'skills/a/SKILL.md', text: skillMd('a') }]));
    bad[0] = 'z'.charCodeAt(0);
    cases.push(['sum.tar.gz', zlib.gzipSync(bad), 'archive.tar-corrupt']);
    for (const [name, body, why] of cases) {
      routes.set(`/${name}`, { body });
      const err = await refusal(w.service.api.addFromSource({ source: `${base}/${name}` }));
      expect(err.msg?.key, name).toBe('archive.refused');
      expect((err.msg?.params?.why as { key: string }).key, name).toBe(why);
      expect(err.msg?.params?.archive, name).toBe(name);
    }
    expect(fs.existsSync('/tmp/evil')).toBe(false);
  });

  it('pins an archive skill to the version it has (no ref), and check then does not download', async () => {
    routes.set('/p.zip', { body: await zipOf({ 'skills/gamma/SKILL.md': skillMd('gamma') }) });
    await w.service.api.addFromSource({ source: `${base}/p.zip` });
    const err = await w.service.api.pinSkill({ name: 'gamma', ref: 'v1' }).then(
      () => undefined,
      (e: unknown) => e as SkillDockError,
    );
    expect(err?.msg?.key).toBe('sources.archive-pin-ref');
    await w.service.api.pinSkill({ name: 'gamma' });
    hits.clear();
    const c = await w.service.api.checkSources({ names: ['gamma'] });
    expect(c.results[0]?.status).toBe('pinned');
    expect(hits.get('/p.zip')).toBeUndefined();
    // and an unreachable archive is said per skill, not thrown
    await w.service.api.unpinSkill({ name: 'gamma' });
    routes.delete('/p.zip');
    const c2 = await w.service.api.checkSources({ names: ['gamma'] });
    expect(c2.results[0]).toMatchObject({ status: 'unreachable', msg: { key: 'sources.check.unreachable' } });
    expect((c2.results[0]?.msg?.params?.detail as { key: string }).key).toBe('sources.download.http');
  });

  it('CLI: add an archive URL and check it', async () => {
    routes.set('/cli.zip', { body: await zipOf({ 'delta/SKILL.md': skillMd('delta') }) });
    let c = await runWorldCli(w, 'add', `${base}/cli.zip`);
    expect(c.code).toBe(0);
    expect(libNames()).toEqual(['delta']);
    c = await runWorldCli(w, 'check', '--json');
    expect(c.code).toBe(0);
    expect(JSON.parse(c.out).results[0]).toMatchObject({ skill: 'delta', status: 'up-to-date' });
  });
});
