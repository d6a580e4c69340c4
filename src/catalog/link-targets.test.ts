import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LinkTargets, MAX_PARENT_WATCHES } from './link-targets.js';
import { sleep, waitFor } from '../../test/support/wait.js';

// The links of a root and their targets (issue 23 item 5): a target elsewhere that goes and comes
// back, or is edited, names its link; what is watched stays bounded and is let go. Real links, the
// OS file watcher.

let dir: string;
let root: string;
let links: LinkTargets;
let marked: string[];

beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sd-links-')));
  root = path.join(dir, 'root');
  fs.mkdirSync(root);
  marked = [];
  links = new LinkTargets(
    (l) => marked.push(path.basename(l)),
    (p) => p.startsWith(root + path.sep),
  );
});
afterEach(() => {
  links.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function skillElsewhere(parent: string, name: string): string {
  const target = path.join(dir, parent, name);
  fs.mkdirSync(target, { recursive: true });
  fs.writeFileSync(path.join(target, 'SKILL.md'), `---\nname: ${name}\ndescription: x\n---\n`);
  fs.symlinkSync(target, path.join(root, name));
  return target;
}

describe('LinkTargets', () => {
  it('names the link when its target elsewhere goes, comes back, and is edited after', async () => {
    const target = skillElsewhere('far', 'one');
    links.noteRoot(root);
    fs.renameSync(target, `${target}.x`);
    await waitFor(() => marked.includes('one'), { what: 'the link marked (gone)' });
    marked = [];
    fs.renameSync(`${target}.x`, target);
    await waitFor(() => marked.includes('one'), { what: 'the link marked (back)' });
    marked = [];
    fs.writeFileSync(path.join(target, 'SKILL.md'), '---\nname: one\ndescription: y\n---\n');
    await waitFor(() => marked.includes('one'), { what: 'the link marked (edited)' });
  });

  it('knows the links into a watched root by their target, and watches nothing for them', () => {
    const inside = path.join(root, 'real');
    fs.mkdirSync(inside);
    fs.symlinkSync(inside, path.join(root, 'alias'));
    links.noteRoot(root);
    expect(links.linksAt(inside)).toEqual([path.join(root, 'alias')]);
    expect(links.counts()).toEqual({ links: 1, parents: 0, targets: 0 });
  });

  it('watches at most MAX_PARENT_WATCHES folders of each kind, and lets go of a link that is no more', async () => {
    for (let i = 0; i < MAX_PARENT_WATCHES + 6; i++) skillElsewhere(`p${i}`, `s${i}`);
    links.noteRoot(root);
    const c = links.counts();
    expect(c.links).toBe(MAX_PARENT_WATCHES + 6);
    expect(c.parents).toBe(MAX_PARENT_WATCHES);
    expect(c.targets).toBe(MAX_PARENT_WATCHES);
    fs.unlinkSync(path.join(root, 's0'));
    links.note(path.join(root, 's0'));
    expect(links.counts()).toMatchObject({ links: MAX_PARENT_WATCHES + 5, parents: MAX_PARENT_WATCHES - 1 });
    // A link that is gone says nothing when its old target changes.
    marked = [];
    fs.writeFileSync(path.join(dir, 'p0', 's0', 'SKILL.md'), 'changed');
    await sleep(300);
    expect(marked).not.toContain('s0');
  });
});
