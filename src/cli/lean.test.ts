import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createService, type SkillDockService } from '../service.js';
import { cliScript, repoRoot, resources, sandbox, writeSkill, type Sandbox } from '../../test/support/workspaces.js';
import { waitFor } from '../../test/support/wait.js';

// `list` and `policy check-write` start without the service and without zod (src/cli/lean.ts):
// their answers must be the full engine's, byte for byte, on the same home. The first start has
// no memo of validations and runs the full engine; the next ones answer lean.

let sb: Sandbox;
let svc: SkillDockService;
beforeEach(() => {
  sb = sandbox();
  svc = createService({ paths: { home: sb.home, userHome: sb.userHome, resourcesDir: resources } });
});
afterEach(async () => {
  await svc.close();
  sb.done();
});

/** The newest mtime or ctime (ms) of anything under the given folders. */
function newestChange(dirs: string[]): number {
  let newest = 0;
  const walk = (p: string) => {
    const st = fs.lstatSync(p);
    newest = Math.max(newest, st.mtimeMs, st.ctimeMs);
    if (st.isDirectory()) for (const name of fs.readdirSync(p)) walk(path.join(p, name));
  };
  for (const d of dirs) if (fs.existsSync(d)) walk(d);
  return newest;
}

/** The CLI's environment on the sandbox, saying which start answered. */
const cliEnv = () => ({
  PATH: process.env.PATH ?? '',
  HOME: sb.userHome,
  SKILLDOCK_HOME: sb.home,
  SKILLDOCK_USER_HOME: sb.userHome,
  SKILLDOCK_RESOURCES: resources,
  SKILLDOCK_TRACE_LEAN: '1',
  NO_COLOR: '1',
});

function cli(args: string[], input = '', cwd = sb.dir) {
  const env = cliEnv();
  const r = spawnSync(process.execPath, [cliScript, ...args], { env, encoding: 'utf8', input, cwd, timeout: 60_000 });
  const lean = r.stderr.includes('skilldock: lean start');
  return { status: r.status, stdout: r.stdout, stderr: r.stderr.replace(/^skilldock: (lean start.*|full engine .*)\n/gm, ''), lean };
}

/** The catalog as the full service answers it, as JSON (what `list --json` prints). */
async function serviceCatalog(): Promise<unknown> {
  return JSON.parse(JSON.stringify(await svc.api.listCatalog({})));
}

describe('lean list --json', () => {
  it('answers as the full service does, first through the full engine, then lean', async () => {
    for (const n of ['alpha', 'beta', 'gamma']) writeSkill(sb.lib, n);
    // Frontmatter beyond plain `key: value` lines goes through gray-matter (bundled with a refusing
    // stand-in for its own YAML engine, scripts/build-engine.mjs): nested maps, code frontmatter.
    writeSkill(sb.lib, 'versioned', { version: '2.0.0' });
    fs.mkdirSync(path.join(sb.lib, 'coded'));
    fs.writeFileSync(path.join(sb.lib, 'coded', 'SKILL.md'), "---js\n{ name: 'coded' }\n---\nBody.\n");
    fs.mkdirSync(path.join(sb.lib, 'broken'));
    fs.writeFileSync(path.join(sb.lib, 'broken', 'SKILL.md'), '---\nname: Broken Name\n---\nno description\n');
    // A settings file (an extra root, a custom agent) read from the memo by the lean start.
    const extra = path.join(sb.dir, 'extra');
    writeSkill(extra, 'delta');
    await svc.api.updateSettings({
      extraRoots: [extra],
      customAgents: [{ id: 'mine', name: 'Mine', command: 'mine', skillsDir: '.mine/skills', contextFile: 'MINE.md' }],
    });
    const expected = await serviceCatalog();
    const first = cli(['list', '--json']);
    expect(first.status, first.stderr).toBe(0);
    expect(first.lean).toBe(false);
    expect(JSON.parse(first.stdout)).toEqual(expected);
    for (let i = 0; i < 2; i++) {
      const again = cli(['list', '--json']);
      expect(again.status, again.stderr).toBe(0);
      expect(again.lean).toBe(true);
      expect(again.stdout).toBe(first.stdout);
    }
    // The text listing goes the same way.
    const text = cli(['list']);
    expect(text.lean).toBe(true);
    expect(text.stdout).toContain('delta');
  });

  it('a changed settings file is validated again (full engine), then answered lean', async () => {
    writeSkill(sb.lib, 'alpha');
    cli(['list', '--json']);
    expect(cli(['list', '--json']).lean).toBe(true);
    const extra = path.join(sb.dir, 'extra');
    writeSkill(extra, 'later');
    await svc.api.updateSettings({ extraRoots: [extra] });
    const expected = await serviceCatalog();
    const changed = cli(['list', '--json']);
    expect(changed.lean).toBe(false);
    expect(JSON.parse(changed.stdout)).toEqual(expected);
    const next = cli(['list', '--json']);
    expect(next.lean).toBe(true);
    expect(next.stdout).toBe(changed.stdout);
  });

  it('a damaged settings file: the full engine recovers it and says so, as without the lean start', async () => {
    writeSkill(sb.lib, 'alpha');
    await svc.api.updateSettings({ theme: 'dark' });
    await svc.api.updateSettings({ theme: 'light' }); // the dark one is now the backup
    cli(['list', '--json']);
    expect(cli(['list', '--json']).lean).toBe(true);
    fs.writeFileSync(path.join(sb.home, 'settings.json'), '{ "version": 1, "data": { "theme": 42 } }');
    const r = cli(['list', '--json']);
    expect(r.lean).toBe(false);
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stderr.trim().split('\n').pop()!)).toMatchObject({ warning: 'store-corrupt', recoveredFrom: 'backup' });
    expect(fs.readdirSync(sb.home).some((f) => f.startsWith('settings.json.corrupt-'))).toBe(true);
  });

  it('a memo of validations from another build is not used', async () => {
    writeSkill(sb.lib, 'alpha');
    cli(['list', '--json']);
    const dir = path.join(sb.home, 'cache', 'validated');
    for (const f of fs.readdirSync(dir)) {
      const memo = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'));
      fs.writeFileSync(path.join(dir, f), JSON.stringify({ ...memo, build: 'another build' }));
    }
    expect(cli(['list', '--json']).lean).toBe(false);
    expect(cli(['list', '--json']).lean).toBe(true);
  });
});

describe('lean policy check-write', () => {
  it('the hook and the check answer as the service does, inside a launched conversation', async () => {
    writeSkill(sb.lib, 'code', {
      version: '1.0.4',
      description: 'Keeps code notes.',
      body: 'Read `~/code/memory.md` first and write new notes back to `~/code/memory.md`.',
    });
    await svc.api.createAssistant({ name: 'Code Buddy', agent: 'claude', rules: 'Be brief.', skills: ['code'] });
    const r = await svc.api.launchAssistant({ assistant: 'Code Buddy' });
    const legacy = path.join(sb.userHome, 'code', 'memory.md');
    const hookInput = (file: string) => JSON.stringify({ cwd: r.workspace, tool_name: 'Write', tool_input: { file_path: file } });
    const cases = [
      legacy,
      path.join(r.workspace, 'notes.md'),
      path.join(r.workspace, '.claude/skills/code/x.md'),
      path.join(sb.userHome, '.ssh/config'),
    ];
    const full = cases.map((f) => cli(['policy', 'check-write', '--hook', '--conversation', r.conversationId], hookInput(f)));
    expect(full[0]!.lean).toBe(false);
    for (const [i, f] of cases.entries()) {
      const lean = cli(['policy', 'check-write', '--hook', '--conversation', r.conversationId], hookInput(f));
      expect(lean.lean, f).toBe(true);
      expect(lean.status, lean.stderr).toBe(0);
      expect(lean.stdout, f).toBe(full[i]!.stdout);
    }
    expect(JSON.parse(full[0]!.stdout).hookSpecificOutput.permissionDecisionReason).toContain(
      path.join(sb.home, 'skills-state', 'code-1.0.4'),
    );
    expect(full[1]!.stdout).toBe('');
    // Without --conversation: the conversation whose workspace holds the cwd.
    for (const f of cases) {
      const expected = JSON.parse(JSON.stringify(await svc.api.checkWrite({ path: f, cwd: r.workspace })));
      const lean = cli(['policy', 'check-write', f, '--json'], '', r.workspace);
      expect(lean.lean).toBe(true);
      expect(JSON.parse(lean.stdout)).toEqual(expected);
      expect(lean.status).toBe(expected.allowed ? 0 : 1);
    }
  });

  it('an unknown conversation is the same error on the lean start', async () => {
    cli(['list', '--json']); // the memo of the registry
    const r = cli(['policy', 'check-write', '/tmp/x', '--conversation', 'nope-1']);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/nope-1/);
  });
});

describe("the hook's own door (dist/hook.cjs, src/cli/hook-entry.ts)", () => {
  it('answers a hook call itself once the memo is there, and hands anything else to the full CLI with the stdin it read', async () => {
    writeSkill(sb.lib, 'code', { version: '1.0.4', description: 'Keeps code notes.', body: 'Notes go to `~/code/memory.md`.' });
    await svc.api.createAssistant({ name: 'Coder', agent: 'claude', rules: '', skills: ['code'] });
    const r = await svc.api.launchAssistant({ assistant: 'Coder' });
    const input = JSON.stringify({
      cwd: r.workspace,
      tool_name: 'Write',
      tool_input: { file_path: path.join(sb.userHome, 'code', 'memory.md') },
    });
    const hook = ['policy', 'check-write', '--hook', '--conversation', r.conversationId];
    const door = (res: { stderr: string }) => res.stderr.includes('lean start (hook door)');
    const traced = (args: string[], stdin: string) => {
      const env = {
        PATH: process.env.PATH ?? '',
        HOME: sb.userHome,
        SKILLDOCK_HOME: sb.home,
        SKILLDOCK_USER_HOME: sb.userHome,
        SKILLDOCK_TRACE_LEAN: '1',
      };
      return spawnSync(process.execPath, [cliScript, ...args], { env, encoding: 'utf8', input: stdin, cwd: sb.dir, timeout: 60_000 });
    };

    // No memo yet: the door cannot answer lean and hands over; the full CLI reads the same stdin.
    const first = traced(hook, input);
    expect(door(first)).toBe(false);
    expect(first.stderr).toContain('skilldock: full engine');
    const denied = JSON.parse(first.stdout).hookSpecificOutput;
    expect(denied.permissionDecision).toBe('deny');
    expect(denied.permissionDecisionReason).toContain(path.join(sb.home, 'skills-state', 'code-1.0.4'));

    // Then the door answers, the same bytes; `--format=KIND` too.
    const lean = traced(hook, input);
    expect(door(lean), lean.stderr).toBe(true);
    expect(lean.stdout).toBe(first.stdout);
    const gemini = traced(
      [...hook, '--format=gemini-beforetool'],
      JSON.stringify({ cwd: r.workspace, tool_name: 'write_file', tool_input: { file_path: path.join(sb.userHome, 'code', 'memory.md') } }),
    );
    expect(door(gemini)).toBe(true);
    expect(JSON.parse(gemini.stdout)).toMatchObject({ decision: 'deny' });

    // What the door does not take goes to the full CLI, which answers as it always did.
    const withJson = traced([...hook, '--json'], input); // an option the policy command accepts
    expect(door(withJson)).toBe(false);
    expect(withJson.stdout).toBe(first.stdout);
    const bogus = traced([...hook.slice(0, 3), '--format', 'bogus'], input);
    expect(bogus.status).toBe(2);
    expect(bogus.stderr).toContain('unknown --format "bogus"');
    const unknown = traced(['policy', 'check-write', '--hook', '--conversation', 'nope-1'], input);
    expect(door(unknown)).toBe(false);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toMatch(/nope-1/);
    const notJson = traced(hook, '{not json');
    expect(notJson.status).toBe(1);
    expect(notJson.stderr).toContain('hook input is not JSON');
  });
});

describe('what a lean `list --json` loads', () => {
  // The dist files one start loads, as a module loader hook sees them, each named by the sources in
  // its source map (scripts/build-engine.mjs writes one per chunk). A static import of the skill
  // analyser, the yaml package or the command table's modules on this path fails this test.
  function loadedSources(args: string[]): { sources: string[]; builtins: string[]; lean: boolean; stdout: string } {
    const trace = path.join(sb.dir, 'loaded.txt');
    const hooks = path.join(sb.dir, 'trace-hooks.mjs');
    fs.writeFileSync(
      hooks,
      `import fs from 'node:fs';\nexport async function load(url, context, next) {\n  fs.appendFileSync(${JSON.stringify(trace)}, url + '\\n');\n  return next(url, context);\n}\n`,
    );
    const register = path.join(sb.dir, 'trace.mjs');
    fs.writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
    fs.rmSync(trace, { force: true });
    const env = { ...cliEnv(), SKILLDOCK_INDEX_RACY_MS: '30' };
    const r = spawnSync(process.execPath, ['--import', pathToFileURL(register).href, cliScript, ...args], {
      env,
      encoding: 'utf8',
      cwd: sb.dir,
      timeout: 60_000,
    });
    expect(r.status, r.stderr).toBe(0);
    const urls = fs.readFileSync(trace, 'utf8').split('\n');
    const builtins = urls.filter((u) => u.startsWith('node:'));
    const dist = urls.filter((u) => u.startsWith('file:') && u.includes('/dist/')).map((u) => fileURLToPath(u));
    expect(dist.length).toBeGreaterThan(1);
    const sources = dist.flatMap((f) => (JSON.parse(fs.readFileSync(`${f}.map`, 'utf8')) as { sources: string[] }).sources);
    return {
      sources: sources.map((s) => s.replace(/\\/g, '/')),
      builtins,
      lean: r.stderr.includes('skilldock: lean start'),
      stdout: r.stdout,
    };
  }

  it('`list --json` goes through its own door (dist/list.cjs): the loaded modules go to the door below', () => {
    const { sources } = loadedSources(['list']); // the text listing is the full CLI's, lean
    expect(sources).toContain('../src/cli/commands/list.ts');
  });

  it('`--help` loads the command table and no command', () => {
    const { sources } = loadedSources(['--help']);
    expect(sources).toContain('../src/cli/commands/index.ts');
    expect(sources.filter((s) => /src\/cli\/commands\/(?!index\.ts)/.test(s) || /src\/catalog\//.test(s))).toEqual([]);
  });
});

describe("`list --json`'s own door (dist/list.cjs, src/cli/list-entry.ts)", () => {
  /** One start with a preload that records, at exit, Node's own modules and the CommonJS files loaded. */
  function recorded(args: string[], env: NodeJS.ProcessEnv = {}) {
    const out = path.join(sb.dir, 'loaded.json');
    const pre = path.join(sb.dir, 'record.cjs');
    fs.writeFileSync(
      pre,
      `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(out)}, ` +
        'JSON.stringify({ builtins: process.moduleLoadList, files: Object.keys(require.cache) })));\n',
    );
    fs.rmSync(out, { force: true });
    const r = spawnSync(process.execPath, ['-r', pre, cliScript, ...args], {
      env: { ...cliEnv(), SKILLDOCK_INDEX_RACY_MS: '30', ...env },
      encoding: 'utf8',
      cwd: sb.dir,
      timeout: 60_000,
    });
    const { builtins, files } = JSON.parse(fs.readFileSync(out, 'utf8')) as { builtins: string[]; files: string[] };
    return {
      ...r,
      builtins,
      files: files.map((f) => path.relative(repoRoot, f).replace(/\\/g, '/')),
      door: r.stderr.includes('lean start (list door)'),
    };
  }
  /**
   * Until every file and folder under the skill roots changed longer ago than the racy margin
   * (SKILLDOCK_INDEX_RACY_MS, 30 ms here, twice over), so the index built next trusts them.
   */
  const pastRacyMargin = (...roots: string[]) =>
    waitFor(() => Date.now() - newestChange([sb.lib, ...roots]) > 60, { what: 'the skills to age past the racy margin' });

  it('answers with a valid index: no ES module, no analyser, no worker threads, no fs.promises', async () => {
    for (let i = 0; i < 5; i++) writeSkill(sb.lib, `skill-${i}`);
    const expected = await serviceCatalog();
    await pastRacyMargin();
    const first = recorded(['list', '--json']); // the full engine: the memo of validations and the index
    expect(first.door).toBe(false);
    const r = recorded(['list', '--json']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.door).toBe(true);
    expect(r.stdout).toBe(first.stdout);
    expect(JSON.parse(r.stdout)).toEqual(expected);
    // No ES module at all (cli.mjs and its chunks would need the ES loader's module jobs).
    expect(r.builtins).not.toContain('NativeModule internal/modules/esm/module_job');
    expect(r.builtins).not.toContain('NativeModule worker_threads');
    expect(r.builtins).not.toContain('NativeModule internal/fs/promises');
    // Nor fs's other lazy parts: the build asks a fresh Node which of a built-in's exports are plain.
    expect(r.builtins).not.toContain('NativeModule internal/fs/dir');
    expect(r.files.filter((f) => f.startsWith('dist/'))).toEqual([]); // the analyser, the message tables
    // What the door's bundle holds: the catalog, not the analyser nor any other command.
    const { sources } = JSON.parse(fs.readFileSync(path.join(repoRoot, 'dist', 'list.cjs.map'), 'utf8')) as { sources: string[] };
    expect(sources).toContain('../src/catalog/persist.ts');
    const heavy = sources.filter(
      (s) =>
        /node_modules\/(yaml|gray-matter|zod)\//.test(s) ||
        /src\/skills\/(analyze|parse)\.ts$/.test(s) ||
        /src\/contract\/messages-(?!input\.ts$)/.test(s) ||
        /src\/service\.ts$/.test(s) ||
        /src\/cli\/(main\.ts|commands\/)/.test(s),
    );
    expect(heavy).toEqual([]);
  });

  it('a skill changed since the index: the door re-reads it with dist/analyze.cjs, as the full engine would', async () => {
    for (let i = 0; i < 3; i++) writeSkill(sb.lib, `skill-${i}`);
    await pastRacyMargin();
    recorded(['list', '--json']);
    expect(recorded(['list', '--json']).door).toBe(true);
    writeSkill(sb.lib, 'skill-1', { description: 'Changed since the index was written.' });
    fs.writeFileSync(path.join(sb.lib, 'skill-2', 'SKILL.md'), '---\nname: Not Valid\n---\nno description\n');
    await pastRacyMargin();
    const expected = await serviceCatalog();
    const r = recorded(['list', '--json']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.door).toBe(true);
    expect(r.files).toContain('dist/analyze.cjs');
    expect(JSON.parse(r.stdout)).toEqual(expected);
    // The diagnostics are worded as the full engine words them (the message tables, loaded on use).
    const broken = (JSON.parse(r.stdout) as { entries: Array<{ dirName: string; counts: { errors: number } }> }).entries.find(
      (e) => e.dirName === 'skill-2',
    );
    expect(broken?.counts.errors).toBeGreaterThan(0);
  });

  it('hands other options, bad usage and a missing memo to the full CLI', async () => {
    writeSkill(sb.lib, 'alpha');
    const extra = path.join(sb.dir, 'extra');
    writeSkill(extra, 'beta');
    await pastRacyMargin(extra);
    recorded(['list', '--json']);
    // Options it answers: --root (repeated, either spelling) and --project.
    const rooted = recorded(['list', '--json', '--root', extra, `--root=${sb.lib}`, '--project', sb.dir]);
    expect(rooted.status, rooted.stderr).toBe(0);
    expect(rooted.door).toBe(true);
    expect(JSON.parse(rooted.stdout)).toEqual(
      JSON.parse(JSON.stringify(await svc.api.listCatalog({ roots: [extra, sb.lib], project: sb.dir }))),
    );
    // Bad usage: the full CLI's words and status.
    const bogus = recorded(['list', '--json', '--bogus']);
    expect(bogus.door).toBe(false);
    expect(bogus.status).toBe(2);
    expect(bogus.stderr).toContain("Unknown option '--bogus'");
    const empty = recorded(['list', '--json', '--root']);
    expect(empty.door).toBe(false);
    expect(empty.status).toBe(2);
    // A memo from nowhere (another home): the full engine answers, and the door after it.
    const other = path.join(sb.dir, 'other-home');
    const fresh = recorded(['list', '--json'], { SKILLDOCK_HOME: other });
    expect(fresh.status, fresh.stderr).toBe(0);
    expect(fresh.door).toBe(false);
    expect(fresh.stderr).toContain('full engine');
  });

  it('a reader that leaves early ends the output quietly', async () => {
    if (process.platform === 'win32') return; // a POSIX pipe into head
    // Enough text to fill a pipe: the door is still writing when the reader leaves.
    for (let i = 0; i < 120; i++) writeSkill(sb.lib, `skill-${i}`, { description: `Skill ${i}. ${'A long description. '.repeat(40)}` });
    await pastRacyMargin();
    recorded(['list', '--json']);
    const env = { ...cliEnv(), SKILLDOCK_INDEX_RACY_MS: '30' };
    const r = spawnSync('bash', ['-c', `"${process.execPath}" "${cliScript}" list --json | head -c 10; echo " status \${PIPESTATUS[0]}"`], {
      env,
      encoding: 'utf8',
      cwd: sb.dir,
      timeout: 60_000,
    });
    expect(r.stdout).toBe('{"roots":[ status 0\n');
    expect(r.stderr).toBe('skilldock: lean start (list door)\n');
  });

  it('its V8 code cache (and the hook door’s) is used when made by the same build, and ignored when not', () => {
    // The build made both caches, each headed by its door's first line.
    for (const name of ['hook', 'list']) {
      const file = path.join(repoRoot, 'dist', `${name}.cjs`);
      const line = fs.readFileSync(file, 'latin1').split('\n', 1)[0]!;
      expect(line).toMatch(new RegExp(`^// skilldock ${name} door, build \\S+$`));
      expect(fs.readFileSync(`${file}.v8`).toString('latin1', 0, line.length + 1)).toBe(`${line}\n`);
    }
    const door = path.join(repoRoot, 'dist', 'list.cjs');
    const cache = fs.readFileSync(`${door}.v8`);
    const firstLine = fs.readFileSync(door, 'latin1').split('\n', 1)[0]!;
    // A copy of the door with a cache from another build, and one with a damaged cache.
    const copy = path.join(sb.dir, 'list.cjs');
    fs.copyFileSync(door, copy);
    const probe = (v8: Buffer) => {
      fs.writeFileSync(`${copy}.v8`, v8);
      const r = spawnSync(
        process.execPath,
        [
          '-e',
          `const d = require(${JSON.stringify(cliScript)}).loadDoor(process.argv[1]); console.log(d.script.cachedDataRejected, typeof d.exports.listDoor)`,
          copy,
        ],
        { encoding: 'utf8', timeout: 60_000 },
      );
      expect(r.status, r.stderr).toBe(0);
      return r.stdout.trim();
    };
    expect(probe(cache)).toBe('false function'); // V8 took it: nothing compiled
    expect(probe(Buffer.concat([Buffer.from('// skilldock list door, build other\n'), cache.subarray(firstLine.length + 1)]))).toBe(
      'undefined function', // not offered to V8
    );
    const damaged = Buffer.from(cache);
    damaged.fill(7, firstLine.length + 1, firstLine.length + 65);
    expect(probe(damaged)).toBe('true function'); // V8 refused it: compiled as usual
  });
});
