import { create } from 'zustand';
import { PAGES, type PageName } from '../testids';

/** Pages in the menu, plus the skill editor (`#/editor?skill=<library name or entry id>`). */
export type Route = PageName | 'editor';

/** The page lives in the hash (`#/assistants`) so a reload keeps it and e2e can deep-link. */
function fromHash(): { page: Route; editing: string | null } {
  const hash = typeof location !== 'undefined' ? location.hash.replace(/^#\/?/, '') : '';
  const [name, query = ''] = hash.split('?');
  if (name === 'editor') {
    const skill = new URLSearchParams(query).get('skill');
    if (skill) return { page: 'editor', editing: skill };
  }
  return { page: (PAGES as readonly string[]).includes(name) ? (name as PageName) : 'skills', editing: null };
}

/** Asked before leaving a page with unsaved work: call `proceed` to leave. */
export type LeaveGuard = (proceed: () => void) => void;

interface NavState {
  page: Route;
  /** The skill open in the editor. */
  editing: string | null;
  /** Assistant preselected on the launch page (set by an assistant's Launch button). */
  launchAssistant: string | null;
  leaveGuard: LeaveGuard | null;
  go(page: PageName): void;
  /** Open the editor on a library skill name or a catalog entry id. */
  edit(skill: string): void;
  launch(assistantId: string): void;
  syncFromHash(): void;
  setLeaveGuard(guard: LeaveGuard | null): void;
}

function setHash(hash: string): void {
  if (typeof location !== 'undefined' && location.hash !== hash) history.replaceState(null, '', hash);
}

export const useNav = create<NavState>((set, get) => {
  /** Leave the current page, through the guard when one is set. */
  const leave = (to: () => void) => {
    const guard = get().leaveGuard;
    if (guard) guard(to);
    else to();
  };
  return {
    ...fromHash(),
    launchAssistant: null,
    leaveGuard: null,
    go(page) {
      leave(() => {
        setHash(`#/${page}`);
        set({ page, editing: null });
      });
    },
    edit(skill) {
      leave(() => {
        setHash(`#/editor?skill=${encodeURIComponent(skill)}`);
        set({ page: 'editor', editing: skill });
      });
    },
    launch(assistantId) {
      leave(() => {
        setHash('#/launch');
        set({ page: 'launch', editing: null, launchAssistant: assistantId });
      });
    },
    syncFromHash() {
      set(fromHash());
    },
    setLeaveGuard(guard) {
      set({ leaveGuard: guard });
    },
  };
});
