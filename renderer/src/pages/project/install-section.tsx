import { useTranslation } from 'react-i18next';
import { Alert, Button, Tag } from '@arco-design/web-react';
import { useProject } from '../../stores/project-store';
import { errorText } from '../../stores/errors';
import { TID, rowId } from '../../testids';

/**
 * Restore the project from its skills-lock.json (SkillDock's or the skills CLI's), as
 * `skilldock install` does: first what it would fetch and write, then the install itself.
 */
export function InstallSection({ project }: { project: string }) {
  const { t } = useTranslation();
  const { install, installError, installing } = useProject();
  const run = (preview: boolean) => void useProject.getState().runInstall(project, preview);
  return (
    <section className="project-plan" data-testid={TID.projectInstall}>
      <h5>{t('project.installTitle')}</h5>
      <p className="hint">{t('project.installHint')}</p>
      <Button disabled={!project || installing} onClick={() => run(true)} data-testid={TID.projectInstallCheck}>
        {t('project.installCheck')}
      </Button>
      {installError !== null && (
        <Alert type="error" className="page-alert" content={errorText(installError)} data-testid={TID.projectInstallError} />
      )}
      {install && (
        <>
          <ul className="project-writes">
            {install.skills.map((s) => (
              <li key={s.name} data-testid={rowId(TID.projectInstallSkill, s.name)} data-status={s.status}>
                <Tag size="small">{t(`project.installStatus.${s.status}`)}</Tag> <code>{s.name}</code>{' '}
                <span className="project-target">{s.source}</span>
              </li>
            ))}
          </ul>
          {install.writes.length === 0 ? (
            <p data-testid={TID.projectInstallDone}>{t('project.installNothing')}</p>
          ) : install.applied ? (
            <p data-testid={TID.projectInstallDone}>{t('project.applied', { count: install.writes.length })}</p>
          ) : (
            <>
              <p>{t('project.willWrite', { count: install.writes.length })}</p>
              <ul className="project-writes">
                {install.writes.map((w) => (
                  <li key={w.path} data-testid={rowId(TID.projectWrite, w.path)} data-kind={w.kind}>
                    <Tag size="small">{t(`project.kind.${w.kind}`)}</Tag> <code>{w.path}</code>
                  </li>
                ))}
              </ul>
              <Button type="primary" loading={installing} onClick={() => run(false)} data-testid={TID.projectInstallRun}>
                {t('project.installRun', { count: install.writes.length })}
              </Button>
            </>
          )}
        </>
      )}
    </section>
  );
}
