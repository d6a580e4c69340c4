import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { Alert, Button, Empty, Tag, Tooltip } from '@arco-design/web-react';
import type { HistoryEntry, MessageRef } from '../../../../src/contract/index';
import { useLibrary } from '../../stores/library-store';
import { useAgents } from '../../stores/agents-store';
import { engineText } from '../../i18n/engine-text';
import { useAction } from './use-action';
import { TID, rowId } from '../../testids';
import { opName, whatText } from './undo-toast';
import { formatWhen } from '../../i18n/format-date';

type Act = 'undo' | 'redo';

/**
 * The journal: what each operation was and touched (skills, agent, folder), when, and whether it
 * is in effect. Each operation has its own Undo or Redo; one that cannot says why (hover). The
 * toolbar undoes the newest operation in effect and redoes the one undone last.
 */
export function HistoryTab() {
  const { t, i18n } = useTranslation();
  useEffect(() => useLibrary.getState().watch('history'), []);
  const entries = useLibrary((s) => s.history.data) as HistoryEntry[] | null;
  const listError = useLibrary((s) => s.history.error);
  const agentNames = useAgents((s) => s.names);
  const action = useAction();
  const error = action.error ?? listError;
  const [note, setNote] = useState<string | null>(null);
  const list = entries ?? [];
  const byId = new Map(list.map((e) => [e.id, e]));
  // The agent's name in the user's language (the engine says the registry's English).
  const what = (e: HistoryEntry | undefined): string => {
    if (!e?.what) return '';
    const agent = typeof e.agent === 'string' ? agentNames[e.agent] : undefined;
    return whatText(t, agent ? ({ ...e.what, params: { ...e.what.params, agent } } as MessageRef) : e.what);
  };
  const nextUndo = newestFor(list, byId, 'undo');
  const nextRedo = newestFor(list, byId, 'redo');

  const act = (kind: Act, e: HistoryEntry) =>
    action.run(async () => {
      setNote(null);
      await useLibrary.getState()[kind](e.id);
      setNote(t(kind === 'undo' ? 'library.undoneWhat' : 'library.redoneWhat', { what: what(e) }));
    });

  if (entries && entries.length === 0) return <Empty description={t('library.historyEmpty')} data-testid={TID.historyList} />;
  return (
    <div data-testid={TID.historyList} className="library-list">
      <div className="toolbar">
        <ActButton
          t={t}
          e={nextUndo}
          kind="undo"
          label={nextUndo ? t('library.undoWhat', { what: what(nextUndo) }) : t('library.nothingToUndo')}
          testId={TID.historyUndo}
          onAct={act}
        />
        <ActButton
          t={t}
          e={nextRedo}
          kind="redo"
          label={nextRedo ? t('library.redoWhat', { what: what(nextRedo) }) : t('library.nothingToRedo')}
          testId={TID.historyRedo}
          onAct={act}
        />
      </div>
      {error && <Alert type="error" className="page-alert" content={error} data-testid={TID.historyError} />}
      {note && <Alert type="success" className="page-alert" content={note} closable onClose={() => setNote(null)} />}
      {list.map((e) => {
        const record = e.op === 'undo' || e.op === 'redo';
        const target = e.of ? byId.get(e.of) : undefined;
        // A record says what it did to its operation: "Undid the export of pdf to Claude Code."
        const targetWhat = target ? what(target) : whatText(t, e.what);
        const text = record
          ? whatText(t, { key: e.op === 'undo' ? 'journal.undone' : 'journal.redone', params: { what: targetWhat } })
          : what(e) || engineText(t, e.msg as MessageRef | undefined, e.summary ?? '');
        return (
          <div key={e.id} className="library-row" data-testid={rowId(TID.historyRow, e.id)} data-op={e.op} data-state={e.state ?? ''}>
            <div className="library-row-main">
              <div>
                <Tag size="small" color={record ? 'gray' : 'arcoblue'}>
                  {opName(t, e.op)}
                </Tag>{' '}
                <span className="history-what">{text}</span>
                {e.state === 'undone' && (
                  <Tag size="small" className="history-undone">
                    {t('library.wasUndone')}
                  </Tag>
                )}
              </div>
              <Touched t={t} e={e} agent={typeof e.agent === 'string' ? agentNames[e.agent] : undefined} />
              <div className="muted small">
                {formatWhen(e.time, i18n.language)} · <span className="mono">{e.id}</span>
              </div>
            </div>
            {e.state && (
              <ActButton
                t={t}
                e={e}
                kind={e.state === 'done' ? 'undo' : 'redo'}
                label={t(e.state === 'done' ? 'library.rowUndo' : 'library.rowRedo')}
                // the button says "Undo"; to a screen reader it names its operation, as the toolbar does
                fullName={t(e.state === 'done' ? 'library.undoWhat' : 'library.redoWhat', { what: what(e) })}
                testId={rowId(e.state === 'done' ? TID.historyRowUndo : TID.historyRowRedo, e.id)}
                onAct={act}
              />
            )}
          </div>
        );
      })}
    </div>
  );
}

/** The operation the toolbar acts on: the newest in effect (undo) or the one undone last (redo). */
function newestFor(list: HistoryEntry[], byId: Map<string, HistoryEntry>, kind: Act): HistoryEntry | undefined {
  // Newest first: an operation's latest record (or its own entry) says whether it is in effect.
  for (const e of list) {
    const op = e.state ? e : e.of ? byId.get(e.of) : undefined;
    if (!op?.state) continue;
    const latest = e.state ? op : e;
    if (kind === 'undo' && op.state === 'done' && (latest === op || latest.op === 'redo')) return op;
    if (kind === 'redo' && op.state === 'undone' && latest.op === 'undo') return op;
  }
  return undefined;
}

/** Undo or Redo for one operation: disabled, with the engine's reason on hover, when it cannot. */
function ActButton(p: {
  t: TFunction;
  e: HistoryEntry | undefined;
  kind: Act;
  label: string;
  fullName?: string;
  testId: string;
  onAct(kind: Act, e: HistoryEntry): void;
}) {
  const avail = p.e?.[p.kind];
  const reason = avail && !avail.ok && avail.reason ? engineText(p.t, avail.reason, '') : '';
  const button = (
    <Button
      size="small"
      disabled={!p.e || !avail?.ok}
      onClick={() => p.e && p.onAct(p.kind, p.e)}
      data-testid={p.testId}
      data-reason={reason}
      aria-label={p.fullName}
    >
      {p.label}
    </Button>
  );
  return reason ? (
    <Tooltip content={reason}>
      <span>{button}</span>
    </Tooltip>
  ) : (
    button
  );
}

/** What an operation touched beyond its name: the skills of a batch, the agent, folders outside the library. */
function Touched({ t, e, agent }: { t: TFunction; e: HistoryEntry; agent?: string }) {
  const tt = e.touched;
  if (!tt) return null;
  const parts: string[] = [];
  if (tt.skills.length > 1) {
    const shown = tt.skills.slice(0, 6).join(t('common.comma'));
    parts.push(t('library.touchedSkills', { skills: tt.skills.length > 6 ? `${shown} (+${tt.skills.length - 6})` : shown }));
  }
  if (tt.agent) parts.push(t('library.touchedAgent', { agent: agent ?? tt.agent }));
  if (!parts.length && !tt.paths.length) return null;
  return (
    <div className="muted small history-touched" data-testid={rowId(TID.historyTouched, e.id)}>
      {parts.join(' · ')}
      {tt.paths.length > 0 && <span className="mono"> {tt.paths.join(t('common.comma'))}</span>}
    </div>
  );
}
