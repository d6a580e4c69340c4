import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Empty, Tag } from '@arco-design/web-react';
import type { JournalEntry } from '../../../../src/contract/index';
import { useLibrary } from '../../stores/library-store';
import { engineText } from '../../i18n/engine-text';
import { useAction } from './use-action';
import { TID, rowId } from '../../testids';
import { opName } from './undo-toast';
import { formatWhen } from '../../i18n/format-date';

/** The journal: what each operation changed and when; undo reverts the newest step not yet undone. */
export function HistoryTab() {
  const { t, i18n } = useTranslation();
  useEffect(() => useLibrary.getState().watch('history'), []);
  const entries = useLibrary((s) => s.history.data);
  const listError = useLibrary((s) => s.history.error);
  const action = useAction();
  const error = action.error ?? listError;
  const [note, setNote] = useState<string | null>(null);

  const undone = new Set((entries ?? []).filter((e) => e.op === 'undo' && e.undoes).map((e) => e.undoes as string));
  const next = (entries ?? []).find((e) => e.op !== 'undo' && !undone.has(e.id));

  const undo = () =>
    action.run(async () => {
      const r = await useLibrary.getState().undo();
      setNote(t('library.undone', { op: opName(t, r.undone.op) }));
    });

  if (entries && entries.length === 0) return <Empty description={t('library.historyEmpty')} data-testid={TID.historyList} />;
  return (
    <div data-testid={TID.historyList} className="library-list">
      <div className="toolbar">
        <Button size="small" disabled={!next} onClick={undo} data-testid={TID.historyUndo}>
          {next ? t('library.undoStep', { op: opName(t, next.op) }) : t('library.nothingToUndo')}
        </Button>
      </div>
      {error && <Alert type="error" className="page-alert" content={error} />}
      {note && <Alert type="success" className="page-alert" content={note} closable onClose={() => setNote(null)} />}
      {(entries ?? []).map((e) => (
        <div key={e.id} className="library-row" data-testid={rowId(TID.historyRow, e.id)} data-op={e.op}>
          <div className="library-row-main">
            <div>
              <Tag size="small" color={e.op === 'undo' ? 'gray' : 'arcoblue'}>
                {opName(t, e.op)}
              </Tag>{' '}
              {describe(t, e, entries ?? [])}
              {undone.has(e.id) && (
                <Tag size="small" className="history-undone">
                  {t('library.wasUndone')}
                </Tag>
              )}
            </div>
            <div className="muted small">{formatWhen(e.time, i18n.language)}</div>
          </div>
        </div>
      ))}
    </div>
  );
}

/** What an entry touched, in the user's language: its message when it has one, else the skills it names. */
function describe(typed: ReturnType<typeof useTranslation>['t'], e: JournalEntry, all: JournalEntry[]): string {
  // Called untyped here: with the locale's many keys, TypeScript gives up on these calls' option
  // types ("excessively deep"); the keys are checked by the locale tests.
  const t = typed as unknown as (key: string, options?: Record<string, unknown>) => string;
  if (e.op === 'undo' && e.undoes) {
    const target = all.find((x) => x.id === e.undoes);
    if (target) return t('library.undoOf', { op: opName(typed, target.op), what: describe(typed, target, all) });
  }
  const msg = (e as { msg?: { key: string; params?: Record<string, string> } }).msg;
  if (msg) return engineText(typed, msg, '');
  const skills = (e as { skills?: Array<{ name?: string }> }).skills;
  const names = (skills ?? []).map((s) => s.name).filter((n): n is string => Boolean(n));
  if (names.length) return names.slice(0, 5).join(t('common.comma')) + (names.length > 5 ? ` (+${names.length - 5})` : '');
  return t('library.changes', { count: e.changes?.length ?? 0 });
}
