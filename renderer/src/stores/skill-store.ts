import { create } from 'zustand';
import type {
  Activation,
  ApprovalDiff,
  Inventory,
  ScanSkillReport,
  SkillFileContent,
  SkillOrigins,
  SkillTrust,
} from '../../../src/contract/index';
import { client } from '../client-port';
import { errorText } from './errors';

/**
 * What the skill drawer shows of one skill beyond its catalog entry: the activated body and file
 * list, the security facts (inventory, scan, trust, the diff since approval), where a library skill
 * came from, and the file open in the Files tab. Each view is read for a key the caller builds from
 * what should make it read again (the entry's id and digest, the catalog's trust revision, the
 * path); an answer for a key no longer current is dropped, so a slow read never overwrites a newer one.
 */
export interface Keyed<T> {
  key: string;
  data: T | null;
  /** The read's failure, worded for the user. */
  error: string | null;
}

export interface SecurityFacts {
  inventory: Inventory | null;
  scan: ScanSkillReport | null;
  trust: SkillTrust | null;
  diff: ApprovalDiff | null;
  /** Each part that failed, worded; the other parts still show. */
  errors: string[];
}

/** A skill by its folder (names can be shadowed) or, when no catalog entry is known, by name. */
export type SkillRef = { dir: string } | { name: string };

type View = 'activation' | 'security' | 'origin' | 'file';

interface SkillState {
  activation: Keyed<Activation> | null;
  security: Keyed<SecurityFacts> | null;
  /** An approve or revoke is running. */
  securityBusy: boolean;
  origin: Keyed<SkillOrigins> | null;
  file: Keyed<SkillFileContent> | null;
  /** The body and files the agent would load for the skill named `name` (the effective one). */
  loadActivation(key: string, name: string): Promise<void>;
  /** By folder: names can be shadowed. */
  loadSecurity(key: string, dir: string): Promise<void>;
  approve(dir: string): Promise<void>;
  revoke(name: string): Promise<void>;
  /** Approve a skill's scripts outside the drawer (the picker's approve-and-attach): by folder when known, else by name. */
  approveRef(ref: SkillRef): Promise<void>;
  /** Whether a skill is approved now (the picker's warning goes once it is). */
  trustOf(ref: SkillRef): Promise<SkillTrust>;
  /** Where a library skill (its folder name) came from. */
  loadOrigin(key: string, name: string): Promise<void>;
  /** One file of a catalog entry, at most `maxBytes` of it (the engine confines the path to the skill). */
  readFile(key: string, entryId: string, path: string, maxBytes: number): Promise<void>;
}

/** Read the security facts of the skill in `dir`; a part that fails is named in `errors`, the rest still show. */
async function securityFacts(dir: string): Promise<SecurityFacts> {
  const api = client().api;
  const errors: string[] = [];
  const get = async <T>(p: Promise<T>): Promise<T | null> => p.catch((err) => (errors.push(errorText(err)), null));
  const [inventory, scanReport, trust] = await Promise.all([
    get(api.getInventory({ dir })),
    get(api.scanPaths({ paths: [dir] })),
    get(api.getSkillTrust({ dir })),
  ]);
  const diff = trust?.status === 'changed' ? await get(api.approvalDiff({ dir })) : null;
  return { inventory, scan: scanReport?.skills[0] ?? null, trust, diff, errors };
}

export const useSkill = create<SkillState>((set, get) => {
  /** Start `view` on `key` (nothing shown until its answer: a panel opened again never shows an old answer), then read it. */
  async function read<T>(view: View, key: string, fetch: () => Promise<T>): Promise<void> {
    set({ [view]: { key, data: null, error: null } });
    try {
      const data = await fetch();
      if (get()[view]?.key === key) set({ [view]: { key, data, error: null } });
    } catch (err) {
      if (get()[view]?.key === key) set({ [view]: { key, data: null, error: errorText(err) } });
    }
  }
  /** The folder the security view reads (its key alone does not say it). */
  let securityDir = '';
  /** Approve or revoke, then read the facts again; a refusal stays listed with them. */
  async function act(call: () => Promise<unknown>): Promise<void> {
    const key = get().security?.key;
    if (key === undefined) return;
    const dir = securityDir;
    set({ securityBusy: true });
    let failed: string | null = null;
    try {
      await call();
    } catch (err) {
      failed = errorText(err);
    } finally {
      set({ securityBusy: false });
    }
    const facts = await securityFacts(dir);
    if (failed) facts.errors.push(failed);
    if (get().security?.key === key) set({ security: { key, data: facts, error: null } });
  }
  return {
    activation: null,
    security: null,
    securityBusy: false,
    origin: null,
    file: null,
    loadActivation: (key, name) => read('activation', key, () => client().api.activateSkill({ name })),
    loadSecurity(key, dir) {
      securityDir = dir;
      return read('security', key, () => securityFacts(dir));
    },
    approve: (dir) => act(() => client().api.approveSkill({ dir })),
    revoke: (name) => act(() => client().api.revokeApproval({ name })),
    async approveRef(ref) {
      await client().api.approveSkill(ref);
    },
    trustOf: (ref) => client().api.getSkillTrust(ref),
    loadOrigin: (key, name) => read('origin', key, () => client().api.skillOrigin({ name })),
    readFile: (key, entryId, path, maxBytes) => read('file', key, () => client().api.readSkillFile({ skill: entryId, path, maxBytes })),
  };
});
