import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Empty, Tag } from '@arco-design/web-react';
import { PageHeader } from '../../components/page-header';
import type { CheckResult, SkillOrigin, UpdateResult } from '../../../../src/contract/index';
import { useSources } from '../../stores/sources-store';
import { TID, pageId, rowId } from '../../testids';
import { GitOutput, SourceError, splitGitDetail } from './source-error';
import { UpdateConflictDialog } from './update-conflict-dialog';
import './sources.css';
import { formatWhen } from '../../i18n/format-date';

const CHECK_COLOR: Record<CheckResult['status'], string> = {
  'up-to-date': 'green',
  'update-available': 'arcoblue',
  'changed-locally': 'cyan',
  'upstream-removed': 'orange',
  unreachable: 'red',
  pinned: 'gray',
  missing: 'gray',
};

const short = (commit: string) => (/^[0-9a-f]{40}$/.test(commit) ? commit.slice(0, 7) : commit);

/** Skills added from a source: where each came from, whether upstream moved, and updating them. */
export function UpdatesPage() {
  const { t, i18n } = useTranslation();
  const { provenance, checks, updates, checkedAt, checking, busy, outcomes, error, check, update } = useSources();
  const [resolving, setResolving] = useState<string | null>(null);

  // Another door or page may add, update or delete skills: the store reads the records again on each library change.
  useEffect(() => useSources.getState().watch(), []);

  const names = Object.keys(provenance ?? {}).sort((a, b) => a.localeCompare(b));
  const when = (iso: string | number) => formatWhen(iso, i18n.language);
  const conflict = resolving ? outcomes[resolving] : undefined;

  return (
    <div className="page" data-testid={pageId('updates')}>
      <PageHeader
        title={t('sources.updates.title')}
        actions={
          <>
            <Button onClick={() => void check()} loading={checking} disabled={names.length === 0} data-testid={TID.updatesCheck}>
              {t('sources.updates.check')}
            </Button>
            <Button
              type="primary"
              onClick={() => void update(null)}
              loading={Boolean(busy['*'])}
              disabled={updates === 0 || checking}
              data-testid={TID.updatesAll}
            >
              {t('sources.updates.updateAll', { count: updates })}
            </Button>
          </>
        }
      >
        <span className="muted" data-testid={TID.updatesSummary}>
          {checkedAt ? t('sources.updates.checkedAt', { count: updates, time: when(checkedAt) }) : t('sources.updates.notChecked')}
        </span>
      </PageHeader>
      {error !== null && error !== undefined && <SourceError err={error} testId={TID.updatesError} />}
      {provenance && names.length === 0 && <Empty description={t('sources.updates.empty')} />}
      <div className="updates-list" data-testid={TID.updatesList}>
        {names.map((name) => (
          <UpdateRow
            key={name}
            name={name}
            origin={provenance![name]!}
            check={checks[name]}
            outcome={outcomes[name]}
            busy={Boolean(busy[name] || busy['*'])}
            installed={when(provenance![name]!.time)}
            onResolve={() => setResolving(name)}
          />
        ))}
      </div>
      {conflict && conflict.status === 'conflict' && (
        <UpdateConflictDialog
          result={conflict}
          busy={Boolean(busy[conflict.skill])}
          onCancel={() => setResolving(null)}
          onApply={(choices) => {
            setResolving(null);
            void update([conflict.skill], { [conflict.skill]: choices });
          }}
        />
      )}
    </div>
  );
}

function UpdateRow({
  name,
  origin,
  check,
  outcome,
  busy,
  installed,
  onResolve,
}: {
  name: string;
  origin: SkillOrigin;
  check: CheckResult | undefined;
  outcome: UpdateResult | undefined;
  busy: boolean;
  installed: string;
  onResolve(): void;
}) {
  const { t } = useTranslation();
  const { update, pin, unpin } = useSources();
  const status = check?.status ?? 'unchecked';
  const said = check ? splitGitDetail(t, check.msg, check.message) : null;
  const did = outcome ? splitGitDetail(t, outcome.msg, outcome.message) : null;
  const canUpdate = check?.status === 'update-available' && outcome?.status !== 'conflict';
  return (
    <div className="updates-row" data-testid={rowId(TID.updatesRow, name)} data-status={status}>
      <div className="updates-row-main">
        <div className="updates-row-title">
          <span className="skill-name">{name}</span>
          {check ? (
            <Tag size="small" color={CHECK_COLOR[check.status]} data-testid={TID.updatesStatus}>
              {t(`sources.status.${check.status}`)}
            </Tag>
          ) : (
            <Tag size="small" data-testid={TID.updatesStatus}>
              {t('sources.status.unchecked')}
            </Tag>
          )}
          {check?.localChanges && check.status !== 'changed-locally' && (
            <Tag size="small" color="cyan">
              {t('sources.status.edited')}
            </Tag>
          )}
          {origin.pinned && (
            <Tag size="small" color="purple" data-testid={TID.updatesPinned}>
              {t('sources.updates.pinnedTo', { ref: short(origin.pinned) })}
            </Tag>
          )}
        </div>
        <div className="muted small updates-origin">
          <span className="mono" title={origin.source.url}>
            {origin.source.given}
          </span>
          {origin.path && <span className="mono"> › {origin.path}</span>}
          {' · '}
          {origin.source.ref ? t('sources.updates.ref', { ref: origin.source.ref }) : t('sources.updates.defaultBranch')}
          {' · '}
          <span className="mono" title={origin.commit} data-testid={TID.updatesCommit}>
            {short(origin.commit)}
          </span>
          {' · '}
          {t('sources.updates.installed', { time: installed })}
        </div>
        {said && check?.status !== 'up-to-date' && (
          <div className="small updates-message">
            {said.text}
            {said.detail && <GitOutput detail={said.detail} />}
          </div>
        )}
        {did && outcome && (
          <div className="small updates-message" data-testid={TID.updatesOutcome} data-status={outcome.status}>
            {/* The engine's conflict sentence speaks to the CLI (--take); here the Resolve button is the way. */}
            {outcome.status === 'conflict'
              ? t('sources.updates.conflictNote', { count: outcome.files.filter((f) => f.action === 'conflict').length })
              : did.text}
            {did.detail && <GitOutput detail={did.detail} />}
            {outcome.surfaceChanged && (
              <Tag size="small" color="orange" className="updates-approve">
                {t('sources.updates.needsApproval')}
              </Tag>
            )}
          </div>
        )}
      </div>
      <div className="updates-actions">
        {outcome?.status === 'conflict' && (
          <Button
            size="small"
            type="primary"
            status="warning"
            onClick={onResolve}
            loading={busy}
            data-testid={rowId(TID.updatesResolve, name)}
          >
            {t('sources.updates.resolve')}
          </Button>
        )}
        {canUpdate && (
          <Button
            size="small"
            type="primary"
            onClick={() => void update([name])}
            loading={busy}
            data-testid={rowId(TID.updatesUpdate, name)}
          >
            {t('sources.updates.update')}
          </Button>
        )}
        <Button
          size="small"
          disabled={busy}
          onClick={() => void (origin.pinned ? unpin(name) : pin(name))}
          data-testid={rowId(TID.updatesPin, name)}
        >
          {origin.pinned ? t('sources.updates.unpin') : t('sources.updates.pin')}
        </Button>
      </div>
    </div>
  );
}
