import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Empty, Radio, Tag } from '@arco-design/web-react';
import type { AdoptableSkill, LibraryMode } from '../../../../src/contract/index';
import { useLibrary } from '../../stores/library-store';
import { useAgents } from '../../stores/agents-store';
import { useAction } from './use-action';
import { TID, rowId } from '../../testids';
import { showUndoToast } from './undo-toast';
import { operationWhat } from '../../../../src/contract/operation-what';

/** Skills already sitting in agents' user folders, offered for the library (copy or link), one click for all. */
export function AdoptTab() {
  const { t } = useTranslation();
  useEffect(() => useLibrary.getState().watch('adoptable'), []);
  const items = useLibrary((s) => s.adoptable.data);
  // Agents by their names in the UI's language (the Agents page's), not their registry ids.
  const agentNames = useAgents((s) => s.names);
  const listError = useLibrary((s) => s.adoptable.error);
  const [mode, setMode] = useState<LibraryMode>('copy');
  const { busy, error: actionError, run } = useAction();
  const error = actionError ?? listError;

  const open = (items ?? []).filter((s) => s.inLibrary === 'no');
  const adopt = async (picked: AdoptableSkill[]) => {
    if (!picked.length) return;
    await run(async () => {
      const out = await useLibrary.getState().adopt(picked, mode);
      const adopted = out.results.filter((r) => r.status === 'imported').map((r) => r.libraryName ?? r.name ?? '');
      if (out.journalId)
        showUndoToast(t, t('library.adopted', { count: adopted.length }), [
          { id: out.journalId, what: operationWhat({ op: 'adopt', skills: adopted }) },
        ]);
    });
  };

  if (items && items.length === 0) return <Empty description={t('library.adoptEmpty')} data-testid={TID.adoptList} />;
  return (
    <div data-testid={TID.adoptList} className="library-list">
      <div className="toolbar">
        <Radio.Group type="button" size="small" value={mode} onChange={(v: LibraryMode) => setMode(v)} data-testid={TID.adoptMode}>
          <Radio value="copy">{t('library.modeCopy')}</Radio>
          <Radio value="link">{t('library.modeLink')}</Radio>
        </Radio.Group>
        {/* Nothing left to adopt: no button at all, rather than a disabled "Adopt all 0 skills". */}
        {open.length > 0 && (
          <Button size="small" type="primary" loading={busy} onClick={() => void adopt(open)} data-testid={TID.adoptAll}>
            {t('library.adoptAll', { count: open.length })}
          </Button>
        )}
      </div>
      {error && <Alert type="error" className="page-alert" content={error} />}
      {(items ?? []).map((s) => (
        <div key={s.path} className="library-row" data-testid={rowId(TID.adoptRow, s.dirName)} data-in-library={s.inLibrary}>
          <div className="library-row-main">
            <span className="skill-name">{s.name ?? s.dirName}</span>{' '}
            <Tag size="small" color={s.inLibrary === 'no' ? 'green' : 'gray'}>
              {t(`library.inLibrary.${s.inLibrary}`)}
            </Tag>
            <div className="muted small mono">{s.path}</div>
            <div className="muted small" data-testid={TID.adoptReadBy}>
              {t('library.readBy', { agents: s.agents.map((id) => agentNames[id] ?? id).join(t('common.comma')) })}
            </div>
          </div>
          {s.inLibrary === 'no' && (
            <Button size="small" loading={busy} onClick={() => void adopt([s])}>
              {t('library.adopt')}
            </Button>
          )}
        </div>
      ))}
    </div>
  );
}
