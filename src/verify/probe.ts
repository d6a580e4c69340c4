import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AgentDef } from '../agents/registry.js';
import { expandHome } from '../agents/registry.js';
import { startRecorder, type Recorded } from './recorder.js';
import { LISTING_PARSERS, NoListingError, isModelCall, type Captured } from './listings.js';
import { runGrouped, type RunResult } from './run.js';

// One offline run of an installed agent CLI against the loopback recorder (the registry's `probe`):
// a scratch HOME (its own config dirs, the probe's files, the agent's user skill folders linked in
// from the real home so it reads the user's skills), a dummy key, the recorder as its model endpoint.
// The user's own config and credentials are never read; nothing leaves 127.0.0.1.

export interface ProbeOptions {
  /** Where the CLI runs (a workspace, or an empty scratch folder). */
  cwd?: string;
  /** The user's home: their skill folders are linked into the scratch home from here. */
  userHome: string;
  timeoutMs: number;
  /** Process env to take PATH and the language variables from. */
  env?: NodeJS.ProcessEnv;
}

export type ProbeFailure =
  | { kind: 'timeout'; run: RunResult }
  | { kind: 'no-request'; run: RunResult; login: boolean; requests: number }
  | { kind: 'no-listing'; run: RunResult };

export type ProbeOutcome = { ok: true; captured: Captured[]; request: Recorded } | ({ ok: false } & ProbeFailure);

/** Variables passed through from SkillDock's environment: the CLI's search path and its language (listing order). */
const PASS = ['PATH', 'LANG', 'LC_ALL', 'LC_MESSAGES', 'LC_COLLATE', 'SYSTEMROOT', 'PATHEXT'];

/** The environment of a probe run: nothing of the user's but PATH and the language. */
export function probeEnv(home: string, from: NodeJS.ProcessEnv, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const k of PASS) if (from[k] !== undefined) env[k] = from[k];
  return {
    ...env,
    HOME: home,
    USERPROFILE: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_DATA_HOME: path.join(home, '.local', 'share'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    XDG_STATE_HOME: path.join(home, '.local', 'state'),
    NO_COLOR: '1',
    TERM: 'dumb',
    CI: '1',
    ...extra,
  };
}

const fill = (text: string, url: string) => text.replaceAll('{url}', url);

function fillJson(value: unknown, url: string): unknown {
  if (typeof value === 'string') return fill(value, url);
  if (Array.isArray(value)) return value.map((v) => fillJson(v, url));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillJson(v, url)]));
  return value;
}

/**
 * A scratch home for one run: the agent's user skill folders (`~/…` in the registry) linked to the
 * user's real ones, so the CLI sees the user's skills and nothing else of their home.
 */
export function scratchHome(agent: AgentDef, userHome: string, under: string): string {
  const home = path.join(under, 'home');
  fs.mkdirSync(home);
  for (const dir of agent.userDirs) {
    if (!dir.startsWith('~/')) continue;
    const real = expandHome(dir, userHome);
    if (!fs.existsSync(real)) continue;
    const inScratch = expandHome(dir, home);
    fs.mkdirSync(path.dirname(inScratch), { recursive: true });
    fs.symlinkSync(real, inScratch, process.platform === 'win32' ? 'junction' : 'dir');
  }
  return home;
}

/** Run the CLI once and read the listing out of its first model request (the `match`ing one). */
export async function probeListing(agent: AgentDef, bin: string, o: ProbeOptions): Promise<ProbeOutcome> {
  const probe = agent.probe!;
  // Home and working folder side by side: an agent that walks up from its folder must not meet the
  // scratch home's skill folders as project skills.
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldock-verify-'));
  const home = scratchHome(agent, o.userHome, scratch);
  const rec = await startRecorder();
  try {
    for (const f of probe.files) {
      const file = expandHome(f.path, home);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, JSON.stringify(fillJson(f.json, rec.url)));
    }
    const cwd = o.cwd ?? path.join(scratch, 'cwd');
    fs.mkdirSync(cwd, { recursive: true });
    const env = probeEnv(home, o.env ?? process.env, Object.fromEntries(Object.entries(probe.env).map(([k, v]) => [k, fill(v, rec.url)])));
    const run = await runGrouped(
      bin,
      probe.args.map((a) => fill(a, rec.url)),
      { cwd, env, timeoutMs: o.timeoutMs },
    );
    const calls = rec.requests.filter(isModelCall);
    const request = calls.find((q) => probe.match === null || q.body.includes(probe.match));
    if (!request) {
      if (run.timedOut) return { ok: false, kind: 'timeout', run };
      const said = `${run.stdout}\n${run.stderr}`;
      return {
        ok: false,
        kind: 'no-request',
        run,
        login: /log ?in|sign ?in|authenticat|credential/i.test(said),
        requests: rec.requests.length,
      };
    }
    let body: unknown;
    try {
      body = JSON.parse(request.body) as unknown;
    } catch {
      return { ok: false, kind: 'no-listing', run };
    }
    try {
      return { ok: true, captured: LISTING_PARSERS[probe.parser](body), request };
    } catch (err) {
      if (err instanceof NoListingError) return { ok: false, kind: 'no-listing', run };
      throw err;
    }
  } finally {
    await rec.close();
    // Links are removed, never followed: the user's skill folders stay as they are.
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/** The CLI's `--version` (the first dotted number it prints), or null. */
export async function cliVersion(agent: AgentDef, bin: string, o: Pick<ProbeOptions, 'env' | 'timeoutMs'>): Promise<string | null> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldock-version-'));
  try {
    const r = await runGrouped(bin, agent.probe?.versionArgs ?? ['--version'], {
      cwd: home,
      env: probeEnv(home, o.env ?? process.env),
      timeoutMs: o.timeoutMs,
    });
    return /\d+\.\d+(?:\.\d+)?(?:[-+][\w.]+)?/.exec(`${r.stdout}\n${r.stderr}`)?.[0] ?? null;
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
}
