import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Empty, Input, Popconfirm, Select, Spin, Tabs, Tag } from '@arco-design/web-react';
import type { AssistantSkillView } from '../../../../src/contract/index';
import { useAssistants } from '../../stores/assistants-store';
import { useAgents } from '../../stores/agents-store';
import { useNav } from '../../stores/nav-store';
import { useCatalog } from '../../stores/catalog-store';
import { Markdown } from '../../components/markdown';
import { TID, rowId } from '../../testids';
import { SkillPicker } from './skill-picker';
import { RemoveSkillDialog } from './remove-skill-dialog';
import { PageHeader } from '../../components/page-header';
import { ExportAssistantButton } from './share';
import { copyNameIn, takenIn } from './copy-name';

export function AssistantEditor() {
  const { t } = useTranslation();
  const { view, update, duplicate, remove, detach } = useAssistants();
  const agents = useAgents((s) => s.agents);
  const launch = useNav((s) => s.launch);
  const [name, setName] = useState('');
  const [agent, setAgent] = useState('');
  const [rules, setRules] = useState('');
  const [picking, setPicking] = useState(false);
  const [removing, setRemoving] = useState<string | null>(null);

  useEffect(() => {
    if (!view) return;
    setName(view.name);
    setAgent(view.agent);
    setRules(view.rules);
    // A starter keeps its id and time when the language changes: its words are what changed.
  }, [view?.id, view?.updatedAt, view?.builtin && view.name, view?.builtin && view.rules]); // eslint-disable-line react-hooks/exhaustive-deps

  if (!view) return <Spin className="center-empty" />;
  const readOnly = view.builtin;
  const dirty = name !== view.name || agent !== view.agent || rules !== view.rules;
  const agentOptions = agents.some((a) => a.id === view.agent) ? agents : [...agents, { id: view.agent, name: view.agent }];

  return (
    <div className="editor" data-testid={TID.assistantEditor}>
      <PageHeader
        title={view.name}
        heading={5}
        actions={
          <>
            <Button type="primary" data-testid={TID.assistantLaunch} onClick={() => launch(view.id)}>
              {t('assistants.launch')}
            </Button>
            <Button
              data-testid={TID.assistantDuplicate}
              onClick={() => void duplicate(view.id, copyNameIn(t, view.name, takenIn(useAssistants.getState().list)))}
            >
              {t('assistants.duplicate')}
            </Button>
            {!readOnly && <ExportAssistantButton id={view.id} name={view.name} />}
            {!readOnly && (
              <Popconfirm
                title={t('assistants.deleteConfirm', { assistant: view.name })}
                okText={t('common.delete')}
                cancelText={t('common.cancel')}
                onOk={() => void remove(view.id)}
              >
                <Button status="danger" data-testid={TID.assistantDelete}>
                  {t('common.delete')}
                </Button>
              </Popconfirm>
            )}
          </>
        }
      >
        {readOnly && <Tag>{t('assistants.starter')}</Tag>}
      </PageHeader>
      {readOnly && <Alert type="info" className="page-alert" content={t('assistants.starterReadOnly')} />}
      {view.agentMissing && <Alert type="warning" className="page-alert" content={t('assistants.agentMissing', { agent: view.agent })} />}

      <div className="form-grid">
        <label>{t('assistants.name')}</label>
        <Input value={name} onChange={setName} disabled={readOnly} data-testid={TID.assistantName} />
        <label>{t('assistants.agent')}</label>
        <Select value={agent} onChange={setAgent} disabled={readOnly} data-testid={TID.assistantAgent}>
          {agentOptions.map((a) => (
            <Select.Option key={a.id} value={a.id} data-testid={rowId(TID.assistantAgent, a.id)}>
              {a.name}
            </Select.Option>
          ))}
        </Select>
      </div>

      <div className="subheading">{t('assistants.rules')}</div>
      <Tabs defaultActiveTab="edit" size="small">
        <Tabs.TabPane key="edit" title={t('assistants.edit')}>
          <Input.TextArea
            value={rules}
            onChange={setRules}
            disabled={readOnly}
            autoSize={{ minRows: 6, maxRows: 16 }}
            placeholder={t('assistants.rulesPlaceholder')}
            data-testid={TID.assistantPersona}
          />
        </Tabs.TabPane>
        <Tabs.TabPane key="preview" title={t('assistants.preview')}>
          <div className="preview-box">
            {rules.trim() ? (
              <Markdown text={rules} testId={TID.assistantPersonaPreview} />
            ) : (
              <span className="muted">{t('assistants.rulesEmpty')}</span>
            )}
          </div>
        </Tabs.TabPane>
      </Tabs>
      {!readOnly && (
        <div className="actions-row">
          <Button
            type="primary"
            disabled={!dirty || !name.trim()}
            data-testid={TID.assistantSave}
            onClick={() => void update({ name: name.trim(), agent, rules })}
          >
            {t('common.save')}
          </Button>
        </div>
      )}

      <div className="page-header">
        <div className="subheading">
          {t('assistants.skills')} ({view.skills.length})
        </div>
        <div className="grow" />
        {!readOnly && (
          <Button size="small" data-testid={TID.assistantAddSkills} onClick={() => setPicking(true)}>
            {t('assistants.addSkills')}
          </Button>
        )}
      </div>
      {view.missingCount > 0 && (
        <Alert type="warning" className="page-alert" content={t('assistants.missingSome', { count: view.missingCount })} />
      )}
      <div data-testid={TID.assistantSkills} className="rows">
        {view.skills.length === 0 && <Empty description={t('assistants.noSkills')} />}
        {view.skills.map((s) => (
          <SkillRow key={s.name} skill={s} readOnly={readOnly} onRemove={() => setRemoving(s.name)} />
        ))}
      </div>

      <SkillPicker visible={picking} onClose={() => setPicking(false)} attached={view.skills.map((s) => s.name)} />
      <RemoveSkillDialog
        skill={removing}
        assistant={view.name}
        onCancel={() => setRemoving(null)}
        onConfirm={async () => {
          const skill = removing;
          setRemoving(null);
          if (skill) await detach(skill);
        }}
      />
    </div>
  );
}

/** A skill of the assistant; a row whose skill still resolves opens that skill's drawer. */
function SkillRow({ skill, readOnly, onRemove }: { skill: AssistantSkillView; readOnly: boolean; onRemove(): void }) {
  const { t } = useTranslation();
  const openSkill = useCatalog((s) => s.open);
  const entry = skill.missing ? null : skill.entry;
  const open = entry ? () => openSkill(entry.id) : undefined;
  return (
    <div
      className={`row${skill.missing ? ' row-missing' : ''}${open ? ' clickable' : ''}`}
      data-testid={rowId(TID.assistantSkillRow, skill.name)}
      data-missing={skill.missing || undefined}
      {...(open ? { role: 'button', tabIndex: 0, onClick: open, onKeyDown: (e: React.KeyboardEvent) => e.key === 'Enter' && open() } : {})}
    >
      <div className="row-main">
        <div className="row-title">
          {skill.name} <Tag size="small">{t(`roots.${skill.rootKind}`)}</Tag>
          {skill.missing && (
            <Tag size="small" color="red" data-testid={rowId(TID.assistantSkillMissing, skill.name)}>
              {t('assistants.missing')}
            </Tag>
          )}
          {skill.changed && !skill.missing && (
            <Tag size="small" color="orange">
              {t('assistants.changed')}
            </Tag>
          )}
          {skill.relocated && !skill.missing && (
            <Tag size="small" color="cyan">
              {t('assistants.relocated')}
            </Tag>
          )}
        </div>
        <div className="muted ellipsis">{skill.missing ? t('assistants.missingHint') : skill.entry?.description}</div>
      </div>
      {!readOnly && (
        <Button
          size="small"
          status="danger"
          data-testid={rowId(TID.assistantSkillRemove, skill.name)}
          onClick={(e) => {
            e.stopPropagation();
            onRemove();
          }}
        >
          {t('common.remove')}
        </Button>
      )}
    </div>
  );
}
