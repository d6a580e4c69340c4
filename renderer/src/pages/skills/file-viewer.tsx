import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Spin } from '@arco-design/web-react';
import type { CatalogEntry } from '../../../../src/contract/index';
import { FileTree } from '../../components/file-tree';
import { engineText } from '../../i18n/engine-text';
import { useSkill } from '../../stores/skill-store';
import { TID } from '../../testids';
import { formatBytes } from './provenance-format';
import './truth.css';

// The Files tab: the skill's tree, and the file picked in it shown read-only with syntax colours.
// Reads go through readSkillFile (confined to the skill's folder by the engine); the viewer asks for
// at most VIEW_MAX_BYTES, so a bigger file is never read. The highlighter is loaded on first use.

export const VIEW_MAX_BYTES = 512 * 1024;
const CodeView = lazy(() => import('../../components/code-view').then((m) => ({ default: m.CodeView })));

export function FilesTab({ entry, files }: { entry: CatalogEntry; files: readonly string[] }) {
  const [selected, setSelected] = useState<string | null>(null);
  useEffect(() => setSelected(null), [entry.id]);
  return (
    <div className="files-pane">
      <div className="files-pane-tree">
        <FileTree files={files} selected={selected} onSelect={setSelected} />
      </div>
      {selected && <FileViewer entry={entry} path={selected} />}
    </div>
  );
}

export function FileViewer({ entry, path }: { entry: CatalogEntry; path: string }) {
  const { t, i18n } = useTranslation();
  const formatSize = (n: number) => formatBytes(n, i18n);
  const key = `${entry.id}\n${entry.digest}\n${path}`;
  const view = useSkill((s) => (s.file?.key === key ? s.file : null));
  const loaded = view && (view.data ? { file: view.data } : view.error !== null ? { error: view.error } : null);
  useEffect(() => {
    void useSkill.getState().readFile(key, entry.id, path, VIEW_MAX_BYTES);
  }, [key, entry.id, path]);

  return (
    <div className="file-viewer" data-testid={TID.fileViewer} data-path={path}>
      <div className="file-viewer-head">
        <code>{path}</code>
        {loaded?.file && <span className="muted small">{formatSize(loaded.file.size)}</span>}
        <span className="muted small">{t('skills.viewer.readOnly')}</span>
      </div>
      {!loaded ? (
        <Spin />
      ) : loaded.error !== undefined ? (
        <Alert type="error" content={loaded.error} data-testid={TID.fileViewerNotice} />
      ) : loaded.file.content === null ? (
        <Alert
          type="info"
          data-testid={TID.fileViewerNotice}
          content={
            loaded.file.readOnlyReason?.key === 'editor.readonly.binary'
              ? t('skills.viewer.binary', { size: formatSize(loaded.file.size) })
              : engineText(t, loaded.file.readOnlyReason, t('skills.viewer.notShown'))
          }
        />
      ) : (
        <Suspense fallback={<Spin />}>
          <CodeView path={path} text={loaded.file.content} />
        </Suspense>
      )}
    </div>
  );
}
