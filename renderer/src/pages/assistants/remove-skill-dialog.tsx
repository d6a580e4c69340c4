import { useTranslation } from 'react-i18next';
import { Button, Modal } from '@arco-design/web-react';
import { TID } from '../../testids';

/** The confirmation names the skill and the assistant in every language (interpolated, tested). */
export function RemoveSkillDialog({
  skill,
  assistant,
  onCancel,
  onConfirm,
}: {
  skill: string | null;
  assistant: string;
  onCancel(): void;
  onConfirm(): void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      visible={skill !== null}
      title={t('assistants.removeTitle')}
      onCancel={onCancel}
      footer={
        <div className="modal-actions">
          <Button data-testid={TID.removeConfirmCancel} onClick={onCancel}>
            {t('common.cancel')}
          </Button>
          <Button type="primary" status="danger" data-testid={TID.removeConfirmOk} onClick={onConfirm}>
            {t('common.remove')}
          </Button>
        </div>
      }
    >
      <p data-testid={TID.removeConfirm}>{skill !== null ? t('assistants.removeConfirm', { skill, assistant }) : ''}</p>
    </Modal>
  );
}
