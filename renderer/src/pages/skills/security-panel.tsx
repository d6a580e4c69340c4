import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Empty, Spin, Tag } from '@arco-design/web-react';
import type { ApprovalDiff, CatalogEntry } from '../../../../src/contract/index';
import { engineText } from '../../i18n/engine-text';
import { useCatalog } from '../../stores/catalog-store';
import { useSkill } from '../../stores/skill-store';
import { TID, rowId } from '../../testids';
import { DiagnosticList } from './skill-drawer';
import { relativeToSkill } from './skill-relative';
import { formatWhen } from '../../i18n/format-date';
import { ApproveGate } from '../../features/security/approve-gate';

const STATUS_COLOR = { 'no-surface': 'gray', approved: 'green', changed: 'orange', unapproved: 'red' } as const;

/** What the skill can run, what the scan found, and whether it is approved (issue 6). By dir: names can be shadowed. */
export function SecurityPanel({ entry }: { entry: CatalogEntry }) {
  const { t, i18n } = useTranslation();
  const dir = entry.provenance.dir;
  const trustRev = useCatalog((s) => s.trustRev);
  // Read again when the skill's content changes or an approval changed anywhere (trustRev).
  const key = `${dir}\n${entry.digest}\n${trustRev}`;
  const state = useSkill((s) => (s.security?.key === key ? s.security.data : null));
  const busy = useSkill((s) => s.securityBusy);

  useEffect(() => {
    void useSkill.getState().loadSecurity(key, dir);
  }, [key, dir]);

  if (!state) return <Spin />;
  const { inventory, scan, trust, diff, errors } = state;

  return (
    <div data-testid={TID.skillSecurity} className="overview">
      {errors.map((e, i) => (
        <Alert key={i} type="error" className="page-alert" content={e} />
      ))}
      {trust && (
        <section className="section">
          <div className="subheading">{t('security.approval')}</div>
          <div className="inline">
            <Tag color={STATUS_COLOR[trust.status]} data-testid={TID.skillApprovalStatus} data-status={trust.status}>
              {t(`security.status.${trust.status}`)}
            </Tag>
            <span className="muted small">
              {t('security.policy', { policy: t(`settings.policy.${trust.policy}`) })} ·{' '}
              {trust.scriptsAllowed ? t('security.scriptsAllowed') : t('security.scriptsBlocked')}
            </span>
            <div className="grow" />
            {trust.approval && (
              <Button size="small" loading={busy} data-testid={TID.skillRevoke} onClick={() => void useSkill.getState().revoke(trust.name)}>
                {t('security.revoke')}
              </Button>
            )}
          </div>
          {(trust.status === 'unapproved' || trust.status === 'changed') && (
            // On a row of its own under the status: the findings are listed below on this tab; the gate
            // adds the tick a high one asks for.
            <div className="approve-gate">
              <ApproveGate
                entryId={entry.id}
                high={scan?.findings.filter((f) => f.level === 'high').length ?? 0}
                label={t('security.approve')}
                busy={busy}
                testId={TID.skillApprove}
                showFindings={false}
                onApprove={() => useSkill.getState().approve(dir)}
              />
            </div>
          )}
          {trust.approval && (
            <div className="muted small hint">
              {t('security.approvedBy', { who: trust.approval.approvedBy, when: formatWhen(trust.approval.approvedAt, i18n.language) })}
            </div>
          )}
        </section>
      )}
      {diff && <DiffView diff={diff} />}
      <section className="section">
        <div className="subheading">{t('security.findings', { count: scan?.findings.length ?? 0 })}</div>
        {scan && scan.findings.length > 0 ? (
          <DiagnosticList diagnostics={relativeToSkill(scan.findings, [scan.dir, dir, entry.provenance.realPath])} />
        ) : (
          <span className="muted">{t('security.noFindings')}</span>
        )}
      </section>
      {inventory && (
        <section className="section" data-testid={TID.skillInventory}>
          <div className="subheading">{t('security.surface')}</div>
          {!inventory.hasExecutableSurface && <span className="muted">{t('security.noSurface')}</span>}
          {inventory.files.map((f) => (
            <div key={f.path} className="small" data-testid={rowId(TID.skillSurfaceFile, f.path)}>
              <code>{f.path}</code>{' '}
              {f.reasons.map((r) => (
                <Tag key={r} size="small">
                  {t(`security.reason.${r}`)}
                </Tag>
              ))}
              {f.shebang && <span className="muted mono"> {f.shebang}</span>}
            </div>
          ))}
          {inventory.commands.map((c, i) => (
            <div key={i} className="small">
              <span className="muted">SKILL.md:{c.line}</span> <code>{c.text}</code>
            </div>
          ))}
          {inventory.allowedTools && (
            <div className="small">
              allowed-tools: <code>{inventory.allowedTools}</code>{' '}
              {inventory.grantsShell && (
                <Tag size="small" color="orange">
                  {t('security.grantsShell')}
                </Tag>
              )}
            </div>
          )}
          {inventory.hooks != null && (
            <div className="small">
              hooks: <code>{JSON.stringify(inventory.hooks)}</code>
            </div>
          )}
        </section>
      )}
      {!inventory && !scan && !trust && errors.length === 0 && <Empty />}
    </div>
  );
}

function DiffView({ diff }: { diff: ApprovalDiff }) {
  const { t } = useTranslation();
  return (
    <section className="section" data-testid={TID.skillApprovalDiff}>
      <div className="subheading">{t('security.changedSince')}</div>
      {diff.files.map((f) => (
        <div key={f.path} className="small">
          <Tag size="small">{t(`security.change.${f.change}`)}</Tag> <code>{f.path}</code>
          {f.diff ? (
            <pre className="pre-box">{f.diff}</pre>
          ) : f.note ? (
            <span className="muted"> {engineText(t, f.noteMsg, f.note)}</span>
          ) : null}
        </div>
      ))}
      {diff.commands.added.map((c) => (
        <div key={`+${c}`} className="small mono">
          + {c}
        </div>
      ))}
      {diff.commands.removed.map((c) => (
        <div key={`-${c}`} className="small mono">
          - {c}
        </div>
      ))}
      {diff.hooksChanged && <div className="small">{t('security.hooksChanged')}</div>}
      {diff.allowedTools && (
        <div className="small mono">
          allowed-tools: {diff.allowedTools.before ?? '∅'} → {diff.allowedTools.after ?? '∅'}
        </div>
      )}
    </section>
  );
}
