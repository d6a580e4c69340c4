import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Checkbox, Select, Space } from '@arco-design/web-react';
import { useAgents } from '../../stores/agents-store';
import { useLibrary } from '../../stores/library-store';
import { errorText } from '../../stores/errors';
import { operationWhat } from '../../../../src/contract/operation-what';
import { TID } from '../../testids';
import { showUndoToast } from './undo-toast';

/**
 * What the user ticked on the Library's skills list, and the operations that act on all of it at
 * once: delete, approve the scripts, export to one agent. Each is one engine call, so one journal
 * entry, and its toast's one Undo takes back the whole batch.
 */
export function BulkBar({
  names,
  all,
  onSelectAll,
  onDone,
  pin,
}: {
  /** Offer Pin (skills added from sources, pinned at their installed commit). */
  pin?: boolean;
  /** The ticked skills (folder names). */
  names: string[];
  /** Every skill on the list, for "select all". */
  all: string[];
  onSelectAll(on: boolean): void;
  onDone(): void;
}) {
  const { t } = useTranslation();
  const agents = useAgents((s) => s.agents).filter((a) => a.userDirs.length > 0);
  const agentNames = useAgents((s) => s.names);
  const [agent, setAgent] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!useAgents.getState().registry.length) void useAgents.getState().loadRegistry();
  }, []);

  const count = names.length;
  const run = async (fn: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await fn();
      onDone();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  const remove = () =>
    run(async () => {
      const out = await useLibrary.getState().deleteMany(names);
      if (!out.journalId) return;
      const skills = out.results.map((r) => r.name);
      showUndoToast(t, t('library.bulkDeleted', { count: skills.length }), [
        { id: out.journalId, what: operationWhat({ op: 'delete', skills }) },
      ]);
    });
  const approve = () =>
    run(async () => {
      const out = await useLibrary.getState().approveMany(names);
      if (!out.journalId) return;
      const skills = out.results.map((r) => r.name);
      showUndoToast(t, t('library.bulkApproved', { count: skills.length }), [
        { id: out.journalId, what: operationWhat({ op: 'scripts-approve', skills }) },
      ]);
    });
  const pinAll = () =>
    run(async () => {
      const out = await useLibrary.getState().pinMany(names);
      if (!out.journalId) return;
      const skills = out.results.map((r) => r.name);
      showUndoToast(t, t('library.bulkPinned', { count: skills.length }), [
        { id: out.journalId, what: operationWhat({ op: 'pin', skills }) },
      ]);
    });
  const exportTo = (id: string) =>
    run(async () => {
      const out = await useLibrary.getState().exportMany(names, id, 'copy');
      const made = out.results.filter((r) => r.status === 'exported').map((r) => r.name);
      const label = agentNames[id] ?? id;
      showUndoToast(
        t,
        t('library.bulkExported', { count: made.length, agent: label }),
        out.journalId ? [{ id: out.journalId, what: operationWhat({ op: 'export', skills: made, agent: label }) }] : [],
      );
    });

  return (
    <div className="library-bulk" data-testid={TID.libraryBulk}>
      <Checkbox
        checked={count > 0 && count === all.length}
        indeterminate={count > 0 && count < all.length}
        onChange={(on) => onSelectAll(on)}
        data-testid={TID.librarySelectAll}
      >
        {count ? t('library.selected', { count }) : t('library.selectAll')}
      </Checkbox>
      {count > 0 && (
        <Space wrap>
          <Button size="small" status="danger" loading={busy} onClick={() => void remove()} data-testid={TID.libraryBulkDelete}>
            {t('library.bulkDelete', { count })}
          </Button>
          <Button size="small" loading={busy} onClick={() => void approve()} data-testid={TID.libraryBulkApprove}>
            {t('library.bulkApprove')}
          </Button>
          {pin && (
            <Button size="small" loading={busy} onClick={() => void pinAll()} data-testid={TID.libraryBulkPin}>
              {t('library.bulkPin')}
            </Button>
          )}
          <Select
            size="small"
            className="library-bulk-agent"
            placeholder={t('library.bulkExportTo')}
            value={agent}
            onChange={(v: string) => setAgent(v)}
            options={agents.map((a) => ({ label: a.name, value: a.id }))}
            data-testid={TID.libraryBulkAgent}
          />
          <Button
            size="small"
            disabled={!agent}
            loading={busy}
            onClick={() => agent && void exportTo(agent)}
            data-testid={TID.libraryBulkExport}
          >
            {t('library.bulkExport')}
          </Button>
          <Button size="small" type="text" onClick={() => onSelectAll(false)} data-testid={TID.libraryBulkClear}>
            {t('library.clearSelection')}
          </Button>
        </Space>
      )}
      {error && <Alert type="error" className="page-alert" content={error} />}
    </div>
  );
}
