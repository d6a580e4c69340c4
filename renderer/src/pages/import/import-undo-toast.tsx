import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Notification } from '@arco-design/web-react';
import { TID } from '../../testids';
import { undoNewest } from '../library/undo-toast';

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
    const id = `undo-${lastJournalId}`;
    Notification.info({
      id,
      title: t('import.doneTitle'),
      content: t('import.undoHint'),
      duration: 10_000,
      position: 'bottomRight',
      btn: (
        <Button
          size="small"
          type="primary"
          data-testid={TID.undoButton}
          onClick={() => {
            Notification.remove(id);
            void undoNewest(t, (op) => ({ title: t('import.undone'), content: t('library.undone', { op }) }));
          }}
        >
          {t('common.undo')}
        </Button>
      ),
    });
  }, [lastJournalId, t]);
}
