import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Input, Modal, Radio } from '@arco-design/web-react';
import type { TFunction } from 'i18next';
import type { SkillTemplate, TemplateWords } from '../../../../src/contract/index';
import { useLibrary, type NameCheck } from '../../stores/library-store';
import { engineText, findingText } from '../../i18n/engine-text';
import { useAction } from './use-action';
import { TID, rowId } from '../../testids';

const TEMPLATES: SkillTemplate[] = ['plain', 'scripts', 'references'];
/** Typing pause before the name is checked with the engine. */
const CHECK_DELAY_MS = 150;

/** A new library skill from a template, its name checked live against the spec and the catalog. */
export function NewSkillDialog({ visible, onClose, onCreated }: { visible: boolean; onClose(): void; onCreated(name: string): void }) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [template, setTemplate] = useState<SkillTemplate>('plain');
  const [check, setCheck] = useState<NameCheck | null>(null);
  const { busy, error, setError, run } = useAction();

  useEffect(() => {
    if (!visible) {
      setName('');
      setDescription('');
      setTemplate('plain');
      setCheck(null);
      setError(null);
    }
  }, [visible, setError]);

  useEffect(() => {
    if (!name) {
      setCheck(null);
      return;
    }
    let live = true;
    const timer = setTimeout(() => {
      useLibrary
        .getState()
        .checkName(name)
        .then((c) => live && setCheck(c))
        .catch(() => live && setCheck(null));
    }, CHECK_DELAY_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [name]);

  const current = check?.name === name ? check : null;
  const blocked =
    !name || !current || Boolean(current.folderProblem) || current.inLibrary || current.diagnostics.some((d) => d.severity === 'error');

  const create = async () => {
    if (blocked) return;
    await run(async () => {
      const created = await useLibrary.getState().createSkill(name, template, description.trim() || undefined, templateWords(t));
      onClose();
      onCreated(created);
    });
  };

  return (
    <Modal
      visible={visible}
      title={t('library.newTitle')}
      onCancel={onClose}
      footer={
        <>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="primary" disabled={blocked} loading={busy} onClick={create} data-testid={TID.newSkillOk}>
            {t('common.create')}
          </Button>
        </>
      }
    >
      <form
        data-testid={TID.newSkillDialog}
        onSubmit={(e) => {
          e.preventDefault();
          void create();
        }}
        className="form-stack"
      >
        <label className="form-label">{t('library.newName')}</label>
        <Input autoFocus value={name} onChange={setName} placeholder="my-skill" data-testid={TID.newSkillName} />
        <div data-testid={TID.newSkillCheck} className="name-check">
          {current?.folderProblem && (
            <div className="text-error">{t('library.newFolderProblem', { problem: engineText(t, current.folderProblem, '') })}</div>
          )}
          {current?.diagnostics.map((d, i) => (
            <div key={i} className={d.severity === 'error' ? 'text-error' : 'text-warning'} data-code={d.code}>
              {findingText(t, d)}
            </div>
          ))}
          {current?.inLibrary && <div className="text-error">{t('library.newTaken', { name })}</div>}
          {current?.clashes.map((c) => (
            <div key={c.entryId} className="text-warning" data-relation={c.relation}>
              {c.relation === 'shadowed-by'
                ? t('library.newShadowedBy', { root: t(`roots.${c.rootKind}` as 'roots.builtin'), id: c.entryId })
                : t('library.newShadows', { root: t(`roots.${c.rootKind}` as 'roots.builtin'), id: c.entryId })}
            </div>
          ))}
          {current && !blocked && current.clashes.length === 0 && current.diagnostics.length === 0 && (
            <div className="text-ok">{t('library.newNameOk')}</div>
          )}
        </div>
        <label className="form-label">{t('library.newTemplate')}</label>
        <Radio.Group type="button" value={template} onChange={(v: SkillTemplate) => setTemplate(v)}>
          {TEMPLATES.map((tpl) => (
            <Radio key={tpl} value={tpl} data-testid={rowId(TID.newSkillTemplate, tpl)}>
              {t(`library.template.${tpl}`)}
            </Radio>
          ))}
        </Radio.Group>
        <label className="form-label">{t('library.newDescription')}</label>
        <Input.TextArea
          value={description}
          onChange={setDescription}
          autoSize={{ minRows: 2, maxRows: 5 }}
          data-testid={TID.newSkillDescription}
        />
        {error && <Alert type="error" content={error} />}
        <button type="submit" hidden />
      </form>
    </Modal>
  );
}

/** The new skill's headings and starter lines in the user's language (the CLI writes English). */
export function templateWords(t: TFunction): TemplateWords {
  const w = (k: keyof TemplateWords) => t(`library.templateWords.${k}`, { title: '{{title}}' });
  return {
    whenToUse: w('whenToUse'),
    whenToUseBody: w('whenToUseBody'),
    steps: w('steps'),
    step1: w('step1'),
    step2: w('step2'),
    step3: w('step3'),
    runScript: w('runScript'),
    seeReference: w('seeReference'),
    referenceTitle: w('referenceTitle'),
    referenceBody: w('referenceBody'),
  };
}
