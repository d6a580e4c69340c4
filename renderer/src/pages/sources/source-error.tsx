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
  const detail = msg?.params?.detail;
  if (!msg || typeof detail !== 'string' || !detail) return { text: engineText(t, msg, fallback) };
  return { text: engineText(t, { ...msg, params: { ...msg.params, detail: t('sources.gitOutputBelow') } }, fallback), detail };
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
