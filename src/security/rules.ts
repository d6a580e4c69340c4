import type { ScanCode, ScanLevel } from '../contract/index.js';
import { leftmost, ordered, plain, TailSearch, tailParts, type Find } from './ordered.js';

// The line rules of the security scan, as data. Each applies to one line of a script, of a code
// block in Markdown, or of prose, with a level per context (no level: the rule does not apply
// there). Prose counts less than code: a README may name `~/.aws` without reading it.

export type LineContext = 'script' | 'code' | 'prose';

export interface LineRule {
  code: ScanCode;
  levels: Partial<Record<LineContext, ScanLevel>>;
  /** Matches the offending part of a line; none may cost more than linear time (see ordered.ts). */
  pattern?: RegExp;
  /** Where the offending part starts (0-based) or -1: a pattern rewritten as an ordered search. */
  find?: Find;
  /** Finer checks than a regular expression can say; returns the column (1-based) or 0. */
  test?: (line: string) => number;
  /** A line that also matches this is not a finding. */
  unless?: RegExp;
  /** The message keys: `scan.<code without scan->.<says>.message` and `.fix` (messages-security.ts). */
  says: string;
}

const ALL_HIGH = { script: 'high', code: 'high', prose: 'high' } as const;
const CODE_HIGH = { script: 'high', code: 'high', prose: 'medium' } as const;
const CODE_MEDIUM = { script: 'medium', code: 'medium', prose: 'low' } as const;

// A home directory however a script spells it. `homedir()…'` has a gap, so it is searched apart
// (homeThen): `homedir\(\)[^\n]*?['"]` inside one expression made it cost the square of the line.
const HOME = String.raw`(?:~|\$HOME|\$\{HOME\}|%USERPROFILE%|\$env:USERPROFILE|\$env:HOME|/home/[^/\s'"]+|/Users/[^/\s'"]+|/root|os\.homedir\(\)\s*,\s*['"]|expanduser\(\s*['"]~|Path\.home\(\)\s*/\s*['"])`;
/** `HOME rest` (after `leads`, each followed by a gap): both spellings of the home dir. */
function homeThen(rest: string, ...leads: RegExp[]): Find[] {
  return [
    leads.length ? ordered('\n', ...leads, new RegExp(HOME + rest)) : plain(new RegExp(HOME + rest)),
    ordered('\n', ...leads, /homedir\(\)/, new RegExp(String.raw`['"]` + rest)),
  ];
}
const DOWNLOADER = String.raw`\b(?:curl|wget|fetch|aria2c|xh|iwr|irm|Invoke-WebRequest|Invoke-RestMethod)\b`;
// Options and variables are counted (at most 8): an unbounded run made every `sudo` of
// `sudo -x -x …` read to the end of the line. `\S[^\s=]*=\S*` is `\S+=\S*` that cannot split a
// word two ways (`a=b=c`), which made a long `env a=b=c a=b=c …` cost exponential time.
const OPTIONS = String.raw`(?:-\S+\s+){0,8}`;
const SHELLS = String.raw`(?:sudo\s+${OPTIONS})?(?:env\s+(?:\S[^\s=]*=\S*\s+){0,8})?(?:/usr/bin/|/bin/|/usr/local/bin/)?(?:ba|z|da|k|fi|c|tc|a)?sh\b(?!\.|-)`;
const INTERPRETER_STDIN = String.raw`(?:sudo\s+)?(?:python[0-9.]*|perl|ruby|node|php|pwsh|powershell)\s*(?:-\s*)?(?:$|[;&|)'"])`;
const NETWORK = String.raw`(?:\bcurl\b|\bwget\b|\bnc\b|\bncat\b|\bsocat\b|\btelnet\b|requests\.(?:post|put|patch)|httpx\.(?:post|put)|urlopen|urllib\.request|http\.client|\bfetch\(|axios|https?\.request|Invoke-WebRequest|Invoke-RestMethod|\biwr\b|\birm\b|WebClient|UploadString|UploadFile|socket\.(?:connect|send))`;

// `rm` and its flags, then its targets up to the end of the command.
const RM = /(?:^|[\s;&|({`$])(?:sudo\s+)?rm\s+((?:(?:-{1,2}[\w-]+)\s+)*)([^;&|)\n]*)/g;
const RECURSIVE = /(?:^|\s)-[a-zA-Z]*[rR]|--recursive/;
/** A target that is `/`, a home or a system dir, quoted or not: one search over all the targets. */
const TOP =
  /(?:^|\s)["']?(?:\/|\/\*|~|~\/|~\/\*|\$HOME|\$\{HOME\}|\$HOME\/|\$\{HOME\}\/|\$HOME\/\*|\$\{HOME\}\/\*|\/(?:home|Users|root|etc|usr|var|bin|sbin|lib|lib64|boot|opt|System|Library|Applications|private)\/?\*?|[A-Za-z]:\\?\*?)["']?(?=\s|$)/;
const IN_HOME = /^(?:~|\$HOME|\$\{HOME\})\/\S/;
const OWN_STATE = /\.skilldock\/skills-state\//;

function rmTargets(m: RegExpExecArray): string[] {
  return m[2]
    .trim()
    .split(/\s+/)
    .map((t) => t.replace(/^["']|["']$/g, ''));
}

/** `rm` with a recursive flag aimed at `/`, a home dir or a system dir: returns the column. */
function rmEverything(line: string): number {
  // Asked once per line, not once per `rm` (a line of many `rm -r` read itself once per `rm`).
  const noPreserveRoot = line.includes('--no-preserve-root');
  RM.lastIndex = 0;
  for (let m = RM.exec(line); m; m = RM.exec(line)) {
    if (!RECURSIVE.test(m[1])) continue;
    if (noPreserveRoot) return m.index + 1;
    if (TOP.test(m[2].trim())) return m.index + 1;
  }
  return 0;
}

/** `rm -r` of some path inside the home dir that is not the skill's own state dir. */
function rmInHome(line: string): number {
  RM.lastIndex = 0;
  for (let m = RM.exec(line); m; m = RM.exec(line)) {
    if (!RECURSIVE.test(m[1])) continue;
    if (rmTargets(m).some((t) => IN_HOME.test(t) && !OWN_STATE.test(t))) return m.index + 1;
  }
  return 0;
}

const SSH_PRIVATE = leftmost(
  ...homeThen(String.raw`[\\/]?\.ssh\b(?![\\/](?:config|known_hosts|authorized_keys|[\w.-]+\.pub)\b)`),
  /\bid_(?:rsa|dsa|ecdsa|ed25519)\b(?!\.pub)/,
);
const SSH_KEY_TOOLS = /\bssh-(?:keygen|add|copy-id)\b|\bchmod\b|IdentityFile/;

// `eval "$(pyenv init -)"` and friends are how tools ask to be set up; they are not built strings.
const EVAL_TOOL_INIT =
  /\beval\s+["']?\$\(\s*["']?[\w./-]+["']?\s+(?:init|shellenv|env|hook|shell\.\w+|-s|docker-env|completion|activate)\b/;

/** After a decoder: `| sh`, `| python -`… */
const DECODED_TO_SHELL = new RegExp(String.raw`\|\s*(?:${SHELLS}|${INTERPRETER_STDIN})`);
const JS_EVAL = /(?<![\w.])(?:eval|Function|vm\.runIn\w+Context|vm\.Script)\s*\(/i;

const CRONTAB = /\bcrontab\b/g;
const CRONTAB_LIST = /\s+-l\b/y;
const CRONTAB_LAST = /\s*$/y;
const [PIPE_TO_CRONTAB, NEWLINE] = tailParts('\n', /\|\s*crontab/);
/**
 * `crontab` that edits or installs: not `crontab -l` (a listing, unless piped into crontab again)
 * and not a bare `crontab` ending the line. Once `crontab\b(?!\s+-l\b(?![^\n]*\|\s*crontab))(?!\s*$)`,
 * whose lookahead read to the end of the line after every `crontab -l`.
 */
function crontabEdit(line: string): number {
  const piped = new TailSearch(line, PIPE_TO_CRONTAB, NEWLINE);
  CRONTAB.lastIndex = 0;
  for (let m = CRONTAB.exec(line); m; m = CRONTAB.exec(line)) {
    const e = m.index + m[0].length;
    CRONTAB_LAST.lastIndex = e;
    if (CRONTAB_LAST.test(line)) continue;
    CRONTAB_LIST.lastIndex = e;
    if (!CRONTAB_LIST.test(line) || piped.after(CRONTAB_LIST.lastIndex) >= 0) return m.index;
  }
  return -1;
}

export const LINE_RULES: LineRule[] = [
  // --- a download straight into an interpreter ---------------------------------------------
  {
    code: 'scan-pipe-to-shell',
    levels: ALL_HIGH,
    find: ordered(
      '\n|',
      new RegExp(DOWNLOADER, 'i'),
      new RegExp(String.raw`\|\s*(?:tee\s+\S+\s*\|\s*)?(?:${SHELLS}|${INTERPRETER_STDIN}|iex\b|Invoke-Expression\b)`, 'i'),
    ),
    says: 'pipe',
  },
  {
    code: 'scan-pipe-to-shell',
    levels: ALL_HIGH,
    pattern: new RegExp(
      String.raw`(?:${SHELLS}|\bsource|(?:^|\s)\.)\s+<\(\s*(?:curl|wget|fetch)\b|(?:${SHELLS}|python[0-9.]*|perl|ruby|node)\s+-c\s+["']?\$\(\s*(?:curl|wget)\b|\beval\s+["']?\$\(\s*(?:curl|wget)\b|\beval\s+["']?\`\s*(?:curl|wget)\b`,
      'i',
    ),
    says: 'run-output',
  },
  {
    code: 'scan-pipe-to-shell',
    levels: ALL_HIGH,
    find: leftmost(
      ordered(
        '\n',
        /\b(?:iex|Invoke-Expression)\b/i,
        /\b(?:iwr|irm|Invoke-WebRequest|Invoke-RestMethod|DownloadString|DownloadData|Net\.WebClient|curl|wget)\b/i,
      ),
      ordered('\n', /\b(?:iwr|irm|Invoke-WebRequest|Invoke-RestMethod|DownloadString)\b/i, /\|\s*(?:iex|Invoke-Expression)\b/i),
    ),
    says: 'powershell',
  },
  {
    code: 'scan-pipe-to-shell',
    levels: { script: 'high', code: 'high' },
    find: ordered(
      '\n',
      /(?<![\w.])(?:exec|eval|new\s+Function|Function|vm\.runIn\w+Context)\s*\(/,
      /(?:\bfetch\(|requests\.get\(|urlopen\(|httpx\.get\(|urllib\.request|axios\.get\(|https?\.get\()/,
    ),
    says: 'run-downloaded',
  },
  // --- credentials ---------------------------------------------------------------------------
  {
    code: 'scan-credential-read',
    levels: CODE_HIGH,
    find: SSH_PRIVATE,
    unless: SSH_KEY_TOOLS,
    says: 'ssh-private',
  },
  {
    code: 'scan-credential-read',
    levels: CODE_MEDIUM,
    test: (line) => (SSH_KEY_TOOLS.test(line) ? SSH_PRIVATE(line) + 1 : 0),
    says: 'ssh-tools',
  },
  {
    code: 'scan-credential-read',
    levels: CODE_HIGH,
    find: leftmost(
      ...homeThen(
        String.raw`[\\/]?(?:\.aws(?:[\\/]credentials\b|[\\/]?(?=["'\s)\]\`]|$))|\.config[\\/]gcloud\b|\.azure\b|\.kube[\\/]config\b|\.docker[\\/]config\.json|\.netrc\b|\.git-credentials\b|\.config[\\/]gh[\\/]hosts\.yml|\.gnupg\b|\.password-store\b)`,
      ),
      /application_default_credentials\.json|\/etc\/shadow\b|\b_netrc\b/,
    ),
    says: 'cloud-store',
  },
  {
    code: 'scan-credential-read',
    levels: { script: 'medium', code: 'medium' },
    find: leftmost(...homeThen(String.raw`[\\/]?\.(?:npmrc|pypirc|gem[\\/]credentials|cargo[\\/]credentials)`)),
    says: 'registry-token',
  },
  {
    code: 'scan-credential-read',
    levels: { script: 'medium', code: 'medium' },
    // `cmd (?:-\S+\s+)* file`: the options are a gap that ends at the first word not an option.
    find: leftmost(
      ordered(
        /(?<=\s)(?=\S|$)(?!-\S+\s)/,
        /\b(?:cat|less|more|head|tail|strings|cp|scp|base64|xxd|tar|zip|type|Get-Content|gc)\s+/,
        /(?<=\s)["']?(?:[\w./~-]*\/)?\.env(?:\.[\w-]+)?["']?(?=\s|$|[;|&)])/,
      ),
      /\b(?:open|readFile(?:Sync)?|read_text|Path)\(\s*['"](?:[\w./~-]*\/)?\.env['"]/,
    ),
    unless: /\.env\.(?:example|sample|template|dist)\b/,
    says: 'dotenv',
  },
  {
    code: 'scan-credential-read',
    levels: CODE_HIGH,
    pattern:
      /\bsecurity\s+(?:dump-keychain|export\b)|Library\/Keychains|login\.keychain|\bsecret-tool\s+(?:lookup|search)|\bkwallet-query\b|\bvaultcmd\b|\bcmdkey\s+\/list|CredEnumerate|\bmimikatz\b|\blazagne\b/i,
    says: 'keychain',
  },
  {
    code: 'scan-credential-read',
    levels: CODE_MEDIUM,
    pattern: /\bsecurity\s+find-(?:generic|internet)-password\b|\bkeyring\.get_password\b/,
    says: 'keychain-password',
  },
  {
    code: 'scan-credential-read',
    levels: CODE_HIGH,
    find: ordered(
      '\n',
      /(?:Chrome|Chromium|chromium|google-chrome|Edge|BraveSoftware|Brave-Browser|Opera|Vivaldi|firefox|Firefox|\.mozilla)/,
      /(?:Login Data|Cookies|cookies\.sqlite|logins\.json|key[34]\.db|Local State|Web Data)\b/,
    ),
    says: 'browser-passwords',
  },
  {
    code: 'scan-credential-read',
    levels: { script: 'medium', code: 'medium' },
    pattern:
      /Library\/Application Support\/(?:Google\/Chrome|BraveSoftware|Microsoft Edge|Firefox)|\.config\/(?:google-chrome|chromium|BraveSoftware)|\.mozilla\/firefox|AppData\\(?:Local|Roaming)\\(?:Google\\Chrome|Mozilla\\Firefox|Microsoft\\Edge)/,
    says: 'browser-profile',
  },
  // --- sending data out ---------------------------------------------------------------------
  {
    code: 'scan-exfiltration',
    levels: ALL_HIGH,
    find: leftmost(
      ordered(
        '\n',
        new RegExp(NETWORK),
        new RegExp(
          String.raw`\$\(\s*(?:env|printenv|set|base64|tar|gzip|zip|whoami|hostname|history|id)\b|\$\(\s*cat\s+["']?(?:~|\$HOME|\$\{HOME\}|\/etc\/|[^\s)]*\/\.(?![.\/])|\.(?![.\/]))|\$\(<|\`\s*(?:env|printenv|cat|base64|whoami)\b`,
        ),
      ),
      ordered('\n', /(?:\benv|\bprintenv|\bset|\$\(\s*(?:env|printenv)\s*\)["']?)\s*\|/, new RegExp(NETWORK)),
      /--post-file[= ]|--post-data[= ]["']?\$\(/,
    ),
    says: 'send-url',
  },
  {
    code: 'scan-exfiltration',
    levels: ALL_HIGH,
    find: leftmost(
      /\/dev\/(?:tcp|udp)\//,
      ordered('\n|', /\b(?:cat|tar|zip|base64)\b/, /\|\s*(?:nc|ncat|netcat|socat|telnet)\b/),
      ordered('\n', /\b(?:nc|ncat|netcat)\b/, /\s<\s*\S/),
    ),
    says: 'raw-socket',
  },
  {
    code: 'scan-exfiltration',
    levels: { script: 'high', code: 'high' },
    find: leftmost(
      /(?:json\.dumps|str|repr)\(\s*(?:dict\()?os\.environ\b(?!\s*[[.])|JSON\.stringify\(\s*process\.env\s*[,)]/,
      ordered('\n', /Get-ChildItem\s+env:/, /\|\s*(?:ConvertTo-Json|Out-String)/),
      ordered('\n', /os\.environ\.items\(\)/, /(?:requests|urlopen|post)/),
    ),
    says: 'env-dump',
  },
  {
    code: 'scan-exfiltration',
    levels: { script: 'low', code: 'low' },
    find: ordered('\n', /\bcurl\b/, /\s(?:-F|--form|-T|--upload-file|--data-binary)\s+["']?[\w-]*=?@(?!-)[^\s"']+/),
    says: 'upload',
  },
  // --- destructive --------------------------------------------------------------------------
  {
    code: 'scan-destructive',
    levels: ALL_HIGH,
    test: rmEverything,
    says: 'rm-everything',
  },
  {
    code: 'scan-destructive',
    levels: CODE_MEDIUM,
    test: rmInHome,
    says: 'rm-home',
  },
  {
    code: 'scan-destructive',
    levels: CODE_HIGH,
    find: leftmost(
      /shutil\.rmtree\(\s*(?:os\.path\.expanduser\(\s*['"]~\/?['"]\s*\)|Path\.home\(\)|['"]\/['"]|os\.environ\[['"]HOME['"]\]|os\.getenv\(['"]HOME['"]\))\s*[,)]|\b(?:fs\.)?(?:rmSync|rm|rmdir|rimraf)\(\s*(?:os\.homedir\(\)|['"]\/['"]|process\.env\.HOME)\s*[,)]|\b(?:rd|rmdir)\s+\/s\s+\/q\s+[A-Za-z]:\\\s*$|\bdel\s+\/[fsq]\s+(?:\/[fsq]\s+)*[A-Za-z]:\\|\bformat(?:\.com)?\s+[A-Za-z]:\s*(?:\/[a-zA-Z]+\b|$)|\bmkfs(?:\.\w+)?\s+\/dev\/|>\s*\/dev\/(?:sd[a-z]|nvme\d|disk\d)|:\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:|\bchmod\s+-R\s+[0-7]{3,4}\s+\/(?:\s|$)|\bchown\s+-R\s+\S+\s+\/(?:\s|$)/,
      ordered('\n', /Remove-Item\b/, /-Recurse/, /(?:\$HOME|\$env:USERPROFILE|~|[A-Za-z]:\\)\s*(?:$|-)/),
      ordered('\n', /\bdd\b/, /\bof=\/dev\/(?:sd|hd|nvme|disk|mmcblk)/),
      ordered('\n', /\bfind\s+(?:\/|~|\$HOME)\s/, /-delete\b/),
    ),
    says: 'destroy',
  },
  // --- persistence --------------------------------------------------------------------------
  {
    code: 'scan-persistence',
    levels: CODE_HIGH,
    find: leftmost(
      crontabEdit,
      ordered('\n', /\bcrontab\s+-l\b/, /\|\s*crontab\b/),
      ordered('\n', /(?:>>?|\btee\b|\bcp\b|\bmv\b|\binstall\b)/, /\/(?:etc\/cron|var\/spool\/cron)/),
    ),
    says: 'cron',
  },
  {
    code: 'scan-persistence',
    levels: CODE_HIGH,
    // `tee -a` is a `tee` whose gap starts with `-a`; trailing `[^\n]*` only lengthened the match.
    find: leftmost(
      ...homeThen(
        String.raw`[\\/]?\.(?:bashrc|bash_profile|bash_login|profile|zshrc|zprofile|zshenv|zlogin|cshrc|tcshrc|config[\\/]fish[\\/]config\.fish)\b`,
        /(?:>>?|\btee\b|\bcp\b|\bmv\b|\bln\b|Add-Content|Set-Content|Out-File)\s+/,
      ),
      ordered('\n', /(?:open|appendFile(?:Sync)?|writeFile(?:Sync)?)\(/, /\.(?:bashrc|bash_profile|zshrc|zprofile|profile)['"]/),
      /(?:>>|Add-Content)\s*\$PROFILE\b/,
      ...homeThen(String.raw`[\\/]?\.ssh[\\/]authorized_keys`),
      ordered('\n', />>/, /authorized_keys/),
    ),
    unless: /^\s*(?:source|\.)\s/,
    says: 'shell-startup',
  },
  {
    code: 'scan-persistence',
    levels: CODE_HIGH,
    find: leftmost(
      /Library\/Launch(?:Agents|Daemons)|\blaunchctl\s+(?:load|bootstrap|submit|enable)\b|\.config\/autostart\b|\bschtasks(?:\.exe)?\s+\/create\b|\b(?:Register|New)-ScheduledTask\b|CurrentVersion\\Run(?:Once)?\b|Start Menu\\Programs\\Startup|\bsystemctl\s+--user\s+enable\b|\.config\/systemd\/user\//i,
      ordered('\n', /\breg(?:\.exe)?\s+add\s+/i, /\\(?:Run|RunOnce)\b/i),
    ),
    says: 'service',
  },
  {
    code: 'scan-persistence',
    levels: { script: 'medium', code: 'medium' },
    find: leftmost(
      /\bsystemctl\s+enable\b|\.git\/hooks\/|core\.hooksPath/,
      ordered(
        '\n',
        /(?:>>?|\btee\b|writeFile|open\()/,
        /(?:\.claude\/settings(?:\.local)?\.json|\.gemini\/settings\.json|\.codex\/config\.toml)/,
      ),
    ),
    says: 'hook',
  },
  // --- obfuscation --------------------------------------------------------------------------
  {
    code: 'scan-obfuscation',
    levels: ALL_HIGH,
    find: leftmost(
      ordered('\n|', /(?:base64\s+(?:-d|--decode|-D)|xxd\s+-r|gunzip|zcat)\b/, DECODED_TO_SHELL),
      ordered('\n|', /openssl\s+(?:base64|enc)\s/, /-d\b/, DECODED_TO_SHELL),
      ordered(')', /\beval\s+["']?\$\(/, /(?:base64\s+(?:-d|--decode)|xxd\s+-r)/),
    ),
    says: 'decode-hidden',
  },
  {
    code: 'scan-obfuscation',
    levels: ALL_HIGH,
    find: leftmost(
      ordered(
        '\n',
        /(?<![\w.])(?:exec|eval|compile)\s*\(/i,
        /(?:b64decode|b32decode|b85decode|a85decode|fromhex|unhexlify|a2b_base64|decompress|marshal\.loads|codecs\.decode|rot_?13|\[::-1\])/i,
      ),
      ordered('\n', JS_EVAL, /(?:atob\(|fromCharCode|unescape\()/i),
      ordered('\n', JS_EVAL, /Buffer\.from\(/i, /['"](?:base64|hex)['"]/i),
      ordered('\n', /\b(?:powershell|pwsh)(?:\.exe)?\b/i, /\s-(?:e|ec|enc|encodedcommand)\s+[A-Za-z0-9+/=]{16,}/i),
      ordered('\n', /FromBase64String/i, /(?:\|\s*iex|Invoke-Expression)/i),
      ordered('\n', /(?:iex|Invoke-Expression)/i, /FromBase64String/i),
    ),
    says: 'decode-run',
  },
  {
    code: 'scan-obfuscation',
    levels: CODE_MEDIUM,
    test: (line) => {
      const m = /(?:^|[\s;&|(])eval\s+["']?(?:\$[\w{(]|`)/.exec(line);
      return m && !EVAL_TOOL_INIT.test(line) ? m.index + 1 : 0;
    },
    says: 'shell-eval',
  },
  {
    code: 'scan-obfuscation',
    levels: CODE_MEDIUM,
    find: leftmost(
      /(?<![\w.$])(?:exec|eval)\s*\(\s*(?:f['"]|['"][^'"]*['"]\s*%|['"]{2}\.join|chr\()/,
      ordered('\n)', /(?<![\w.$])(?:exec|eval)\s*\(/, /\+\s*[\w'"(]/),
      ordered('\n)', /(?<![\w.$])(?:eval|new\s+Function)\s*\(/, /\+\s*[\w'"`(]|`[^`]*\$\{/),
    ),
    says: 'eval',
  },
];
