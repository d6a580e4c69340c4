import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Checkbox, Modal, Radio, Spin, Tag } from '@arco-design/web-react';
import type { ExportTarget, LibraryMode, LibrarySkill } from '../../../../src/contract/index';
import { useAgents } from '../../stores/agents-store';
import { useLibrary } from '../../stores/library-store';
import { TID, rowId } from '../../testids';
import { showUndoToast } from './undo-toast';
import { operationWhat } from '../../../../src/contract/operation-what';

const STATE_COLOR: Record<ExportTarget['state'], string> = {
  none: 'green',
  same: 'gray',
  linked: 'gray',
  different: 'red',
  'other-link': 'red',
};
/** Targets that can take the skill; the others are shown with what is there and never replaced. */
const FREE = new Set<ExportTarget['state']>(['none']);

/** Export to agents' user folders: first what is there, then only where the user ticked. */
export function ExportDialog({ skill, onClose }: { skill: LibrarySkill; onClose(): void }) {
  const { t } = useTranslation();
  const [picked, setPicked] = useState<string[]>([]);
  const [mode, setMode] = useState<LibraryMode>('copy');
  const [results, setResults] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const closeButton = useRef<HTMLButtonElement>(null);
  // Shipped agents named in the user's language (the engine sends the registry's English).
  const names = useAgents((s) => s.names);
  const view = useLibrary((s) => (s.exportView?.name === skill.dirName ? s.exportView : null));
  const targets = view?.targets ?? null;
  const error = view?.error ?? null;

  useEffect(() => {
    void useLibrary.getState().openExport(skill.dirName);
    return () => useLibrary.getState().closeExport();
  }, [skill]);

  const run = async () => {
    setBusy(true);
    const out = await useLibrary.getState().exportTo(skill.dirName, picked, mode);
    const words: Record<string, string> = {};
    for (const [id, r] of Object.entries(out)) {
      if ('error' in r) words[id] = r.error;
      else
        words[id] =
          r.ok.status === 'exported' ? t('library.exportDone', { path: r.ok.path }) : t('library.exportAlready', { path: r.ok.path });
    }
    setResults(words);
    setBusy(false);
    const agentLabel = (id: string) => names[id] ?? targets?.find((x) => x.agent.id === id)?.agent.name ?? id;
    // One operation per agent exported to: the toast undoes exactly those.
    const ops = Object.entries(out).flatMap(([agent, r]) =>
      'ok' in r && r.ok.status === 'exported' && r.ok.journalId
        ? [{ id: r.ok.journalId, what: operationWhat({ op: 'export', skills: [skill.dirName], agent: agentLabel(agent) }) }]
        : [],
    );
    showUndoToast(t, t('library.exported', { name: skill.name }), ops);
    setPicked([]);
    // The export button is disabled now (nothing picked): focus would fall to <body>, where Arco's
    // modal no longer hears Escape. Close is what is left to do here.
    closeButton.current?.focus();
  };

  return (
    <Modal
      visible
      title={t('library.exportTitle', { name: skill.name })}
      onCancel={onClose}
      footer={
        <>
          <Button ref={closeButton} onClick={onClose} data-testid={TID.exportClose}>
            {t('common.close')}
          </Button>
          <Button type="primary" disabled={picked.length === 0} loading={busy} onClick={run} data-testid={TID.exportOk}>
            {t('library.exportRun', { count: picked.length })}
          </Button>
        </>
      }
    >
      <div data-testid={TID.exportDialog} className="form-stack">
        <Radio.Group type="button" value={mode} onChange={(v: LibraryMode) => setMode(v)} data-testid={TID.exportMode}>
          <Radio value="copy">{t('library.modeCopy')}</Radio>
          <Radio value="link">{t('library.modeLink')}</Radio>
        </Radio.Group>
        {error && <Alert type="error" content={error} />}
        {!targets && !error && <Spin />}
        {targets?.map((tg) => (
          <div key={tg.agent.id} className="export-target" data-testid={rowId(TID.exportTarget, tg.agent.id)} data-state={tg.state}>
            <Checkbox
              disabled={!FREE.has(tg.state)}
              checked={picked.includes(tg.agent.id)}
              onChange={(on) => setPicked((p) => (on ? [...p, tg.agent.id] : p.filter((x) => x !== tg.agent.id)))}
            >
              <strong>{names[tg.agent.id] ?? tg.agent.name}</strong>
            </Checkbox>
            <Tag size="small" color={STATE_COLOR[tg.state]}>
              {t(`library.exportState.${tg.state}`)}
            </Tag>
            <div className="muted small mono">{tg.path}</div>
            {results[tg.agent.id] && <div className="small">{results[tg.agent.id]}</div>}
          </div>
        ))}
      </div>
    </Modal>
  );
}
