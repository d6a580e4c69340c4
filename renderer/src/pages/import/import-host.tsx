import { lazy, memo } from 'react';
import { MountOnce } from '../../components/mount-once';
import { useImport } from '../../stores/import-store';

// The import panel (progress, summary, conflict dialogs, undo toast) is loaded the first time there
// is something to show, like the skill drawer: the first paint needs none of it (issue 16).
const ImportPanel = lazy(() => import('./import-panel').then((m) => ({ default: m.ImportPanel })));

export const ImportPanelHost = memo(function ImportPanelHost() {
  const busy = useImport((s) => Boolean(s.importId || s.summary || s.error || s.pending.length > 0 || s.lastOp));
  return (
    <MountOnce when={busy}>
      <ImportPanel />
    </MountOnce>
  );
});
