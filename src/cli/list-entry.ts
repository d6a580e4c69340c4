import fs from 'node:fs';
import path from 'node:path';
import { getCatalog } from '../catalog/index.js';
import { pieceChunks } from './format.js';
import { runLean, useCliValidationMemo } from './lean.js';
import type { OutPiece } from './types.js';

// The front door of `skilldock list --json` when a program reads it (bundled alone as CommonJS,
// dist/list.cjs, picked by bin/skilldock.js). Scripts and agents call it to see the catalog, so it
// should start close to bare Node: one file, no ES-module loader, no command table, no stream for
// stdout, no node:util. It answers on the lean engine (src/cli/lean.ts) or not at all: anything
// else (other options, a terminal to pretty-print for, a file that needs its schema, an error to
// word) goes to the full CLI, which answers as it always does. Nothing is written before the answer
// is known to be this door's.

/** What this door answers: `list --json [--project DIR] [--root DIR]...`, or null. */
function listArgs(argv: readonly string[]): { project?: string; roots: string[] } | null {
  if (argv[0] !== 'list') return null;
  let json = false;
  let project: string | undefined;
  const roots: string[] = [];
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--json' && !json) {
      json = true;
      continue;
    }
    const eq = a.indexOf('=');
    const name = eq === -1 ? a : a.slice(0, eq);
    if (name !== '--root' && !(name === '--project' && project === undefined)) return null;
    const v = eq === -1 ? argv[++i] : a.slice(eq + 1);
    // An empty value or one that looks like an option: node:util's parseArgs has its own words for those.
    if (!v || v.startsWith('-')) return null;
    if (name === '--root') roots.push(v);
    else project = v;
  }
  return json ? { ...(project === undefined ? {} : { project }), roots } : null;
}

/**
 * Whether standard output is what the full CLI writes compact JSON to: anything but a terminal
 * (where it indents for a person). Told without loading node:tty (which brings node:net and the
 * streams): a character device counts only when it is /dev/null.
 */
function compactOut(): boolean {
  try {
    const out = fs.fstatSync(1);
    if (!out.isCharacterDevice()) return out.isFile() || out.isFIFO() || out.isSocket();
    const devNull = fs.statSync('/dev/null');
    return devNull.isCharacterDevice() && devNull.rdev === out.rdev;
  } catch {
    return false;
  }
}

/**
 * `pieces` then a newline on standard output, written straight to fd 1. A pipe that cannot take
 * more now (EAGAIN: a non-blocking pipe inherited from the caller) gets the rest through
 * process.stdout, which waits for it; a reader that left (EPIPE) ends the output quietly, as the
 * full CLI does.
 */
function writeOut(pieces: readonly OutPiece[]): void {
  let stream = false;
  let gone = false;
  const write = (chunk: Uint8Array) => {
    if (gone) return;
    if (stream) {
      process.stdout.write(Buffer.from(chunk)); // it keeps what it is given: the chunk's buffer is reused
      return;
    }
    let off = 0;
    try {
      while (off < chunk.length) off += fs.writeSync(1, chunk, off);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EPIPE') {
        gone = true;
        return;
      }
      stream = true;
      process.stdout.on('error', () => undefined); // its errors end the output, as above
      process.stdout.write(Buffer.from(chunk.subarray(off)));
    }
  };
  pieceChunks([...pieces, '\n'], write);
}

/** The catalog's JSON pieces, or null when the full CLI must answer. */
async function answer(args: { project?: string; roots: string[] }): Promise<readonly OutPiece[] | null> {
  const cwd = process.cwd();
  const query = {
    ...(args.project === undefined ? {} : { project: path.resolve(cwd, args.project) }),
    ...(args.roots.length ? { roots: args.roots.map((r) => path.resolve(cwd, r)) } : {}),
  };
  try {
    useCliValidationMemo();
    const lean = await runLean(async (ctx) => getCatalog(ctx).listJson(query));
    return lean.ok ? lean.value : null;
  } catch {
    return null; // an error the full CLI words
  }
}

/** Answers `list --json` and returns true, or returns false having written nothing. */
export async function listDoor(argv: readonly string[]): Promise<boolean> {
  const args = listArgs(argv);
  if (!args || !compactOut()) return false;
  const pieces = await answer(args);
  if (!pieces) return false;
  // Which door answered, for tests and for anyone timing a start.
  if (process.env.SKILLDOCK_TRACE_LEAN) fs.writeSync(2, 'skilldock: lean start (list door)\n');
  writeOut(pieces);
  return true;
}
