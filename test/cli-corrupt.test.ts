import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliHarness, type CliHarness } from './cli-harness.js';

// A damaged data file is never recovered silently: the CLI names the file, what it recovered from
// where, where the damaged copy went, and exits 1 (with --json it carries on, the warning on stderr).

let h: CliHarness;
beforeAll(async () => {
  h = await cliHarness('sd-corrupt-');
}, 60_000);
afterAll(() => h.done());

const sdhome = () => path.join(h.base, 'sdhome');
const file = () => path.join(sdhome(), 'assistants.json');

function truncate(f: string): void {
  const text = fs.readFileSync(f, 'utf8');
  fs.writeFileSync(f, text.slice(0, Math.floor(text.length / 2)));
}

describe('a truncated assistants.json', () => {
  it('with a good backup: recovered from it, said so, exit 1; the damaged copy kept', () => {
    expect(h.run(['assistant', 'create', '--name', 'First', '--agent', 'claude']).code).toBe(0);
    expect(h.run(['assistant', 'create', '--name', 'Second', '--agent', 'claude']).code).toBe(0);
    expect(fs.existsSync(`${file()}.bak`)).toBe(true);
    truncate(file());
    const r = h.run(['assistant', 'list']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(file());
    expect(r.stderr).toMatch(/recovered from its backup/);
    const moved = /moved to (\S+)\.$/m.exec(r.stderr)?.[1];
    expect(moved && fs.existsSync(moved)).toBe(true);
    expect(r.stdout).toContain('First');
    // once recovered, the next command is quiet again
    expect(h.run(['assistant', 'list']).code).toBe(0);
  });

  it('with a bad backup too: says nothing could be recovered, never silently; --json carries on with the warning', () => {
    truncate(file());
    fs.writeFileSync(`${file()}.bak`, '{"version": 1, "data": [');
    const r = h.run(['assistant', 'list', '--json']);
    expect(r.code).toBe(0);
    const warning = JSON.parse(r.stderr.trim().split('\n').pop()!);
    expect(warning).toMatchObject({ warning: 'store-corrupt', file: file(), recoveredFrom: 'defaults' });
    expect(fs.existsSync(warning.movedTo)).toBe(true);
    JSON.parse(r.stdout); // the output itself stays valid JSON
  });
});
