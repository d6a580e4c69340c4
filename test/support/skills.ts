import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// Real files and real symlinks in a temp dir for the skills tests (never the real home).

export const RESOURCES = path.resolve(__dirname, '../../resources');

export type FixtureFile = string | Buffer | { link: string } | { mode: number; content: string };

export function tempRoot(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'sd-'));
}

export function removeRoot(root: string): void {
  fs.rmSync(root, { recursive: true, force: true });
}

/** Create `<root>/<dirName>` with the given files (paths relative, posix). */
export function makeSkill(root: string, dirName: string, files: Record<string, FixtureFile>): string {
  const dir = path.join(root, dirName);
  fs.mkdirSync(dir, { recursive: true });
  for (const [rel, f] of Object.entries(files)) {
    const full = path.join(dir, rel);
    fs.mkdirSync(path.dirname(full), { recursive: true });
    if (typeof f === 'string' || Buffer.isBuffer(f)) fs.writeFileSync(full, f);
    else if ('link' in f) fs.symlinkSync(f.link, full);
    else fs.writeFileSync(full, f.content, { mode: f.mode });
  }
  return dir;
}

/** A clean SKILL.md for a skill named `name`, with extra frontmatter lines and a body. */
export function skillText(opts: { name?: string; fm?: string; body?: string; description?: string } = {}): string {
  const name = opts.name ?? 'demo';
  const description = opts.description ?? 'Shows how the demo works. Use when the user asks for a demo.';
  return `---\nname: ${name}\ndescription: ${description}\n${opts.fm ?? ''}---\n${opts.body ?? '# Demo\n\nDo the demo step by step.\n'}`;
}
