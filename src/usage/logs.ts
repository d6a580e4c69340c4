import fs from 'node:fs';
import path from 'node:path';
import { CLAUDE_LOG, CODEX_LOG, type LogFormat, type SkillUse } from './parsers.js';
import type { LedgerData, LogState } from './ledger.js';
import { scanLines } from './scan-lines.js';

// The agents' own session logs, read only when the user opted in (Settings, `usage scan`): Claude
// Code's transcripts under ~/.claude/projects and Codex's sessions under ~/.codex/sessions. Read
// only, never written, nothing leaves the machine. Each file is read from the offset the last scan
// stopped at; a file that is new, shorter, or another file under the same name is read from the
// start. A format this build does not know makes the agent's usage "unknown", not zero.

export interface LogSource {
  agent: 'claude' | 'codex';
  root(userHome: string): string;
  /** How deep below the root its files lie (bounded walk). */
  depth: number;
  match(name: string): boolean;
  format: LogFormat;
}

export const LOG_SOURCES: LogSource[] = [
  {
    agent: 'claude',
    root: (home) => path.join(home, '.claude', 'projects'),
    depth: 4,
    match: (n) => n.endsWith('.jsonl'),
    format: CLAUDE_LOG,
  },
  {
    agent: 'codex',
    root: (home) => path.join(home, '.codex', 'sessions'),
    depth: 4,
    match: (n) => n.startsWith('rollout-') && n.endsWith('.jsonl'),
    format: CODEX_LOG,
  },
];

const MAX_FILES = 50_000;
/** Lines read from the start of each new file to check its format. */
const SAMPLE = 3;
/** Below this share of lines in the known shape, the format is "unknown". */
const KNOWN_SHARE = 0.5;

/** The log files under `root`, no symlinks followed, at most MAX_FILES. */
export function logFiles(root: string, depth: number, match: (name: string) => boolean): string[] {
  const out: string[] = [];
  const walk = (dir: string, left: number) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (out.length >= MAX_FILES) return;
      const p = path.join(dir, e.name);
      if (e.isDirectory() && left > 0) walk(p, left - 1);
      else if (e.isFile() && match(e.name)) out.push(p);
    }
  };
  walk(root, depth);
  return out.sort();
}

function parse(text: string): Record<string, unknown> | null {
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Scan one agent's logs into the ledger `d` (through `add`); returns its new state. */
export function scanSource(
  src: LogSource,
  userHome: string,
  d: LedgerData,
  add: (agent: string, use: SkillUse) => void,
  now: number,
): LogState {
  const files = logFiles(src.root(userHome), src.depth, src.match);
  const state: LogState = { format: 'none', files: files.length, lines: 0, bad: 0, tooLong: 0, bytesRead: 0, scannedAt: now };
  let checked = 0;
  let known = 0;
  const found: SkillUse[] = [];
  const markers = src.format.markers.map((m) => Buffer.from(m));
  for (const file of files) {
    let st: fs.Stats;
    try {
      st = fs.statSync(file);
    } catch {
      continue;
    }
    const prev = d.offsets[file];
    const start = prev && prev.ino === st.ino && prev.offset <= st.size ? prev.offset : 0;
    if (start === st.size) continue;
    const judge = (text: string, fromMarker: boolean) => {
      const line = parse(text);
      if (!line) {
        state.bad++;
        return;
      }
      checked++;
      if (!src.format.known(line)) return;
      known++;
      if (fromMarker) found.push(...src.format.uses(line));
    };
    let r: ReturnType<typeof scanLines>;
    try {
      r = scanLines(file, {
        offset: start,
        markers,
        sample: start === 0 ? SAMPLE : 0,
        onSample: (t) => judge(t, false),
        onLine: (t) => judge(t, true),
      });
    } catch {
      continue; // unreadable now (removed, permissions): tried again next scan
    }
    d.offsets[file] = { ino: st.ino, offset: r.offset };
    state.lines += r.tally.lines;
    state.bad += r.tally.bad;
    state.tooLong += r.tally.tooLong;
    state.bytesRead += r.offset - start;
  }
  // Files gone from disk: their offsets go too (the record stays bounded).
  const live = new Set(files);
  const rootPrefix = src.root(userHome) + path.sep;
  for (const f of Object.keys(d.offsets)) if (f.startsWith(rootPrefix) && !live.has(f)) delete d.offsets[f];

  const before = d.logs[src.agent];
  if (checked === 0) state.format = files.length ? (before?.format ?? 'ok') : 'none';
  else state.format = known / checked >= KNOWN_SHARE ? 'ok' : 'unknown';
  if (state.format === 'ok') for (const u of found) add(src.agent, u);
  return state;
}
