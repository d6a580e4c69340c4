import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button } from '@arco-design/web-react';
import { engineText } from '../../i18n/engine-text';
import { useEditor } from '../../stores/editor-store';
import { errorText } from '../../stores/errors';
import { useNav } from '../../stores/nav-store';
import { TID } from '../../testids';

/**
 * What the editor has to tell above the code: why it is read-only (with a copy into the library for
 * a skill outside it), a read-only file, scripts that need approval again, a failed save, an undo.
 */
export function EditorAlerts({ undoMsg, onCloseUndo }: { undoMsg: string | null; onCloseUndo: () => void }) {
  const { t } = useTranslation();
  const edit = useNav((n) => n.edit);
  const files = useEditor((s) => s.files);
  const file = useEditor((s) => s.open[s.current]);
  const needsApproval = useEditor((s) => s.needsApproval);
  const saveError = useEditor((s) => s.saveError);
  const [copying, setCopying] = useState(false);
  const readOnly = files ? !files.editable : true;

  const copyToLibrary = async () => {
    if (!files) return;
    setCopying(true);
    try {
      const r = await useEditor.getState().copyToLibrary();
      if (r?.libraryName) edit(r.libraryName);
      else useEditor.setState({ saveError: r ? engineText(t, r.msg, r.message ?? r.status) : null });
    } catch (err) {
      useEditor.setState({ saveError: errorText(err) });
    } finally {
      setCopying(false);
    }
  };

  return (
    <>
      {readOnly && files?.readOnlyReason && (
        <Alert
          className="page-alert"
          type="info"
          content={engineText(t, files.readOnlyReason, '')}
          action={
            files.rootKind !== 'library' ? (
              <Button size="small" type="primary" loading={copying} onClick={copyToLibrary} data-testid={TID.editorCopyToLibrary}>
                {t('editor.copyToLibrary')}
              </Button>
            ) : undefined
          }
        />
      )}
      {file?.readOnly && file.readOnlyReason && !readOnly && (
        <Alert className="page-alert" type="warning" content={engineText(t, file.readOnlyReason, '')} />
      )}
      {needsApproval && (
        <Alert className="page-alert" type="warning" content={t('editor.needsApproval')} data-testid={TID.editorApprovalNote} />
      )}
      {saveError && (
        <Alert className="page-alert" type="error" content={saveError} closable onClose={() => useEditor.setState({ saveError: null })} />
      )}
      {undoMsg && <Alert className="page-alert" type="info" content={undoMsg} closable onClose={onCloseUndo} />}
    </>
  );
}
