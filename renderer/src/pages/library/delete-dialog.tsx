import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Modal } from '@arco-design/web-react';
import type { LibrarySkill } from '../../../../src/contract/index';
import { useAssistants } from '../../stores/assistants-store';
import { useDeploy } from '../../stores/deploy-store';
import { useAgents } from '../../stores/agents-store';
import { useLibrary } from '../../stores/library-store';
import { useAction } from './use-action';
import { TID } from '../../testids';

/** Confirm a delete, naming the skill and the assistants that use it; the skill goes to the trash. */
export function DeleteDialog({
  skill,
  onCancel,
  onDeleted,
}: {
  skill: LibrarySkill;
  onCancel(): void;
  onDeleted(name: string, journalId: string): void;
}) {
  const { t } = useTranslation();
  const { busy, error, run } = useAction();
  // The assistants store follows the engine's assistants-changed events.
  const assistants = useAssistants((s) => s.list);
  const loaded = useAssistants((s) => s.loaded);
  const users = useMemo(() => {
    if (!loaded) return null;
    const names = new Set([skill.name, skill.dirName]);
    return assistants
      .filter((a) => a.skills.some((s) => names.has(s.name) && (s.rootKind === 'library' || s.rootId === 'library')))
      .map((a) => a.name);
  }, [assistants, loaded, skill]);

  // The agents whose own folders lose the skill with it (its deployments go in the same step).
  const deployed = useDeploy((s) => s.status);
  const agentNames = useAgents((s) => s.names);
  useEffect(() => useDeploy.getState().watch(), []);
  const losing = useMemo(
    () => (deployed?.cells ?? []).filter((c) => c.skill === skill.dirName && c.on).map((c) => agentNames[c.agent] ?? c.agent),
    [deployed, agentNames, skill.dirName],
  );

  const remove = () =>
    run(async () => {
      const journalId = await useLibrary.getState().deleteSkill(skill.dirName);
      onDeleted(skill.name, journalId);
    });

  return (
    <Modal
      visible
      // Focus starts on Delete, so Enter confirms and Escape cancels.
      autoFocus={false}
      title={t('library.deleteTitle', { name: skill.name })}
      onCancel={onCancel}
      onOk={remove}
      footer={
        <>
          <Button onClick={onCancel}>{t('common.cancel')}</Button>
          <Button autoFocus type="primary" status="danger" loading={busy} onClick={remove} data-testid={TID.deleteConfirmOk}>
            {t('common.delete')}
          </Button>
        </>
      }
    >
      <div data-testid={TID.deleteConfirm}>
        <p>{skill.mode === 'link' ? t('library.deleteLinkBody', { name: skill.name }) : t('library.deleteBody', { name: skill.name })}</p>
        {users && users.length > 0 && (
          <Alert
            type="warning"
            data-testid={TID.deleteUsers}
            content={t('library.deleteUsers', { count: users.length, assistants: users.join(t('common.comma')) })}
          />
        )}
        {losing.length > 0 && (
          <Alert
            type="warning"
            className="page-alert"
            data-testid={TID.deleteAgents}
            content={t('library.deleteAgents', { count: losing.length, agents: losing.join(t('common.comma')) })}
          />
        )}
        {error && <Alert type="error" className="page-alert" content={error} />}
      </div>
    </Modal>
  );
}
