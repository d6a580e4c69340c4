import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Modal, Space } from '@arco-design/web-react';
import type { DeployStatus, FileChoice } from '../../../../src/contract/index';
import { operationWhat } from '../../../../src/contract/operation-what';
import { useDeploy, type AdoptEditResult, type DeployDiff } from '../../stores/deploy-store';
import { UpdateConflictDialog } from '../sources/update-conflict-dialog';
import { showUndoToast } from '../library/undo-toast';
import { errorText } from '../../stores/errors';
import { SideBySide } from '../../components/side-by-side';
import { PageHeader } from '../../components/page-header';
import { TID, rowId } from '../../testids';
import { useApply } from './use-apply';

/** Copies edited in place: each shown with its diff; keep the edit or restore the library's version. */
export function ConflictList({ status }: { status: DeployStatus }) {
  const { t } = useTranslation();
  const edited = status.entries.filter((e) => e.managed && e.reason === 'edited');
  const [open, setOpen] = useState<DeployDiff | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [merging, setMerging] = useState<{ path: string; result: AdoptEditResult } | null>(null);
  const { busy, repair, run } = useApply();
  if (!edited.length) return null;
  const show = async (path: string) => {
    try {
      setError(null);
      setOpen(await useDeploy.getState().diff(path));
    } catch (err) {
      setError(errorText(err));
    }
  };
  // merged with the library's version; files changed on both sides are settled in the dialog source updates use
  const keep = (path: string, resolutions?: Record<string, FileChoice>) =>
    run(async () => {
      const r = await useDeploy.getState().adoptEdit(path, resolutions);
      setOpen(null);
      setMerging(r.conflicts ? { path, result: r } : null);
      if (r.journalId)
        showUndoToast(t, t('deploy.applied'), [{ id: r.journalId, what: operationWhat({ op: 'deploy', skills: [r.skill] }) }]);
      return null;
    });
  const restore = async (path: string) => {
    setOpen(null);
    await repair({ restore: [path] });
  };
  return (
    <section className="deploy-conflicts" data-testid={TID.deployConflicts}>
      <PageHeader heading={5} title={t('deploy.conflictsTitle', { count: edited.length })} />
      {error && <Alert type="error" content={error} className="page-alert" />}
      {edited.map((e) => (
        <div key={e.path} className="deploy-conflict" data-testid={rowId(TID.deployConflict, e.name)}>
          <code>{e.path}</code>
          <Space>
            <Button size="small" onClick={() => void show(e.path)} data-testid={TID.deployShowDiff}>
              {t('deploy.showDiff')}
            </Button>
            <Button size="small" disabled={busy} onClick={() => void keep(e.path)} data-testid={TID.deployKeepEdit}>
              {t('deploy.keepEdit')}
            </Button>
            <Button size="small" status="warning" disabled={busy} onClick={() => void restore(e.path)} data-testid={TID.deployRestore}>
              {t('deploy.restoreLibrary')}
            </Button>
          </Space>
        </div>
      ))}
      {merging && (
        <UpdateConflictDialog
          result={merging.result}
          busy={busy}
          onApply={(choices) => void keep(merging.path, choices)}
          onCancel={() => setMerging(null)}
        />
      )}
      {open && (
        <Modal
          visible
          title={t('deploy.diffTitle', { skill: open.skill })}
          onCancel={() => setOpen(null)}
          footer={null}
          style={{ width: '80vw' }}
        >
          <div data-testid={TID.deployDiff}>
            {open.files.map((f) => (
              <div key={f.file}>
                <h4>{f.file}</h4>
                <SideBySide
                  left={f.library ?? ''}
                  right={f.deployed ?? ''}
                  labels={[t('deploy.libraryVersion'), t('deploy.deployedVersion')]}
                />
              </div>
            ))}
          </div>
        </Modal>
      )}
    </section>
  );
}
