import type { TFunction } from 'i18next';
import { Button, Notification } from '@arco-design/web-react';
import type { MessageRef } from '../../../../src/contract/index';
import { OperationKindSchema } from '../../../../src/contract/library';
import { useLibrary } from '../../stores/library-store';
import { errorText } from '../../stores/errors';
import { engineText } from '../../i18n/engine-text';
import { TID } from '../../testids';

/** An operation a toast offers to undo: its journal id and what it was, in a few words. */
export interface ToastOp {
  id: string;
  what: MessageRef;
}

let shown: string | null = null;
const TOAST_MS = 12_000;

/** An operation in a few words, in the user's language ("import of 5 skills"). */
export function whatText(t: TFunction, what: MessageRef | undefined): string {
  return engineText(t, what, '');
}

/** "Undo import of 5 skills"; for several operations at once (an export to two agents), how many. */
function label(t: TFunction, ops: ToastOp[], key: 'undo' | 'redo'): string {
  if (ops.length === 1) return t(key === 'undo' ? 'library.undoWhat' : 'library.redoWhat', { what: whatText(t, ops[0].what) });
  return t(key === 'undo' ? 'library.undoCount' : 'library.redoCount', { count: ops.length });
}

/**
 * The one undo toast: a title, what Undo would revert, and an Undo button that reverts THESE
 * operations by their journal ids (never whatever is newest). When the engine refuses (already
 * undone, or a later operation depends on it) the toast that follows says why; after an undo, a
 * toast offers Redo. The library's steps and an import's result both use it.
 */
export function undoToast(
  t: TFunction,
  o: { id: string; title: string; content?: string; testId: string; ops: ToastOp[]; onUndo?(): void },
): void {
  const what = o.ops.length === 1 ? whatText(t, o.ops[0].what) : '';
  Notification.info({
    id: o.id,
    title: o.title,
    content: o.content ?? (what ? t('library.undoHintWhat', { what }) : t('library.undoHint')),
    duration: TOAST_MS,
    position: 'bottomRight',
    btn: (
      <Button
        size="small"
        type="primary"
        data-testid={o.testId}
        onClick={() => {
          Notification.remove(o.id);
          o.onUndo?.();
          void act(t, o.ops, 'undo');
        }}
      >
        {label(t, o.ops, 'undo')}
      </Button>
    ),
  });
}

/** Undo (newest first) or redo (oldest first) each operation, then say how it went. */
async function act(t: TFunction, ops: ToastOp[], action: 'undo' | 'redo'): Promise<void> {
  const order = action === 'undo' ? [...ops].reverse() : ops;
  try {
    for (const op of order) await useLibrary.getState()[action](op.id);
  } catch (err) {
    Notification.error({
      title: t(action === 'undo' ? 'import.undoFailed' : 'library.redoFailed'),
      content: <span data-testid={TID.toastRefused}>{errorText(err)}</span>,
      duration: 8000,
      position: 'bottomRight',
    });
    return;
  }
  const what = ops.length === 1 ? whatText(t, ops[0].what) : String(ops.length);
  const id = `${action}-done-${ops.map((x) => x.id).join('-')}`;
  // After an undo the toast offers Redo; after a redo, Undo again.
  const again = action === 'undo' ? 'redo' : 'undo';
  Notification.success({
    id,
    title: t(action === 'undo' ? 'library.undoneWhat' : 'library.redoneWhat', { what }),
    content: '',
    duration: TOAST_MS,
    position: 'bottomRight',
    btn: (
      <Button
        size="small"
        data-testid={again === 'redo' ? TID.toastRedo : TID.toastUndo}
        onClick={() => {
          Notification.remove(id);
          void act(t, ops, again);
        }}
      >
        {label(t, ops, again)}
      </Button>
    ),
  });
}

/** A step in the library happened: say so, with an Undo button for exactly that operation. */
export function showUndoToast(t: TFunction, text: string, ops: ToastOp[]): void {
  if (!ops.length) return;
  if (shown) Notification.remove(shown);
  const id = `library-undo-${ops.map((x) => x.id).join('-')}`;
  shown = id;
  undoToast(t, { id, title: text, testId: TID.toastUndo, ops, onUndo: () => (shown = null) });
}

/** A journal op in the user's language (an op this build does not know shows as its code). */
export function opName(t: TFunction, op: string): string {
  return OperationKindSchema.safeParse(op).success ? t(`library.op.${op}` as 'library.op.import') : op;
}
