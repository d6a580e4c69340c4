import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// Issue 11, "page data through the stores": pages and components read engine data from the zustand
// stores (renderer/src/stores) and call their actions; only stores talk to the client. One path per
// piece of data means one place that loads it, words its error and follows the engine's events.
// This guard fails when a file under renderer/src/pages or renderer/src/components reaches the
// client: `client()` from client-port, the client module itself, or the preload bridge.

const SRC = path.resolve(__dirname, '..');
const SCOPES = ['pages', 'components'];

/**
 * Files under pages/ or components/ allowed to reach the client directly, each with the reason.
 * Empty: every page and component goes through a store (or stores/desktop.ts for the desktop
 * window's native pickers). An entry no longer needed fails the test, so the list stays true.
 */
const ALLOWED: Record<string, string> = {};

/**
 * Parts of renderer/src/client/ a page may import: pure DOM helpers that turn a drop or a file
 * input's list into upload items; they talk to nothing.
 */
const CLIENT_HELPERS = new Set(['drop']);

/**
 * Comments blanked (a URL's `//` inside a string is not one); string contents too when `strings`
 * is false. Line breaks stay, so positions keep their line numbers.
 */
function blank(text: string, strings: boolean): string {
  const spaces = (m: string) => m.replace(/[^\n]/g, ' ');
  return text.replace(
    /("(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|`(?:\\.|[^`\\])*`)|\/\*[\s\S]*?\*\/|\/\/[^\n]*/g,
    (m, str: string | undefined) => (str === undefined ? spaces(m) : strings ? str : `${str[0]}${spaces(str.slice(1, -1))}${str[0]}`),
  );
}

/** Where a file reaches the client, one line each ("<file>:<line> <what>"). */
function clientUses(file: string, text: string): string[] {
  const code = blank(text, true);
  const bare = blank(text, false);
  const found: string[] = [];
  const at = (index: number, what: string) => found.push(`${file}:${code.slice(0, index).split('\n').length} ${what}`);
  const clientModule = (source: string) => {
    const m = /(?:^|\/)client(?:\/([\w-]+))?$/.exec(source);
    return m !== null && !(m[1] !== undefined && CLIENT_HELPERS.has(m[1]));
  };
  const fromPort = (source: string) => /(?:^|\/)client-port$/.test(source);
  for (const m of code.matchAll(/\bimport\s+(type\s+)?([^'"]*?)\s*from\s*['"]([^'"]+)['"]/g)) {
    const [, typeOnly, clause = '', source = ''] = m;
    if (typeOnly) continue;
    if (clientModule(source)) at(m.index, `imports the client module (${source})`);
    if (!fromPort(source)) continue;
    if (/\*\s+as\s/.test(clause)) at(m.index, `imports all of ${source}`);
    const named = /\{([^}]*)\}/.exec(clause)?.[1] ?? '';
    for (const part of named.split(',')) {
      const spec = part.trim();
      if (spec.startsWith('type ')) continue; // a type-only name carries no way out
      const name = spec.split(/\s+as\s+/)[0];
      if (name === 'client' || name === 'setClient') at(m.index, `imports ${name} from ${source}`);
    }
  }
  for (const m of code.matchAll(/\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g)) {
    const source = m[1] ?? '';
    if (fromPort(source) || clientModule(source)) at(m.index, `loads ${source}`);
  }
  for (const m of bare.matchAll(/\bclient\s*\(\s*\)/g)) at(m.index, 'calls client()');
  for (const m of bare.matchAll(/\b(?:window|globalThis)\s*\.\s*skilldock\b/g)) at(m.index, 'uses the preload bridge');
  return found;
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const full = path.join(dir, d.name);
    if (d.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(d.name) && !/\.test\.tsx?$/.test(d.name) ? [full] : [];
  });
}

function scan(dirs: string[]): { files: number; uses: string[] } {
  const files = dirs.flatMap((d) => sourceFiles(path.join(SRC, d)));
  const uses = files.flatMap((f) => clientUses(path.relative(SRC, f).split(path.sep).join('/'), fs.readFileSync(f, 'utf8')));
  return { files: files.length, uses };
}

describe('pages and components go through the stores', () => {
  it('no page or component reaches the client (beyond the commented allow-list)', () => {
    const { files, uses } = scan(SCOPES);
    expect(files).toBeGreaterThan(40);
    const allowedFile = (use: string) => Object.keys(ALLOWED).some((f) => use.startsWith(`${f}:`));
    expect(uses.filter((u) => !allowedFile(u))).toEqual([]);
    // An allow-list entry that no longer reaches the client is stale: take it out.
    for (const file of Object.keys(ALLOWED))
      expect(
        uses.some((u) => u.startsWith(`${file}:`)),
        file,
      ).toBe(true);
  });

  it('finds each way to the client, and nothing in comments, strings, type imports or the drop helpers', () => {
    const planted = [
      "import { client } from '../../client-port';",
      "import { useEffect } from 'react';\nimport { setClient as set, type DroppedItem } from '../client-port';",
      "import * as port from '../../client-port';",
      "import { createClient } from '../../client';",
      "import { createHttpClient } from '../../client/http';",
      "const m = await import('../../client-port');",
      'const api = getPort().api;\nvoid client().api.undo({});',
      'const bridge = window.skilldock;',
    ];
    const found = planted.map((text, i) => clientUses(`p${i}.tsx`, text));
    expect(found.map((f) => f.length)).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
    expect(found[1]?.[0]).toBe('p1.tsx:2 imports setClient from ../client-port');
    expect(found[6]?.[0]).toBe('p6.tsx:2 calls client()');

    const harmless = [
      "import type { DroppedItem } from '../../client-port';",
      "import { type DroppedItem } from '../../client-port';",
      "import { collectDropped } from '../../client/drop';",
      '// the store calls client() so this page does not\n/* window.skilldock */',
      "const hint = 'call client() from a store';\nconst url = 'https://x.example/client()';",
      "import { useClientCount } from '../../stores/client-count';",
    ];
    for (const text of harmless) expect(clientUses('ok.tsx', text), text).toEqual([]);
  });

  it('reads real code the way it reads the pages: the stores, which do call the client, are found', () => {
    const { uses } = scan(['stores']);
    expect(uses.some((u) => u.startsWith('stores/library-store.ts:') && u.endsWith('imports client from ../client-port'))).toBe(true);
    expect(uses.some((u) => u.startsWith('stores/skill-store.ts:') && u.endsWith('calls client()'))).toBe(true);
  });
});
