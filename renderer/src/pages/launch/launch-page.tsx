import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Empty, Input, Radio, Select } from '@arco-design/web-react';
import { useAssistants } from '../../stores/assistants-store';
import { useLaunch } from '../../stores/launch-store';
import { useNav } from '../../stores/nav-store';
import { TID, pageId, rowId } from '../../testids';
import { LaunchResultView } from './launch-result';
import { ConversationList } from './conversation-list';
import { LaunchRefusalView } from './launch-refusal';
import { PageHeader } from '../../components/page-header';
import { BrowseButton } from '../../components/browse-button';

/** The searchable text of an assistant option (its label: the assistant's name). */
const optionText = (children: unknown): string => (typeof children === 'string' || typeof children === 'number' ? String(children) : '');

export function LaunchPage() {
  const { t } = useTranslation();
  const assistants = useAssistants((s) => s.list);
  const preselected = useNav((s) => s.launchAssistant);
  const { launch, launching, error, refusal, result, clearError, loadWorkspaces } = useLaunch();
  const [assistant, setAssistant] = useState<string | undefined>(preselected ?? undefined);
  const [mode, setMode] = useState<'temp' | 'project'>('temp');
  const [project, setProject] = useState('');

  useEffect(() => {
    if (preselected) setAssistant(preselected);
  }, [preselected]);
  useEffect(() => {
    const a = assistants.find((x) => x.id === assistant);
    if (a?.defaultWorkspace) {
      setMode('project');
      setProject(a.defaultWorkspace);
    }
  }, [assistant]); // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(() => {
    void loadWorkspaces();
  }, [loadWorkspaces]);

  const canStart = Boolean(assistant) && (mode === 'temp' || project.trim().length > 0);

  return (
    <div className="page" data-testid={pageId('launch')}>
      <PageHeader title={t('launch.title')} />
      <div className="card">
        <div className="form-grid">
          <label>{t('launch.assistant')}</label>
          <Select
            value={assistant}
            onChange={setAssistant}
            placeholder={t('launch.pickAssistant')}
            data-testid={TID.launchAssistant}
            showSearch
            filterOption={(input, option) =>
              optionText((option as { props?: { children?: unknown } }).props?.children)
                .toLowerCase()
                .includes(input.toLowerCase())
            }
          >
            {assistants.map((a) => (
              <Select.Option key={a.id} value={a.id} data-testid={rowId(TID.launchAssistant, a.id)}>
                {a.name}
              </Select.Option>
            ))}
          </Select>
          <label>{t('launch.where')}</label>
          <Radio.Group value={mode} onChange={setMode} direction="vertical">
            <Radio value="temp" data-testid={TID.launchModeTemp}>
              {t('launch.temp')}
            </Radio>
            <Radio value="project" data-testid={TID.launchModeProject}>
              {t('launch.project')}
            </Radio>
          </Radio.Group>
          {mode === 'project' && (
            <>
              <label>{t('launch.projectFolder')}</label>
              <div className="inline">
                <Input value={project} onChange={setProject} placeholder="/home/me/project" data-testid={TID.launchProjectPath} />
                <BrowseButton testId={TID.launchProjectPick} onPick={setProject} />
              </div>
            </>
          )}
        </div>
        {mode === 'project' && <div className="muted hint">{t('launch.projectHint')}</div>}
        <div className="actions-row">
          <Button
            type="primary"
            loading={launching}
            disabled={!canStart}
            data-testid={TID.launchStart}
            onClick={() => assistant && void launch(assistant, mode === 'project' ? project.trim() : undefined)}
          >
            {t('launch.start')}
          </Button>
        </div>
      </div>
      {assistants.length === 0 && <Empty description={t('launch.noAssistants')} />}
      {error && <Alert type="error" closable onClose={clearError} content={error} className="page-alert" />}
      {refusal && <LaunchRefusalView refusal={refusal} />}
      {result && <LaunchResultView result={result} />}
      <ConversationList />
    </div>
  );
}
