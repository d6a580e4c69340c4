import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { desktop } from '../../stores/desktop';
import { useCatalog } from '../../stores/catalog-store';
import { useImport } from '../../stores/import-store';
import { TID } from '../../testids';
import { collectDropped } from '../../client/drop';

function hasFiles(e: DragEvent): boolean {
  return Array.from(e.dataTransfer?.types ?? []).includes('Files');
}

/** Drop folders or archives anywhere on the window; the overlay names where they will go. */
export function DropOverlay() {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  // Set once the window listens for drops: a drop before that (right after the first paint) would be lost.
  const [armed, setArmed] = useState(false);
  const depth = useRef(0);
  const libraryPath = useCatalog((s) => s.catalog?.roots.find((r) => r.kind === 'library')?.path);
  const importPaths = useImport((s) => s.importPaths);
  const importUpload = useImport((s) => s.importUpload);

  useEffect(() => {
    // dragenter/dragleave fire for every child element crossed: count them to know when we left.
    const enter = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      depth.current++;
      setVisible(true);
    };
    const over = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
    };
    const leave = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      depth.current = Math.max(0, depth.current - 1);
      if (depth.current === 0) setVisible(false);
    };
    const drop = async (e: DragEvent) => {
      if (!hasFiles(e) || !e.dataTransfer) return;
      e.preventDefault();
      depth.current = 0;
      setVisible(false);
      const files = Array.from(e.dataTransfer.files);
      // Entries must be taken before the first await: the DataTransfer is emptied after the event.
      const collected = desktop.isDesktop() ? null : collectDropped(e.dataTransfer);
      const paths = desktop.pathsOf(files);
      if (paths) {
        if (paths.length) await importPaths(paths);
        return;
      }
      const items = collected ? await collected : [];
      if (items.length) await importUpload(items);
    };
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragover', over);
    window.addEventListener('dragleave', leave);
    const onDrop = (e: DragEvent) => void drop(e); // import failures are reported by the import store
    window.addEventListener('drop', onDrop);
    setArmed(true);
    return () => {
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragover', over);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('drop', onDrop);
    };
  }, [importPaths, importUpload]);

  return (
    <div className={`drop-overlay${visible ? ' visible' : ''}`} data-testid={TID.dropOverlay} data-armed={armed} aria-hidden={!visible}>
      <div className="drop-target" data-testid={TID.dropTarget}>
        <div className="drop-title">{t('import.dropTitle')}</div>
        <div className="drop-hint">{t('import.dropHint')}</div>
        {libraryPath && <code className="drop-path">{libraryPath}</code>}
      </div>
    </div>
  );
}
