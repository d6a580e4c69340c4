import { memo, useRef } from 'react';
import type { TFunction } from 'i18next';
import { observeElementRect, useVirtualizer } from '@tanstack/react-virtual';
import { useTranslation } from 'react-i18next';
import { Empty, Tag } from '@arco-design/web-react';
import type { CatalogEntry, SkillRisk } from '../../../../src/contract/index';
import { useRisks } from '../../stores/risk-store';
import { useUsage, type SkillUsage } from '../../stores/usage-store';
import { TID, rowId } from '../../testids';

const ROW_HEIGHT = 64;
const NO_LAYOUT = { width: 800, height: 600 };

/** Only the rows in view are in the DOM, so 10,000 skills scroll like 20. */
export const SkillList = memo(function SkillList({
  entries,
  onOpen,
  ticked,
  onTick,
}: {
  entries: CatalogEntry[];
  onOpen(id: string): void;
  /** Multi-select: the ticked entries' ids, and how a row's box changes it. */
  ticked?: ReadonlySet<string>;
  onTick?(id: string, on: boolean): void;
}) {
  const { t } = useTranslation();
  const risks = useRisks((s) => s.byId);
  const usage = useUsage((s) => (s.summary ? s.bySkill : null));
  // An agent whose log format changed: a skill with no use recorded may still have been used.
  const unknown = useUsage((s) => (s.summary?.unknown.length ?? 0) > 0);
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: entries.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
    getItemKey: (i) => entries[i].id,
    // Before layout (first paint, a hidden tab, DOMs without layout) the box measures 0: render a
    // first screen of rows anyway rather than an empty list.
    initialRect: NO_LAYOUT,
    observeElementRect: (instance, cb) => observeElementRect(instance, (rect) => cb(rect.height > 0 ? rect : NO_LAYOUT)),
  });

  if (entries.length === 0) {
    return (
      <div className="list-empty" data-testid={TID.skillsList}>
        <Empty description={t('skills.empty')} />
      </div>
    );
  }
  return (
    <div ref={scrollRef} className="virtual-scroll" data-testid={TID.skillsList} role="list">
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((item) => (
          <SkillRow
            key={item.key}
            entry={entries[item.index]}
            risk={risks.get(entries[item.index].id)}
            usage={usage ? (usage.get(entries[item.index].name) ?? (unknown ? UNKNOWN : NEVER)) : null}
            start={item.start}
            t={t}
            onOpen={onOpen}
            ticked={ticked?.has(entries[item.index].id) ?? false}
            onTick={onTick}
          />
        ))}
      </div>
    </div>
  );
});

/** A row re-renders only when its entry, position or language changes (not on every keystroke). */
const SkillRow = memo(function SkillRow({
  entry: e,
  risk,
  usage,
  start,
  t,
  onOpen,
  ticked,
  onTick,
}: {
  entry: CatalogEntry;
  risk: SkillRisk | undefined;
  /** Its uses in 90 days (NEVER: none); null while the ledger is not read. */
  usage: SkillUsage | null;
  start: number;
  t: TFunction;
  onOpen(id: string): void;
  ticked: boolean;
  onTick?(id: string, on: boolean): void;
}) {
  return (
    <div
      role="listitem"
      tabIndex={0}
      className="skill-row"
      data-testid={rowId(TID.skillRow, e.id)}
      data-skill-name={e.name}
      style={{ transform: `translateY(${start}px)`, height: ROW_HEIGHT }}
      onClick={() => onOpen(e.id)}
      onKeyDown={(ev) => {
        if (ev.key === 'Enter') onOpen(e.id);
      }}
    >
      {onTick && (
        // a tick selects, it does not open the skill
        <span className="skill-row-tick" onClick={(ev) => ev.stopPropagation()} onKeyDown={(ev) => ev.stopPropagation()}>
          {/* A native box: Arco's Checkbox would bring its heavy parts into the first script (issue 16). */}
          <input
            type="checkbox"
            className="skill-row-checkbox"
            checked={ticked}
            onChange={(ev) => onTick(e.id, ev.target.checked)}
            aria-label={t('library.selectOne', { name: e.name })}
            data-testid={rowId(TID.skillSelect, e.id)}
          />
        </span>
      )}
      <div className="skill-row-main">
        <div className="skill-row-title">
          <span className="skill-name">{e.name}</span>
          <Badges entry={e} risk={risk} t={t} />
          <UsageBadge entry={e} usage={usage} t={t} />
        </div>
        <div className="skill-row-desc" title={e.description}>
          {e.description || <span className="muted">{t('skills.noDescription')}</span>}
        </div>
      </div>
    </div>
  );
});

const NEVER: SkillUsage = { d90: 0, lastUsed: null, byAgent: {} };
const UNKNOWN: SkillUsage = { d90: -1, lastUsed: null, byAgent: {} };

/**
 * How often agents loaded the skill in 90 days (the usage ledger); unused, next to what it costs
 * in an agent's listing (its description's characters, the part a budget cuts first).
 */
function UsageBadge({ entry, usage, t }: { entry: CatalogEntry; usage: SkillUsage | null; t: TFunction }) {
  if (!usage) return null;
  if (usage === UNKNOWN)
    return (
      <Tag size="small" color="orange" data-testid={TID.skillBadgeUsage} data-used="unknown">
        {t('skills.usage.unknown')}
      </Tag>
    );
  if (usage.d90 > 0)
    return (
      <Tag size="small" color="green" data-testid={TID.skillBadgeUsage} data-used={usage.d90} title={usage.lastUsed ?? undefined}>
        {t('skills.usage.used', { count: usage.d90 })}
      </Tag>
    );
  return (
    <Tag size="small" color="gray" data-testid={TID.skillBadgeUsage} data-used={0}>
      {t('skills.usage.never', { chars: entry.description.length })}
    </Tag>
  );
}

export function SkillBadges({ entry }: { entry: CatalogEntry }) {
  const { t } = useTranslation();
  const risk = useRisks((s) => s.byId.get(entry.id));
  return <Badges entry={entry} risk={risk} t={t} />;
}

// Rows take `t` from the list: a translation hook per row costs more than the row itself.
function Badges({ entry, risk, t }: { entry: CatalogEntry; risk: SkillRisk | undefined; t: TFunction }) {
  return (
    <span className="badges">
      <RiskBadge risk={risk} t={t} />
      <Tag size="small" color={rootColor(entry.provenance.rootKind)} data-testid={TID.skillBadgeRoot}>
        {t(`roots.${entry.provenance.rootKind}`)}
      </Tag>
      {entry.provenance.linked && (
        <Tag size="small" color="cyan" data-testid={TID.skillBadgeLinked}>
          {t('skills.badge.linked')}
        </Tag>
      )}
      {entry.counts.errors > 0 && (
        <Tag size="small" color="red" data-testid={TID.skillBadgeErrors}>
          {t('skills.badge.errors', { count: entry.counts.errors })}
        </Tag>
      )}
      {entry.counts.warnings > 0 && (
        <Tag size="small" color="orange" data-testid={TID.skillBadgeWarnings}>
          {t('skills.badge.warnings', { count: entry.counts.warnings })}
        </Tag>
      )}
      {entry.shadowedBy && (
        <Tag size="small" color="gray" data-testid={TID.skillBadgeShadowed}>
          {t('skills.badge.shadowed')}
        </Tag>
      )}
    </span>
  );
}

/** The security scan's verdict: red for a high finding, orange for medium ones; nothing for low or none. */
function RiskBadge({ risk, t }: { risk: SkillRisk | undefined; t: TFunction }) {
  if (!risk || risk.high + risk.medium === 0) return null;
  const level = risk.high > 0 ? 'high' : 'medium';
  const top = risk.findings.find((f) => f.level === level);
  return (
    <Tag
      size="small"
      color={level === 'high' ? 'red' : 'orange'}
      className="risk-badge"
      icon={<span aria-hidden>⚠</span>}
      data-testid={TID.skillBadgeRisk}
      data-level={level}
      title={top ? `${top.file}${top.line !== undefined ? `:${top.line}` : ''} ${top.code}` : undefined}
    >
      {t(`skills.badge.risk.${level}`, { count: level === 'high' ? risk.high : risk.medium })}
    </Tag>
  );
}

function rootColor(kind: CatalogEntry['provenance']['rootKind']): string {
  return { builtin: 'purple', library: 'arcoblue', user: 'green', project: 'gold', extra: 'magenta' }[kind];
}
