import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Checkbox, Empty, Input, Tag } from '@arco-design/web-react';
import type { ProjectPlan } from '../../../../src/contract/index';
import { useAgents } from '../../stores/agents-store';
import { useLibrary } from '../../stores/library-store';
import { useProject } from '../../stores/project-store';
import { errorText } from '../../stores/errors';
import { engineText } from '../../i18n/engine-text';
import { TID, pageId, rowId } from '../../testids';
import { PageHeader } from '../../components/page-header';
import { BrowseButton } from '../../components/browse-button';
import { operationWhat } from '../../../../src/contract/operation-what';
import { showUndoToast } from '../library/undo-toast';
import { InstallSection } from './install-section';
import './project.css';

/**
 * Project scope (issue 26 item 5): pick a project folder (a path in the browser UI, the native
 * picker in the desktop window), the library skills and the agents; see every file, link and
 * folder that would be written and the skills-lock.json text; then apply exactly that.
 */
export function ProjectPage() {
  const { t } = useTranslation();
  const skills = useLibrary((s) => s.skills.data);
  const agents = useAgents((s) => s.agents);
  const { plan, applied, busy, error } = useProject();
  const [project, setProject] = useState('');
  const [chosenSkills, setSkills] = useState<string[]>([]);
  const [chosenAgents, setAgents] = useState<string[]>([]);

  useEffect(() => useLibrary.getState().watch('skills'), []);
  useEffect(() => {
    void useAgents.getState().loadRegistry();
    return () => useProject.getState().reset();
  }, []);
  // Another choice: the plan shown no longer describes it.
  const change =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      useProject.getState().reset();
    };

  const ready = project.trim() !== '' && chosenSkills.length > 0 && chosenAgents.length > 0;
  const apply = async () => {
    await useProject.getState().apply();
    const out = useProject.getState().applied;
    if (out?.journalId)
      showUndoToast(t, t('project.applied', { count: out.written }), [
        { id: out.journalId, what: operationWhat({ op: 'project-deploy', skills: [], project: out.plan.project }) },
      ]);
  };

  return (
    <div className="page" data-testid={pageId('project')}>
      <PageHeader title={t('project.title')} />
      <p className="hint">{t('project.hint')}</p>
      <div className="project-form">
        <label className="project-label">{t('project.folder')}</label>
        <div className="project-path-row">
          <Input
            value={project}
            onChange={change(setProject)}
            placeholder={t('project.folderPlaceholder')}
            data-testid={TID.projectPath}
            aria-label={t('project.folder')}
          />
          <BrowseButton testId={TID.projectBrowse} onPick={change(setProject)} />
        </div>
        <label className="project-label">{t('project.skills')}</label>
        {skills && skills.length === 0 ? (
          <Empty description={t('project.noSkills')} />
        ) : (
          <Checkbox.Group value={chosenSkills} onChange={change(setSkills)} className="project-choices">
            {(skills ?? []).map((s) => (
              <Checkbox key={s.dirName} value={s.dirName} data-testid={rowId(TID.projectSkill, s.dirName)}>
                {s.name}
              </Checkbox>
            ))}
          </Checkbox.Group>
        )}
        <label className="project-label">{t('project.agents')}</label>
        <Checkbox.Group value={chosenAgents} onChange={change(setAgents)} className="project-choices">
          {agents
            .filter((a) => a.projectDirs.length > 0)
            .map((a) => (
              <Checkbox key={a.id} value={a.id} data-testid={rowId(TID.projectAgent, a.id)}>
                {a.name}
              </Checkbox>
            ))}
        </Checkbox.Group>
        <div>
          <Button
            disabled={!ready}
            loading={busy && !plan}
            onClick={() => void useProject.getState().preview({ project: project.trim(), skills: chosenSkills, agents: chosenAgents })}
            data-testid={TID.projectPreview}
          >
            {t('project.preview')}
          </Button>
        </div>
      </div>
      {error !== null && <Alert type="error" className="page-alert" content={errorText(error)} data-testid={TID.projectError} />}
      {applied && (
        <Alert
          type="success"
          className="page-alert"
          content={t('project.applied', { count: applied.written })}
          data-testid={TID.projectDone}
        />
      )}
      {plan && <PlanView plan={plan} busy={busy} onApply={apply} />}
      <InstallSection project={project.trim()} />
    </div>
  );
}

/** What apply would write: folders and who reads them, notes, problems, every write, the lock's text. */
function PlanView({ plan, busy, onApply }: { plan: ProjectPlan; busy: boolean; onApply(): void }) {
  const { t } = useTranslation();
  const names = useAgents((s) => s.names);
  const blocked = plan.problems.length > 0;
  return (
    <section className="project-plan" data-testid={TID.projectPlan}>
      <h5>{t('project.planTitle', { project: plan.project })}</h5>
      <ul className="project-folders">
        {plan.folders.map((f) => (
          <li key={f.folder} data-testid={rowId(TID.projectFolder, f.folder)}>
            <code>{f.folder}</code> {t('project.forAgents', { agents: f.agents.map((a) => names[a] ?? a).join(t('common.comma')) })}
          </li>
        ))}
      </ul>
      {plan.notes.map((n, i) => (
        <Alert key={i} type="info" className="page-alert" content={engineText(t, n, n.key)} data-testid={TID.projectNote} />
      ))}
      {plan.problems.map((p, i) => (
        <Alert key={i} type="error" className="page-alert" content={engineText(t, p, p.key)} data-testid={TID.projectProblem} />
      ))}
      {plan.writes.length === 0 ? (
        <p data-testid={rowId(TID.projectWrite, 'none')}>{t('project.nothing')}</p>
      ) : (
        <>
          <p>{t('project.willWrite', { count: plan.writes.length })}</p>
          <ul className="project-writes">
            {plan.writes.map((w) => (
              <li key={w.path} data-testid={rowId(TID.projectWrite, w.path)} data-kind={w.kind}>
                <Tag size="small">{t(`project.kind.${w.kind}`)}</Tag> <code>{w.path}</code>
                {w.target && <code className="project-target"> → {w.target}</code>}
              </li>
            ))}
          </ul>
        </>
      )}
      {plan.lock.action !== 'unchanged' && (
        <>
          <p>{t(plan.lock.action === 'create' ? 'project.lockCreate' : 'project.lockUpdate')}</p>
          <pre className="project-lock" data-testid={TID.projectLock}>
            {plan.lock.content}
          </pre>
        </>
      )}
      <Button type="primary" disabled={blocked || plan.writes.length === 0} loading={busy} onClick={onApply} data-testid={TID.projectApply}>
        {t('project.apply', { count: plan.writes.length })}
      </Button>
    </section>
  );
}
