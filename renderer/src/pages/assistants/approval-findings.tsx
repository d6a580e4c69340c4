import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Spin, Tag } from '@arco-design/web-react';
import type { ScanFinding, SkillRisk } from '../../../../src/contract/index';
import { findingText } from '../../i18n/engine-text';
import { useRisks } from '../../stores/risk-store';
import { TID, rowId } from '../../testids';
import '../skills/truth.css';

const LEVEL_COLOR = { high: 'red', medium: 'orange', low: 'gray' } as const;

/**
 * What the security scan found in a skill, shown where the user is asked to approve its scripts:
 * each finding's level, `file:line` inside the skill and what it means, in the user's language.
 */
export function ApprovalFindings({ entryId }: { entryId: string | undefined }) {
  const { t } = useTranslation();
  const generation = useRisks((s) => s.generation);
  const risk = useRisks((s) => (entryId ? s.byId.get(entryId) : undefined));
  useEffect(() => {
    if (generation === null) void useRisks.getState().load();
  }, [generation]);

  if (generation === null) return <Spin size={14} />;
  const count = risk ? risk.high + risk.medium + risk.low : 0;
  return (
    <div className="approval-findings" data-testid={TID.approvalFindings} data-high={risk?.high ?? 0}>
      <div className="approval-findings-head">
        {count === 0 ? t('security.approvalNoFindings') : t('security.approvalFindings', { count })}
      </div>
      {risk && <FindingRows risk={risk} />}
    </div>
  );
}

function FindingRows({ risk }: { risk: SkillRisk }) {
  const { t } = useTranslation();
  const hidden = risk.high + risk.medium + risk.low - risk.findings.length;
  return (
    <ul className="approval-findings-list">
      {risk.findings.map((f, i) => (
        <li key={`${f.code}-${f.file}-${f.line ?? 0}-${i}`} data-testid={rowId(TID.approvalFinding, String(i))} data-level={f.level}>
          <Tag size="small" color={LEVEL_COLOR[f.level]}>
            {t(`security.level.${f.level}`)}
          </Tag>
          <code className="approval-findings-where">{where(f)}</code>
          <span>{findingText(t, f)}</span>
        </li>
      ))}
      {hidden > 0 && <li className="muted">{t('security.approvalMore', { count: hidden })}</li>}
    </ul>
  );
}

function where(f: ScanFinding): string {
  return f.line !== undefined ? `${f.file}:${f.line}` : f.file;
}
