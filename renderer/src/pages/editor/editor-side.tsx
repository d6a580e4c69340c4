import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Empty, Tabs } from '@arco-design/web-react';
import type { Diagnostic } from '../../../../src/contract/index';
import { Markdown } from '../../components/markdown';
import { useEditor } from '../../stores/editor-store';
import { SKILL_FILE } from '../../stores/editor-state';
import { TID, rowId } from '../../testids';
import { DiagnosticList } from '../skills/skill-drawer';
import { AgentListingPanel } from './agent-listing';
import { FrontmatterForm } from './frontmatter-form';

/** The body of a Markdown file without its frontmatter block, for the preview. */
function previewText(text: string): string {
  const m = /^\uFEFF?---[ \t]*\r?\n[\s\S]*?\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/.exec(text);
  return m ? text.slice(m[0].length) : text;
}

/** The tabs beside the code: problems, the frontmatter form, what agents list, the preview. */
export function EditorSide({ count, relative, onChange }: { count: number; relative: Diagnostic[]; onChange: (text: string) => void }) {
  const { t } = useTranslation();
  const [panel, setPanel] = useState('problems');
  const current = useEditor((s) => s.current);
  const file = useEditor((s) => s.open[s.current]);
  const files = useEditor((s) => s.files);
  const lint = useEditor((s) => s.lint);
  const isMarkdown = current.toLowerCase().endsWith('.md');
  return (
    <section className="editor-side">
      <Tabs activeTab={panel} onChange={setPanel} size="small">
        <Tabs.TabPane
          key="problems"
          title={<span data-testid={rowId(TID.editorPanelTab, 'problems')}>{t('editor.problems', { count })}</span>}
        >
          {/* A click on a finding shows its line in the editor. */}
          <div
            data-testid={TID.editorProblems}
            className="editor-problems"
            onClick={(e) => {
              const row = (e.target as HTMLElement).closest('[data-testid^="skill-diagnostic-"]');
              const d = row ? relative[Number(row.getAttribute('data-testid')!.slice('skill-diagnostic-'.length))] : undefined;
              if (d?.line !== undefined && files?.files.some((f) => f.path === d.file && f.kind === 'file'))
                void useEditor.getState().jumpTo(d.file, d.line);
            }}
          >
            <DiagnosticList diagnostics={relative} />
          </div>
        </Tabs.TabPane>
        {current === SKILL_FILE && file && file.disk !== null && (
          <Tabs.TabPane key="form" title={<span data-testid={rowId(TID.editorPanelTab, 'form')}>{t('editor.form')}</span>}>
            <FrontmatterForm text={file.buffer} readOnly={file.readOnly} onChange={onChange} />
          </Tabs.TabPane>
        )}
        <Tabs.TabPane key="agents" title={<span data-testid={rowId(TID.editorPanelTab, 'agents')}>{t('editor.agents')}</span>}>
          <AgentListingPanel lint={lint} />
        </Tabs.TabPane>
        <Tabs.TabPane key="preview" title={<span data-testid={rowId(TID.editorPanelTab, 'preview')}>{t('editor.preview')}</span>}>
          {file && isMarkdown ? (
            <Markdown text={previewText(file.buffer)} testId={TID.editorPreview} />
          ) : (
            <Empty description={t('editor.noPreview')} />
          )}
        </Tabs.TabPane>
      </Tabs>
    </section>
  );
}
