import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Checkbox, Empty, Tabs, Tag } from '@arco-design/web-react';
import type { LibrarySkill } from '../../../../src/contract/index';
import { useNav } from '../../stores/nav-store';
import { useLibrary } from '../../stores/library-store';
import { TID, pageId, rowId } from '../../testids';
import { NewSkillDialog } from './new-skill-dialog';
import { DeleteDialog } from './delete-dialog';
import { ExportDialog } from './export-dialog';
import { TrashTab } from './trash-tab';
import { HistoryTab } from './history-tab';
import { AdoptTab } from './adopt-tab';
import { showUndoToast } from './undo-toast';
import { operationWhat } from '../../../../src/contract/operation-what';
import { AdoptBanner, useLibraryTab } from './adopt-banner';
import '../editor/editor.css';
import { PageHeader } from '../../components/page-header';
import { BulkBar } from './bulk-bar';

/** The user's own skills: write, delete, export, and the trash, history and adoption around them. */
export function LibraryPage() {
  const { t } = useTranslation();
  const edit = useNav((n) => n.edit);
  const skills = useLibrary((s) => s.skills.data);
  const error = useLibrary((s) => s.skills.error);
  const tab = useLibraryTab((s) => s.tab);
  const setTab = useLibraryTab((s) => s.setTab);
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<LibrarySkill | null>(null);
  const [exporting, setExporting] = useState<LibrarySkill | null>(null);
  // Ticked skills (folder names); those no longer in the library drop out.
  const [ticked, setTicked] = useState<string[]>([]);
  const present = (skills ?? []).map((s) => s.dirName);
  const selected = ticked.filter((n) => present.includes(n));
  const tick = (name: string, on: boolean) =>
    setTicked((cur) => (on ? [...cur.filter((n) => n !== name), name] : cur.filter((n) => n !== name)));
  // Other doors and pages change the library too: the store follows the engine's events.
  useEffect(() => useLibrary.getState().watch('skills'), []);

  const onDeleted = (name: string, journalId: string) => {
    setDeleting(null);
    showUndoToast(t, t('library.deleted', { name }), [{ id: journalId, what: operationWhat({ op: 'delete', skills: [name] }) }]);
  };

  return (
    <div className="page" data-testid={pageId('library')}>
      <PageHeader
        title={t('library.title')}
        actions={
          <>
            <Button type="primary" onClick={() => setCreating(true)} data-testid={TID.libraryNew}>
              {t('library.new')}
            </Button>
          </>
        }
      />
      {error && <Alert type="error" className="page-alert" content={t('common.loadFailed', { error })} />}
      {tab !== 'adopt' && <AdoptBanner onReview={() => setTab('adopt')} />}
      <Tabs activeTab={tab} onChange={setTab} data-testid={TID.libraryTabs}>
        <Tabs.TabPane
          key="skills"
          title={<span data-testid={rowId(TID.libraryTab, 'skills')}>{t('library.tabSkills', { count: skills?.length ?? 0 })}</span>}
        >
          {skills && skills.length === 0 ? (
            <Empty description={t('library.empty')} />
          ) : (
            <div className="library-list" data-testid={TID.libraryList}>
              {skills && (
                <BulkBar names={selected} all={present} onSelectAll={(on) => setTicked(on ? present : [])} onDone={() => setTicked([])} />
              )}
              {(skills ?? []).map((s) => (
                <div key={s.dirName} className="library-row" data-testid={rowId(TID.libraryRow, s.dirName)}>
                  <Checkbox
                    checked={selected.includes(s.dirName)}
                    onChange={(on) => tick(s.dirName, on)}
                    aria-label={t('library.selectOne', { name: s.name })}
                    data-testid={rowId(TID.librarySelect, s.dirName)}
                  />
                  <div className="library-row-main">
                    <div>
                      <span className="skill-name">{s.name}</span> {s.mode === 'link' && <Tag size="small">{t('library.linked')}</Tag>}{' '}
                      {s.broken && (
                        <Tag size="small" color="red">
                          {t('library.broken')}
                        </Tag>
                      )}{' '}
                      {s.diagnostics.some((d) => d.severity === 'error') && (
                        <Tag size="small" color="red">
                          {t('library.hasErrors', { count: s.diagnostics.filter((d) => d.severity === 'error').length })}
                        </Tag>
                      )}
                    </div>
                    <div className="muted small library-desc">{s.description ?? ''}</div>
                  </div>
                  <Button size="small" onClick={() => edit(s.dirName)} data-testid={rowId(TID.libraryEdit, s.dirName)}>
                    {s.mode === 'link' ? t('library.view') : t('library.edit')}
                  </Button>
                  <Button size="small" onClick={() => setExporting(s)} data-testid={rowId(TID.libraryExport, s.dirName)}>
                    {t('library.export')}
                  </Button>
                  <Button size="small" status="danger" onClick={() => setDeleting(s)} data-testid={rowId(TID.libraryDelete, s.dirName)}>
                    {t('common.delete')}
                  </Button>
                </div>
              ))}
            </div>
          )}
        </Tabs.TabPane>
        <Tabs.TabPane key="trash" title={<span data-testid={rowId(TID.libraryTab, 'trash')}>{t('library.tabTrash')}</span>}>
          <TrashTab />
        </Tabs.TabPane>
        <Tabs.TabPane key="history" title={<span data-testid={rowId(TID.libraryTab, 'history')}>{t('library.tabHistory')}</span>}>
          <HistoryTab />
        </Tabs.TabPane>
        <Tabs.TabPane key="adopt" title={<span data-testid={rowId(TID.libraryTab, 'adopt')}>{t('library.tabAdopt')}</span>}>
          <AdoptTab />
        </Tabs.TabPane>
      </Tabs>
      <NewSkillDialog visible={creating} onClose={() => setCreating(false)} onCreated={(name) => edit(name)} />
      {deleting && <DeleteDialog skill={deleting} onCancel={() => setDeleting(null)} onDeleted={onDeleted} />}
      {exporting && <ExportDialog skill={exporting} onClose={() => setExporting(null)} />}
    </div>
  );
}
