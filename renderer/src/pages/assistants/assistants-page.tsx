import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Empty, Form, Input, Modal, Select, Tag } from '@arco-design/web-react';
import { useAssistants } from '../../stores/assistants-store';
import { useAgents } from '../../stores/agents-store';
import { TID, pageId, rowId } from '../../testids';
import { AssistantEditor } from './assistant-editor';
import { PageHeader } from '../../components/page-header';
import { ImportAssistantButton } from './share';
import { copyNameIn, takenIn } from './copy-name';

export function AssistantsPage() {
  const { t } = useTranslation();
  const { list, selectedId, select, error, clearError, duplicate } = useAssistants();
  const names = useAgents((s) => s.names);
  const [creating, setCreating] = useState(false);
  const starters = list.filter((a) => a.builtin);
  const mine = list.filter((a) => !a.builtin);

  return (
    <div className="page page-split" data-testid={pageId('assistants')}>
      <aside className="split-list">
        <PageHeader
          title={t('assistants.title')}
          heading={5}
          actions={
            <>
              <Button type="primary" size="small" data-testid={TID.assistantNew} onClick={() => setCreating(true)}>
                {t('assistants.new')}
              </Button>
            </>
          }
        />
        <div data-testid={TID.assistantsList} className="rows">
          {mine.length === 0 && <Empty description={t('assistants.none')} />}
          {mine.map((a) => (
            <div
              key={a.id}
              role="button"
              tabIndex={0}
              className={`row clickable${a.id === selectedId ? ' selected' : ''}`}
              data-testid={rowId(TID.assistantRow, a.id)}
              data-name={a.name}
              onClick={() => void select(a.id)}
              onKeyDown={(e) => e.key === 'Enter' && void select(a.id)}
            >
              <div className="row-title">{a.name}</div>
              <div className="muted">
                {names[a.agent] ?? a.agent} · {t('assistants.skillCount', { count: a.skills.length })}
              </div>
            </div>
          ))}
        </div>
        <div className="split-list-actions">
          <ImportAssistantButton />
        </div>
        {starters.length > 0 && (
          <>
            <div className="subheading">{t('assistants.starters')}</div>
            <div className="rows">
              {starters.map((a) => (
                <div
                  key={a.id}
                  className={`row clickable${a.id === selectedId ? ' selected' : ''}`}
                  data-testid={rowId(TID.starterRow, a.id)}
                  onClick={() => void select(a.id)}
                >
                  <div className="row-title">
                    {a.name} <Tag size="small">{t('assistants.starter')}</Tag>
                  </div>
                  <div className="row-actions">
                    <span className="muted">{names[a.agent] ?? a.agent}</span>
                    <Button
                      size="mini"
                      data-testid={rowId(TID.starterDuplicate, a.id)}
                      onClick={(e) => {
                        e.stopPropagation();
                        void duplicate(a.id, copyNameIn(t, a.name, takenIn(list)));
                      }}
                    >
                      {t('assistants.duplicate')}
                    </Button>
                  </div>
                </div>
              ))}
            </div>
          </>
        )}
      </aside>
      <main className="split-main">
        {/* While the create dialog is open its own error shows inside it, above the mask. */}
        {error && !creating && <Alert type="error" closable onClose={clearError} content={error} className="page-alert" />}
        {selectedId ? <AssistantEditor key={selectedId} /> : <Empty className="center-empty" description={t('assistants.pick')} />}
      </main>
      <CreateDialog visible={creating} onClose={() => setCreating(false)} />
    </div>
  );
}

function CreateDialog({ visible, onClose }: { visible: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const agents = useAgents((s) => s.agents);
  const create = useAssistants((s) => s.create);
  const error = useAssistants((s) => s.error);
  const clearError = useAssistants((s) => s.clearError);
  const [name, setName] = useState('');
  const [agent, setAgent] = useState<string | undefined>();
  useEffect(() => {
    if (visible) {
      clearError();
      setName('');
      setAgent(agents[0]?.id);
    }
  }, [visible]); // eslint-disable-line react-hooks/exhaustive-deps
  const ok = name.trim().length > 0 && Boolean(agent);
  return (
    <Modal
      visible={visible}
      title={t('assistants.createTitle')}
      onCancel={() => {
        clearError(); // the refusal belonged to this dialog
        onClose();
      }}
      okText={t('common.create')}
      cancelText={t('common.cancel')}
      okButtonProps={{ disabled: !ok, ...({ 'data-testid': TID.assistantCreateOk } as object) }}
      onOk={async () => {
        if (!ok || !agent) return;
        const view = await create({ name: name.trim(), agent });
        if (view) onClose();
      }}
    >
      {error && <Alert type="error" content={error} className="page-alert" data-testid={TID.assistantCreateError} />}
      <Form layout="vertical">
        <Form.Item label={t('assistants.name')}>
          <Input value={name} onChange={setName} data-testid={TID.assistantCreateName} autoFocus />
        </Form.Item>
        <Form.Item label={t('assistants.agent')}>
          <Select value={agent} onChange={setAgent} data-testid={TID.assistantCreateAgent}>
            {agents.map((a) => (
              <Select.Option key={a.id} value={a.id} data-testid={rowId(TID.assistantCreateAgent, a.id)}>
                {a.name}
              </Select.Option>
            ))}
          </Select>
        </Form.Item>
      </Form>
    </Modal>
  );
}
