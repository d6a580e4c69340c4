import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Diagnostic, Root } from '../contract/index.js';
import type { Registry } from '../agents/registry.js';
import { RULES } from '../skills/rules.js';
import type { ChildRecord } from './child-tasks.js';
import { makeEntry, type EntryFields } from './entries.js';
import { childPath, type Child, type ChildState } from './scan.js';
import { resolutionNs, rowNumbers, rowsChecker, storedRows } from './stat-rows.js';
import { engineBuild } from '../store/lazy-schema.js';

// The persistent catalog index: one file per root in `<home>/cache/catalog/`, holding each child's
// stat rows and what the listing shows of it (an entry's fields, a folder's nested skills). A cold
// process checks the rows with lstat alone and reads again only the children whose rows differ.
// The file is
//   SDIX3 <sha256 of the rest> <bytes of JSON>\n<JSON><newlines to a multiple of 8><float64s>
// the JSON holding the records without their stat numbers, which follow as one array of doubles
// (host byte order, which is part of the key): read as a view on the file's bytes, with no parse
// and nothing for the garbage collector. It is written to a temp file and renamed over the old one (readers never block; two writers at once
// each rename a whole valid file, the last one wins). Anything doubtful (short, bad checksum,
// another engine or rule table, another root, a record of the wrong shape) is ignored and the root
// is scanned from disk.
//
// A record keeps only what cannot be rebuilt from the root and the folder's name (ids, paths and
// counts are rebuilt, a description equal to the frontmatter's is kept once): the file is about a
// third of the entries' JSON, and parsing it is most of what a cold start with an index costs.

const MAGIC = 'SDIX3 ';
/**
 * A change within this much of the scan's start may share a timestamp tick with a read: re-read
 * it. 2 s covers the coarsest common filesystem (FAT); SKILLDOCK_INDEX_RACY_MS narrows it (tests).
 */
export function racyMarginNs(): bigint {
  const ms = process.env.SKILLDOCK_INDEX_RACY_MS;
  const margin = ms && /^\d+$/.test(ms) ? BigInt(ms) * 1_000_000n : 2_000_000_000n;
  const res = resolutionNs();
  return margin > res ? margin : res;
}

/** A link's own facts (absent for a plain folder, whose real path is the root's plus its name). */
type StoredLink = 0 | [realPath: string, linkTarget: string | null];
/** A skill: its name and description when they differ from the defaults, then the other fields. */
type StoredSkill = [
  's',
  name: string | 0,
  description: string | 0,
  frontmatter: EntryFields['frontmatter'],
  digest: string,
  diagnostics: Diagnostic[],
  stateId: EntryFields['stateId'],
  legacyPaths: EntryFields['legacyPaths'],
  size: number,
  fileCount: number,
];
/** A folder that is not a skill: the nested skills found below it (maybe none) and what the probe saw. */
type StoredFolder = ['f', nested: string[], diagnostics: Diagnostic[], probeSig: string];
export type StoredRecord = [dirName: string, link: StoredLink, rows: [string[], number[]], held: StoredSkill | StoredFolder];
/** A record as the JSON part of the file holds it: its stat numbers are in the number section. */
type PackedRecord = [dirName: string, link: StoredLink, rels: string[], held: StoredSkill | StoredFolder];

export interface Body {
  key: string;
  root: string;
  rootReal: string;
  /** Wall clock (ns) when the scan that produced these records started. */
  stampNs: string;
  records: StoredRecord[];
}

/** The engine's identity: its version, the build of the running code and the rule table. */
function engineKey(registry: Registry): string {
  const rules = crypto
    .createHash('sha256')
    .update(JSON.stringify([RULES, registry]))
    .digest('hex')
    .slice(0, 16);
  return `${engineBuild()}|${rules}|${os.endianness()}`;
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
    const file = readIndex(raw);
    if (!file) return null;
    const { head, nums } = file;
    if (head.key !== this.key(registry) || head.root !== root.path || head.rootReal !== rootReal) return null;
    if (typeof head.stampNs !== 'string' || !/^\d+$/.test(head.stampNs) || !Array.isArray(head.records)) return null;
    const stampNs = BigInt(head.stampNs);
    const records = new Map<string, ChildRecord>();
    try {
      let at = 0;
      for (const packed of head.records) {
        const r = decodeRecord(root, rootReal, packed, nums, at, stampNs);
        if (!r) return null;
        records.set(packed[0], r);
        at += r.rows!.rels.length * 6;
      }
      if (at !== nums.length) return null;
    } catch {
      return null; // a record of another shape: the whole file is in doubt
    }
    return { records, stampNs };
  }

  /** Write atomically: temp file in the same folder, then rename. Failure leaves the old file. */
  save(root: Root, rootReal: string, registry: Registry, stampNs: bigint, records: Map<string, ChildRecord>): void {
    const stored: StoredRecord[] = [];
    for (const [name, r] of records) {
      const s = encodeRecord(name, r);
      if (s) stored.push(s);
    }
    const data = encodeIndex({ key: this.key(registry), root: root.path, rootReal, stampNs: String(stampNs), records: stored });
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

/** A record as stored (null for what is never stored: broken links, children without rows). */
function encodeRecord(name: string, r: ChildRecord): StoredRecord | null {
  const s = r.state;
  if (!r.rows || s.kind === 'broken') return null;
  const c = s.child;
  const link: StoredLink = c.linked ? [c.realPath, c.linkTarget ?? null] : 0;
  const rows: [string[], number[]] = [r.rows.rels, rowNumbers(r.rows)];
  if (s.kind === 'skill') {
    const e = r.entry;
    if (!e) return null;
    const fm = e.frontmatter;
    const fmDescription = fm && typeof fm.description === 'string' ? fm.description : undefined;
    const held: StoredSkill = [
      's',
      e.name === name ? 0 : e.name,
      e.description === fmDescription ? 0 : e.description,
      fm,
      e.digest,
      e.diagnostics,
      e.stateId,
      e.legacyPaths,
      e.size,
      e.fileCount,
    ];
    return [name, link, rows, held];
  }
  return [name, link, rows, ['f', s.kind === 'nested' ? s.nested : [], r.diagnostics, r.probeSig ?? '']];
}

/** A record from its stored form (null when its shape is not one `encodeRecord` writes). */
function decodeRecord(
  root: Root,
  rootReal: string,
  packed: PackedRecord,
  nums: Float64Array,
  at: number,
  stampNs: bigint,
): ChildRecord | null {
  const dirName = packed[0];
  const link = packed[1];
  const rows = storedRows(packed[2], nums, at);
  const held = packed[3];
  if (typeof dirName !== 'string' || !rows || !Array.isArray(held)) return null;
  const dir = childPath(root.path, dirName);
  const child: Child = link
    ? { dirName, dir, realPath: link[0], linked: true, ...(link[1] === null ? {} : { linkTarget: link[1] }) }
    : { dirName, dir, realPath: childPath(rootReal, dirName), linked: false };
  if (held[0] === 's') {
    const frontmatter = held[3];
    const diagnostics = held[5];
    const legacyPaths = held[7];
    if (!Array.isArray(diagnostics) || !Array.isArray(legacyPaths)) return null;
    const fmDescription = frontmatter && typeof frontmatter.description === 'string' ? frontmatter.description : '';
    const fields: EntryFields = {
      name: held[1] === 0 ? dirName : held[1],
      description: held[2] === 0 ? fmDescription : held[2],
      frontmatter,
      digest: held[4],
      diagnostics,
      stateId: held[6],
      legacyPaths,
      size: held[8],
      fileCount: held[9],
    };
    return { state: { kind: 'skill', child }, diagnostics: [], entry: makeEntry(root, child, fields), rows, since: stampNs };
  }
  if (held[0] === 'f') {
    const nested = held[1];
    const diagnostics = held[2];
    if (!Array.isArray(nested) || !Array.isArray(diagnostics)) return null;
    const state: ChildState = nested.length ? { kind: 'nested', child, nested } : { kind: 'none', child };
    return { state, diagnostics, probeSig: held[3], rows, since: stampNs };
  }
  return null;
}

interface Head {
  key: string;
  root: string;
  rootReal: string;
  stampNs: string;
  records: PackedRecord[];
}

/** The JSON part and the number section of an index file whose header and checksum hold (null otherwise). */
function readIndex(raw: Buffer): { head: Head; nums: Float64Array } | null {
  const nl = raw.indexOf(10);
  if (nl < MAGIC.length + 66 || nl > MAGIC.length + 80 || raw.toString('latin1', 0, MAGIC.length) !== MAGIC) return null;
  const sum = raw.toString('latin1', MAGIC.length, MAGIC.length + 64);
  const jsonBytes = Number(raw.toString('latin1', MAGIC.length + 65, nl));
  const start = nl + 1;
  const binAt = align8(start + jsonBytes);
  if (!Number.isSafeInteger(jsonBytes) || binAt > raw.length || (raw.length - binAt) % 8 !== 0) return null;
  if (crypto.createHash('sha256').update(raw.subarray(start)).digest('hex') !== sum) return null;
  let head: Head;
  try {
    head = JSON.parse(raw.toString('utf8', start, start + jsonBytes)) as Head;
  } catch {
    return null;
  }
  const count = (raw.length - binAt) / 8;
  const offset = raw.byteOffset + binAt;
  // A view where the bytes are aligned for doubles (a whole-file read normally is), else a copy.
  const nums =
    offset % 8 === 0 ? new Float64Array(raw.buffer, offset, count) : new Float64Array(raw.buffer.slice(offset, offset + count * 8));
  return { head, nums };
}

function align8(n: number): number {
  return (n + 7) & ~7;
}

/** The records of an index file whose header and checksum hold, numbers and all (null otherwise). */
export function parseIndex(raw: Buffer): Body | null {
  const file = readIndex(raw);
  if (!file) return null;
  const { head, nums } = file;
  let at = 0;
  const records = head.records.map(([name, link, rels, held]): StoredRecord => {
    const n = rels.length * 6;
    const rows: [string[], number[]] = [rels, Array.from(nums.subarray(at, at + n))];
    at += n;
    return [name, link, rows, held];
  });
  return { key: head.key, root: head.root, rootReal: head.rootReal, stampNs: head.stampNs, records };
}

/** An index file for `body`, as `save` writes it. */
export function encodeIndex(body: Body): Buffer {
  const count = body.records.reduce((n, r) => n + r[2][1].length, 0);
  const nums = new Float64Array(count);
  let at = 0;
  const records = body.records.map(([name, link, [rels, ns], held]): PackedRecord => {
    nums.set(ns, at);
    at += ns.length;
    return [name, link, rels, held];
  });
  const head: Head = { key: body.key, root: body.root, rootReal: body.rootReal, stampNs: body.stampNs, records };
  const json = Buffer.from(JSON.stringify(head), 'utf8');
  // The header line's length depends on the JSON's: fix it first, then pad from where the JSON ends.
  const prefix = `${MAGIC}${'0'.repeat(64)} ${json.length}\n`;
  const pad = align8(prefix.length + json.length) - (prefix.length + json.length);
  const rest = Buffer.concat([json, Buffer.alloc(pad, 10), Buffer.from(nums.buffer, nums.byteOffset, nums.byteLength)]);
  const sum = crypto.createHash('sha256').update(rest).digest('hex');
  return Buffer.concat([Buffer.from(`${MAGIC}${sum} ${json.length}\n`, 'latin1'), rest]);
}

/** A check that a record taken by a scan started at `stampNs` still describes the disk (stats only). */
export function recordChecker(stampNs: bigint): (record: ChildRecord) => boolean {
  const rowsValid = rowsChecker(stampNs, racyMarginNs());
  return (record) => {
    const s = record.state;
    return record.rows !== undefined && s.kind !== 'broken' && rowsValid(s.child.dir, record.rows);
  };
}
