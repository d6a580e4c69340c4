import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { jsonStrings, startRecorder } from '../../src/verify/recorder.js';
import {
  claudeListing,
  codexListing,
  copilotListing,
  geminiListing,
  isModelCall,
  opencodeListing,
  qwenListing,
  type Captured,
} from '../../src/verify/listings.js';

// Run a pinned agent CLI once against the recording model server and pull out of its first model
// request the skill listing the model receives. The parsers and the recorder are the engine's
// (src/verify/), the ones `skilldock verify` uses.

export { claudeListing, codexListing, copilotListing, geminiListing, opencodeListing, qwenListing, type Captured };

export interface RunOpts {
  cwd: string;
  home: string;
  env?: Record<string, string>;
  timeoutMs?: number;
  /** The model request to take: the first for which this holds (default: the first model request). */
  match?: (body: unknown) => boolean;
}

export function baseEnv(home: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '',
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_DATA_HOME: path.join(home, '.local', 'share'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    NO_COLOR: '1',
    TERM: 'dumb',
  };
}

/** Run `bin args` with the recorder's URL in `urlEnv`; the first model request's JSON body. */
export async function firstModelRequest(
  bin: string,
  args: string[] | ((url: string) => string[]),
  urlEnv: (url: string) => Record<string, string>,
  opts: RunOpts,
) {
  const rec = await startRecorder();
  try {
    // Asynchronous: the recorder answers from this same process while the CLI runs.
    const r = await run(
      bin,
      typeof args === 'function' ? args(rec.url) : args,
      { cwd: opts.cwd, env: { ...baseEnv(opts.home), ...urlEnv(rec.url), ...opts.env } },
      opts.timeoutMs ?? 120_000,
    );
    const req = rec.requests.find((q) => isModelCall(q) && (!opts.match || opts.match(parseBody(q.body))));
    if (!req) {
      throw new Error(
        `${path.basename(bin)} sent no model request (exit ${r.status}; ${rec.requests.length} other requests: ${rec.requests
          .map((q) => q.url)
          .join(', ')}):\n${r.stderr.slice(0, 3000)}\n${r.stdout.slice(0, 2000)}`,
      );
    }
    return { request: req, body: JSON.parse(req.body) as unknown, stdout: r.stdout, stderr: r.stderr };
  } finally {
    await rec.close();
  }
}

interface RunResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Spawn without a shell; killed (and failing) after `timeoutMs`. */
export function run(bin: string, args: string[], o: { cwd: string; env: NodeJS.ProcessEnv }, timeoutMs: number): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { cwd: o.cwd, env: o.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout = (stdout + d).slice(-200_000)));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-200_000)));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${path.basename(bin)} ${args.join(' ')}: no exit after ${timeoutMs} ms\n${stderr.slice(-2000)}`));
    }, timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

function parseBody(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return null;
  }
}

export const CLAUDE_OFFLINE = {
  ANTHROPIC_API_KEY: 'sk-ant-recorded',
  CLAUDE_CODE_MAX_RETRIES: '0',
  DISABLE_AUTOUPDATER: '1',
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  DISABLE_TELEMETRY: '1',
  DISABLE_ERROR_REPORTING: '1',
};

export async function captureClaude(bin: string, opts: RunOpts): Promise<Captured[]> {
  const { body } = await firstModelRequest(bin, ['-p', 'hi', '--max-turns', '1'], (url) => ({ ANTHROPIC_BASE_URL: url }), {
    ...opts,
    env: { ...CLAUDE_OFFLINE, ...opts.env },
  });
  return claudeListing(body);
}

/** Offline against the recorder: Copilot's own BYOK provider settings, no GitHub sign-in. */
export function copilotOffline(url: string): Record<string, string> {
  return {
    COPILOT_OFFLINE: 'true',
    COPILOT_PROVIDER_BASE_URL: `${url}/v1`,
    COPILOT_PROVIDER_API_KEY: 'recorded',
    COPILOT_MODEL: 'gpt-4.1',
    COPILOT_AUTO_UPDATE: 'false',
  };
}

export async function captureCopilot(bin: string, opts: RunOpts): Promise<Captured[]> {
  const { body } = await firstModelRequest(bin, ['-p', 'hi'], copilotOffline, opts);
  return copilotListing(body);
}

/** Codex pointed at the recorder through a provider of its own (no retries, the Responses API). */
export function codexArgs(url: string, prompt = 'hi'): string[] {
  const provider = `model_providers.rec={name="rec",base_url="${url}/v1",env_key="OPENAI_API_KEY",wire_api="responses",request_max_retries=0,stream_max_retries=0}`;
  return ['exec', '--skip-git-repo-check', '-c', 'model_provider="rec"', '-c', provider, prompt];
}

export async function captureCodex(bin: string, opts: RunOpts): Promise<Captured[]> {
  const { body } = await firstModelRequest(
    bin,
    (url) => codexArgs(url),
    () => ({ OPENAI_API_KEY: 'recorded' }),
    opts,
  );
  return codexListing(body);
}

/** Gemini CLI offline: an API-key user (its settings), the recorder as its endpoint; the main request. */
export async function captureGemini(bin: string, opts: RunOpts): Promise<Captured[]> {
  const settings = path.join(opts.home, '.gemini', 'settings.json');
  fs.mkdirSync(path.dirname(settings), { recursive: true });
  fs.writeFileSync(settings, JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } } }));
  const { body } = await firstModelRequest(
    bin,
    ['-p', 'hi'],
    (url) => ({ GOOGLE_GEMINI_BASE_URL: url, GEMINI_API_KEY: 'recorded', GEMINI_CLI_TRUST_WORKSPACE: 'true' }),
    // Its first request routes the prompt (a complexity score); the main one carries the skills.
    { ...opts, match: (b) => jsonStrings(b).some((s) => s.includes('<available_skills>')) },
  );
  return geminiListing(body);
}

/** Qwen Code offline: its OpenAI-compatible endpoint pointed at the recorder; the main request. */
export async function captureQwen(bin: string, opts: RunOpts): Promise<Captured[]> {
  const { body } = await firstModelRequest(
    bin,
    ['-p', 'hi'],
    (url) => ({ OPENAI_BASE_URL: `${url}/v1`, OPENAI_API_KEY: 'recorded', OPENAI_MODEL: 'gpt-4o' }),
    { ...opts, match: (b) => jsonStrings(b).some((s) => s.includes('<available_skills>')) },
  );
  return qwenListing(body);
}

/** OpenCode offline: its openai provider pointed at the recorder by the user's config; the main request. */
export async function captureOpenCode(bin: string, opts: RunOpts): Promise<Captured[]> {
  const config = path.join(opts.home, '.config', 'opencode', 'opencode.json');
  const { body } = await firstModelRequest(
    bin,
    ['run', 'hi'],
    (url) => {
      fs.mkdirSync(path.dirname(config), { recursive: true });
      fs.writeFileSync(
        config,
        JSON.stringify({
          provider: { openai: { options: { baseURL: `${url}/v1`, apiKey: 'recorded' } } },
          model: 'openai/gpt-4o',
          autoupdate: false,
          share: 'disabled',
        }),
      );
      return { OPENCODE_DISABLE_AUTOUPDATE: '1' };
    },
    { ...opts, match: (b) => jsonStrings(b).some((s) => s.includes('<available_skills>')) },
  );
  return opencodeListing(body);
}
