import { useTranslation } from 'react-i18next';
import { Empty } from '@arco-design/web-react';
import type { CatalogEntry } from '../../../../src/contract/index';
import { TID } from '../../testids';
import { DiagnosticList } from './skill-drawer';

/**
 * The executable surface, scan findings and approval state (issue 6). Until the security contract
 * lands, the scan findings that already ride on the entry's diagnostics are shown.
 */
export function SecurityPanel({ entry }: { entry: CatalogEntry }) {
  const { t } = useTranslation();
  const findings = entry.diagnostics.filter((d) => d.code.startsWith('scan-') || d.code.startsWith('security-'));
  return (
    <div data-testid={TID.skillSecurity}>
      {findings.length ? <DiagnosticList diagnostics={findings} /> : <Empty description={t('security.notAvailable')} />}
    </div>
  );
}
