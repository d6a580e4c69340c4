import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Checkbox, Input, Modal, Spin, Tag } from '@arco-design/web-react';
import type { AddFromSourceOutput, FoundSkill, MessageRef } from '../../../../src/contract/index';
import { useImport } from '../../stores/import-store';
import { useSources } from '../../stores/sources-store';
import { SourceError } from './source-error';
import { engineText } from '../../i18n/engine-text';
import { TID, rowId } from '../../testids';
import './sources.css';

/** A found skill's key for `addFromSource({skills})`: its name, else its folder (the engine takes both). */
function skillKey(f: FoundSkill): string {
  return f.name ?? (f.path.split('/').pop() || '.');
}

/**
 * "Add from source" (issue 15): step 1 looks into a git source (preview: nothing is installed) and
 * lists its skills with their lint and security summary; step 2 installs the checked ones through
 * the import flow, so conflicts, the summary and the undo toast are the same as for any import.
 */
/** The folder a source was refused for because it is a plain folder, not a git repository. */
function plainFolder(err: unknown): string | null {
  const msg = err && typeof err === 'object' ? (err as { msg?: MessageRef }).msg : undefined;
  const dir = msg?.key === 'sources.local-folder' ? msg.params?.path : undefined;
  return typeof dir === 'string' ? dir : null;
}

export function AddSourceDialog({ onClose }: { onClose(): void }) {
  const { t } = useTranslation();
  const [source, setSource] = useState('');
  const [ref, setRef] = useState('');
  const [finding, setFinding] = useState(false);
  const [adding, setAdding] = useState(false);
  const [found, setFound] = useState<AddFromSourceOutput | null>(null);
  const [checked, setChecked] = useState<Set<string>>(new Set());
  const [error, setError] = useState<unknown>(null);

  const find = async () => {
    setFinding(true);
    setError(null);
    setFound(null);
    try {
      const out = await useSources.getState().preview(source.trim(), ref.trim() || undefined);
      setFound(out);
      setChecked(new Set(out.found.map(skillKey)));
    } catch (err) {
      setError(err);
    } finally {
      setFinding(false);
    }
  };

  const add = async () => {
    if (!found) return;
    setAdding(true);
    // The import panel shows the result (and asks about conflicts); this dialog's job is done.
    await useImport.getState().addFromSource(found.source.given, found.source.ref, [...checked]);
    setAdding(false);
    onClose();
  };

  const folder = plainFolder(error);
  const importFolder = async (dir: string) => {
    onClose();
    await useImport.getState().importPaths([dir]);
  };

  const edit = (set: (v: string) => void) => (v: string) => {
    set(v);
    // What was found belongs to the old text: never add from a source the user no longer sees.
    setFound(null);
    setError(null);
  };
  const toggle = (key: string, on: boolean) =>
    setChecked((prev) => {
      const next = new Set(prev);
      if (on) next.add(key);
      else next.delete(key);
      return next;
    });
  const all = found ? found.found.map(skillKey) : [];

  return (
    <Modal
      visible
      className="add-source-modal"
      title={t('sources.add.title')}
      onCancel={onClose}
      maskClosable={!adding}
      footer={
        <>
          <Button onClick={onClose} disabled={adding} data-testid={TID.addSourceCancel}>
            {t('common.cancel')}
          </Button>
          <Button
            type="primary"
            disabled={!found || checked.size === 0 || finding}
            loading={adding}
            onClick={() => void add()}
            data-testid={TID.addSourceAdd}
          >
            {found ? t('sources.add.add', { count: checked.size }) : t('common.add')}
          </Button>
        </>
      }
    >
      <div className="add-source-stack" data-testid={TID.addSourceDialog}>
        <div className="muted small">{t('sources.add.hint')}</div>
        <Input
          value={source}
          onChange={edit(setSource)}
          onPressEnter={() => source.trim() && void find()}
          placeholder={t('sources.add.sourcePlaceholder')}
          disabled={adding}
          data-testid={TID.addSourceInput}
        />
        <div className="add-source-inputs">
          <Input
            className="add-source-ref"
            value={ref}
            onChange={edit(setRef)}
            onPressEnter={() => source.trim() && void find()}
            placeholder={t('sources.add.refPlaceholder')}
            disabled={adding}
            data-testid={TID.addSourceRef}
          />
          <Button
            type="outline"
            onClick={() => void find()}
            loading={finding}
            disabled={!source.trim() || adding}
            data-testid={TID.addSourceFind}
          >
            {t('sources.add.find')}
          </Button>
        </div>
        {finding && (
          <div className="add-source-busy" data-testid={TID.addSourceBusy}>
            <Spin size={16} /> <span className="muted">{t('sources.add.finding', { source: source.trim() })}</span>
          </div>
        )}
        {error !== null && <SourceError err={error} testId={TID.addSourceError} />}
        {folder && (
          // A plain folder is no source, but its skills can come in as an import.
          <div className="actions-row">
            <Button type="primary" data-testid={TID.addSourceImportFolder} onClick={() => void importFolder(folder)}>
              {t('sources.importFolderInstead')}
            </Button>
          </div>
        )}
        {found && (
          <div data-testid={TID.addSourceFound}>
            <div className="add-source-found-head">
              <Checkbox
                checked={checked.size === all.length}
                indeterminate={checked.size > 0 && checked.size < all.length}
                onChange={(on) => setChecked(new Set(on ? all : []))}
                data-testid={TID.addSourceAll}
              >
                {t('sources.add.found', { count: found.found.length })}
              </Checkbox>
              <span className="muted small mono" title={found.commit}>
                {t('sources.add.atCommit', { commit: found.commit.slice(0, 7) })}
              </span>
            </div>
            <div className="add-source-list">
              {found.found.map((f) => (
                <FoundRow key={f.path || '.'} skill={f} checked={checked.has(skillKey(f))} onToggle={(on) => toggle(skillKey(f), on)} />
              ))}
            </div>
            {found.skipped?.map((s) => (
              <div key={s.path} className="muted small" data-testid={TID.addSourceSkipped}>
                {engineText(t, s.msg, s.message)}
              </div>
            ))}
          </div>
        )}
      </div>
    </Modal>
  );
}

function FoundRow({ skill, checked, onToggle }: { skill: FoundSkill; checked: boolean; onToggle(on: boolean): void }) {
  const { t } = useTranslation();
  const sec = skill.security;
  return (
    <div className="add-source-row" data-testid={rowId(TID.addSourceRow, skillKey(skill))}>
      <Checkbox checked={checked} onChange={onToggle} data-testid={rowId(TID.addSourceCheck, skillKey(skill))} />
      <div className="add-source-row-main">
        <div>
          <span className="skill-name">{skill.name ?? t('sources.add.unnamed')}</span>{' '}
          <span className="muted small mono">{skill.path || t('sources.add.root')}</span>
        </div>
        {skill.description && <div className="muted small add-source-desc">{skill.description}</div>}
        <div className="add-source-tags">
          {skill.errors > 0 && (
            <Tag size="small" color="red">
              {t('skills.badge.errors', { count: skill.errors })}
            </Tag>
          )}
          {skill.warnings > 0 && (
            <Tag size="small" color="orange">
              {t('skills.badge.warnings', { count: skill.warnings })}
            </Tag>
          )}
          {skill.errors === 0 && skill.warnings === 0 && (
            <Tag size="small" color="green">
              {t('sources.add.lintClean')}
            </Tag>
          )}
          {sec && sec.high + sec.medium > 0 && (
            <Tag size="small" color={sec.high > 0 ? 'red' : 'orange'} data-testid={TID.addSourceRisk}>
              {t('sources.add.risks', { count: sec.high + sec.medium })}
            </Tag>
          )}
          {sec?.executable && (
            <Tag size="small" color="purple">
              {t('sources.add.runsCode')}
            </Tag>
          )}
        </div>
      </div>
    </div>
  );
}
