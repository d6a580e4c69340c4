import { describe, expect, it } from 'vitest';
import { ruleColumn, scanLine } from './scan.js';
import { LINE_RULES } from './rules.js';
import { fastestMs } from '../../test/support/speed.js';

// Issue 28: no scan rule may cost more than linear time. The input that hurt was a 1 MB line of a
// rule's own words again and again (`cat -cat -cat -…`, `>>>>…`, `Remove-Item -Recurse …`): every
// word started an attempt that read to the end of its 2,000-character piece, so one rule took
// 1–12 s per MB (measured before the rewrite in rules.ts / ordered.ts).
//
// On an idle machine each rule now takes at most about 50 ms on such a line (npm run bench is where
// speed is measured). A test cannot assert milliseconds on a loaded CI machine, so each rule is
// timed against a floor taken here, under the same load: all 28 rules on an ordinary 1 MB line of
// code, a path known to be linear. A rule alone on its worst input must cost at most 3 times that
// (today it is at most about 1x); the square of the line was 20 to 300 times it. A pair over the
// bound is timed again, floor included, fastest of three, before it fails.

const MB = 1 << 20;
const line = (words: string) => words.repeat(Math.ceil(MB / words.length)).slice(0, MB);
const ORDINARY = line('const value = items.map((item) => item.name + 1); if (value) { console.log(value); } ');

/** Each rule's own words: its leads without their tails, and tails without leads. */
const ADVERSARIAL: Record<string, string[]> = {
  pipe: ['curl ', 'wget -', 'iwr |', '|sudo -', '|env a=b=c '],
  'run-output': ['sudo -', 'env a=b=c ', 'bash ', 'eval "$('],
  powershell: ['iex ', 'iwr ', 'iwr |'],
  'run-downloaded': ['eval(', 'exec(eval(', 'new Function('],
  'ssh-private': ['homedir()', '~/', '/home/x/'],
  'ssh-tools': ['ssh-keygen homedir()', '.ssh'],
  'cloud-store': ['homedir()', '$HOME/', '~/.aws'],
  'registry-token': ['homedir()', '~/'],
  dotenv: ['xxd -', 'cat -', 'cat -a ', "open('"],
  keychain: ['security ', 'secret-tool '],
  'keychain-password': ['security ', 'keyring.'],
  'browser-passwords': ['Chrome/', 'firefox', 'Chrome '],
  'browser-profile': ['Library/Application Support/', '.config/'],
  'send-url': ['set|', 'iwr ', 'nc ', 'nc <', 'curl $(cat '],
  'raw-socket': ['nc ', 'cat ', 'tar ', 'cat -'],
  'env-dump': ['os.environ.items()', 'Get-ChildItem env:'],
  upload: ['curl -F ', 'curl ', 'curl x|'],
  'rm-everything': ['rm -rf ;', 'rm -r ', 'rm -r "x" '],
  'rm-home': ['rm -r ', 'rm -rf ;', 'rm -r ~/x '],
  destroy: ['Remove-Item -Recurse ', 'dd ', 'find / ', 'del /f '],
  cron: ['>>', '> ', 'tee ', 'crontab -l ', 'crontab '],
  'shell-startup': ['>>', 'tee -a ', 'cp ', 'tee homedir()', 'open('],
  service: ['reg add ', 'schtasks '],
  hook: ['>>', '> ', 'tee ', 'open('],
  'decode-hidden': ['openssl enc -d ', 'gunzip ', 'xxd -r ', 'eval "$('],
  'decode-run': ['eval(', 'eval (', 'exec(', 'exec(eval(', 'eval(Buffer.from(', 'pwsh '],
  'shell-eval': ['eval ', 'eval $'],
  eval: ['eval(', 'eval (', 'exec ( "', 'exec(eval('],
};

describe('every scan rule costs linear time', () => {
  it('each rule has adversarial words', () => {
    expect(LINE_RULES.map((r) => r.says).filter((s) => !ADVERSARIAL[s])).toEqual([]);
  });

  const floor = () => scanLine(ORDINARY, 'script', 'x', 1);
  let floorMs = 0;

  it.each(LINE_RULES.map((r) => [r.says, r] as const))(
    '%s scans a 1 MB line of its own words in at most 3x the floor',
    (says, rule) => {
      floorMs ||= fastestMs(floor);
      for (const words of ADVERSARIAL[says]) {
        const input = line(words);
        const once = fastestMs(() => ruleColumn(rule, input), 1);
        if (once <= 3 * floorMs) continue;
        floorMs = fastestMs(floor);
        const ms = fastestMs(() => ruleColumn(rule, input));
        expect(ms, `${says} on ${JSON.stringify(words)}: ${ms.toFixed(0)} ms, floor ${floorMs.toFixed(0)} ms`).toBeLessThanOrEqual(
          3 * floorMs,
        );
      }
    },
    120_000,
  );
});
