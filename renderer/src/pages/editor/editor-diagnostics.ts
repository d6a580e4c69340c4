import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { Diagnostic } from '../../../../src/contract/index';
import { findingText, fixText } from '../../i18n/engine-text';
import { useEditor } from '../../stores/editor-store';
import { relativeToSkill } from '../skills/skill-relative';
import type { InlineFinding } from './code-editor';

const NO_DIAGNOSTICS: Diagnostic[] = [];

export interface EditorDiagnostics {
  /** Lint of the SKILL.md buffer and the security scan of the open file's buffer, one list. */
  diagnostics: Diagnostic[];
  /** Those of the open file, shown at their lines in the code editor. */
  findings: InlineFinding[];
  /** The list as the Problems tab shows it: files named inside the skill, not by absolute path. */
  relative: Diagnostic[];
}

export function useEditorDiagnostics(): EditorDiagnostics {
  const { t } = useTranslation();
  const lint = useEditor((s) => s.lint);
  const scan = useEditor((s) => s.scan);
  const current = useEditor((s) => s.current);
  const files = useEditor((s) => s.files);
  const absCurrent = files ? `${files.dir}/${current}` : '';
  const lintDiags = lint?.diagnostics ?? NO_DIAGNOSTICS;
  const scanFindings = scan?.path === current ? scan.findings : NO_DIAGNOSTICS;
  const diagnostics: Diagnostic[] = useMemo(
    () =>
      scanFindings.length
        ? [...lintDiags, ...scanFindings.filter((f) => !lintDiags.some((d) => d.code === f.code && d.line === f.line && d.file === f.file))]
        : lintDiags,
    [lintDiags, scanFindings],
  );
  const findings: InlineFinding[] = useMemo(
    () =>
      diagnostics
        .filter((d) => d.file === absCurrent && d.line !== undefined)
        .map((d) => {
          const fix = fixText(t, d);
          const detail = [
            fix ? `${t('skills.drawer.fix')} ${fix}` : '',
            d.agents?.length ? t('skills.drawer.affects', { agents: d.agents.join(', ') }) : '',
          ]
            .filter(Boolean)
            .join('\n');
          return {
            line: d.line!,
            column: d.column,
            severity: d.severity,
            code: d.code,
            text: findingText(t, d),
            ...(detail ? { detail } : {}),
          };
        }),
    [diagnostics, absCurrent, t],
  );
  const relative = useMemo(() => relativeToSkill(diagnostics, [files?.dir]), [diagnostics, files]);
  return { diagnostics, findings, relative };
}

export function countsOf(ds: readonly Diagnostic[]) {
  return {
    errors: ds.filter((d) => d.severity === 'error').length,
    warnings: ds.filter((d) => d.severity === 'warning').length,
  };
}
