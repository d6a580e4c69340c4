import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import yazl from 'yazl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeWorld, runWorldCli, type World } from '../../test/support/library.js';
import { skillMd } from '../../test/support/git-servers.js';

// An assistant whose skill came from an archive URL (no git, its "commit" is the archive's SHA-256)
// is shared as a file like any other: the import downloads the archive from a real server on
// loopback and adds the skill only when the bytes are the ones shared.

let a: World;
let b: World;
let server: http.Server;
let base: string;
let served: Buffer;

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

beforeAll(async () => {
  a = makeWorld();
  b = makeWorld();
  served = await zipOf({ 'notes/SKILL.md': skillMd('notes', 'Version one.') });
  server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/zip', 'content-length': String(served.length) });
    res.end(served);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await a?.done();
  await b?.done();
});

describe('an assistant with a skill from an archive URL', () => {
  it('exports with the archive digest, imports the same bytes, and refuses an archive that changed since', async () => {
    const url = `${base}/notes.zip`;
    await a.service.api.addFromSource({ source: url });
    await a.service.api.createAssistant({ name: 'Writer', agent: 'claude', rules: '', skills: ['notes'] });
    const out = path.join(a.root, 'writer.json');
    const ex = await runWorldCli(a, 'assistant', 'export', 'Writer', '--out', out);
    expect(ex.err).toBe('');
    expect(ex.code).toBe(0);
    const data = JSON.parse(fs.readFileSync(out, 'utf8'));
    expect(data.skills[0]).toMatchObject({ name: 'notes', source: { url, path: '' } });
    expect(data.skills[0].source.commit).toMatch(/^[0-9a-f]{64}$/);

    const im = await b.service.api.importAssistant({ file: out });
    expect(im.skills).toEqual([{ name: 'notes', status: 'added' }]);
    expect(fs.readFileSync(path.join(b.home, 'library', 'notes', 'SKILL.md'), 'utf8')).toContain('Version one.');

    // the URL now serves other bytes: the shared version is gone, and the import says so
    served = await zipOf({ 'notes/SKILL.md': skillMd('notes', 'Version two.') });
    const again = await b.service.api.importAssistant({ file: out, name: 'Writer 2' });
    expect(again.skills).toHaveLength(1);
    expect(again.skills[0]).toMatchObject({ name: 'notes', status: 'present' });
    await b.service.api.deleteSkill({ name: 'notes' });
    const changed = await b.service.api.importAssistant({ file: out, name: 'Writer 3', allowEmpty: true });
    expect(changed.skills[0]).toMatchObject({
      name: 'notes',
      status: 'failed',
      msg: { key: 'sources.share.archive-changed', params: { source: url, commit: data.skills[0].source.commit.slice(0, 12) } },
    });
    expect(fs.existsSync(path.join(b.home, 'library', 'notes'))).toBe(false);
  });
});
