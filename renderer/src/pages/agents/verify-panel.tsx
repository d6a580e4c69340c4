import { useTranslation } from 'react-i18next';
import { Alert, Button, Tag } from '@arco-design/web-react';
import type { VerifyResult, VerifyRow, VerifyShown } from '../../../../src/contract/index';
import { engineText } from '../../i18n/engine-text';
import { useAgents } from '../../stores/agents-store';
import { TID, rowId } from '../../testids';

// "Check with the real agent": the engine runs the user's installed CLI once, offline, against a
// loopback recorder, and this panel sets what its model was sent beside SkillDock's prediction.
// Differences come first and are highlighted; the capture is the one that is right.

const COLOR: Record<VerifyShown, string> = { full: 'green', shortened: 'orange', 'name-only': 'red', missing: 'gray' };

function Shown({ side }: { side: VerifyRow['predicted'] }) {
  const { t } = useTranslation();
  return (
    <div className="verify-side">
      <Tag size="small" color={COLOR[side.shown]}>
        {t(`agents.verify.shown.${side.shown}`)}
      </Tag>
      {side.description !== null && <div className="small verify-text">{side.description}</div>}
    </div>
  );
}

function Row({ row }: { row: VerifyRow }) {
  const { t } = useTranslation();
  return (
    <div
      className={`verify-row${row.same ? '' : ' verify-diff'}`}
      data-testid={rowId(TID.agentVerifyRow, row.label)}
      data-same={row.same}
      data-captured={row.captured.shown}
    >
      <div className="row-title">
        <b>{row.label}</b>{' '}
        <Tag size="small" color={row.same ? 'green' : 'red'}>
          {row.same ? t('agents.verify.same') : t('agents.verify.differs')}
        </Tag>
      </div>
      <div className="verify-sides">
        <Shown side={row.predicted} />
        <Shown side={row.captured} />
      </div>
      {row.advice && <div className="small muted">{engineText(t, row.advice, '')}</div>}
    </div>
  );
}

function Result({ result }: { result: VerifyResult }) {
  const { t } = useTranslation();
  // Differences first, then the rest as listed.
  const rows = [...result.rows].sort((a, b) => Number(a.same) - Number(b.same));
  return (
    <div data-testid={TID.agentVerifyResult} data-differences={result.differences}>
      <div className="small muted">
        {t('agents.verify.ran', {
          agent: result.agent.name,
          version: result.version ?? t('agents.verify.versionUnknown'),
          cli: result.cli,
          checkedOn: result.checkedOn,
        })}
      </div>
      {result.notes.map((n) => (
        <Alert key={n.key} type="warning" className="page-alert" content={engineText(t, n, '')} />
      ))}
      <Alert
        type={result.differences ? 'error' : 'success'}
        className="page-alert"
        content={result.differences ? t('agents.verify.differences', { count: result.differences }) : t('agents.verify.noDifferences')}
      />
      <div className="verify-sides verify-head small muted">
        <div>{t('agents.verify.predicted')}</div>
        <div>{t('agents.verify.captured')}</div>
      </div>
      {rows.map((r, i) => (
        <Row key={`${r.label}-${i}`} row={r} />
      ))}
    </div>
  );
}

export function VerifyPanel({ agent, supported }: { agent: string; supported: boolean }) {
  const { t } = useTranslation();
  const check = useAgents((s) => s.checks[agent]);
  const verify = useAgents((s) => s.verify);
  if (!supported) return null;
  return (
    <section className="section">
      <div className="inline">
        <Button type="primary" loading={check?.running} onClick={() => void verify(agent)} data-testid={TID.agentVerify}>
          {t('agents.verify.button')}
        </Button>
        <span className="small muted">{check?.running ? t('agents.verify.running') : t('agents.verify.offline')}</span>
      </div>
      {check?.error && <Alert type="error" className="page-alert" content={check.error} data-testid={TID.agentVerifyError} />}
      {check?.result && !check.running && <Result result={check.result} />}
    </section>
  );
}
