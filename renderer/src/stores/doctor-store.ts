import { create } from 'zustand';
import type { MethodOutput } from '../../../src/contract/index';
import { client } from '../client-port';
import { errorText } from './errors';

type DoctorReport = MethodOutput<'doctor'>;

/**
 * What the engine's doctor found at start: an operation a crash interrupted (repair rolls it back,
 * nothing else is touched) and data files that were damaged and recovered. A rollback the engine
 * did by itself arrives as an `operation-rolled-back` event (sync.ts routes it here).
 */
interface DoctorState {
  interrupted: { op: string; time: string } | null;
  rolled: { op: string; undone: number } | null;
  corrupt: DoctorReport['corruptFiles'];
  /** The repair's failure, worded. */
  error: string | null;
  load(): Promise<void>;
  repair(): Promise<void>;
  rolledBack(rolled: { op: string; undone: number }): void;
  dismissRolled(): void;
  dismissCorrupt(file: string): void;
}

export const useDoctor = create<DoctorState>((set) => ({
  interrupted: null,
  rolled: null,
  corrupt: [],
  error: null,
  async load() {
    try {
      const r = await client().api.doctor({});
      set({ interrupted: r.interrupted ? { op: r.interrupted.op, time: r.interrupted.time } : null, corrupt: r.corruptFiles });
    } catch {
      // Nothing to say: the banner stays away (the pages report what fails for them).
    }
  },
  async repair() {
    try {
      const r = await client().api.doctor({ repair: true });
      set({ interrupted: null, ...(r.rolledBack ? { rolled: { op: r.rolledBack.op, undone: r.rolledBack.undone } } : {}) });
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
  dismissCorrupt(file) {
    set((s) => ({ corrupt: s.corrupt.filter((c) => c.file !== file) }));
  },
}));
