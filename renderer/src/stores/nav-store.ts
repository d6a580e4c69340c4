import { create } from 'zustand';
import { PAGES, type PageName } from '../testids';

/** The page lives in the hash (`#/assistants`) so a reload keeps it and e2e can deep-link. */
function fromHash(): PageName {
  const name = typeof location !== 'undefined' ? location.hash.replace(/^#\/?/, '').split('?')[0] : '';
  return (PAGES as readonly string[]).includes(name) ? (name as PageName) : 'skills';
}

interface NavState {
  page: PageName;
  /** Assistant preselected on the launch page (set by an assistant's Launch button). */
  launchAssistant: string | null;
  go(page: PageName): void;
  launch(assistantId: string): void;
  syncFromHash(): void;
}

export const useNav = create<NavState>((set) => ({
  page: fromHash(),
  launchAssistant: null,
  go(page) {
    if (typeof location !== 'undefined' && location.hash !== `#/${page}`) history.replaceState(null, '', `#/${page}`);
    set({ page });
  },
  launch(assistantId) {
    if (typeof location !== 'undefined') history.replaceState(null, '', '#/launch');
    set({ page: 'launch', launchAssistant: assistantId });
  },
  syncFromHash() {
    set({ page: fromHash() });
  },
}));
