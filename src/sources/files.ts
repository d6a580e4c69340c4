import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';

/** Every file and link of a folder: relative `/` path → sha256 of its bytes (or `link:` target). */
export function fileMap(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string, rel: string) => {
    let ents: fs.Dirent[];
    try {
      ents = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of ents) {
      const p = path.join(dir, e.name);
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(p, r);
      else if (e.isSymbolicLink()) out.set(r, `link:${fs.readlinkSync(p)}`);
      else if (e.isFile()) out.set(r, createHash('sha256').update(fs.readFileSync(p)).digest('hex'));
    }
  };
  walk(root, '');
  return out;
}

export interface FileDiff {
  added: string[];
  changed: string[];
  removed: string[];
}

export function diffMaps(from: Map<string, string>, to: Map<string, string>): FileDiff {
  const added: string[] = [];
  const changed: string[] = [];
  const removed: string[] = [];
  for (const [k, v] of to) {
    const old = from.get(k);
    if (old === undefined) added.push(k);
    else if (old !== v) changed.push(k);
  }
  for (const k of from.keys()) if (!to.has(k)) removed.push(k);
  return { added: added.sort(), changed: changed.sort(), removed: removed.sort() };
}
