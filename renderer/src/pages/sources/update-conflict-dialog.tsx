import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Input, Modal, Radio } from '@arco-design/web-react';
import type { FileChoice, UpdateFile, UpdateResult } from '../../../../src/contract/index';
import { TID, rowId } from '../../testids';

type Choice = 'upstream' | 'mine' | 'edit';

/** Conflict markers the merge writes (`<<<<<<< mine`, `||||||| installed`, `=======`, `>>>>>>> upstream`): left in, the text is not resolved. */
const MARKERS = /^(<{7}|\|{7}|={7}|>{7})( |$)/m;

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
  onApply(choices: Record<string, FileChoice>): void;
  onCancel(): void;
}) {
  const { t } = useTranslation();
  const files = result.files.filter((f) => f.action === 'conflict');
  const [choices, setChoices] = useState<Record<string, Choice>>({});
  /** The merged text as the user edits it, per file (starts as the merge with its conflict markers). */
  const [texts, setTexts] = useState<Record<string, string>>({});
  const all = (c: Choice) => setChoices(Object.fromEntries(files.map((f) => [f.path, c])));
  const textOf = (f: UpdateFile) => texts[f.path] ?? f.merged ?? '';
  const ready = files.every((f) => choices[f.path] && (choices[f.path] !== 'edit' || !MARKERS.test(textOf(f))));
  const resolved = (): Record<string, FileChoice> =>
    Object.fromEntries(
      files.map((f) => [f.path, choices[f.path] === 'edit' ? { content: textOf(f) } : (choices[f.path] as 'upstream' | 'mine')]),
    );

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
          <Button type="primary" disabled={!ready} loading={busy} onClick={() => onApply(resolved())} data-testid={TID.updateConflictApply}>
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
          <ConflictFile
            key={f.path}
            file={f}
            choice={choices[f.path]}
            onChoose={(c) => setChoices((p) => ({ ...p, [f.path]: c }))}
            text={textOf(f)}
            onText={(v) => setTexts((p) => ({ ...p, [f.path]: v }))}
          />
        ))}
      </div>
    </Modal>
  );
}

function ConflictFile({
  file,
  choice,
  onChoose,
  text,
  onText,
}: {
  file: UpdateFile;
  choice: Choice | undefined;
  onChoose(c: Choice): void;
  text: string;
  onText(v: string): void;
}) {
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
          {file.merged !== undefined && (
            <Radio value="edit" data-testid={rowId(TID.updateConflictEdit, file.path)}>
              {t('sources.conflict.edit')}
            </Radio>
          )}
        </Radio.Group>
      </div>
      {choice === 'edit' ? (
        <div className="update-conflict-edit">
          <div className="muted small">{t('sources.conflict.editHint')}</div>
          <Input.TextArea
            className="mono"
            value={text}
            onChange={onText}
            autoSize={{ minRows: 6, maxRows: 16 }}
            data-testid={rowId(TID.updateConflictText, file.path)}
          />
          {MARKERS.test(text) && <div className="small update-conflict-warning">{t('sources.conflict.markersLeft')}</div>}
        </div>
      ) : (
        file.conflict !== 'binary' && (
          <div className="update-conflict-sides">
            <Side label={t('sources.conflict.mineVersion')} text={file.mine} />
            <Side label={t('sources.conflict.upstreamVersion')} text={file.upstream} />
          </div>
        )
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
