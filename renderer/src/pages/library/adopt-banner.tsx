import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button } from '@arco-design/web-react';
import { create } from 'zustand';
import { useLibrary } from '../../stores/library-store';
import { useNav } from '../../stores/nav-store';
import { TID } from '../../testids';

/** The Library page's open tab, so other pages can send the user straight to one. */
export const useLibraryTab = create<{ tab: string; setTab(tab: string): void; dismissedAdopt: boolean; dismissAdopt(): void }>((set) => ({
  tab: 'skills',
  setTab: (tab) => set({ tab }),
  dismissedAdopt: false,
  dismissAdopt: () => set({ dismissedAdopt: true }),
}));

/**
 * Skills already in the agents' user folders and not in the library: offered for adoption on the
 * first screen (the Skills page) and on the Library page, until dismissed for this session.
 */
export function AdoptBanner({ onReview }: { onReview?: () => void }) {
  const { t } = useTranslation();
  const dismissed = useLibraryTab((s) => s.dismissedAdopt);
  useEffect(() => useLibrary.getState().watch('adoptable'), []);
  // A failed read offers nothing (the Adopt tab says what failed).
  const count = useLibrary((s) => (s.adoptable.error ? 0 : (s.adoptable.data ?? []).filter((a) => a.inLibrary === 'no').length));
  if (dismissed || count === 0) return null;
  return (
    <Alert
      className="page-alert"
      type="info"
      closable
      onClose={() => useLibraryTab.getState().dismissAdopt()}
      content={<span data-testid={TID.adoptBanner}>{t('library.adoptBanner', { count })}</span>}
      action={
        <Button
          size="small"
          type="primary"
          data-testid={TID.adoptBannerReview}
          onClick={() => {
            useLibraryTab.getState().setTab('adopt');
            if (onReview) onReview();
            else useNav.getState().go('library');
          }}
        >
          {t('library.adoptReview')}
        </Button>
      }
    />
  );
}
