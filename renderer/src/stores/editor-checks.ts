import { client } from '../client-port';
import { LINT_DEBOUNCE_MS, SKILL_FILE, type EditorChecks, type GetEditor, type SetEditor } from './editor-state';

/** One pending call at a time: a new keystroke pushes it back. */
function debouncer() {
  let timer: ReturnType<typeof setTimeout> | null = null;
  return {
    schedule(fn: () => Promise<void>, delay: number) {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => {
        timer = null;
        void fn();
      }, delay);
    },
    cancel() {
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}

/** The engine's lint of SKILL.md and scan of the open file, as they stand unsaved: newest answer wins. */
export function editorChecks(set: SetEditor, get: GetEditor): EditorChecks {
  const lintTimer = debouncer();
  const scanTimer = debouncer();
  let lintAsked = 0;
  let scanAsked = 0;
  /** Ask the engine to lint SKILL.md as it stands in the buffer (or on disk when not open). */
  const lintNow = async () => {
    const { skill, open } = get();
    const f = open[SKILL_FILE];
    if (!skill || !f || f.disk === null) return;
    const asked = ++lintAsked;
    try {
      const lint = await client().api.lintSkillBuffer({ skill, content: f.buffer });
      if (asked !== lintAsked || get().skill !== skill) return; // a newer keystroke already asked
      set((s) => ({ lint, lintSeq: s.lintSeq + 1 }));
    } catch {
      // the skill went away or the engine is gone: the page shows the load error on next action
    }
  };
  /** The security scan of the open file as it stands in the buffer. */
  const scanNow = async () => {
    const { skill, current, open } = get();
    const f = open[current];
    if (!skill || !f || f.disk === null) return;
    const asked = ++scanAsked;
    try {
      const { findings } = await client().api.scanSkillBuffer({ skill, path: current, content: f.buffer });
      if (asked !== scanAsked || get().skill !== skill || get().current !== current) return;
      set({ scan: { path: current, findings } });
    } catch {
      // as for lint: the next action reports a lost engine
    }
  };
  return {
    lintNow,
    scheduleLint: (delay = LINT_DEBOUNCE_MS) => lintTimer.schedule(lintNow, delay),
    scheduleScan: (delay = LINT_DEBOUNCE_MS) => scanTimer.schedule(scanNow, delay),
    cancel() {
      lintTimer.cancel();
      scanTimer.cancel();
    },
  };
}
