import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import YAML from 'yaml';
import type { MessageRef } from '../contract/index.js';

// Reading a skill folder for the security work: never follows a symlink, never executes anything,
// reads each file at most once and caps what it reads so a hostile folder cannot exhaust memory.

/** Files bigger than this are hashed but not scanned line by line. */
export const MAX_SCAN_BYTES = 1024 * 1024;
/** A folder with more files than this is cut short (and the scan says so). */
export const MAX_FILES = 5000;

const SKIP_DIRS = new Set(['.git', '.hg', '.svn']);
const SKIP_FILES = new Set(['.DS_Store', 'Thumbs.db', 'desktop.ini']);

export type BinaryKind = 'executable' | 'compiled' | 'archive' | 'asset' | 'unknown';

export interface SkillFile {
  /** Relative, `/`-separated. */
  rel: string;
  abs: string;
  size: number;
  executable: boolean;
  /** Raw link target; a link's target is never read. */
  symlink?: string;
  binary: boolean;
  binaryKind?: BinaryKind;
  /** What the binary is, for messages (`ELF executable`, `zip archive`...), worded in the user's language. */
  binaryLabel?: MessageRef;
  sha256: string;
  /** UTF-8 text, when the file is text and small enough to scan. */
  text?: string;
  shebang?: string;
  tooLarge: boolean;
}

export interface SkillFolder {
  dir: string;
  files: SkillFile[];
  truncated: boolean;
}

// Magic numbers of formats a machine can run directly or through a VM.
// Labels are message keys (`scan.binary-label.*`, src/contract/messages-security.ts).
const MAGIC: Array<{ bytes: number[]; kind: BinaryKind; label: MessageRef; offset?: number }> = [
  { bytes: [0x7f, 0x45, 0x4c, 0x46], kind: 'executable', label: { key: 'scan.binary-label.elf' } },
  { bytes: [0xcf, 0xfa, 0xed, 0xfe], kind: 'executable', label: { key: 'scan.binary-label.mach-o' } },
  { bytes: [0xce, 0xfa, 0xed, 0xfe], kind: 'executable', label: { key: 'scan.binary-label.mach-o' } },
  { bytes: [0xfe, 0xed, 0xfa, 0xcf], kind: 'executable', label: { key: 'scan.binary-label.mach-o' } },
  { bytes: [0xfe, 0xed, 0xfa, 0xce], kind: 'executable', label: { key: 'scan.binary-label.mach-o' } },
  { bytes: [0x4d, 0x5a], kind: 'executable', label: { key: 'scan.binary-label.pe' } },
  { bytes: [0x00, 0x61, 0x73, 0x6d], kind: 'executable', label: { key: 'scan.binary-label.wasm' } },
  { bytes: [0xca, 0xfe, 0xba, 0xbe], kind: 'compiled', label: { key: 'scan.binary-label.java-or-universal' } },
];

// By extension, for binaries without a telling magic number. Assets are what skills ordinarily
// ship (templates, images, fonts); archives hide content from the scan; compiled code runs.
const BINARY_EXT: Record<string, { kind: BinaryKind; label: MessageRef }> = {};
for (const e of [
  'png',
  'jpg',
  'jpeg',
  'gif',
  'webp',
  'bmp',
  'ico',
  'icns',
  'tif',
  'tiff',
  'pdf',
  'ttf',
  'otf',
  'woff',
  'woff2',
  'eot',
  'mp3',
  'wav',
  'ogg',
  'flac',
  'mp4',
  'webm',
  'mov',
  'docx',
  'xlsx',
  'pptx',
  'doc',
  'xls',
  'ppt',
  'odt',
  'ods',
  'odp',
  'dotx',
  'potx',
  'xltx',
  'psd',
  'sketch',
  'fig',
  'parquet',
  'sqlite',
  'db',
  'npy',
  'pkl',
])
  BINARY_EXT[e] = { kind: 'asset', label: { key: 'scan.binary-label.file', params: { ext: e } } };
for (const e of ['zip', 'gz', 'tgz', 'tar', 'bz2', 'xz', '7z', 'rar', 'zst'])
  BINARY_EXT[e] = { kind: 'archive', label: { key: 'scan.binary-label.archive', params: { ext: e } } };
for (const e of ['pyc', 'pyo', 'class', 'jar', 'whl', 'egg', 'so', 'dylib', 'dll', 'exe', 'node', 'wasm', 'o', 'a'])
  BINARY_EXT[e] = { kind: 'compiled', label: { key: 'scan.binary-label.compiled', params: { ext: e } } };
// Pickles run code when loaded, which makes them code rather than data.
BINARY_EXT.pkl = { kind: 'compiled', label: { key: 'scan.binary-label.pickle' } };

function startsWith(buf: Buffer, bytes: number[]): boolean {
  if (buf.length < bytes.length) return false;
  return bytes.every((b, i) => buf[i] === b);
}

function classify(rel: string, head: Buffer): { binary: boolean; kind?: BinaryKind; label?: MessageRef } {
  for (const m of MAGIC) {
    if (startsWith(head, m.bytes)) {
      // `MZ` is also how some text starts ("MZ..."): only trust it on a file that is not text.
      if (m.label.key === 'scan.binary-label.pe' && !head.includes(0)) continue;
      return { binary: true, kind: m.kind, label: m.label };
    }
  }
  const ext = path.extname(rel).slice(1).toLowerCase();
  let isText = !head.includes(0);
  if (isText) {
    try {
      // streaming: a multi-byte character cut at the end of the head is not a reason to call it binary
      new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
    } catch {
      isText = false;
    }
  }
  if (isText) return { binary: false };
  const known = BINARY_EXT[ext];
  if (known) return { binary: true, kind: known.kind, label: known.label };
  return { binary: true, kind: 'unknown', label: { key: 'scan.binary-label.unknown' } };
}

function sha256(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex');
}

function hashLarge(abs: string): { head: Buffer; digest: string } {
  const hash = createHash('sha256');
  const buf = Buffer.alloc(1024 * 1024);
  let head = Buffer.alloc(0);
  const fd = fs.openSync(abs, 'r');
  try {
    for (let n = fs.readSync(fd, buf); n > 0; n = fs.readSync(fd, buf)) {
      if (!head.length) head = Buffer.from(buf.subarray(0, Math.min(n, 8192)));
      hash.update(buf.subarray(0, n));
    }
  } finally {
    fs.closeSync(fd);
  }
  return { head, digest: hash.digest('hex') };
}

function readFile(abs: string, rel: string, st: fs.Stats): SkillFile {
  const executable = process.platform !== 'win32' && (st.mode & 0o111) !== 0;
  const base: Omit<SkillFile, 'binary' | 'sha256' | 'tooLarge'> = { rel, abs, size: st.size, executable };
  let data: Buffer | null = null;
  let head: Buffer;
  let digest: string;
  if (st.size <= MAX_SCAN_BYTES) {
    data = fs.readFileSync(abs);
    head = data.subarray(0, 8192);
    digest = sha256(data);
  } else {
    // big files are hashed in chunks, never held whole in memory
    ({ head, digest } = hashLarge(abs));
  }
  const c = classify(rel, head);
  const file: SkillFile = { ...base, binary: c.binary, sha256: digest, tooLarge: data === null };
  if (c.binary) {
    file.binaryKind = c.kind;
    file.binaryLabel = c.label;
    return file;
  }
  if (data) {
    const text = data.toString('utf8');
    file.text = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  }
  if (head[0] === 0x23 && head[1] === 0x21) file.shebang = head.toString('utf8').split(/\r?\n/)[0].trim();
  return file;
}

/** One file on its own (a lone script given to `skilldock scan`). */
export function readOneFile(abs: string): SkillFile {
  const st = fs.lstatSync(abs);
  if (st.isSymbolicLink()) {
    const target = fs.readlinkSync(abs);
    return {
      rel: path.basename(abs),
      abs,
      size: 0,
      executable: false,
      symlink: target,
      binary: false,
      sha256: sha256(`link:${target}`),
      tooLarge: false,
    };
  }
  return readFile(abs, path.basename(abs), st);
}

export interface ReadOptions {
  /**
   * Called with each folder (the skill's own first) just before it is listed: a caller that wants
   * to hear of later changes starts watching it here, so nothing can change unseen between the
   * listing and the watch (surface-cache.ts).
   */
  beforeList?: (abs: string) => void;
}

/** Every file of a skill folder (links recorded, not followed), sorted by path. */
export function readSkillFolder(dir: string, opts: ReadOptions = {}): SkillFolder {
  const root = path.resolve(dir);
  const files: SkillFile[] = [];
  let truncated = false;
  const walk = (abs: string, rel: string): void => {
    let names: string[];
    opts.beforeList?.(abs);
    try {
      names = fs.readdirSync(abs).sort();
    } catch {
      return;
    }
    for (const name of names) {
      if (files.length >= MAX_FILES) {
        truncated = true;
        return;
      }
      const childAbs = path.join(abs, name);
      const childRel = rel ? `${rel}/${name}` : name;
      let st: fs.Stats;
      try {
        st = fs.lstatSync(childAbs);
      } catch {
        continue;
      }
      if (st.isSymbolicLink()) {
        let target = '';
        try {
          target = fs.readlinkSync(childAbs);
        } catch {
          // unreadable link: keep it with an empty target
        }
        files.push({
          rel: childRel,
          abs: childAbs,
          size: 0,
          executable: false,
          symlink: target,
          binary: false,
          sha256: sha256(`link:${target}`),
          tooLarge: false,
        });
      } else if (st.isDirectory()) {
        if (!SKIP_DIRS.has(name)) walk(childAbs, childRel);
      } else if (st.isFile()) {
        if (SKIP_FILES.has(name)) continue;
        try {
          files.push(readFile(childAbs, childRel, st));
        } catch {
          // vanished or unreadable between readdir and read: not part of what can run
        }
      }
    }
  };
  walk(root, '');
  return { dir: root, files, truncated };
}

export interface SkillDoc {
  /** Parsed YAML frontmatter (only YAML is ever parsed), or null. */
  frontmatter: Record<string, unknown> | null;
  /** Text after the frontmatter. */
  body: string;
  /** 1-based line of SKILL.md where the body starts. */
  bodyLine: number;
  /** 1-based lines of top-level frontmatter keys. */
  keyLines: Record<string, number>;
}

/** Split SKILL.md into frontmatter and body. Non-YAML frontmatter (`---js`) is never evaluated. */
export function parseSkillDoc(text: string): SkillDoc {
  const lines = text.split(/\r?\n/);
  if (lines[0]?.replace(/^\uFEFF/, '').match(/^---[a-z]*\s*$/)) {
    const end = lines.findIndex((l, i) => i > 0 && /^(---|\.\.\.)\s*$/.test(l));
    if (end > 0) {
      const yamlText = lines.slice(1, end).join('\n');
      let frontmatter: Record<string, unknown> | null = null;
      if (/^\uFEFF?---\s*$/.test(lines[0])) {
        try {
          const doc: unknown = YAML.parse(yamlText, { maxAliasCount: 100, prettyErrors: false });
          if (doc && typeof doc === 'object' && !Array.isArray(doc)) frontmatter = doc as Record<string, unknown>;
        } catch {
          // broken YAML: lint reports it; the scan still reads the body
        }
      }
      const keyLines: Record<string, number> = {};
      for (let i = 1; i < end; i++) {
        const m = /^([A-Za-z0-9_-]+)\s*:/.exec(lines[i]);
        if (m && !(m[1] in keyLines)) keyLines[m[1]] = i + 1;
      }
      return { frontmatter, body: lines.slice(end + 1).join('\n'), bodyLine: end + 2, keyLines };
    }
  }
  return { frontmatter: null, body: text, bodyLine: 1, keyLines: {} };
}

/** The SKILL.md of a folder as read by `readSkillFolder` (exact case only, like every agent). */
export function findSkillFile(folder: SkillFolder): SkillFile | undefined {
  return folder.files.find((f) => f.rel === 'SKILL.md' && !f.symlink) ?? folder.files.find((f) => f.rel === 'SKILL.md');
}

export function skillName(folder: SkillFolder, doc: SkillDoc | null): string {
  const n = doc?.frontmatter?.name;
  return typeof n === 'string' && n.trim() ? n.trim() : path.basename(folder.dir);
}

export { sha256 };
