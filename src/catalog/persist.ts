import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Root } from '../contract/index.js';
import type { Registry } from '../agents/registry.js';
import { RULES } from '../skills/rules.js';
import type { ChildRecord } from './child-tasks.js';
import { resolutionNs, rowsValid } from './stat-rows.js';
import { engineBuild } from '../store/lazy-schema.js';

// The persistent catalog index: one file per root in `<home>/cache/catalog/`, holding each child's
// record (entry with frontmatter, digest and diagnostics) and its stat rows. A cold process checks
// the rows with lstat alone and reads again only the children whose rows differ. The file is
//   SDIX1 <sha256 of the body>\n<body JSON>
// written to a temp file and renamed over the old one (readers never block; two writers at once
// each rename a whole valid file, the last one wins). Anything doubtful (short, bad checksum,
// another engine or rule table, another root) is ignored and the root is scanned from disk.

const MAGIC = 'SDIX1 ';
/**
 * A change within this much of the scan's start may share a timestamp tick with a read: re-read
 * it. 2 s covers the coarsest common filesystem (FAT); SKILLDOCK_INDEX_RACY_MS narrows it (tests).
 */
function racyMarginNs(): bigint {
  const ms = process.env.SKILLDOCK_INDEX_RACY_MS;
  const margin = ms && /^\d+$/.test(ms) ? BigInt(ms) * 1_000_000n : 2_000_000_000n;
  const res = resolutionNs();
  return margin > res ? margin : res;
}

export interface Body {
  key: string;
  root: string;
  rootReal: string;
  /** Wall clock (ns) when the scan that produced these records started. */
  stampNs: string;
  records: Array<[name: string, record: ChildRecord]>;
}

/** The engine's identity: its version, the build of the running code and the rule table. */
function engineKey(registry: Registry): string {
  const rules = crypto
    .createHash('sha256')
    .update(JSON.stringify([RULES, registry]))
    .digest('hex')
    .slice(0, 16);
  return `${engineBuild()}|${rules}`;
}

export function nowNs(): bigint {
  return process.hrtime.bigint() - hrStart + wallStart;
}
const hrStart = process.hrtime.bigint();
const wallStart = BigInt(Date.now()) * 1_000_000n;

export interface Loaded {
  records: Map<string, ChildRecord>;
  stampNs: bigint;
}

export class CatalogIndex {
  private keyCache = new WeakMap<Registry, string>();

  constructor(readonly dir: string) {}

  private key(registry: Registry): string {
    let k = this.keyCache.get(registry);
    if (!k) this.keyCache.set(registry, (k = engineKey(registry)));
    return k;
  }

  fileFor(root: Root): string {
    const h = crypto.createHash('sha256').update(`${root.id}\0${root.kind}\0${root.path}`).digest('hex').slice(0, 24);
    return path.join(this.dir, `${h}.idx`);
  }

  /** The records of a valid index for this root (null when absent or in doubt). */
  load(root: Root, rootReal: string, registry: Registry): Loaded | null {
    let raw: Buffer;
    try {
      raw = fs.readFileSync(this.fileFor(root));
    } catch {
      return null;
    }
    const parsed = parseIndex(raw);
    if (!parsed) return null;
    if (parsed.key !== this.key(registry) || parsed.root !== root.path || parsed.rootReal !== rootReal) return null;
    if (!/^\d+$/.test(parsed.stampNs) || !Array.isArray(parsed.records)) return null;
    return { records: new Map(parsed.records), stampNs: BigInt(parsed.stampNs) };
  }

  /** Write atomically: temp file in the same folder, then rename. Failure leaves the old file. */
  save(root: Root, rootReal: string, registry: Registry, stampNs: bigint, records: Map<string, ChildRecord>): void {
    const body: Body = {
      key: this.key(registry),
      root: root.path,
      rootReal,
      stampNs: String(stampNs),
      records: [...records].filter(([, r]) => r.rows && r.state.kind !== 'broken'),
    };
    const data = encodeIndex(body);
    const file = this.fileFor(root);
    const tmp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
    try {
      fs.mkdirSync(this.dir, { recursive: true });
      const fd = fs.openSync(tmp, 'wx', 0o600);
      try {
        for (let off = 0; off < data.length;) off += fs.writeSync(fd, data, off);
        fs.fsyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
      fs.renameSync(tmp, file);
    } catch {
      fs.rmSync(tmp, { force: true }); // a cache: a failed write only costs the next start a scan
    }
  }
}

/** The body of an index file whose header and checksum hold (null otherwise). */
export function parseIndex(raw: Buffer): Body | null {
  const nl = raw.indexOf(10);
  if (nl !== MAGIC.length + 64 || raw.toString('latin1', 0, MAGIC.length) !== MAGIC) return null;
  const sum = raw.toString('latin1', MAGIC.length, nl);
  const body = raw.subarray(nl + 1);
  if (crypto.createHash('sha256').update(body).digest('hex') !== sum) return null;
  try {
    return JSON.parse(body.toString('utf8')) as Body;
  } catch {
    return null;
  }
}

/** An index file for `body` (header + checksum), as `save` writes it. */
export function encodeIndex(body: Body): Buffer {
  const data = Buffer.from(JSON.stringify(body), 'utf8');
  return Buffer.concat([Buffer.from(`${MAGIC}${crypto.createHash('sha256').update(data).digest('hex')}\n`, 'latin1'), data]);
}

/** A loaded record still describes the disk (stats only, no content read). */
export function recordValid(record: ChildRecord, loaded: Loaded): boolean {
  if (!record.rows || record.state.kind === 'broken') return false;
  return rowsValid(record.state.child.dir, record.rows, loaded.stampNs, racyMarginNs());
}
