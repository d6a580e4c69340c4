import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { Alert } from '@arco-design/web-react';
import type { MessageRef } from '../../../../src/contract/index';
import { engineText } from '../../i18n/engine-text';
import { errorText } from '../../stores/errors';

/**
 * A refusal about a source, in the window's language. git's own words (the `detail` parameter:
 * the last lines of its stderr, always English) are not spliced into the sentence: the sentence
 * points below, and git's output is shown apart, verbatim, labelled as git's.
 */
export function splitGitDetail(t: TFunction, msg: MessageRef | undefined, fallback: string): { text: string; detail?: string } {
  const found = msg && withoutGitDetail(msg, t('sources.gitOutputBelow'));
  if (!found) return { text: engineText(t, msg, fallback) };
  return { text: engineText(t, found.msg, fallback), detail: found.detail };
}

/** The message with its innermost string `detail` (git's words) replaced by `instead`; nested refs are followed. */
function withoutGitDetail(msg: MessageRef, instead: string): { msg: MessageRef; detail: string } | undefined {
  const detail = msg.params?.detail;
  if (typeof detail === 'string' && detail) return { msg: { ...msg, params: { ...msg.params, detail: instead } }, detail };
  if (detail && typeof detail === 'object' && !Array.isArray(detail)) {
    const inner = withoutGitDetail(detail, instead);
    if (inner) return { msg: { ...msg, params: { ...msg.params, detail: inner.msg } }, detail: inner.detail };
  }
  return undefined;
}

export function SourceError({ err, testId }: { err: unknown; testId?: string }) {
  const { t } = useTranslation();
  const msg = err && typeof err === 'object' ? (err as { msg?: MessageRef }).msg : undefined;
  const { text, detail } = splitGitDetail(t, msg, errorText(err));
  return (
    <Alert
      type="error"
      data-testid={testId}
      content={
        <>
          <div>{text}</div>
          {detail && <GitOutput detail={detail} />}
        </>
      }
    />
  );
}

export function GitOutput({ detail }: { detail: string }) {
  const { t } = useTranslation();
  return (
    <div className="git-output">
      <span className="muted small">{t('sources.gitOutput')}</span>
      <pre className="mono small" lang="en">
        {detail}
      </pre>
    </div>
  );
}
