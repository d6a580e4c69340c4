import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button } from '@arco-design/web-react';
import type { TrustFile } from '../../../../src/contract/index';
import { errorText } from '../../stores/errors';
import { useSettings } from '../../stores/settings-store';
import { engineText } from '../../i18n/engine-text';
import { TID, rowId } from '../../testids';

// approvals.json and settings.json as SkillDock last wrote them, or changed by something else (an
// agent's shell, an editor): a changed file is trusted in nothing until the user confirms it here
// (or with `skilldock approve --confirm-file`).
export function TrustFilesSection() {
  const { t } = useTranslation();
  const [files, setFiles] = useState<TrustFile[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  // Settings saved (here or by another process) may change the seal: look again.
  const settings = useSettings((s) => s.settings);
  const load = async () => {
    try {
      setFiles(await useSettings.getState().trustFiles());
      setError(null);
    } catch (err) {
      setError(errorText(err));
    }
  };
  useEffect(() => {
    void load();
  }, [settings]);
  if (!files) return error ? <Alert type="error" content={error} /> : null;
  return (
    <div className="card" data-testid={TID.settingsTrustFiles}>
      <h3>{t('settings.trustFiles.title')}</h3>
      {error && <Alert type="error" content={error} />}
      {files.map((f) => (
        <div key={f.file} className="inline root-row" data-testid={rowId(TID.settingsTrustFile, f.file)} data-status={f.status}>
          <code>{f.file}</code>
          <span className="grow">{engineText(t, { key: `security.trust-file.${f.status}` }, f.status)}</span>
          {f.status === 'changed' && (
            <Button
              size="mini"
              status="warning"
              data-testid={rowId(TID.settingsTrustConfirm, f.file)}
              onClick={async () => {
                try {
                  await useSettings.getState().confirmTrustFile(f.file);
                } catch (err) {
                  setError(errorText(err));
                }
                await load();
              }}
            >
              {t('settings.trustFiles.confirm')}
            </Button>
          )}
        </div>
      ))}
      {files.some((f) => f.status === 'changed') && <Alert type="warning" content={t('settings.trustFiles.changedHint')} />}
    </div>
  );
}
