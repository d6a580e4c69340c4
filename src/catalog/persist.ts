import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CatalogEntry, Diagnostic, Root } from '../contract/index.js';
import type { Registry } from '../agents/registry.js';
import { RULES } from '../skills/rules.js';
import type { ChildRecord } from './child-tasks.js';
import type { Child, ChildState } from './scan.js';
import { childPath } from '../skills/walk.js';
import { resolutionNs, rowsChecker, storedRows, type StatRows } from './stat-rows.js';
import { engineBuild } from '../store/lazy-schema.js';
import { ChunkWriter } from '../chunk-writer.js';
import { MAGIC, readIndexBytes, readIndexFile, type ByteSpan, type IndexFile, type TextSection } from './index-file.js';

// The persistent catalog index: one file per root in `<home>/cache/catalog/`, holding each child's
// stat rows and what the listing shows of it (a skill's entry, a folder's nested skills). A cold
// process checks the rows with lstat alone and reads again only the children whose rows differ.
// The file is
//   SDIX5 <sha256 of the rest> <bytes of JSON> <bytes of text>\n<JSON><text><newlines to a multiple of 8><float64s>
// the JSON holding the records without their entries and stat numbers. The text is each skill's
// entry exactly as `JSON.stringify` writes it, in record order, one comma between two: a listing
// that prints JSON copies spans of it from the file (runs of neighbours as one span), and an entry
// is parsed only when something asks for the object. The stat numbers follow as one array of
// doubles (host byte order, which is part of the key), copied into one Float64Array: no parse and
// nothing for the garbage collector. How the file is read: index-file.ts. It is written to a temp
// file and renamed over the old one (readers never block; two writers at once each rename a whole
// valid file, the last one wins). Anything doubtful (short, bad checksum, another engine or rule
// table, another root, a record of the wrong shape) is ignored and the root is scanned from disk.

const COMMA = Buffer.from(',');
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
/** A skill: its name when it differs from the folder's, and its entry's JSON text. */
type StoredSkill = ['s', name: string | 0, text: string | Uint8Array];
/** A folder that is not a skill: the nested skills found below it (maybe none) and what the probe saw. */
type StoredFolder = ['f', nested: string[], diagnostics: Diagnostic[], probeSig: string];
/** Rows: their paths, and six numbers each from `at` (0 when absent) in `nums` (a record's own, or a scan's shared array). */
type StoredRows = [rels: string[], nums: ArrayLike<number>, at?: number];
export type StoredRecord = [dirName: string, link: StoredLink, rows: StoredRows, held: StoredSkill | StoredFolder];
/**
 * What a record holds, as the JSON part of the file has it: a skill named as its folder is the
 * byte count of its text (the text and the stat numbers are in their own sections).
 */
type PackedHeld = number | ['s', name: string, bytes: number] | StoredFolder;

export interface Body {
  key: string;
  root: string;
  rootReal: string;
  /** The root's id and kind: both are written into every entry's text. */
  rootId: string;
  rootKind: string;
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

/**
 * A skill's record from the index: its entry's text is a slice of the file read, parsed into the
 * entry object only when something asks for it (a JSON listing never does).
 */
export class IndexedSkill implements ChildRecord, StatRows {
  readonly diagnostics = NO_DIAGNOSTICS;
  private parsed: CatalogEntry | undefined;
  private made: ChildState | undefined;

  constructor(
    private readonly place: Place,
    readonly dirName: string,
    private readonly link: StoredLink,
    /** Its stat rows: these paths, their numbers from `at` in the file's number section. */
    readonly rels: string[],
    readonly at: number,
    /** The entry's name (known without parsing the text: precedence groups by it). */
    readonly name: string,
    /** The entry's text is `[from, to)` of the file's text section, a comma follows unless it is the last. */
    readonly from: number,
    readonly to: number,
  ) {}

  // One object per skill until more is asked for: a cold listing of 10,000 skills keeps them all,
  // and every object made at start is one more for the garbage collector to copy.
  get nums(): Float64Array {
    return this.place.nums;
  }

  get rows(): StatRows {
    return this;
  }

  get since(): bigint {
    return this.place.since;
  }

  get text(): TextSection {
    return this.place.text;
  }

  /** The folder as found in the root (what the rows are relative to). */
  get dir(): string {
    return childPath(this.place.root, this.dirName);
  }

  get state(): ChildState {
    return (this.made ??= { kind: 'skill', child: childOf(this.place, this.dirName, this.link) });
  }

  get entry(): CatalogEntry {
    return (this.parsed ??= JSON.parse(this.json.toString('utf8')) as CatalogEntry);
  }

  get json(): Buffer {
    return this.text.slice(this.from, this.to);
  }
}

export class CatalogIndex {
  private keyCache = new WeakMap<Registry, string>();
  /** The text sections of the files loaded, by file: let go before a save replaces one. */
  private texts = new Map<string, TextSection>();

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
    const path = this.fileFor(root);
    const file = readIndexFile(path);
    if (!file) return null;
    const loaded = this.decode(root, rootReal, registry, file);
    if (!loaded) file.text.release();
    else this.texts.set(path, file.text);
    return loaded;
  }

  private decode(root: Root, rootReal: string, registry: Registry, file: IndexFile): Loaded | null {
    const { nums, text } = file;
    const head = validHead(file.head);
    if (!head || head.key !== this.key(registry) || head.root !== root.path || head.rootReal !== rootReal) return null;
    if (head.rootId !== root.id || head.rootKind !== root.kind) return null;
    const stampNs = BigInt(head.stampNs);
    const records = new Map<string, ChildRecord>();
    const place: Place = { root: root.path, rootReal, text, nums, since: stampNs };
    const cursor: Cursor = { place, textAt: 0, at: 0 };
    try {
      const { names, links } = head;
      for (let i = 0, l = 0; i < names.length; i++) {
        const link: StoredLink = l < links.length && links[l][0] === i ? [links[l][1], links[l++][2]] : 0;
        const r = decodeRecord(names[i], link, head.relSets[head.rels[i]], head.held[i], cursor);
        if (!r) return null;
        records.set(names[i], r);
      }
      // Every number and every byte of text belongs to a record (the last text has no comma after it).
      if (cursor.at !== nums.length || cursor.textAt !== (text.length ? text.length + 1 : 0)) return null;
    } catch {
      return null; // a record of another shape: the whole file is in doubt
    }
    return { records, stampNs };
  }

  /** Write whole or not at all: temp file in the same folder, then rename. Failure leaves the old file. */
  save(root: Root, rootReal: string, registry: Registry, stampNs: bigint, records: Map<string, ChildRecord>): void {
    const stored: StoredRecord[] = [];
    for (const [name, r] of records) {
      const s = encodeRecord(name, r);
      if (s) stored.push(s);
    }
    const body: Body = {
      key: this.key(registry),
      root: root.path,
      rootReal,
      rootId: root.id,
      rootKind: root.kind,
      stampNs: String(stampNs),
      records: stored,
    };
    const file = this.fileFor(root);
    // Records loaded from the file being replaced keep their text in memory, and the file is
    // closed before the rename (some systems refuse to replace an open file).
    this.texts.get(file)?.detach();
    this.texts.delete(file);
    const tmp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
    try {
      fs.mkdirSync(this.dir, { recursive: true });
      const fd = fs.openSync(tmp, 'wx', 0o600);
      try {
        let pos = 0;
        const header = streamIndex(body, (chunk) => {
          for (let off = 0; off < chunk.length;) off += fs.writeSync(fd, chunk, off, chunk.length - off, pos + off);
          pos += chunk.length;
        });
        fs.writeSync(fd, header, 0, 'latin1'); // the same length as the placeholder it replaces
        // No fsync: after a crash the file may be short or zeroed, which its checksum (written last,
        // in the header) tells, and the next start rescans. Syncing 15 MB cost every save 10-20 ms
        // here, much more on a slow disk, for a cache that loses nothing when it is lost.
      } finally {
        fs.closeSync(fd);
      }
      fs.renameSync(tmp, file);
    } catch {
      fs.rmSync(tmp, { force: true }); // a cache: a failed write only costs the next start a scan
    }
  }
}

/**
 * A skill record's entry as JSON text, exactly `JSON.stringify(entry)`: the index's slice, or made
 * once and kept on the record (a listing printed as JSON after the save copies it again).
 */
function entryText(r: ChildRecord): string | Uint8Array | undefined {
  if (r.json === undefined && r.entry) r.json = JSON.stringify(r.entry);
  return r.json;
}

/** A skill record's entry name, without parsing an entry kept as text. */
export function entryName(r: ChildRecord): string | undefined {
  return r instanceof IndexedSkill ? r.name : r.entry?.name;
}

/**
 * Entries' JSON texts, joined by commas, as pieces to write one after the other: records from the
 * index that are neighbours in its file too go as one slice of it (a listing of an unchanged root
 * is then one piece, whatever its size), others as their text.
 */
export class JsonTexts {
  private readonly parts: Array<string | Uint8Array | ByteSpan> = [];
  private run: { text: TextSection; from: number; to: number } | null = null;
  private count = 0;

  /** A skill record, or an entry's text made by the caller. */
  add(item: ChildRecord | string): void {
    const run = this.run;
    if (item instanceof IndexedSkill && run && run.text === item.text && run.to + 1 === item.from) {
      run.to = item.to; // the comma between the two is in the file
      this.count++;
      return;
    }
    this.flush();
    if (this.count++) this.parts.push(',');
    if (item instanceof IndexedSkill) this.run = { text: item.text, from: item.from, to: item.to };
    else this.parts.push(typeof item === 'string' ? item : entryText(item)!);
  }

  pieces(): Array<string | Uint8Array | ByteSpan> {
    this.flush();
    return this.parts;
  }

  private flush(): void {
    if (this.run) this.parts.push(this.run.text.span(this.run.from, this.run.to));
    this.run = null;
  }
}

/** Whether `save` keeps a record (broken links and children without rows are never stored). */
export function storable(r: ChildRecord): boolean {
  return r instanceof IndexedSkill || (r.rows !== undefined && r.state.kind !== 'broken');
}

/** A record as stored (null for what is never stored). */
function encodeRecord(name: string, r: ChildRecord): StoredRecord | null {
  const s = r.state;
  if (!r.rows || s.kind === 'broken') return null;
  const c = s.child;
  const link: StoredLink = c.linked ? [c.realPath, c.linkTarget ?? null] : 0;
  // The numbers where they are (no copy: 30,000 rows at a first scan of 10,000 skills).
  const rows: StoredRows = [r.rows.rels, r.rows.nums, r.rows.at];
  if (s.kind === 'skill') {
    const text = entryText(r);
    if (text === undefined) return null;
    const skillName = entryName(r);
    if (skillName === undefined) return null;
    return [name, link, rows, ['s', skillName === name ? 0 : skillName, text]];
  }
  return [name, link, rows, ['f', s.kind === 'nested' ? s.nested : [], r.diagnostics, r.probeSig ?? '']];
}

/** Where `decodeRecord` is in the file: the next entry text and the next stat number. */
interface Cursor {
  place: Place;
  textAt: number;
  at: number;
}

/** What every record of one loaded file shares. */
interface Place {
  root: string;
  rootReal: string;
  text: TextSection;
  nums: Float64Array;
  /** When the scan that took the file's rows started. */
  since: bigint;
}

/** The findings of a record that has none (shared, so frozen: a push would be a bug). */
const NO_DIAGNOSTICS: Diagnostic[] = Object.freeze([]) as unknown as Diagnostic[];

/** A record from its stored form (null when its shape is not one `encodeRecord` writes). */
function decodeRecord(dirName: string, link: StoredLink, rels: string[] | undefined, held: PackedHeld, cur: Cursor): ChildRecord | null {
  const at = cur.at;
  if (typeof dirName !== 'string' || !storedRows(rels, cur.place.nums, at)) return null;
  cur.at += rels!.length * 6;
  if (typeof held === 'number' || held[0] === 's') {
    const bytes = typeof held === 'number' ? held : held[2];
    const from = cur.textAt;
    const to = from + bytes;
    if (!Number.isSafeInteger(bytes) || bytes < 2 || to > cur.place.text.length) return null;
    cur.textAt = to + 1; // and the comma
    const name = typeof held === 'number' ? dirName : held[1];
    if (typeof name !== 'string') return null;
    return new IndexedSkill(cur.place, dirName, link, rels!, at, name, from, to);
  }
  if (Array.isArray(held) && held[0] === 'f') {
    const nested = held[1];
    const diagnostics = held[2];
    if (!Array.isArray(nested) || !Array.isArray(diagnostics)) return null;
    const child = childOf(cur.place, dirName, link);
    const state: ChildState = nested.length ? { kind: 'nested', child, nested } : { kind: 'none', child };
    return { state, diagnostics, probeSig: held[3], rows: storedRows(rels, cur.place.nums, at)!, since: cur.place.since };
  }
  return null;
}

/** A child of the root from its stored facts. */
function childOf(place: Place, dirName: string, link: StoredLink): Child {
  const dir = childPath(place.root, dirName);
  return link
    ? { dirName, dir, realPath: link[0], linked: true, ...(link[1] === null ? {} : { linkTarget: link[1] }) }
    : { dirName, dir, realPath: childPath(place.rootReal, dirName), linked: false };
}

/**
 * The JSON part of the file: per record, in order, its folder's name, its rows' paths (an index in
 * `relSets`: most skills have the same few files) and what it holds; the linked ones apart. A few
 * arrays of names and small numbers parse with almost nothing for the garbage collector to copy.
 */
interface Head {
  key: string;
  root: string;
  rootReal: string;
  rootId: string;
  rootKind: string;
  stampNs: string;
  names: string[];
  rels: number[];
  held: PackedHeld[];
  relSets: string[][];
  /** The records that are links: [record index, real path, link target], by index. */
  links: Array<[number, string, string | null]>;
}

/** The head when its parts have the shapes `encodeIndex` writes (null otherwise). */
function validHead(h: unknown): Head | null {
  const head = h as Partial<Head> | null;
  if (!head || typeof head.stampNs !== 'string' || !/^\d+$/.test(head.stampNs)) return null;
  const { names, rels, held, relSets, links } = head;
  if (!Array.isArray(names) || !Array.isArray(rels) || !Array.isArray(held) || !Array.isArray(relSets) || !Array.isArray(links))
    return null;
  if (rels.length !== names.length || held.length !== names.length) return null;
  if (!relSets.every((r) => Array.isArray(r) && r.every((x) => typeof x === 'string'))) return null;
  if (!links.every((l, i) => Array.isArray(l) && Number.isInteger(l[0]) && (i === 0 || l[0] > links[i - 1][0]))) return null;
  return head as Head;
}

function align8(n: number): number {
  return (n + 7) & ~7;
}

/** The records of an index file whose header and checksum hold, texts and numbers and all (null otherwise). */
export function parseIndex(raw: Buffer): Body | null {
  const file: IndexFile | null = readIndexBytes(raw);
  const head = file && validHead(file.head);
  if (!file || !head) return null;
  let at = 0;
  let text = 0;
  const links = new Map(head.links.map(([i, real, target]) => [i, [real, target] as StoredLink]));
  const records = head.names.map((name, i): StoredRecord => {
    const rels = head.relSets[head.rels[i]];
    const n = rels.length * 6;
    const rows: [string[], number[]] = [rels, Array.from(file.nums.subarray(at, at + n))];
    at += n;
    const held = head.held[i];
    const link = links.get(i) ?? 0;
    if (Array.isArray(held) && held[0] === 'f') return [name, link, rows, held];
    const [skillName, bytes] = typeof held === 'number' ? [0 as const, held] : [held[1], held[2]];
    const t = file.text.slice(text, text + bytes).toString('utf8');
    text += bytes + 1;
    return [name, link, rows, ['s', skillName, t]];
  });
  const { key, root, rootReal, rootId, rootKind, stampNs } = head;
  return { key, root, rootReal, rootId, rootKind, stampNs, records };
}

/** An index file for `body`, as `save` writes it. */
export function encodeIndex(body: Body): Buffer {
  const parts: Buffer[] = [];
  const header = streamIndex(body, (chunk) => parts.push(Buffer.from(chunk)));
  const out = Buffer.concat(parts);
  out.write(header, 0, 'latin1');
  return out;
}

/**
 * The file for `body`, handed to `sink` in order and in chunks (each valid only during the call):
 * first its header line with a checksum of zeros, then the rest, streamed through one reused
 * buffer (no whole-file Buffer: its fresh pages cost more than encoding into it). Returns the real
 * header line, of the same length, for the caller to put in place of the first.
 */
function streamIndex(body: Body, sink: (chunk: Uint8Array) => void): string {
  const texts: Array<string | Uint8Array> = [];
  let textBytes = 0;
  const { key, root, rootReal, rootId, rootKind, stampNs } = body;
  const head: Head = { key, root, rootReal, rootId, rootKind, stampNs, names: [], rels: [], held: [], relSets: [], links: [] };
  const setOf = new Map<string, number>();
  body.records.forEach(([name, link, [rels], held], i) => {
    head.names.push(name);
    const k = rels.join('\0');
    let set = setOf.get(k);
    if (set === undefined) setOf.set(k, (set = head.relSets.push(rels) - 1));
    head.rels.push(set);
    if (link) head.links.push([i, link[0], link[1]]);
    if (held[0] === 'f') return void head.held.push(held);
    const t = held[2];
    const bytes = typeof t === 'string' ? Buffer.byteLength(t) : t.length;
    textBytes += (texts.length ? 1 : 0) + bytes;
    texts.push(t);
    head.held.push(held[1] === 0 ? bytes : ['s', held[1], bytes]);
  });
  const json = JSON.stringify(head);
  const jsonBytes = Buffer.byteLength(json);
  const headerLine = (sum: string) => `${MAGIC}${sum} ${jsonBytes} ${textBytes}\n`;
  const first = headerLine('0'.repeat(64));
  sink(Buffer.from(first, 'latin1'));
  const hash = crypto.createHash('sha256');
  const out = new ChunkWriter((chunk) => {
    hash.update(chunk);
    sink(chunk);
  });
  out.text(json);
  texts.forEach((t, i) => {
    if (i) out.bytes(COMMA);
    if (typeof t === 'string') out.text(t);
    else out.bytes(t);
  });
  // The numbers start 8-aligned in the file, in host byte order (a reader views them in place).
  const end = first.length + jsonBytes + textBytes;
  out.bytes(Buffer.alloc(align8(end) - end, 10));
  const staging = new Float64Array(1 << 12);
  let n = 0;
  const flushNumbers = () => {
    out.bytes(new Uint8Array(staging.buffer, 0, n * 8));
    n = 0;
  };
  for (const r of body.records) {
    const [rels, nums, at = 0] = r[2];
    for (let k = at, end = at + rels.length * 6; k < end; k++) {
      staging[n++] = nums[k]!;
      if (n === staging.length) flushNumbers();
    }
  }
  flushNumbers();
  out.flush();
  return headerLine(hash.digest('hex'));
}

/** A check that a record taken by a scan started at `stampNs` still describes the disk (stats only). */
export function recordChecker(stampNs: bigint): (record: ChildRecord) => boolean {
  const rowsValid = rowsChecker(stampNs, racyMarginNs());
  return (record) => {
    // A skill from the index is checked without building its state and rows objects.
    if (record instanceof IndexedSkill) return rowsValid(record.dir, record);
    const s = record.state;
    return record.rows !== undefined && s.kind !== 'broken' && rowsValid(s.child.dir, record.rows);
  };
}
