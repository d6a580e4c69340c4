import { memo, useMemo } from 'react';
import { highlight, languageOf } from './highlight';
import { TID } from '../testids';
import './code-view.css';

/** Past this many characters the text is shown uncoloured: colouring it would stall the window. */
const HIGHLIGHT_MAX = 100_000;

/** Read-only text with line numbers and syntax colours (highlight.ts). Loaded with the file viewer. */
export const CodeView = memo(function CodeView({ path, text }: { path: string; text: string }) {
  const language = text.length > HIGHLIGHT_MAX ? 'plain' : languageOf(path, text);
  const lines = useMemo(() => highlight(text, language), [text, language]);
  const digits = String(lines.length).length;
  return (
    <div className="code-view" data-testid={TID.fileViewerCode} data-language={language} role="region" aria-label={path}>
      <pre style={{ ['--ln-width' as string]: `${digits + 1}ch` }}>
        {lines.map((tokens, i) => (
          <div key={i} className="code-line">
            <span className="code-ln" aria-hidden>
              {i + 1}
            </span>
            <code>
              {tokens.map((t, j) =>
                t.kind === 'plain' ? (
                  t.text
                ) : (
                  <span key={j} className={`tok-${t.kind}`}>
                    {t.text}
                  </span>
                ),
              )}
            </code>
          </div>
        ))}
      </pre>
    </div>
  );
});
