import { fail } from '../errors.js';
import type { MessageRef } from '../contract/index.js';
import { runDetached } from './git-process.js';
import { gitTimeoutMs, lsRemoteTimeoutMs } from './limits.js';
import { checkTree, downloadTooBig, fetchLimitArgs, packCap, parseLsTree, parseSizes, watchPack } from './git-limits.js';

// The user's own `git`, run without a shell (so credential helpers and SSH keys work), never
// prompting, with hooks, submodules and external filters off: nothing from a cloned repo runs.
// A URL or ref always follows `--end-of-options`, so one that begins with `-` is never an option
// (`--upload-pack=…` would run a program). The `ext::` transport (runs a command) is off whatever
// the user's config says; `file://` is allowed only when the user's source is a local repository.

const SAFE_CONFIG = [
  '-c',
  'core.hooksPath=/dev/null',
  '-c',
  'submodule.recurse=false',
  '-c',
  'protocol.ext.allow=never',
  '-c',
  'core.fsmonitor=false',
  '-c',
  'filter.lfs.smudge=',
  '-c',
  'filter.lfs.process=',
  '-c',
  'filter.lfs.required=false',
  '-c',
  'advice.detachedHead=false',
];

export interface GitResult {
  stdout: string;
  stderr: string;
  bytes?: Buffer;
}

export class GitError extends Error {
  constructor(
    readonly reason: 'missing' | 'unreachable' | 'auth' | 'ref' | 'not-repo' | 'timeout' | 'aborted' | 'other',
    readonly stderr: string,
    /** The git command (`fetch`, `ls-remote`, ...), its exit code and how long it was given. */
    readonly run: { command: string; code?: number | null; ms?: number } = { command: 'git' },
  ) {
    super(stderr || reason);
  }
}

function classify(stderr: string): GitError['reason'] {
  const s = stderr.toLowerCase();
  // git daemon says this for a path it does not serve
  if (/access denied or repository not exported/.test(s)) return 'not-repo';
  if (
    /authentication failed|could not read username|could not read password|permission denied \(publickey|access denied|returned error: 40[13]|terminal prompts disabled/.test(
      s,
    )
  )
    return 'auth';
  if (/couldn't find remote ref|not our ref|unknown revision|invalid refspec|no such ref|did not match any/.test(s)) return 'ref';
  if (/does not appear to be a git repository|not a git repository|repository .* not found|returned error: 404/.test(s)) return 'not-repo';
  if (
    /could not resolve|connection refused|unable to access|connection timed out|network is unreachable|unable to connect|connection reset|could not connect/.test(
      s,
    )
  ) {
    return 'unreachable';
  }
  return 'other';
}

/** The git subcommand in `args` (after any `-c key=value` pairs), for messages. */
function subcommand(args: string[]): string {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '-c') i++;
    else if (!args[i]!.startsWith('-')) return args[i]!;
  }
  return 'git';
}

/** `protocol.file.allow` for a call: `always` only when the URL itself is a local repository. */
function fileProtocol(url?: string): string[] {
  return ['-c', `protocol.file.allow=${url !== undefined && /^file:\/\//i.test(url) ? 'always' : 'never'}`];
}

export interface RunGitOptions {
  cwd?: string;
  timeoutMs?: number;
  /** The remote's URL, when the call talks to one (decides `protocol.file.allow`). */
  url?: string;
  /** Stop git (and every process it started) when this fires: a caller's deadline. */
  signal?: AbortSignal;
  /** Standard input for git (`--stdin-paths`, `--batch`, `--index-info`). */
  input?: string;
  /** Extra environment (GIT_INDEX_FILE for a private index). */
  env?: NodeJS.ProcessEnv;
}

export async function runGit(args: string[], opts: RunGitOptions = {}): Promise<GitResult> {
  const timeoutMs = opts.timeoutMs ?? gitTimeoutMs();
  const command = subcommand(args);
  let r;
  try {
    r = await runDetached(
      process.env.SKILLDOCK_GIT || 'git',
      [...SAFE_CONFIG, ...fileProtocol(opts.url), ...timeConfig(timeoutMs), ...args],
      {
        cwd: opts.cwd,
        timeoutMs,
        maxBuffer: 32 * 1024 * 1024,
        ...(opts.signal ? { signal: opts.signal } : {}),
        ...(opts.input !== undefined ? { input: opts.input } : {}),
        env: {
          ...process.env,
          ...opts.env,
          GIT_TERMINAL_PROMPT: '0',
          GCM_INTERACTIVE: 'never',
          GIT_ASKPASS: process.env.GIT_ASKPASS ?? '',
          // A blob left out by a size filter stays out: never fetched behind SkillDock's back (git 2.44+).
          GIT_NO_LAZY_FETCH: '1',
          LC_ALL: 'C',
        },
      },
    );
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new GitError('missing', '', { command });
    throw err;
  }
  if (r.stopped === 'timeout') throw new GitError('timeout', r.stderr.trim(), { command, ms: timeoutMs });
  if (r.stopped === 'aborted') throw new GitError('aborted', r.stderr.trim(), { command });
  if (r.stopped === 'overflow') throw new GitError('other', r.stderr.trim().slice(-400) || 'output too large', { command });
  if (r.code === 0) return { stdout: r.stdout, stderr: r.stderr, ...(r.bytes ? { bytes: r.bytes } : {}) };
  throw new GitError(classify(r.stderr), r.stderr.trim(), { command, code: r.code });
}

/**
 * An HTTP transfer that stalls gives up by itself a little after SkillDock's own time-out, so a git
 * left running when SkillDock could not stop it (killed itself) still ends.
 */
function timeConfig(ms: number): string[] {
  return ['-c', 'http.lowSpeedLimit=1', '-c', `http.lowSpeedTime=${Math.ceil(ms / 1000) + 10}`];
}

/** A GitError as a keyed SkillDockError naming the source (and the skill when there is one). */
export function gitFailure(err: unknown, source: string, skill?: string): Error {
  if (!(err instanceof GitError)) return err as Error;
  const said = err.stderr.split('\n').filter(Boolean).slice(-2).join(' ').slice(0, 400);
  // Never an empty reason: git that says nothing still has an exit code.
  const detail: string | MessageRef = said || {
    key: 'sources.reason.git-exit',
    params: { command: err.run.command, code: err.run.code ?? '?' },
  };
  const params = { source, skill: skill ?? '', detail };
  switch (err.reason) {
    case 'missing':
      return fail('unsupported', 'sources.git-missing', { source });
    case 'timeout':
      return fail('io', 'sources.timeout', { source, command: `git ${err.run.command}`, seconds: seconds(err.run.ms ?? 0) });
    case 'aborted':
      return fail('io', 'sources.stopped', { source, command: `git ${err.run.command}` });
    case 'unreachable':
      return fail('io', skill ? 'sources.unreachable-skill' : 'sources.unreachable', params);
    case 'auth':
      return fail('unauthorized', 'sources.auth', params);
    case 'ref':
      return fail('not-found', 'sources.ref-missing', params);
    case 'not-repo':
      return fail('not-found', 'sources.not-repo', params);
    default:
      return fail('io', 'sources.git-failed', params);
  }
}

const seconds = (ms: number) => Math.round(ms / 100) / 10;

/**
 * Fetch one commit of `url` (the remote's HEAD, or `ref`) into a new repository at `dir` and check
 * it out. Shallow (depth 1), no tags, no submodules, held to the source limits (git-limits.ts)
 * before anything is checked out; `source` names it in a refusal. Returns the resolved commit.
 */
export async function shallowCheckout(
  url: string,
  dir: string,
  ref?: string,
  opts: { source?: string; signal?: AbortSignal } = {},
): Promise<string> {
  const source = opts.source ?? url;
  await runGit(['init', '-q', '--end-of-options', dir], opts.signal ? { signal: opts.signal } : {});
  const over = new AbortController();
  const signal = opts.signal ? AbortSignal.any([opts.signal, over.signal]) : over.signal;
  const stopWatch = watchPack(dir, packCap(), () => over.abort());
  const lim = fetchLimitArgs();
  try {
    await runGit(
      [
        ...lim.config,
        'fetch',
        '-q',
        ...lim.args,
        '--depth',
        '1',
        '--no-tags',
        '--no-recurse-submodules',
        '--end-of-options',
        url,
        ref ?? 'HEAD',
      ],
      {
        cwd: dir,
        url,
        signal,
      },
    );
  } catch (err) {
    if (over.signal.aborted) throw downloadTooBig(source);
    throw err;
  } finally {
    stopWatch();
  }
  const tree = await runGit(['ls-tree', '-r', '-z', '--full-tree', 'FETCH_HEAD'], { cwd: dir });
  const sizes = await runGit(['cat-file', '--batch-all-objects', '--batch-check=%(objectname) %(objectsize)'], { cwd: dir });
  checkTree(source, parseLsTree(tree.stdout), parseSizes(sizes.stdout));
  await runGit(['-c', 'core.symlinks=true', 'checkout', '-q', '--detach', 'FETCH_HEAD'], { cwd: dir });
  const { stdout } = await runGit(['rev-parse', 'HEAD'], { cwd: dir });
  return stdout.trim();
}

/** `git ls-remote` of one URL: ref name → commit (HEAD included). One network round. */
export async function lsRemote(url: string, timeoutMs = lsRemoteTimeoutMs(), signal?: AbortSignal): Promise<Map<string, string>> {
  const { stdout } = await runGit(['ls-remote', '--end-of-options', url], { timeoutMs, url, ...(signal ? { signal } : {}) });
  const refs = new Map<string, string>();
  for (const line of stdout.split('\n')) {
    const [sha, name] = line.split('\t');
    if (sha && name) refs.set(name, sha);
  }
  return refs;
}
