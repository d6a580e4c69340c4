import type { TFunction } from 'i18next';
import { Button, Notification } from '@arco-design/web-react';
import { useLibrary } from '../../stores/library-store';
import { errorText } from '../../stores/errors';
import { TID } from '../../testids';

let shown: string | null = null;

/**
 * The one undo toast: a title and a hint, and an Undo button that reverts the newest step and says
 * how it went (`undone` words the op). The library's steps and an import's result both use it.
 */
export function undoToast(
  t: TFunction,
  o: {
    id: string;
    title: string;
    content: string;
    testId: string;
    undone(op: string): { title: string; content: string };
    onUndo?(): void;
  },
): void {
  Notification.info({
    id: o.id,
    title: o.title,
    content: o.content,
    duration: 10_000,
    position: 'bottomRight',
    btn: (
      <Button
        size="small"
        type="primary"
        data-testid={o.testId}
        onClick={() => {
          Notification.remove(o.id);
          o.onUndo?.();
          void undoNewest(t, o.undone);
        }}
      >
        {t('common.undo')}
      </Button>
    ),
  });
}

/** A destructive step happened: say so, with an Undo button (undo reverts only the newest step). */
export function showUndoToast(t: TFunction, text: string): void {
  if (shown) Notification.remove(shown);
  const id = `library-undo-${Date.now()}`;
  shown = id;
  undoToast(t, {
    id,
    title: text,
    content: t('library.undoHint'),
    testId: TID.toastUndo,
    undone: (op) => ({ title: t('library.undone', { op }), content: '' }),
    onUndo: () => (shown = null),
  });
}

/**
 * Undo the newest journal step and say how it went; `worded` gets the undone op in the user's
 * language (the engine's `message` is English, for the CLI).
 */
async function undoNewest(t: TFunction, worded: (op: string) => { title: string; content: string }): Promise<void> {
  try {
    const res = await useLibrary.getState().undo();
    Notification.success({ ...worded(opName(t, res.undone.op)), duration: 4000, position: 'bottomRight' });
  } catch (err) {
    Notification.error({ title: t('import.undoFailed'), content: errorText(err), duration: 6000, position: 'bottomRight' });
  }
}

const OPS = [
  'import',
  'replace',
  'keep-both',
  'adopt',
  'delete',
  'restore',
  'export',
  'undo',
  'edit',
  'create',
  'scripts-approve',
  'scripts-revoke',
  'update',
];

/** A journal op in the user's language (an op this build does not know shows as its code). */
export function opName(t: TFunction, op: string): string {
  return OPS.includes(op) ? t(`library.op.${op}` as 'library.op.import') : op;
}
