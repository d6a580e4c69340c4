import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Modal } from '@arco-design/web-react';
import { useNav } from '../../stores/nav-store';
import { TID } from '../../testids';

export interface LeaveGuard {
  /** The navigation held back while the user is asked; null when nobody is asking. */
  leave: (() => void) | null;
  stay(): void;
  discard(): void;
}

/** Leaving with unsaved changes asks first (in-app navigation and closing the window). */
export function useLeaveGuard(isDirty: boolean): LeaveGuard {
  const setLeaveGuard = useNav((n) => n.setLeaveGuard);
  const [leave, setLeave] = useState<(() => void) | null>(null);
  useEffect(() => {
    if (!isDirty) {
      setLeaveGuard(null);
      return;
    }
    setLeaveGuard((proceed) => setLeave(() => proceed));
    const onUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', onUnload);
    return () => {
      window.removeEventListener('beforeunload', onUnload);
      setLeaveGuard(null);
    };
  }, [isDirty, setLeaveGuard]);
  return {
    leave,
    stay: () => setLeave(null),
    discard() {
      const proceed = leave;
      setLeave(null);
      setLeaveGuard(null);
      proceed?.();
    },
  };
}

/** Stay, or go and lose the unsaved files it names. */
export function LeaveDialog({ guard, dirty }: { guard: LeaveGuard; dirty: string[] }) {
  const { t } = useTranslation();
  return (
    <Modal
      visible={guard.leave !== null}
      autoFocus={false}
      title={t('editor.leaveTitle')}
      onCancel={guard.stay}
      footer={
        <>
          <Button autoFocus onClick={guard.stay} data-testid={TID.leaveStay}>
            {t('editor.leaveStay')}
          </Button>
          <Button status="danger" type="primary" onClick={guard.discard} data-testid={TID.leaveDiscard}>
            {t('editor.leaveDiscard')}
          </Button>
        </>
      }
    >
      <div data-testid={TID.leaveDialog}>{t('editor.leaveBody', { files: dirty.join(', ') })}</div>
    </Modal>
  );
}
