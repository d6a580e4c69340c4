import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Notification } from '@arco-design/web-react';
import { TID } from '../../testids';
import type { LastOp } from '../../stores/import-store';
import { undoToast, whatText } from '../library/undo-toast';

/** After an import or update, a toast names what it would undo and undoes that operation, by its id. */
export function useImportUndoToast(lastOp: LastOp | null): void {
  const { t } = useTranslation();
  const shownJournal = useRef<string | null>(null);
  const id = lastOp?.id ?? null;

  useEffect(() => {
    if (!lastOp) {
      // Forgotten (an assistant was deleted, which undo cannot bring back): the toast goes too.
      if (shownJournal.current) Notification.remove(`undo-${shownJournal.current}`);
      shownJournal.current = null;
      return;
    }
    if (shownJournal.current === lastOp.id) return;
    // One import toast at a time: the newer import's replaces it (History still undoes the older).
    if (shownJournal.current) Notification.remove(`undo-${shownJournal.current}`);
    shownJournal.current = lastOp.id;
    undoToast(t, {
      id: `undo-${lastOp.id}`,
      title: t('import.doneTitle'),
      content: t('import.undoHintWhat', { what: whatText(t, lastOp.what) }),
      testId: TID.undoButton,
      ops: [lastOp],
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- one toast per operation id
  }, [id, t]);
}
