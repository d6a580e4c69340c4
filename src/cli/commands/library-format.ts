import type { ImportResult, ImportSummary } from '../../contract/index.js';
import { formatMessage } from '../../contract/messages-text.js';
import { formatDiagnostic, paint, type Colour } from '../format.js';

// Shared output of `import` and `adopt`.

const STATUS: Record<ImportResult['status'], { label: string; colour: Colour }> = {
  imported: { label: 'imported', colour: 'green' },
  'already-present': { label: 'already in library', colour: 'dim' },
  replaced: { label: 'replaced', colour: 'yellow' },
  'kept-both': { label: 'kept both', colour: 'yellow' },
  skipped: { label: 'skipped', colour: 'dim' },
  conflict: { label: 'CONFLICT', colour: 'red' },
  refused: { label: 'REFUSED', colour: 'red' },
};

export function formatImportSummary(s: ImportSummary, color: boolean): string {
  const lines: string[] = [];
  for (const r of s.results) {
    const st = STATUS[r.status];
    const name = r.libraryName && r.libraryName !== r.name ? `${r.name} -> ${r.libraryName}` : (r.name ?? '(no name)');
    lines.push(`${paint(color, st.colour, st.label.padEnd(18))} ${paint(color, 'bold', name)}  ${paint(color, 'dim', r.source)}`);
    if (r.message && r.status !== 'already-present') lines.push(`    ${r.message}`);
    for (const n of r.notices ?? []) lines.push(`    ${formatMessage(n)}`);
    if (r.status === 'replaced' && r.trashId) lines.push(`    old version in the trash: ${r.trashId}`);
    if (r.status === 'refused') for (const d of r.diagnostics.filter((x) => x.severity === 'error')) lines.push(formatDiagnostic(d, color));
    else if (r.status !== 'already-present' && r.status !== 'skipped') {
      const n = r.diagnostics.length;
      if (n) lines.push(paint(color, 'dim', `    ${n} lint finding${n === 1 ? '' : 's'} (skilldock lint ${r.dir ?? r.source})`));
    }
  }
  if (s.conflicts) {
    lines.push(
      '',
      paint(
        color,
        'red',
        `${s.conflicts} conflict${s.conflicts === 1 ? '' : 's'}: nothing was written for ${s.conflicts === 1 ? 'it' : 'them'}.`,
      ),
    );
    lines.push('Choose with --on-conflict replace (old version to the trash), keep-both (new name) or skip.');
  }
  if (s.journalId) lines.push(paint(color, 'dim', `Undo with: skilldock undo ${s.journalId}`));
  return lines.join('\n');
}

export const CONFLICT_CHOICES = ['replace', 'keep-both', 'skip'] as const;
