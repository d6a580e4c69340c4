import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Modal, Radio } from '@arco-design/web-react';
import { EditorView } from '@codemirror/view';
import type { FileChoice, UpdateFile, UpdateResult } from '../../../../src/contract/index';
import { TID, rowId } from '../../testids';
import { SideBySide } from '../../components/side-by-side';
import { hasMarkers, wordMarkers } from './conflict-markers';

type Choice = 'upstream' | 'mine' | 'edit';

/** A file both sides changed as text can also be settled by editing the merged text. */
function editable(f: UpdateFile): boolean {
  return f.conflict === 'both-changed' && f.merged !== undefined;
}

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
  /** An update's result, or keeping a deployed copy's edit (src/deploy: mine = the library's, upstream = the copy's). */
  result: Pick<UpdateResult, 'skill' | 'files'>;
  busy: boolean;
  onApply(choices: Record<string, FileChoice>): void;
  onCancel(): void;
}) {
  const { t } = useTranslation();
  const files = result.files.filter((f) => f.action === 'conflict');
  const [choices, setChoices] = useState<Record<string, Choice>>({});
  /** Readers of the merged-text editors, per file. */
  const edited = useRef<Record<string, () => string>>({});
  const [unsettled, setUnsettled] = useState<string | null>(null);
  const all = (c: 'upstream' | 'mine') => setChoices(Object.fromEntries(files.map((f) => [f.path, c])));
  const ready = files.every((f) => choices[f.path]);
  const apply = () => {
    const out: Record<string, FileChoice> = {};
    for (const f of files) {
      const c = choices[f.path]!;
      if (c !== 'edit') {
        out[f.path] = c;
        continue;
      }
      const content = edited.current[f.path]?.() ?? f.merged ?? '';
      // Conflict markers left in, in any language's words: not settled yet.
      if (hasMarkers(content)) {
        setUnsettled(f.path);
        return;
      }
      out[f.path] = { content };
    }
    onApply(out);
  };

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
          <Button type="primary" disabled={!ready} loading={busy} onClick={apply} data-testid={TID.updateConflictApply}>
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
        {unsettled && (
          <Alert type="error" content={t('sources.conflict.markersLeft', { file: unsettled })} data-testid={TID.updateConflictUnsettled} />
        )}
        {files.map((f) => (
          <ConflictFile
            key={f.path}
            file={f}
            choice={choices[f.path]}
            onChoose={(c) => {
              setUnsettled(null);
              setChoices((p) => ({ ...p, [f.path]: c }));
            }}
            onEditor={(read) => {
              edited.current[f.path] = read;
            }}
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
  onEditor,
}: {
  file: UpdateFile;
  choice: Choice | undefined;
  onChoose(c: Choice): void;
  onEditor(read: () => string): void;
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
          {editable(file) && (
            <Radio value="edit" data-testid={rowId(TID.updateConflictEdit, file.path)}>
              {t('sources.conflict.edit')}
            </Radio>
          )}
        </Radio.Group>
      </div>
      {file.conflict === 'binary' ? null : choice === 'edit' ? (
        <MergedText text={wordMarkers(file.merged ?? '', t)} onEditor={onEditor} />
      ) : (
        <Difference mine={file.mine} upstream={file.upstream} />
      )}
    </div>
  );
}

/** The user's version beside upstream's. */
function Difference({ mine, upstream }: { mine: string | undefined; upstream: string | undefined }) {
  const { t } = useTranslation();
  const absent = (v: string | undefined) => (v === undefined ? ` ${t('sources.conflict.absent')}` : '');
  return (
    <SideBySide
      left={mine ?? ''}
      right={upstream ?? ''}
      labels={[`${t('sources.conflict.mineVersion')}${absent(mine)}`, `${t('sources.conflict.upstreamVersion')}${absent(upstream)}`]}
      testId={TID.updateConflictDiff}
    />
  );
}

/** The merged text with the engine's conflict markers, to edit into what should stay. */
function MergedText({ text, onEditor }: { text: string; onEditor(read: () => string): void }) {
  const { t } = useTranslation();
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const view = new EditorView({ doc: text, extensions: [EditorView.lineWrapping], parent: host.current! });
    onEditor(() => view.state.doc.toString());
    return () => view.destroy();
    // One editor per file and text; `onEditor` only hands its reader up.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [text]);
  return (
    <div>
      <div className="muted small">{t('sources.conflict.editHint')}</div>
      <div ref={host} className="side-by-side" data-testid={TID.updateConflictEditor} />
    </div>
  );
}
