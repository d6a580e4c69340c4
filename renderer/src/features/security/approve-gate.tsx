import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Checkbox } from '@arco-design/web-react';
import { ApprovalFindings } from '../../pages/assistants/approval-findings';
import { useRisks } from '../../stores/risk-store';
import { TID } from '../../testids';

/**
 * The one way every approval of a skill's scripts is asked for (issue 23 item 7: the drawer approved a
 * `curl | sh` skill in one click while the picker asked for a tick first): the scan's findings
 * (unless the page lists them already), and with a high finding the "I have read the findings" tick,
 * without which the approve button stays disabled. While the findings are not known yet the button
 * waits for them. `high` is the count when the page has the skill's scan at hand (the drawer);
 * otherwise the catalog's scan answers by entry. `extra` goes before the approve button.
 */
export function ApproveGate({
  entryId,
  high: given,
  label,
  busy = false,
  testId,
  showFindings = true,
  extra,
  onApprove,
}: {
  entryId: string | undefined;
  high?: number;
  label: string;
  busy?: boolean;
  testId: string;
  showFindings?: boolean;
  extra?: ReactNode;
  onApprove(): void | Promise<void>;
}) {
  const { t } = useTranslation();
  const generation = useRisks((s) => s.generation);
  const fromCatalog = useRisks((s) => (entryId ? (s.byId.get(entryId)?.high ?? 0) : 0));
  const high = given ?? (generation === null ? null : fromCatalog);
  const [reviewed, setReviewed] = useState(false);
  // Another skill, another reading: the tick is never carried over.
  useEffect(() => setReviewed(false), [entryId]);
  useEffect(() => {
    if (given === undefined && generation === null) void useRisks.getState().load();
  }, [given, generation]);

  return (
    <>
      {showFindings && <ApprovalFindings entryId={entryId} />}
      {high !== null && high > 0 && (
        <Checkbox checked={reviewed} onChange={setReviewed} className="approval-reviewed" data-testid={TID.approvalReviewed}>
          {t('security.approvalReviewed', { count: high })}
        </Checkbox>
      )}
      <div className="actions-row">
        {extra}
        <Button
          size="small"
          type="primary"
          status={high ? 'danger' : 'warning'}
          disabled={high === null || (high > 0 && !reviewed)}
          loading={busy}
          data-testid={testId}
          onClick={() => void onApprove()}
        >
          {label}
        </Button>
      </div>
    </>
  );
}
