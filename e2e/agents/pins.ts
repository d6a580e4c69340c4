import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// The agent CLIs the suite judges SkillDock with, pinned: their loaders change between releases.

export interface Pin {
  id: 'gemini' | 'codex' | 'claude' | 'copilot' | 'qwen';
  pkg: string;
  version: string;
  bin: string;
}

export const PINS: Pin[] = [
  { id: 'gemini', pkg: '@google/gemini-cli', version: '0.61.0', bin: 'gemini' },
  { id: 'codex', pkg: '@openai/codex', version: '0.171.0', bin: 'codex' },
  // ~400 MB; cached after the first install like the others.
  { id: 'claude', pkg: '@anthropic-ai/claude-code', version: '2.1.332', bin: 'claude' },
  { id: 'copilot', pkg: '@github/copilot', version: '1.0.102', bin: 'copilot' },
  { id: 'qwen', pkg: '@qwen-code/qwen-code', version: '0.24.4', bin: 'qwen' },
];

/** Outside the project's dependencies; kept between runs on the same machine. */
export function cacheRoot(): string {
  return process.env.SKILLDOCK_AGENT_CACHE
    ? path.resolve(process.env.SKILLDOCK_AGENT_CACHE)
    : path.join(os.homedir(), '.cache', 'skilldock-agents');
}

export function installDir(pin: Pin): string {
  return path.join(cacheRoot(), `${pin.pkg.replace(/^@[^/]+\//, '')}@${pin.version}`);
}

export function binPath(pin: Pin): string {
  return path.join(installDir(pin), 'node_modules', '.bin', process.platform === 'win32' ? `${pin.bin}.cmd` : pin.bin);
}

export function installedVersion(pin: Pin): string | null {
  try {
    const pj = JSON.parse(fs.readFileSync(path.join(installDir(pin), 'node_modules', pin.pkg, 'package.json'), 'utf8'));
    return typeof pj.version === 'string' ? pj.version : null;
  } catch {
    return null;
  }
}

/** What the global setup found, per agent: the binary, or why it could not be installed. */
export const STATUS_FILE = path.resolve('.tmp', 'agents-install.json');
export type InstallStatus = Record<string, { ok: true; bin: string } | { ok: false; reason: string }>;

export function readStatus(): InstallStatus {
  try {
    return JSON.parse(fs.readFileSync(STATUS_FILE, 'utf8')) as InstallStatus;
  } catch {
    return {};
  }
}

/** The pinned CLI's path; throws (the test fails, never skips) with the install failure. */
export function requireAgent(id: Pin['id']): string {
  const s = readStatus()[id];
  if (!s) throw new Error(`${id}: the global setup recorded no install status (${STATUS_FILE})`);
  if (!s.ok) throw new Error(`${id}: could not install the pinned CLI: ${s.reason}`);
  return s.bin;
}
