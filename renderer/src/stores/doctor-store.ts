import { create } from 'zustand';
import type { MessageRef, MethodOutput } from '../../../src/contract/index';
import { client } from '../client-port';
import { errorText } from './errors';

type DoctorReport = MethodOutput<'doctor'>;

/**
 * What the engine's doctor found at start: an operation a crash interrupted (repair rolls it back,
 * nothing else is touched) and data files that were damaged and recovered. A rollback the engine
 * did by itself arrives as an `operation-rolled-back` event (sync.ts routes it here).
 */
type Outcome = NonNullable<DoctorReport['rolledBack']>['outcome'];

interface DoctorState {
  interrupted: { op: string; time: string } | null;
  /** What repair did: rolled back (the default), kept a finished operation, or finished an undo. */
  rolled: { op: string; undone: number; outcome?: Outcome } | null;
  /** Journal lines that could not be read (the engine's coded warning). */
  journalDamage: MessageRef | null;
  corrupt: DoctorReport['corruptFiles'];
  /** The repair's failure, worded. */
  error: string | null;
  load(): Promise<void>;
  repair(): Promise<void>;
  rolledBack(rolled: { op: string; undone: number }): void;
  dismissRolled(): void;
  dismissJournalDamage(): void;
  dismissCorrupt(file: string): void;
}

export const useDoctor = create<DoctorState>((set) => ({
  interrupted: null,
  rolled: null,
  journalDamage: null,
  corrupt: [],
  error: null,
  async load() {
    try {
      const r = await client().api.doctor({});
      set({
        interrupted: r.interrupted ? { op: r.interrupted.op, time: r.interrupted.time } : null,
        corrupt: r.corruptFiles,
        journalDamage: r.journalDamage?.msg ?? null,
      });
    } catch {
      // Nothing to say: the banner stays away (the pages report what fails for them).
    }
  },
  async repair() {
    try {
      const r = await client().api.doctor({ repair: true });
      const rb = r.rolledBack;
      set({
        interrupted: null,
        journalDamage: r.journalDamage?.msg ?? null,
        ...(rb ? { rolled: { op: rb.op, undone: rb.undone, outcome: rb.outcome } } : {}),
      });
    } catch (err) {
      set({ error: errorText(err) });
    }
  },
  rolledBack(rolled) {
    set({ interrupted: null, rolled });
  },
  dismissRolled() {
    set({ rolled: null });
  },
  dismissJournalDamage() {
    set({ journalDamage: null });
  },
  dismissCorrupt(file) {
    set((s) => ({ corrupt: s.corrupt.filter((c) => c.file !== file) }));
  },
}));
