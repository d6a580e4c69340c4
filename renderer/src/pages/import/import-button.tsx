import { lazy, Suspense, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Dropdown, Menu } from '@arco-design/web-react';
import { desktop } from '../../stores/desktop';
import { useImport } from '../../stores/import-store';
import { TID } from '../../testids';
import { itemsFromFileList } from '../../client/drop';

// Loaded the first time it is opened: the Skills page ships in the first script (issue 16).
const AddSourceDialog = lazy(() => import('../sources/add-source-dialog').then((m) => ({ default: m.AddSourceDialog })));

export function ImportButton() {
  const { t } = useTranslation();
  const busy = useImport((s) => s.importId !== null);
  const importPaths = useImport((s) => s.importPaths);
  const importUpload = useImport((s) => s.importUpload);
  const fileRef = useRef<HTMLInputElement>(null);
  const [addingSource, setAddingSource] = useState(false);
  const dirRef = useRef<HTMLInputElement>(null);

  const onFiles = (list: FileList | null) => {
    if (list && list.length) void importUpload(itemsFromFileList(list));
  };
  return (
    <>
      <input
        ref={fileRef}
        type="file"
        multiple
        accept=".zip,.skill"
        hidden
        data-testid={TID.importFileInput}
        onChange={(e) => {
          onFiles(e.target.files);
          e.target.value = '';
        }}
      />
      <input
        ref={dirRef}
        type="file"
        hidden
        data-testid={TID.importFolderInput}
        // webkitdirectory is not in React's typings.
        {...({ webkitdirectory: '', directory: '' } as Record<string, string>)}
        onChange={(e) => {
          onFiles(e.target.files);
          e.target.value = '';
        }}
      />
      <Dropdown
        trigger="click"
        droplist={
          <Menu
            onClickMenuItem={async (key) => {
              if (key === 'source') return setAddingSource(true);
              // Desktop: the native picker gives real paths. Browser: file inputs, uploaded to staging.
              if (desktop.canPickImport()) {
                const paths = await desktop.pickImportPaths(key === 'folder' ? 'folders' : 'archives');
                if (paths.length) await importPaths(paths);
              } else if (key === 'folder') dirRef.current?.click();
              else fileRef.current?.click();
            }}
          >
            <Menu.Item key="folder" data-testid={TID.importPickFolder}>
              {t('import.pickFolder')}
            </Menu.Item>
            <Menu.Item key="archive" data-testid={TID.importPickArchive}>
              {t('import.pickArchive')}
            </Menu.Item>
            <Menu.Item key="source" data-testid={TID.importPickSource}>
              {t('sources.add.menu')}
            </Menu.Item>
          </Menu>
        }
      >
        <Button type="primary" loading={busy} data-testid={TID.importButton}>
          {t('import.button')}
        </Button>
      </Dropdown>
      {addingSource && (
        <Suspense fallback={null}>
          <AddSourceDialog onClose={() => setAddingSource(false)} />
        </Suspense>
      )}
    </>
  );
}
