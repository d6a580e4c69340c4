import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Modal, Radio } from '@arco-design/web-react';
import type { UpdateFile, UpdateResult } from '../../../../src/contract/index';
import { TID, rowId } from '../../testids';

type Choice = 'upstream' | 'mine';

/**
 * An update stopped because files changed both here and upstream: one choice per file, take
 * upstream or keep mine (the engine's `updateSkills` resolutions), with both versions side by side.
 */
export function UpdateConflictDialog({
  result,
  busy,
  onApply,
  onCancel,
}: {
  result: UpdateResult;
  busy: boolean;
  onApply(choices: Record<string, Choice>): void;
  onCancel(): void;
}) {
  const { t } = useTranslation();
  const files = result.files.filter((f) => f.action === 'conflict');
  const [choices, setChoices] = useState<Record<string, Choice>>({});
  const all = (c: Choice) => setChoices(Object.fromEntries(files.map((f) => [f.path, c])));
  const ready = files.every((f) => choices[f.path]);

  return (
    <Modal
      visible
      className="update-conflict-modal"
      title={t('sources.conflict.title', { skill: result.skill })}
      onCancel={onCancel}
      maskClosable={false}
      footer={
        <>
          <Button onClick={onCancel} disabled={busy}>
            {t('common.cancel')}
          </Button>
          <Button type="primary" disabled={!ready} loading={busy} onClick={() => onApply(choices)} data-testid={TID.updateConflictApply}>
            {t('sources.conflict.apply')}
          </Button>
        </>
      }
    >
      <div className="add-source-stack" data-testid={TID.updateConflictDialog}>
        <div>{t('sources.conflict.body', { count: files.length })}</div>
        <div className="update-conflict-all">
          <Button size="small" onClick={() => all('mine')} data-testid={TID.updateConflictAllMine}>
            {t('sources.conflict.allMine')}
          </Button>
          <Button size="small" onClick={() => all('upstream')} data-testid={TID.updateConflictAllUpstream}>
            {t('sources.conflict.allUpstream')}
          </Button>
        </div>
        {files.map((f) => (
          <ConflictFile key={f.path} file={f} choice={choices[f.path]} onChoose={(c) => setChoices((p) => ({ ...p, [f.path]: c }))} />
        ))}
      </div>
    </Modal>
  );
}

function ConflictFile({ file, choice, onChoose }: { file: UpdateFile; choice: Choice | undefined; onChoose(c: Choice): void }) {
  const { t } = useTranslation();
  return (
    <div className="update-conflict-file" data-testid={rowId(TID.updateConflictFile, file.path)}>
      <div className="update-conflict-file-head">
        <span className="mono">{file.path}</span>
        {file.conflict && <span className="muted small">{t(`sources.conflict.kind.${file.conflict}`)}</span>}
        <div className="grow" />
        <Radio.Group type="button" size="small" value={choice} onChange={(v: Choice) => onChoose(v)}>
          <Radio value="mine" data-testid={rowId(TID.updateConflictMine, file.path)}>
            {t('sources.conflict.mine')}
          </Radio>
          <Radio value="upstream" data-testid={rowId(TID.updateConflictUpstream, file.path)}>
            {t('sources.conflict.upstream')}
          </Radio>
        </Radio.Group>
      </div>
      {file.conflict !== 'binary' && (
        <div className="update-conflict-sides">
          <Side label={t('sources.conflict.mineVersion')} text={file.mine} />
          <Side label={t('sources.conflict.upstreamVersion')} text={file.upstream} />
        </div>
      )}
    </div>
  );
}

function Side({ label, text }: { label: string; text: string | undefined }) {
  const { t } = useTranslation();
  return (
    <div className="update-conflict-side">
      <div className="muted small">{label}</div>
      {text === undefined ? <div className="muted small">{t('sources.conflict.absent')}</div> : <pre className="mono small">{text}</pre>}
    </div>
  );
}
