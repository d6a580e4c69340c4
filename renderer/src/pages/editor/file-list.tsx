import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Input, Modal } from '@arco-design/web-react';
import { TID, rowId } from '../../testids';
import { useEditor } from '../../stores/editor-store';
import { SKILL_FILE } from '../../stores/editor-state';

/** The skill's files and folders: open a file, add a file or folder, rename or delete the selected one. */
export function FileList({ dirty, readOnly }: { dirty: string[]; readOnly: boolean }) {
  const { t } = useTranslation();
  const files = useEditor((s) => s.files);
  const current = useEditor((s) => s.current);
  const [selected, setSelected] = useState<string | null>(null);
  const [newPath, setNewPath] = useState('');
  const [renaming, setRenaming] = useState<string | null>(null);
  const [renameTo, setRenameTo] = useState('');
  const [deleting, setDeleting] = useState<string | null>(null);
  const target = selected ?? current;
  const blockedBy = (p: string) => dirty.find((d) => d === p || d.startsWith(`${p}/`));
  const ed = () => useEditor.getState();

  const startRename = () => {
    const busy = blockedBy(target);
    if (busy) return useEditor.setState({ saveError: t('editor.unsavedElsewhere', { path: busy }) });
    setRenameTo(target);
    setRenaming(target);
  };
  const startDelete = () => {
    const busy = blockedBy(target);
    if (busy) return useEditor.setState({ saveError: t('editor.unsavedElsewhere', { path: busy }) });
    setDeleting(target);
  };

  const confirmDelete = async () => {
    const p = deleting;
    setDeleting(null);
    if (p && (await ed().movePath(p, null))) setSelected(null);
  };

  const rename = async () => {
    const to = renameTo.trim();
    if (renaming && to && to !== renaming && (await ed().movePath(renaming, to))) setSelected(null);
    setRenaming(null);
  };

  return (
    <>
      {(files?.files ?? []).map((f) => (
        <button
          key={f.path}
          type="button"
          className={`editor-file${f.path === current ? ' editor-file-active' : ''}${f.path === target && f.path !== current ? ' editor-file-selected' : ''}`}
          style={{ paddingLeft: 6 + 10 * (f.path.split('/').length - 1) }}
          onClick={() => {
            setSelected(f.kind === 'dir' ? f.path : null);
            if (f.kind !== 'dir') void ed().openFile(f.path);
          }}
          data-testid={rowId(TID.editorFile, f.path)}
          data-kind={f.kind}
          title={f.path}
        >
          {dirty.includes(f.path) ? '● ' : ''}
          {f.path.split('/').pop()}
          {f.kind === 'dir' ? '/' : ''}
        </button>
      ))}
      {!readOnly && (
        <>
          <div className="editor-file-actions">
            <Button size="mini" disabled={target === SKILL_FILE} onClick={startRename} data-testid={TID.editorRename}>
              {t('editor.rename')}
            </Button>
            <Button size="mini" status="danger" disabled={target === SKILL_FILE} onClick={startDelete} data-testid={TID.editorDeletePath}>
              {t('editor.deleteFile')}
            </Button>
          </div>
          <form
            className="editor-new-file"
            onSubmit={(e) => {
              e.preventDefault();
              const p = newPath.trim();
              if (p)
                void ed()
                  .createFile(p)
                  .then(() => setNewPath(''));
            }}
          >
            <Input
              size="small"
              value={newPath}
              onChange={setNewPath}
              placeholder={t('editor.newFilePlaceholder')}
              data-testid={TID.editorNewFileName}
            />
          </form>
          <div className="editor-file-actions">
            <Button
              size="mini"
              disabled={!newPath.trim()}
              onClick={() =>
                void ed()
                  .createFile(newPath.trim())
                  .then(() => setNewPath(''))
              }
              data-testid={TID.editorNewFile}
            >
              {t('common.add')}
            </Button>
            <Button
              size="mini"
              disabled={!newPath.trim()}
              onClick={() =>
                void ed()
                  .createFolder(newPath.trim())
                  .then(() => setNewPath(''))
              }
              data-testid={TID.editorNewFolder}
            >
              {t('editor.newFolder')}
            </Button>
          </div>
        </>
      )}
      <Modal
        visible={renaming !== null}
        title={t('editor.renamePrompt', { path: renaming ?? '' })}
        onCancel={() => setRenaming(null)}
        onOk={rename}
      >
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void rename();
          }}
        >
          <Input autoFocus value={renameTo} onChange={setRenameTo} data-testid={TID.editorRenameTo} />
        </form>
      </Modal>
      <Modal
        visible={deleting !== null}
        title={t('editor.deleteFile')}
        onCancel={() => setDeleting(null)}
        // Focus starts on the confirm button: Enter deletes, Escape cancels.
        autoFocus={false}
        okButtonProps={{ status: 'danger', autoFocus: true, ...{ 'data-testid': TID.editorDeleteConfirmOk } }}
        onOk={confirmDelete}
      >
        <div data-testid={TID.editorDeleteConfirm}>{t('editor.deleteFileConfirm', { path: deleting ?? '' })}</div>
      </Modal>
    </>
  );
}
