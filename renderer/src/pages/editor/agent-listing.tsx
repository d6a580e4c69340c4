import { useTranslation } from 'react-i18next';
import { Empty, Tag } from '@arco-design/web-react';
import type { BufferLint } from '../../../../src/contract/index';
import { engineText } from '../../i18n/engine-text';
import { useAgents } from '../../stores/agents-store';
import { TID, rowId } from '../../testids';

const COLOR: Record<string, string> = { loaded: 'green', mangled: 'orange', dropped: 'red', shadowed: 'gray', ambiguous: 'purple' };

/** How each agent will list the skill as the buffer stands: the name it uses and the description it keeps. */
export function AgentListingPanel({ lint }: { lint: BufferLint | null }) {
  const { t } = useTranslation();
  // The registry's names, worded in the user's language ("Any other agent" is a phrase).
  const names = useAgents((s) => s.names);
  if (!lint) return <Empty />;
  return (
    <div className="agent-listing" data-testid={TID.editorAgents}>
      {lint.agents.map((a) => (
        <div key={a.agent.id} className="agent-listing-row" data-testid={rowId(TID.editorAgentRow, a.agent.id)} data-status={a.status}>
          <div className="agent-listing-head">
            <strong>{names[a.agent.id] ?? a.agent.name}</strong>
            <Tag size="small" color={COLOR[a.status]}>
              {t(`editor.status.${a.status}`)}
            </Tag>
            <code>{a.identifier}</code>
          </div>
          {a.description === null ? (
            <div className="muted">{t('editor.notListed')}</div>
          ) : (
            <div className="agent-listing-desc">
              {a.description || <span className="muted">{t('editor.emptyDescription')}</span>}
              {a.cut > 0 && <span className="agent-listing-cut"> {t('editor.cut', { count: a.cut })}</span>}
            </div>
          )}
          {a.reasons.map((r, i) => (
            <div key={i} className="small muted">
              {engineText(t, r.msg, r.message)}
            </div>
          ))}
        </div>
      ))}
    </div>
  );
}
