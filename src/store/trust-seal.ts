import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from './index.js';

// The files that decide trust (approvals.json: which skills' scripts may run; settings.json: the
// script policy and custom agents' commands) can be changed by anything that runs as the user,
// a launched agent's shell included, in forms no hook can read (`sed -i`, `cd ~/.skilldock && ...`,
// `$(echo ~)`). Where the agent has a sandbox, the launch keeps SkillDock's home out of its reach
// (agent-sandbox.ts). Elsewhere this seal tells a change SkillDock did not make: each time
// SkillDock writes one of these files it records the digest of the bytes it wrote; a file whose
// bytes differ is trusted in nothing until the user confirms it (app or CLI).
//
// What it is not: the record sits in SkillDock's home, which an agent without a sandbox can write
// too. It catches an edit that does not also rewrite the record (every form of issue 32's break 3),
// not an attacker who knows this file; the Agents page says which agents are held by their sandbox
// and which only by this check.

export const SEALED_FILES = ['approvals.json', 'settings.json'] as const;
export type SealedFile = (typeof SEALED_FILES)[number];

/**
 * `sealed`: as SkillDock last wrote it (or absent, as SkillDock left it); `changed`: its bytes are
 * not what SkillDock wrote (edited, replaced, removed, or there with no record of SkillDock writing it).
 */
export type SealStatus = 'sealed' | 'changed';

interface SealRecord {
  /** sha256 of the bytes SkillDock wrote; null: SkillDock left no such file. */
  sha256: string | null;
  at: string;
}

const SEAL_FILE = path.join('security', 'trust-seal.json');

function digestOf(file: string): string | null {
  try {
    return createHash('sha256').update(fs.readFileSync(file)).digest('hex');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

export class TrustSeal {
  /** Where the record is kept. */
  readonly file: string;
  constructor(private readonly home: string) {
    this.file = path.join(home, SEAL_FILE);
  }

  private records(): Partial<Record<SealedFile, SealRecord>> {
    try {
      const v = JSON.parse(fs.readFileSync(this.file, 'utf8')) as unknown;
      return v && typeof v === 'object' && !Array.isArray(v) ? (v as Partial<Record<SealedFile, SealRecord>>) : {};
    } catch {
      return {}; // missing or unreadable: nothing SkillDock wrote is on record
    }
  }

  /** Record the bytes of `name` as SkillDock's own (after SkillDock wrote it, or the user confirmed it). */
  seal(name: SealedFile): void {
    const records = this.records();
    records[name] = { sha256: digestOf(path.join(this.home, name)), at: new Date().toISOString() };
    writeFileAtomic(this.file, `${JSON.stringify(records, null, 2)}\n`);
  }

  status(name: SealedFile): SealStatus {
    const now = digestOf(path.join(this.home, name));
    const record = this.records()[name];
    // No record: a home no SkillDock sealed yet holds no such file; one that is there came from elsewhere.
    if (!record) return now === null ? 'sealed' : 'changed';
    return record.sha256 === now ? 'sealed' : 'changed';
  }
}
