import { execFile } from 'node:child_process';
import { fail } from '../errors.js';

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
}

export class GitError extends Error {
  constructor(
    readonly reason: 'missing' | 'unreachable' | 'auth' | 'ref' | 'not-repo' | 'timeout' | 'other',
    readonly stderr: string,
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

/** `protocol.file.allow` for a call: `always` only when the URL itself is a local repository. */
function fileProtocol(url?: string): string[] {
  return ['-c', `protocol.file.allow=${url !== undefined && /^file:\/\//i.test(url) ? 'always' : 'never'}`];
}

export function runGit(args: string[], opts: { cwd?: string; timeoutMs?: number; url?: string } = {}): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    execFile(
      process.env.SKILLDOCK_GIT || 'git',
      [...SAFE_CONFIG, ...fileProtocol(opts.url), ...args],
      {
        cwd: opts.cwd,
        timeout: opts.timeoutMs ?? 120_000,
        maxBuffer: 32 * 1024 * 1024,
        windowsHide: true,
        env: {
          ...process.env,
          GIT_TERMINAL_PROMPT: '0',
          GCM_INTERACTIVE: 'never',
          GIT_ASKPASS: process.env.GIT_ASKPASS ?? '',
          LC_ALL: 'C',
        },
      },
      (err, stdout, stderr) => {
        if (!err) return resolve({ stdout: String(stdout), stderr: String(stderr) });
        const e = err as NodeJS.ErrnoException & { killed?: boolean };
        if (e.code === 'ENOENT') return reject(new GitError('missing', ''));
        if (e.killed) return reject(new GitError('timeout', String(stderr)));
        reject(new GitError(classify(String(stderr)), String(stderr).trim()));
      },
    );
  });
}

/** A GitError as a keyed SkillDockError naming the source (and the skill when there is one). */
export function gitFailure(err: unknown, source: string, skill?: string): Error {
  if (!(err instanceof GitError)) return err as Error;
  const detail = err.stderr.split('\n').filter(Boolean).slice(-2).join(' ').slice(0, 400);
  const params = { source, skill: skill ?? '', detail };
  switch (err.reason) {
    case 'missing':
      return fail('unsupported', 'sources.git-missing', { source });
    case 'unreachable':
    case 'timeout':
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

/**
 * Fetch one commit of `url` (the remote's HEAD, or `ref`) into a new repository at `dir` and check
 * it out. Shallow (depth 1), no tags, no submodules. Returns the resolved commit.
 */
export async function shallowCheckout(url: string, dir: string, ref?: string): Promise<string> {
  await runGit(['init', '-q', '--end-of-options', dir]);
  await runGit(['fetch', '-q', '--depth', '1', '--no-tags', '--no-recurse-submodules', '--end-of-options', url, ref ?? 'HEAD'], {
    cwd: dir,
    url,
  });
  await runGit(['-c', 'core.symlinks=true', 'checkout', '-q', '--detach', 'FETCH_HEAD'], { cwd: dir });
  const { stdout } = await runGit(['rev-parse', 'HEAD'], { cwd: dir });
  return stdout.trim();
}

/** `git ls-remote` of one URL: ref name → commit (HEAD included). One network round. */
export async function lsRemote(url: string, timeoutMs = 60_000): Promise<Map<string, string>> {
  const { stdout } = await runGit(['ls-remote', '--end-of-options', url], { timeoutMs, url });
  const refs = new Map<string, string>();
  for (const line of stdout.split('\n')) {
    const [sha, name] = line.split('\t');
    if (sha && name) refs.set(name, sha);
  }
  return refs;
}
