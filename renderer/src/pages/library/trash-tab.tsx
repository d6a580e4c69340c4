import { useTranslation } from 'react-i18next';
import { useEffect, useState } from 'react';
import { Alert, Button, Checkbox, Empty, Input, Modal, Space, Tag } from '@arco-design/web-react';
import type { TrashEntry } from '../../../../src/contract/index';
import { useLibrary } from '../../stores/library-store';
import { useAction } from './use-action';
import { TID, rowId } from '../../testids';
import { showUndoToast } from './undo-toast';
import { operationWhat } from '../../../../src/contract/operation-what';
import { formatWhen } from '../../i18n/format-date';

/** What was deleted or replaced, when, and restore (refused while the name is taken again). */
export function TrashTab() {
  const { t, i18n } = useTranslation();
  useEffect(() => useLibrary.getState().watch('trash'), []);
  const items = useLibrary((s) => s.trash.data);
  const listError = useLibrary((s) => s.trash.error);
  const action = useAction();
  const error = action.error ?? listError;

  const [taken, setTaken] = useState<TrashEntry | null>(null);
  const [asName, setAsName] = useState('');
  const ask = (e: TrashEntry) => {
    setAsName(`${e.name}-restored`);
    setTaken(e);
  };
  /** Restore as it was, replacing the skill now holding the name, or under another name. */
  const restore = (e: TrashEntry, how: { replace?: boolean; as?: string } = {}) =>
    action.run(async () => {
      const out = await useLibrary.getState().restore(e, how);
      if ('taken' in out) ask(e);
      else
        showUndoToast(t, t('library.restored', { name: out.restored }), [
          { id: out.journalId, what: operationWhat({ op: 'restore', skills: [out.restored] }) },
        ]);
    });

  // Ticked trash entries, restored together in one operation (one Undo).
  const [ticked, setTicked] = useState<string[]>([]);
  const selected = ticked.filter((id) => (items ?? []).some((e) => e.id === id));
  const restoreSelected = () =>
    action.run(async () => {
      const out = await useLibrary.getState().restoreMany(selected);
      setTicked([]);
      if (!out.journalId) return;
      const skills = out.results.map((r) => r.name);
      showUndoToast(t, t('library.bulkRestored', { count: skills.length }), [
        { id: out.journalId, what: operationWhat({ op: 'restore', skills }) },
      ]);
    });

  if (items && items.length === 0) return <Empty description={t('library.trashEmpty')} data-testid={TID.trashList} />;
  return (
    <div data-testid={TID.trashList} className="library-list">
      {error && <Alert type="error" className="page-alert" content={error} />}
      {selected.length > 0 && (
        <div className="library-bulk">
          <span>{t('library.selected', { count: selected.length })}</span>
          <Button size="small" type="primary" onClick={() => void restoreSelected()} data-testid={TID.trashBulkRestore}>
            {t('library.bulkRestore', { count: selected.length })}
          </Button>
          <Button size="small" type="text" onClick={() => setTicked([])}>
            {t('library.clearSelection')}
          </Button>
        </div>
      )}
      {(items ?? []).map((e) => (
        <div key={e.id} className="library-row" data-testid={rowId(TID.trashRow, e.id)} data-name={e.name}>
          <Checkbox
            checked={selected.includes(e.id)}
            onChange={(on) => setTicked((cur) => (on ? [...cur, e.id] : cur.filter((x) => x !== e.id)))}
            aria-label={t('library.selectOne', { name: e.name })}
            data-testid={rowId(TID.trashSelect, e.id)}
          />
          <div className="library-row-main">
            <span className="skill-name">{e.name}</span> <Tag size="small">{t(`library.trashReason.${e.reason}`)}</Tag>
            <div className="muted small">{formatWhen(e.time, i18n.language)}</div>
          </div>
          <Button size="small" onClick={() => void restore(e)} data-testid={rowId(TID.trashRestore, e.id)}>
            {t('library.restore')}
          </Button>
        </div>
      ))}
      <Modal
        visible={taken !== null}
        title={t('library.restoreTakenTitle', { name: taken?.name ?? '' })}
        onCancel={() => setTaken(null)}
        okText={t('library.restoreReplace')}
        okButtonProps={{ status: 'warning', ...{ 'data-testid': TID.restoreReplace } }}
        onOk={() => {
          const e = taken;
          setTaken(null);
          if (e) void restore(e, { replace: true });
        }}
      >
        <div data-testid={TID.restoreConflict}>{t('library.restoreTakenBody', { name: taken?.name ?? '' })}</div>
        <div className="muted small restore-as-label">{t('library.restoreAsLabel')}</div>
        <Space>
          <Input
            value={asName}
            onChange={setAsName}
            aria-label={t('library.restoreAsLabel')}
            data-testid={TID.restoreAsName}
            onPressEnter={(ev: React.KeyboardEvent) => ev.stopPropagation()}
          />
          <Button
            disabled={!asName.trim() || asName.trim() === taken?.name}
            data-testid={TID.restoreAs}
            onClick={() => {
              const e = taken;
              setTaken(null);
              if (e) void restore(e, { as: asName.trim() });
            }}
          >
            {t('library.restoreAs')}
          </Button>
        </Space>
      </Modal>
    </div>
  );
}
