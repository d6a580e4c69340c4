import ReactMarkdown from 'react-markdown';
import remarkGfm from 'remark-gfm';

// react-markdown renders no raw HTML by default (no rehype-raw): a SKILL.md cannot inject markup.
// GFM for the tables and task lists skills use a lot.
// Links open nowhere inside the app; the shell hands http(s) to the OS browser.
export function Markdown({ text, testId }: { text: string; testId?: string }) {
  return (
    <div className="markdown" data-testid={testId}>
      <ReactMarkdown
        remarkPlugins={[remarkGfm]}
        components={{
          a: ({ href, children }) => (
            <a href={href && /^https?:/.test(href) ? href : undefined} target="_blank" rel="noreferrer noopener">
              {children}
            </a>
          ),
          img: ({ alt }) => <span className="muted">[{alt ?? 'image'}]</span>,
        }}
      >
        {text}
      </ReactMarkdown>
    </div>
  );
}
