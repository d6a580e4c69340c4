import path from 'node:path';
import { relativeInside } from '../base/extpath.js';
import type { CatalogEntry, ScanFinding, SkillRisk } from '../contract/index.js';
import { RISK_FINDINGS_SHOWN } from '../contract/index.js';
import { scanSource } from './scan.js';
import { loadSkillSource } from './surface.js';

// The scan of every catalog entry, for the Skills list (badge, "with errors" and "security"
// filters) and the approval prompt. A scan reads every file of a skill, so results are kept per
// real folder and the catalog's content digest (sha256 over every file's path and bytes): the same
// digest means the same bytes, hence the same findings.

const RANK = { high: 0, medium: 1, low: 2 } as const;
/** Work this long, then let the event loop serve other requests (a catalog of thousands is scanned once). */
const SLICE_MS = 25;

type Risk = Omit<SkillRisk, 'entryId'>;

function riskOf(entry: CatalogEntry): Risk {
  const src = loadSkillSource(entry.provenance.realPath);
  const all = scanSource(src);
  const count = (level: ScanFinding['level']) => all.filter((f) => f.level === level).length;
  const relative = (file: string) => {
    const rel = relativeInside(src.folder.dir, file);
    return rel ? rel.split(path.sep).join('/') : file;
  };
  const findings = all
    .map((f, i) => ({ f, i }))
    .sort((a, b) => RANK[a.f.level] - RANK[b.f.level] || a.i - b.i)
    .slice(0, RISK_FINDINGS_SHOWN)
    .map(({ f }) => ({ ...f, file: relative(f.file) }));
  return { name: entry.name, high: count('high'), medium: count('medium'), low: count('low'), findings };
}

export class RiskCache {
  private byDir = new Map<string, { digest: string; risk: Risk }>();

  /** Entries with at least one finding, in catalog order. Scans only folders whose digest is new. */
  async of(entries: readonly CatalogEntry[]): Promise<SkillRisk[]> {
    const out: SkillRisk[] = [];
    const seen = new Set<string>();
    let sliceStart = Date.now();
    for (const entry of entries) {
      const key = entry.provenance.realPath;
      seen.add(key);
      let hit = this.byDir.get(key);
      if (!hit || hit.digest !== entry.digest || !entry.digest) {
        if (Date.now() - sliceStart > SLICE_MS) {
          await new Promise((resolve) => setImmediate(resolve));
          sliceStart = Date.now();
        }
        hit = { digest: entry.digest, risk: riskOf(entry) };
        this.byDir.set(key, hit);
      }
      const { risk } = hit;
      if (risk.high + risk.medium + risk.low > 0) out.push({ entryId: entry.id, ...risk, name: entry.name });
    }
    // Folders that left the catalog are forgotten once they outnumber the ones in it (queries with
    // another project keep theirs until then).
    if (this.byDir.size > 2 * seen.size + 64) for (const key of this.byDir.keys()) if (!seen.has(key)) this.byDir.delete(key);
    return out;
  }

  clear(): void {
    this.byDir.clear();
  }
}
