import fs from 'node:fs';
import path from 'node:path';
import type { AgentFixture } from './fixture.js';
import { baseEnv, run } from './capture.js';
import { startRecorder, type Recorded, type Script } from '../../src/verify/recorder.js';

// One run of a pinned CLI against the scripted model server (a tool call, then text), as the
// SkillDock user: HOME is the fixture's user home.

export interface Outcome {
  requests: Recorded[];
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Run `bin args` with the scripted model server; HOME is the SkillDock user's home, as for a user. */
export async function scripted(
  fx: AgentFixture,
  bin: string,
  args: string[] | ((url: string) => string[]),
  script: Script,
  urlEnv: (url: string) => Record<string, string>,
  o: { cwd: string; env: Record<string, string> },
): Promise<Outcome> {
  const rec = await startRecorder(script);
  try {
    const tmp = path.join(fx.sb.dir, 'agent-tmp');
    fs.mkdirSync(tmp, { recursive: true });
    const env = { ...baseEnv(fx.sb.userHome), TMPDIR: tmp, ...urlEnv(rec.url), ...o.env };
    const r = await run(bin, typeof args === 'function' ? args(rec.url) : args, { cwd: o.cwd, env }, 150_000);
    return { requests: [...rec.requests], ...r };
  } finally {
    await rec.close();
  }
}
