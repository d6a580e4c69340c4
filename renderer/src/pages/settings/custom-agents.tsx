import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Form, Input, Message, Popconfirm, type ButtonProps } from '@arco-design/web-react';
import type { CustomAgent } from '../../../../src/contract/index';
import { useAgents } from '../../stores/agents-store';
import { errorText } from '../../stores/errors';
import { useSettings } from '../../stores/settings-store';
import { TID, rowId } from '../../testids';
import { idProblem, overlapProblem, pathProblem, requiredProblem, skillsDirFieldProblem, type Problem } from './custom-agent-rules';
import './custom-agents.css';

type Field = keyof CustomAgent;
const FIELDS: readonly Field[] = ['id', 'name', 'command', 'skillsDir', 'contextFile'];

const testId = (id: string) => ({ 'data-testid': id }) as ButtonProps;

/** The field an engine refusal names (`details.field`), so the form can mark it. */
function refusedField(err: unknown): Field | undefined {
  const details = (err as { details?: { field?: unknown } } | null)?.details;
  const field = details?.field;
  return typeof field === 'string' && (FIELDS as readonly string[]).includes(field) ? (field as Field) : undefined;
}

export function CustomAgentsSection() {
  const { t } = useTranslation();
  const custom = useSettings((s) => s.settings?.customAgents) ?? [];
  const [adding, setAdding] = useState(false);
  const [removeError, setRemoveError] = useState<string | null>(null);

  const remove = async (agent: CustomAgent) => {
    setRemoveError(null);
    try {
      await useSettings.getState().saveCustomAgents((list) => list.filter((a) => a.id !== agent.id));
      Message.success(t('settings.customAgents.removed', { name: agent.name }));
    } catch (err) {
      setRemoveError(errorText(err));
    }
  };

  return (
    <div className="card" data-testid={TID.settingsCustomAgents}>
      <div className="custom-agents-head">
        <div className="grow">
          <div className="subheading custom-agents-title">{t('settings.customAgents.title')}</div>
          <div className="muted small">{t('settings.customAgents.hint')}</div>
        </div>
        {!adding && (
          <Button type="primary" data-testid={TID.settingsCustomAgentAdd} onClick={() => setAdding(true)}>
            {t('settings.customAgents.add')}
          </Button>
        )}
      </div>

      {removeError && <Alert type="error" className="page-alert" content={removeError} data-testid={TID.settingsCustomAgentRemoveError} />}

      {custom.length === 0 ? (
        <div className="muted small custom-agents-empty" data-testid={TID.settingsCustomAgentsEmpty}>
          {t('settings.customAgents.empty')}
        </div>
      ) : (
        <div className="rows custom-agents-list">
          {custom.map((a) => (
            <CustomAgentRow key={a.id} agent={a} onRemove={() => remove(a)} />
          ))}
        </div>
      )}

      {adding && <CustomAgentForm custom={custom} onClose={() => setAdding(false)} />}
    </div>
  );
}

/** One custom agent: what it runs and where it reads skills, with its remove button. */
function CustomAgentRow({ agent: a, onRemove }: { agent: CustomAgent; onRemove: () => Promise<void> }) {
  const { t } = useTranslation();
  return (
    <div className="row custom-agent-row" data-testid={rowId(TID.settingsCustomAgentRow, a.id)}>
      <div className="row-main">
        <div className="row-title">
          <span>{a.name}</span>
          <code>{a.id}</code>
        </div>
        <dl className="custom-agent-props small">
          <dt>{t('settings.customAgents.command')}</dt>
          <dd>
            <code>{a.command}</code>
          </dd>
          <dt>{t('settings.customAgents.skillsDir')}</dt>
          <dd>
            <code>{a.skillsDir}</code>
          </dd>
          <dt>{t('settings.customAgents.contextFile')}</dt>
          <dd>
            <code>{a.contextFile}</code>
          </dd>
        </dl>
      </div>
      <Popconfirm
        title={t('settings.customAgents.removeConfirm', { name: a.name })}
        okText={t('common.remove')}
        cancelText={t('common.cancel')}
        okButtonProps={{ status: 'danger', ...testId(TID.settingsCustomAgentRemoveOk) }}
        onOk={onRemove}
      >
        <Button size="small" status="danger" data-testid={rowId(TID.settingsCustomAgentRemove, a.id)}>
          {t('common.remove')}
        </Button>
      </Popconfirm>
    </div>
  );
}

/** The new agent's form: each field checked as it is left, then the engine checks it all again. */
function CustomAgentForm({ custom, onClose }: { custom: CustomAgent[]; onClose: () => void }) {
  const { t } = useTranslation();
  const agents = useAgents((s) => s.agents);
  const [form] = Form.useForm<CustomAgent>();
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);

  const shippedIds = agents.filter((a) => a.evidence !== 'custom').map((a) => a.id);
  const say = (p: Problem): ReactNode => (p ? t(`settings.customAgents.errors.${p.key}`, p.values ?? {}) : undefined);
  const rules = (check: (value: string | undefined) => Problem) => [
    { validator: (value: string | undefined, done: (error?: ReactNode) => void) => done(say(check(value))) },
  ];

  const close = () => {
    form.resetFields();
    setRefusal(null);
    onClose();
  };

  // Arco calls this only once every field passed its rule; the engine then checks again.
  const add = async (values: CustomAgent) => {
    setRefusal(null);
    const draft = Object.fromEntries(FIELDS.map((f) => [f, (values[f] ?? '').trim()])) as CustomAgent;
    setBusy(true);
    try {
      await useSettings.getState().saveCustomAgents((list) => [...list, draft]);
      Message.success(t('settings.customAgents.added', { name: draft.name }));
      close();
    } catch (err) {
      setRefusal(errorText(err));
      const field = refusedField(err);
      if (field) form.setFields({ [field]: { value: values[field], error: { message: t('settings.customAgents.refusedField') } } });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="custom-agent-form-box" data-testid={TID.settingsCustomAgentForm}>
      <div className="subheading">{t('settings.customAgents.newTitle')}</div>
      {refusal && (
        <Alert
          type="error"
          className="page-alert"
          title={t('settings.customAgents.refused')}
          content={refusal}
          data-testid={TID.settingsCustomAgentRefused}
        />
      )}
      <Form
        form={form}
        layout="vertical"
        validateTrigger="onBlur"
        className="custom-agent-form"
        onSubmit={(values: CustomAgent) => void add(values)}
      >
        <Form.Item
          field="id"
          label={t('settings.customAgents.id')}
          required
          extra={t('settings.customAgents.idHelp')}
          rules={rules((v) =>
            idProblem(
              v,
              shippedIds,
              custom.map((a) => a.id),
            ),
          )}
        >
          <Input placeholder="myagent" autoFocus data-testid={TID.settingsCustomAgentId} />
        </Form.Item>
        <Form.Item field="name" label={t('settings.customAgents.name')} required rules={rules(requiredProblem)}>
          <Input placeholder="My Agent" data-testid={TID.settingsCustomAgentName} />
        </Form.Item>
        <Form.Item
          field="command"
          label={t('settings.customAgents.command')}
          required
          extra={t('settings.customAgents.commandHelp')}
          rules={rules(requiredProblem)}
          className="span-2"
        >
          <Input placeholder="myagent --chat" data-testid={TID.settingsCustomAgentCommand} />
        </Form.Item>
        <Form.Item
          field="skillsDir"
          label={t('settings.customAgents.skillsDir')}
          required
          extra={t('settings.customAgents.skillsDirHelp')}
          rules={rules(skillsDirFieldProblem)}
        >
          <Input placeholder=".myagent/skills" data-testid={TID.settingsCustomAgentSkillsDir} />
        </Form.Item>
        <Form.Item
          field="contextFile"
          label={t('settings.customAgents.contextFile')}
          required
          extra={t('settings.customAgents.contextFileHelp')}
          rules={rules((v) => pathProblem(v) ?? overlapProblem(form.getFieldValue('skillsDir'), v))}
        >
          <Input placeholder="MYAGENT.md" data-testid={TID.settingsCustomAgentContextFile} />
        </Form.Item>
        <div className="actions-row span-2">
          {/* Pressing the button must not blur the focused field first: that blur's message moves
              the button, the click then misses it, and only the first missing field gets marked. */}
          <Button
            type="primary"
            htmlType="submit"
            loading={busy}
            data-testid={TID.settingsCustomAgentSubmit}
            onMouseDown={(e) => e.preventDefault()}
          >
            {t('settings.customAgents.submit')}
          </Button>
          <Button onClick={close} data-testid={TID.settingsCustomAgentCancel}>
            {t('common.cancel')}
          </Button>
        </div>
      </Form>
    </div>
  );
}
