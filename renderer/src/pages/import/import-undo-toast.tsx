import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Notification } from '@arco-design/web-react';
import { TID } from '../../testids';
import { undoToast } from '../library/undo-toast';

/** After an import, a toast offers to undo it: one at a time, for the newest operation only. */
export function useImportUndoToast(lastJournalId: string | null): void {
  const { t } = useTranslation();
  const shownJournal = useRef<string | null>(null);

  useEffect(() => {
    if (!lastJournalId) {
      // Forgotten (an assistant was deleted, which undo cannot bring back): the toast goes too.
      if (shownJournal.current) Notification.remove(`undo-${shownJournal.current}`);
      shownJournal.current = null;
      return;
    }
    if (shownJournal.current === lastJournalId) return;
    // Undo reverts only the newest operation: an older toast would lie, so it goes.
    if (shownJournal.current) Notification.remove(`undo-${shownJournal.current}`);
    shownJournal.current = lastJournalId;
    undoToast(t, {
      id: `undo-${lastJournalId}`,
      title: t('import.doneTitle'),
      content: t('import.undoHint'),
      testId: TID.undoButton,
      undone: (op) => ({ title: t('import.undone'), content: t('library.undone', { op }) }),
    });
  }, [lastJournalId, t]);
}
