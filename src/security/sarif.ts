import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createHash } from 'node:crypto';
import { relativeInside } from '../base/extpath.js';
import type { ScanCode, ScanLevel, ScanReport } from '../contract/index.js';

// SARIF 2.1.0 for CI (GitHub code scanning and others): one run, one rule per scan code, results
// with a physical location relative to %SRCROOT% (the directory the scan ran in) when possible.

export const RULE_DOCS: Record<ScanCode, { name: string; short: string; level: ScanLevel; severity: string }> = {
  'scan-pipe-to-shell': {
    name: 'PipeToShell',
    short: 'A download is run as code without being saved and checked first.',
    level: 'high',
    severity: '9.0',
  },
  'scan-credential-read': {
    name: 'CredentialRead',
    short: 'Reads SSH keys, cloud credentials, .env files, keychains or browser profiles.',
    level: 'high',
    severity: '8.5',
  },
  'scan-exfiltration': {
    name: 'Exfiltration',
    short: 'Sends file contents or the environment to the network.',
    level: 'high',
    severity: '8.5',
  },
  'scan-destructive': { name: 'Destructive', short: 'Deletes or overwrites data outside the workspace.', level: 'high', severity: '8.0' },
  'scan-persistence': {
    name: 'Persistence',
    short: 'Installs cron jobs, shell startup lines, launch agents or services that outlive the session.',
    level: 'high',
    severity: '7.5',
  },
  'scan-obfuscation': {
    name: 'Obfuscation',
    short: 'Encoded payloads decoded and run, or code built as strings and evaluated.',
    level: 'high',
    severity: '8.0',
  },
  'scan-hidden-instructions': {
    name: 'HiddenInstructions',
    short: 'Instructions hidden from human readers: HTML comments, hidden HTML, invisible Unicode.',
    level: 'high',
    severity: '7.5',
  },
  'scan-binary': {
    name: 'ShippedBinary',
    short: 'The skill ships executables, compiled code or archives that cannot be reviewed.',
    level: 'medium',
    severity: '6.0',
  },
  'scan-unscanned': { name: 'Unscanned', short: 'A file or part of the skill was too large to scan.', level: 'low', severity: '2.0' },
};

const SARIF_LEVEL: Record<ScanLevel, 'error' | 'warning' | 'note'> = { high: 'error', medium: 'warning', low: 'note' };

function uriFor(file: string, base: string): { uri: string; uriBaseId?: string } {
  const rel = relativeInside(base, file);
  if (rel) {
    return { uri: rel.split(path.sep).map(encodeURIComponent).join('/'), uriBaseId: '%SRCROOT%' };
  }
  return { uri: pathToFileURL(file).href };
}

export function toSarif(report: ScanReport, opts: { cwd?: string; version?: string } = {}): Record<string, unknown> {
  const base = path.resolve(opts.cwd ?? process.cwd());
  const codes = Object.keys(RULE_DOCS) as ScanCode[];
  const rules = codes.map((code) => {
    const doc = RULE_DOCS[code];
    return {
      id: code,
      name: doc.name,
      shortDescription: { text: doc.short },
      fullDescription: { text: doc.short },
      help: { text: `${doc.short} See the skilldock security README for what each code checks.` },
      defaultConfiguration: { level: SARIF_LEVEL[doc.level] },
      properties: { tags: ['security', 'agent-skills'], 'security-severity': doc.severity },
    };
  });
  const results = report.skills.flatMap((skill) =>
    skill.findings.map((f) => {
      const region: Record<string, number> = {};
      if (f.line) region.startLine = f.line;
      if (f.line && f.column) region.startColumn = f.column;
      const location = uriFor(f.file, base);
      const fingerprint = createHash('sha256')
        .update(`${f.code}\u0000${location.uri}\u0000${f.line ?? 0}\u0000${f.message}`)
        .digest('hex');
      return {
        ruleId: f.code,
        ruleIndex: codes.indexOf(f.code as ScanCode),
        level: SARIF_LEVEL[f.level],
        message: { text: f.fix ? `${f.message} Fix: ${f.fix}` : f.message },
        locations: [
          {
            physicalLocation: {
              artifactLocation: location,
              ...(Object.keys(region).length ? { region } : {}),
            },
          },
        ],
        partialFingerprints: { 'skilldockFinding/v1': fingerprint },
        properties: { skill: skill.name, skillDir: skill.dir, level: f.level },
      };
    }),
  );
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'skilldock', semanticVersion: opts.version ?? '0.1.0', version: opts.version ?? '0.1.0', rules } },
        originalUriBaseIds: { '%SRCROOT%': { uri: pathToFileURL(base + path.sep).href } },
        results,
        columnKind: 'utf16CodeUnits',
      },
    ],
  };
}
