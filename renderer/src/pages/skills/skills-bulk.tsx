import type { CatalogEntry } from '../../../../src/contract/index';
import { BulkBar } from '../library/bulk-bar';

/**
 * Multi-select on the Skills page: the same bar as the Library's, acting on the ticked skills by
 * name (delete and export take library skills; the engine refuses any other by its coded message).
 * The selection is of what the filter shows: a ticked skill filtered out is not acted on.
 */
export function SkillsBulk({
  entries,
  ticked,
  setTicked,
}: {
  entries: CatalogEntry[];
  ticked: ReadonlySet<string>;
  setTicked(next: Set<string>): void;
}) {
  const shown = entries.filter((e) => ticked.has(e.id));
  return (
    <BulkBar
      names={[...new Set(shown.map((e) => e.name))]}
      all={entries.map((e) => e.name)}
      onSelectAll={(on) => setTicked(new Set(on ? entries.map((e) => e.id) : []))}
      onDone={() => setTicked(new Set())}
      pin
    />
  );
}
