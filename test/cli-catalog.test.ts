import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliHarness, repo, type CliHarness } from './cli-harness.js';
import { SeveritySchema } from '../src/contract/index.js';

// The catalog commands as a user runs them: a real `node` child process on a freshly built bundle
// (built here, so the test never runs a stale dist/), with HOME and SKILLDOCK_HOME in temp dirs.

let h: CliHarness;
let base: string;
let cli: string;

beforeAll(async () => {
  h = await cliHarness('sd-cli-');
  base = h.base;
  cli = h.cli;
}, 60_000);

afterAll(() => h.done());

const run = (args: string[], env: Record<string, string> = {}) => h.run(args, env);

function skill(dir: string, fm: string, body = '# Body\n\nDo the thing.\n'): string {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'SKILL.md'), `---\n${fm}\n---\n${body}`);
  return dir;
}

describe('skilldock lint', () => {
  it('prints the documented JSON shape and exits 1 on errors', () => {
    const root = path.join(base, 'lint-root');
    skill(path.join(root, 'pdf'), 'name: pdf\ndescription: Extract text from PDF files. Use for PDFs.');
    skill(path.join(root, 'Bad_Name'), 'name: Bad_Name\ndescription: broken');
    const r = run(['lint', root, '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
    const j = JSON.parse(r.stdout);
    expect(Object.keys(j)).toEqual(['skills', 'summary']);
    expect(Object.keys(j.summary)).toEqual(['skills', 'errors', 'warnings', 'infos']);
    expect(j.summary.skills).toBe(2);
    for (const s of j.skills) {
      expect(Object.keys(s)).toEqual(['name', 'dir', 'diagnostics']);
      for (const d of s.diagnostics) {
        expect(typeof d.code).toBe('string');
        expect(SeveritySchema.options).toContain(d.severity);
        expect(typeof d.message).toBe('string');
        expect(path.isAbsolute(d.file)).toBe(true);
      }
    }
    const bad = j.skills.find((s: { name: string }) => s.name === 'Bad_Name');
    expect(bad.dir).toBe(path.join(root, 'Bad_Name'));
    const invalid = bad.diagnostics.find((d: { code: string }) => d.code === 'name-invalid');
    expect(invalid).toMatchObject({ severity: 'error', file: path.join(root, 'Bad_Name', 'SKILL.md'), line: 2 });
    expect(j.summary.errors).toBe(
      j.skills
        .flatMap((s: { diagnostics: { severity: string }[] }) => s.diagnostics)
        .filter((d: { severity: string }) => d.severity === 'error').length,
    );
  });

  it('exits 0 for a clean skill, relative paths resolved against the cwd', () => {
    skill(path.join(base, 'clean', 'tidy'), 'name: tidy\ndescription: Keeps things tidy. Use when asked to tidy up.');
    const r = run(['lint', 'clean/tidy', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      skills: [{ name: 'tidy', dir: path.join(base, 'clean', 'tidy'), diagnostics: [] }],
      summary: { skills: 1, errors: 0, warnings: 0, infos: 0 },
    });
  });

  it('groups human output by skill with file:line and no colour off a TTY', () => {
    const root = path.join(base, 'human');
    skill(path.join(root, 'broken'), 'name: broken\ndescription: See <b>', '# x\n\n[missing](references/nope.md)\n');
    const r = run(['lint', root]);
    expect(r.code).toBe(1);
    expect(r.stdout).not.toMatch(/\u001b\[/);
    const lines = r.stdout.split('\n');
    const head = lines.findIndex((l) => l.startsWith('broken  '));
    expect(head).toBeGreaterThanOrEqual(0);
    expect(r.stdout).toContain(`${path.join(root, 'broken', 'SKILL.md')}:7:11`);
    expect(r.stdout).toMatch(/reference-broken/);
    expect(lines.filter(Boolean).pop()).toMatch(/^1 skill: 1 error, \d+ warnings?, 0 infos$/);
  });

  it('exits 2 on bad usage', () => {
    expect(run(['lint']).code).toBe(2);
    expect(run(['lint', '--nope', base]).code).toBe(2);
    const missing = run(['lint', path.join(base, 'does-not-exist')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/No such file or directory/);
  }, 90_000);
});

describe('skilldock list / show / roots / agents-view', () => {
  it('escape codes in a description, a body or a file name never reach the terminal; JSON stays exact', () => {
    const root = path.join(base, 'hostile');
    const desc = 'Looks fine\u001b[2J\u001b]0;pwned\u0007 \u202etxt.exe';
    const dir = skill(
      path.join(root, 'hostile'),
      `name: hostile\ndescription: "${desc.replace(/\u001b/g, '\\e').replace(/\u0007/g, '\\a')}"`,
      'Body \u001b[31mred\u001b[0m\n',
    );
    fs.mkdirSync(path.join(dir, 'references'));
    fs.writeFileSync(path.join(dir, 'references', 'name\u001b[1Aup.md'), 'x');
    for (const args of [
      ['list', '--root', root],
      ['show', 'hostile', '--root', root],
    ]) {
      const r = run(args);
      expect(r.code, args.join(' ')).toBe(0);
      expect(r.stdout, args.join(' ')).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f\u202e]/);
      expect(r.stdout).toContain('\\u001b[2J'); // one escaping at the CLI's edge: JSON's \uXXXX form
    }
    expect(run(['show', 'hostile', '--root', root]).stdout).toContain('name\\u001b[1Aup.md');
    const j = JSON.parse(run(['list', '--json', '--root', root]).stdout);
    expect(j.entries.find((e: { name: string }) => e.name === 'hostile').description).toBe(desc);
  });

  it('lists a root given with --root, with provenance and shadowing', () => {
    const extra = path.join(base, 'extra');
    skill(path.join(extra, 'alpha'), 'name: alpha\ndescription: First. Use when first.');
    skill(path.join(base, 'home', '.claude', 'skills', 'alpha'), 'name: alpha\ndescription: The user copy.');
    const r = run(['list', '--json', '--root', extra]);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(Object.keys(j)).toEqual(['roots', 'entries', 'rootDiagnostics', 'generation']);
    const alphas = j.entries.filter((e: { name: string }) => e.name === 'alpha');
    expect(alphas.map((e: { id: string }) => e.id)).toEqual(['user:.claude/skills/alpha', `extra:${extra}/alpha`]);
    expect(alphas[1].shadowedBy).toBe('user:.claude/skills/alpha');
    expect(j.roots.find((r: { id: string }) => r.id === 'user:.claude/skills').path).toBe(path.join(base, 'home', '.claude', 'skills'));
    expect(j.roots.find((r: { id: string }) => r.id === 'library').path).toBe(path.join(base, 'sdhome', 'library'));
    const human = run(['list', '--root', extra]);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/alpha\s+ok\s+user:\.claude\/skills/);
    expect(human.stdout).toContain('shadowed by user:.claude/skills/alpha');
  });

  it('reads a project’s roots with --project', () => {
    const proj = path.join(base, 'proj');
    skill(path.join(proj, '.agents', 'skills', 'proj-skill'), 'name: proj-skill\ndescription: Project skill.');
    const j = JSON.parse(run(['list', '--json', '--project', proj]).stdout);
    expect(j.entries.map((e: { id: string }) => e.id)).toContain('project:.agents/skills/proj-skill');
  });

  it('show activates a skill and exits 1 for an unknown one', () => {
    const extra = path.join(base, 'show-root');
    const dir = skill(path.join(extra, 'helper'), 'name: helper\ndescription: Helps.', '# Helper\n\nRun scripts/go.sh.\n');
    fs.mkdirSync(path.join(dir, 'scripts'));
    fs.writeFileSync(path.join(dir, 'scripts', 'go.sh'), '#!/bin/sh\n');
    const r = run(['show', 'helper', '--json', '--root', extra]);
    expect(r.code).toBe(0);
    const a = JSON.parse(r.stdout);
    expect(a).toMatchObject({ dir, body: '# Helper\n\nRun scripts/go.sh.\n', files: ['scripts/go.sh'] });
    expect(a.entry.name).toBe('helper');
    const human = run(['show', 'helper', '--root', extra]);
    expect(human.stdout).toContain('# Helper');
    expect(human.stdout).toContain('scripts/go.sh');
    const missing = run(['show', 'no-such-skill']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/No skill named "no-such-skill"/);
    expect(run(['show']).code).toBe(2);
  }, 90_000);

  it('roots prints the roots in precedence order', () => {
    const r = run(['roots', '--json']);
    expect(r.code).toBe(0);
    const roots = JSON.parse(r.stdout);
    expect(roots[0]).toMatchObject({ id: 'builtin', kind: 'builtin', precedence: 0, path: path.join(repo, 'resources', 'skills') });
    expect(roots[1]).toMatchObject({ id: 'library', path: path.join(base, 'sdhome', 'library') });
    expect(roots.find((x: { id: string }) => x.id === 'user:.agents/skills').path).toBe(path.join(base, 'home', '.agents', 'skills'));
    expect(run(['roots']).stdout).toMatch(/^ 0 [+-] builtin/);
  });

  it('agents-view shows one agent’s roots, statuses and budget', () => {
    skill(path.join(base, 'home', '.claude', 'skills', 'viewme'), 'name: viewme\ndescription: Shown to Claude.');
    const r = run(['agents-view', 'claude', '--json']);
    expect(r.code).toBe(0);
    const v = JSON.parse(r.stdout);
    expect(v.agent.id).toBe('claude');
    expect(v.skills.find((s: { identifier: string }) => s.identifier === 'viewme').status).toBe('loaded');
    expect(v.budget.limit).toBe(23789);
    expect(run(['agents-view', 'claude']).stdout).toMatch(/catalog: \d+ of 23789 characters/);
    expect(run(['agents-view', 'nobody']).code).toBe(1);
    // Only the user starts it in Claude Code: loaded, left out of its model's listing, and why.
    const only = 'name: user-only\ndescription: Started by the user.\ndisable-model-invocation: true';
    skill(path.join(base, 'home', '.claude', 'skills', 'user-only'), only);
    const hidden = JSON.parse(run(['agents-view', 'claude', '--json']).stdout).skills.find(
      (s: { identifier: string }) => s.identifier === 'user-only',
    );
    expect(hidden).toMatchObject({ status: 'loaded', catalogChars: 0, listing: { shown: 'hidden', measured: true } });
    expect(hidden.reasons.map((x: { code: string }) => x.code)).toEqual(['model-invocation-disabled']);
    const text = run(['agents-view', 'claude']).stdout;
    expect(text).toMatch(/loaded\s+user-only .* shown: not listed/);
    expect(text).toContain('leave this skill out of the skill listing their model sees');
    // OpenCode reads the same folder and ignores the field: listed in full.
    const opencode = JSON.parse(run(['agents-view', 'opencode', '--json']).stdout);
    expect(opencode.skills.find((s: { name: string }) => s.name === 'user-only').listing.shown).toBe('full');
  }, 90_000);

  it("agents-view says each agent's listing order: a place for each skill where it holds, none where it changes between runs", () => {
    for (const [dir, name] of [
      ['.qwen/skills', 'PDF-Tools'],
      ['.qwen/skills', 'alpha'],
      ['.gemini/skills', 'gem'],
    ])
      skill(path.join(base, 'home', dir, name), `name: ${name}\ndescription: Ordered.`);
    const qwen = run(['agents-view', 'qwen']).stdout;
    expect(qwen).toContain('listing order: Qwen Code lists skills alphabetically by name');
    // localeCompare: PDF-Tools after alpha (by code point it would come first).
    expect(qwen).toMatch(/alpha .*#1 in the listing/);
    expect(qwen).toMatch(/PDF-Tools .*#2 in the listing/);
    const gemini = run(['agents-view', 'gemini']).stdout;
    expect(gemini).toContain("listing order: Gemini CLI's order changes from run to run");
    expect(gemini).not.toContain('in the listing');
  }, 90_000);
});

describe('worker threads', () => {
  it('gives byte-identical output with and without the analyse pool', () => {
    const root = path.join(base, 'many');
    for (let i = 0; i < 210; i++) {
      const n = `s-${String(i).padStart(3, '0')}`;
      skill(path.join(root, n), i % 30 === 7 ? `name: ${n}\ndescription: [broken` : `name: ${n}\ndescription: Skill ${i}. Use when ${i}.`);
    }
    const pooled = run(['list', '--json', '--root', root], { SKILLDOCK_WORKERS: '2' });
    const single = run(['list', '--json', '--root', root], { SKILLDOCK_WORKERS: '0' });
    expect(pooled.code).toBe(0);
    expect(pooled.stdout).toBe(single.stdout);
    expect(
      JSON.parse(pooled.stdout).entries.filter((e: { provenance: { rootPath: string } }) => e.provenance.rootPath === root),
    ).toHaveLength(210);
    const lintPooled = run(['lint', root, '--json'], { SKILLDOCK_WORKERS: '2' });
    expect(lintPooled.code).toBe(1);
    expect(lintPooled.stdout).toBe(run(['lint', root, '--json'], { SKILLDOCK_WORKERS: '0' }).stdout);

    // A worker that cannot start (a broken install): same answer from the calling thread, no hang.
    const broken = path.join(base, 'broken-dist');
    fs.mkdirSync(broken);
    fs.copyFileSync(cli, path.join(broken, 'cli.mjs'));
    fs.writeFileSync(path.join(broken, 'analyze-worker.mjs'), "throw new Error('worker cannot load');\n");
    const r = spawnSync(process.execPath, [path.join(broken, 'cli.mjs'), 'list', '--json', '--root', root], {
      encoding: 'utf8',
      env: {
        PATH: process.env.PATH ?? '',
        HOME: path.join(base, 'home'),
        SKILLDOCK_HOME: path.join(base, 'sdhome'),
        SKILLDOCK_RESOURCES: path.join(repo, 'resources'),
        SKILLDOCK_WORKERS: '2',
      },
      timeout: 120_000,
    });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(single.stdout);
  }, 240_000);
});

describe('output', () => {
  it('prints compact JSON when piped and stops quietly when the reader leaves early', async () => {
    const root = path.join(base, 'piped');
    for (let i = 0; i < 300; i++) skill(path.join(root, `p-${i}`), `name: p-${i}\ndescription: Piped skill ${i}. Use when piping ${i}.`);
    const whole = run(['list', '--json', '--root', root]);
    expect(whole.code).toBe(0);
    // Not a terminal: one line of JSON a program reads, not an indented page.
    expect(whole.stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(JSON.parse(whole.stdout).entries.length).toBeGreaterThanOrEqual(300);

    // `skilldock list --json | head -c 100`: the reader leaves after the first bytes.
    const r = spawnSync(
      'bash',
      ['-c', `"${process.execPath}" "${cli}" list --json --root "${root}" | head -c 100 >/dev/null; exit \${PIPESTATUS[0]}`],
      {
        env: {
          PATH: process.env.PATH ?? '',
          HOME: path.join(base, 'home'),
          SKILLDOCK_HOME: path.join(base, 'sdhome'),
          SKILLDOCK_RESOURCES: path.join(repo, 'resources'),
        },
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    expect(r.stderr).not.toMatch(/EPIPE|Unhandled|\n\s+at /);
    expect(r.status).toBe(0);
  }, 60_000);
});
