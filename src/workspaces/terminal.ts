import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import type { Conversation } from '../contract/index.js';
import { fail } from '../errors.js';
import { pidFile } from './in-use.js';
import { shellQuote } from './write-guard.js';

// Open a conversation's agent in the user's terminal. The terminal runs a small launcher script
// (cd into the workspace, record the pid, exec the agent with its env), so every terminal gets the
// same one-word command whatever its own quoting rules are.

export interface AgentRun {
  argv: string[];
  env: Record<string, string>;
}

/** Write the launcher script into the conversation's data dir; returns its path. */
export function writeLauncher(conv: Pick<Conversation, 'dataDir' | 'workspace'>, run: AgentRun, platform = process.platform): string {
  fs.mkdirSync(conv.dataDir, { recursive: true });
  if (platform === 'win32') {
    const file = path.join(conv.dataDir, 'launch.cmd');
    const q = (w: string) => `"${w.replace(/"/g, '""')}"`;
    const lines = [
      '@echo off',
      `cd /d ${q(conv.workspace)}`,
      ...Object.entries(run.env).map(([k, v]) => `set "${k}=${v}"`),
      run.argv.map(q).join(' '),
    ];
    fs.writeFileSync(file, `${lines.join('\r\n')}\r\n`);
    return file;
  }
  // Terminal.app runs a `.command` file it is asked to open.
  const file = path.join(conv.dataDir, platform === 'darwin' ? 'launch.command' : 'launch.sh');
  const envWords = Object.entries(run.env).map(([k, v]) => `${k}=${shellQuote(v)}`);
  const lines = [
    '#!/bin/sh',
    `cd ${shellQuote(conv.workspace)} || exit 1`,
    // exec keeps this pid for the agent, so the pid file names the agent itself.
    `echo $$ > ${shellQuote(pidFile(conv))}`,
    `exec ${envWords.length ? `env ${envWords.join(' ')} ` : ''}${run.argv.map(shellQuote).join(' ')}`,
  ];
  fs.writeFileSync(file, `${lines.join('\n')}\n`, { mode: 0o755 });
  fs.chmodSync(file, 0o755);
  return file;
}

function onPath(cmd: string, env: NodeJS.ProcessEnv): boolean {
  if (path.isAbsolute(cmd)) return fs.existsSync(cmd);
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (dir && fs.existsSync(path.join(dir, cmd))) return true;
  }
  return false;
}

/** The terminal argv: the user's template (`{command}`, `{cwd}`) or the OS default. */
export function terminalArgv(
  template: string | null,
  script: string,
  cwd: string,
  platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
): string[] {
  if (template && template.trim()) {
    const words = template.trim().split(/\s+/);
    const argv = words.map((w) => w.replaceAll('{command}', script).replaceAll('{cwd}', cwd));
    if (!words.some((w) => w.includes('{command}'))) argv.push(script);
    return argv;
  }
  if (platform === 'darwin') return ['open', '-a', 'Terminal', script];
  if (platform === 'win32') return ['cmd', '/c', 'start', '"SkillDock"', 'cmd', '/k', script];
  const candidates: string[][] = [
    ['x-terminal-emulator', '-e', script],
    ['gnome-terminal', '--', script],
    ['konsole', '-e', script],
    ['xfce4-terminal', '-x', script],
    ['xterm', '-e', script],
  ];
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY) throw fail('unsupported', 'launch.no-display');
  const found = candidates.find((c) => onPath(c[0]!, env));
  if (!found) {
    throw fail('unsupported', 'launch.no-terminal', { programs: candidates.map((c) => c[0]!) });
  }
  return found;
}

/** How long a terminal must stay up (or exit 0) to count as opened. */
const TERMINAL_SETTLE_MS = 800;

/** Start the terminal detached from SkillDock; it lives on after the app closes. */
export function spawnTerminal(argv: string[], cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0]!, argv.slice(1), {
      cwd,
      detached: true,
      stdio: 'ignore',
      windowsVerbatimArguments: process.platform === 'win32',
    });
    child.once('error', (err) => reject(fail('io', 'launch.terminal-failed', { program: argv[0], reason: err.message })));
    // A terminal that cannot open a window (no display) exits at once with an error: wait a moment
    // for that before saying it opened. Some terminals hand over to a server and exit 0: fine.
    child.once('spawn', () => {
      const timer = setTimeout(() => {
        child.removeAllListeners('exit');
        child.unref();
        resolve();
      }, TERMINAL_SETTLE_MS);
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        if (code === 0) resolve();
        else reject(fail('io', 'launch.terminal-exited', { program: argv[0]!, status: signal ?? String(code) }));
      });
    });
  });
}
