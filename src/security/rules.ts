import type { ScanCode, ScanLevel } from '../contract/index.js';

// The line rules of the security scan, as data. Each applies to one line of a script, of a code
// block in Markdown, or of prose, with a level per context (no level: the rule does not apply
// there). Prose counts less than code: a README may name `~/.aws` without reading it.

export type LineContext = 'script' | 'code' | 'prose';

export interface LineRule {
  code: ScanCode;
  levels: Partial<Record<LineContext, ScanLevel>>;
  /** Matches the offending part of a line. */
  pattern?: RegExp;
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

// A home directory however a script spells it.
const HOME = String.raw`(?:~|\$HOME|\$\{HOME\}|%USERPROFILE%|\$env:USERPROFILE|\$env:HOME|/home/[^/\s'"]+|/Users/[^/\s'"]+|/root|os\.homedir\(\)\s*,\s*['"]|expanduser\(\s*['"]~|Path\.home\(\)\s*/\s*['"]|homedir\(\)[^\n]*?['"])`;
const DOWNLOADER = String.raw`\b(?:curl|wget|fetch|aria2c|xh|iwr|irm|Invoke-WebRequest|Invoke-RestMethod)\b`;
const SHELLS = String.raw`(?:sudo\s+(?:-\S+\s+)*)?(?:env\s+(?:\S+=\S*\s+)*)?(?:/usr/bin/|/bin/|/usr/local/bin/)?(?:ba|z|da|k|fi|c|tc|a)?sh\b(?!\.|-)`;
const INTERPRETER_STDIN = String.raw`(?:sudo\s+)?(?:python[0-9.]*|perl|ruby|node|php|pwsh|powershell)\s*(?:-\s*)?(?:$|[;&|)'"])`;
const NETWORK = String.raw`(?:\bcurl\b|\bwget\b|\bnc\b|\bncat\b|\bsocat\b|\btelnet\b|requests\.(?:post|put|patch)|httpx\.(?:post|put)|urlopen|urllib\.request|http\.client|\bfetch\(|axios|https?\.request|Invoke-WebRequest|Invoke-RestMethod|\biwr\b|\birm\b|WebClient|UploadString|UploadFile|socket\.(?:connect|send))`;

/** `rm` with a recursive flag aimed at `/`, a home dir or a system dir: returns the column. */
function rmEverything(line: string): number {
  const re = /(?:^|[\s;&|({`$])(?:sudo\s+)?rm\s+((?:(?:-{1,2}[\w-]+)\s+)*)([^;&|)\n]*)/g;
  for (let m = re.exec(line); m; m = re.exec(line)) {
    const flags = m[1];
    const recursive = /(?:^|\s)-[a-zA-Z]*[rR]|--recursive/.test(flags);
    if (!recursive) continue;
    if (/--no-preserve-root/.test(line)) return m.index + 1;
    const targets = m[2]
      .trim()
      .split(/\s+/)
      .map((t) => t.replace(/^["']|["']$/g, ''));
    const top =
      /^(?:\/|\/\*|~|~\/|~\/\*|\$HOME|\$\{HOME\}|\$HOME\/|\$\{HOME\}\/|\$HOME\/\*|\$\{HOME\}\/\*|\/(?:home|Users|root|etc|usr|var|bin|sbin|lib|lib64|boot|opt|System|Library|Applications|private)\/?\*?|[A-Za-z]:\\?\*?)$/;
    if (targets.some((t) => top.test(t))) return m.index + 1;
  }
  return 0;
}

/** `rm -r` of some path inside the home dir that is not the skill's own state dir. */
function rmInHome(line: string): number {
  const re = /(?:^|[\s;&|({`$])(?:sudo\s+)?rm\s+((?:(?:-{1,2}[\w-]+)\s+)*)([^;&|)\n]*)/g;
  for (let m = re.exec(line); m; m = re.exec(line)) {
    if (!/(?:^|\s)-[a-zA-Z]*[rR]|--recursive/.test(m[1])) continue;
    const targets = m[2]
      .trim()
      .split(/\s+/)
      .map((t) => t.replace(/^["']|["']$/g, ''));
    if (targets.some((t) => /^(?:~|\$HOME|\$\{HOME\})\/\S/.test(t) && !/\.skilldock\/skills-state\//.test(t))) return m.index + 1;
  }
  return 0;
}

const SSH_PRIVATE = new RegExp(
  String.raw`${HOME}[\\/]?\.ssh\b(?![\\/](?:config|known_hosts|authorized_keys|[\w.-]+\.pub)\b)(?:[\\/][\w.*-]*)?|\bid_(?:rsa|dsa|ecdsa|ed25519)\b(?!\.pub)`,
);
const SSH_KEY_TOOLS = /\bssh-(?:keygen|add|copy-id)\b|\bchmod\b|IdentityFile/;

// `eval "$(pyenv init -)"` and friends are how tools ask to be set up; they are not built strings.
const EVAL_TOOL_INIT =
  /\beval\s+["']?\$\(\s*["']?[\w./-]+["']?\s+(?:init|shellenv|env|hook|shell\.\w+|-s|docker-env|completion|activate)\b/;

export const LINE_RULES: LineRule[] = [
  // --- a download straight into an interpreter ---------------------------------------------
  {
    code: 'scan-pipe-to-shell',
    levels: ALL_HIGH,
    pattern: new RegExp(
      String.raw`${DOWNLOADER}[^\n|]*\|\s*(?:tee\s+\S+\s*\|\s*)?(?:${SHELLS}|${INTERPRETER_STDIN}|iex\b|Invoke-Expression\b)`,
      'i',
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
    pattern:
      /\b(?:iex|Invoke-Expression)\b[^\n]*\b(?:iwr|irm|Invoke-WebRequest|Invoke-RestMethod|DownloadString|DownloadData|Net\.WebClient|curl|wget)\b|\b(?:iwr|irm|Invoke-WebRequest|Invoke-RestMethod|DownloadString)\b[^\n]*\|\s*(?:iex|Invoke-Expression)\b/i,
    says: 'powershell',
  },
  {
    code: 'scan-pipe-to-shell',
    levels: { script: 'high', code: 'high' },
    pattern:
      /(?<![\w.])(?:exec|eval|new\s+Function|Function|vm\.runIn\w+Context)\s*\([^\n]*(?:\bfetch\(|requests\.get\(|urlopen\(|httpx\.get\(|urllib\.request|axios\.get\(|https?\.get\()/,
    says: 'run-downloaded',
  },
  // --- credentials ---------------------------------------------------------------------------
  {
    code: 'scan-credential-read',
    levels: CODE_HIGH,
    pattern: SSH_PRIVATE,
    unless: SSH_KEY_TOOLS,
    says: 'ssh-private',
  },
  {
    code: 'scan-credential-read',
    levels: CODE_MEDIUM,
    test: (line) => (SSH_KEY_TOOLS.test(line) ? (SSH_PRIVATE.exec(line)?.index ?? -1) + 1 : 0),
    says: 'ssh-tools',
  },
  {
    code: 'scan-credential-read',
    levels: CODE_HIGH,
    pattern: new RegExp(
      String.raw`${HOME}[\\/]?(?:\.aws(?:[\\/]credentials\b|[\\/]?(?=["'\s)\]\`]|$))|\.config[\\/]gcloud\b|\.azure\b|\.kube[\\/]config\b|\.docker[\\/]config\.json|\.netrc\b|\.git-credentials\b|\.config[\\/]gh[\\/]hosts\.yml|\.gnupg\b|\.password-store\b)|application_default_credentials\.json|/etc/shadow\b|\b_netrc\b`,
    ),
    says: 'cloud-store',
  },
  {
    code: 'scan-credential-read',
    levels: { script: 'medium', code: 'medium' },
    pattern: new RegExp(String.raw`${HOME}[\\/]?\.(?:npmrc|pypirc|gem[\\/]credentials|cargo[\\/]credentials)`),
    says: 'registry-token',
  },
  {
    code: 'scan-credential-read',
    levels: { script: 'medium', code: 'medium' },
    pattern:
      /(?:\b(?:cat|less|more|head|tail|strings|cp|scp|base64|xxd|tar|zip|type|Get-Content|gc)\s+(?:-\S+\s+)*["']?(?:[\w./~-]*\/)?\.env(?:\.[\w-]+)?["']?(?=\s|$|[;|&)])|\b(?:open|readFile(?:Sync)?|read_text|Path)\(\s*['"](?:[\w./~-]*\/)?\.env['"])/,
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
    pattern:
      /(?:Chrome|Chromium|chromium|google-chrome|Edge|BraveSoftware|Brave-Browser|Opera|Vivaldi|firefox|Firefox|\.mozilla)[^\n]*?(?:Login Data|Cookies|cookies\.sqlite|logins\.json|key[34]\.db|Local State|Web Data)\b/,
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
    pattern: new RegExp(
      String.raw`${NETWORK}[^\n]*(?:\$\(\s*(?:env|printenv|set|base64|tar|gzip|zip|whoami|hostname|history|id)\b|\$\(\s*cat\s+["']?(?:~|\$HOME|\$\{HOME\}|\/etc\/|[^\s)]*\/\.(?![.\/])|\.(?![.\/]))|\$\(<|\`\s*(?:env|printenv|cat|base64|whoami)\b)|(?:\benv|\bprintenv|\bset|\$\(\s*(?:env|printenv)\s*\)["']?)\s*\|[^\n]*${NETWORK}|--post-file[= ]|--post-data[= ]["']?\$\(`,
    ),
    says: 'send-url',
  },
  {
    code: 'scan-exfiltration',
    levels: ALL_HIGH,
    pattern:
      /\/dev\/(?:tcp|udp)\/|\b(?:cat|tar|zip|base64)\b[^\n|]*\|\s*(?:nc|ncat|netcat|socat|telnet)\b|\b(?:nc|ncat|netcat)\b[^\n]*\s<\s*\S/,
    says: 'raw-socket',
  },
  {
    code: 'scan-exfiltration',
    levels: { script: 'high', code: 'high' },
    pattern:
      /(?:json\.dumps|str|repr)\(\s*(?:dict\()?os\.environ\b(?!\s*[[.])|JSON\.stringify\(\s*process\.env\s*[,)]|Get-ChildItem\s+env:[^\n]*\|\s*(?:ConvertTo-Json|Out-String)|os\.environ\.items\(\)[^\n]*(?:requests|urlopen|post)/,
    says: 'env-dump',
  },
  {
    code: 'scan-exfiltration',
    levels: { script: 'low', code: 'low' },
    pattern: /\bcurl\b[^\n]*\s(?:-F|--form|-T|--upload-file|--data-binary)\s+["']?[\w-]*=?@(?!-)[^\s"']+/,
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
    pattern:
      /shutil\.rmtree\(\s*(?:os\.path\.expanduser\(\s*['"]~\/?['"]\s*\)|Path\.home\(\)|['"]\/['"]|os\.environ\[['"]HOME['"]\]|os\.getenv\(['"]HOME['"]\))\s*[,)]|\b(?:fs\.)?(?:rmSync|rm|rmdir|rimraf)\(\s*(?:os\.homedir\(\)|['"]\/['"]|process\.env\.HOME)\s*[,)]|Remove-Item\b[^\n]*-Recurse[^\n]*(?:\$HOME|\$env:USERPROFILE|~|[A-Za-z]:\\)\s*(?:$|-)|\b(?:rd|rmdir)\s+\/s\s+\/q\s+[A-Za-z]:\\\s*$|\bdel\s+\/[fsq]\s+(?:\/[fsq]\s+)*[A-Za-z]:\\|\bformat(?:\.com)?\s+[A-Za-z]:\s*(?:\/[a-zA-Z]+\b|$)|\bmkfs(?:\.\w+)?\s+\/dev\/|\bdd\b[^\n]*\bof=\/dev\/(?:sd|hd|nvme|disk|mmcblk)|>\s*\/dev\/(?:sd[a-z]|nvme\d|disk\d)|:\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:|\bchmod\s+-R\s+[0-7]{3,4}\s+\/(?:\s|$)|\bchown\s+-R\s+\S+\s+\/(?:\s|$)|\bfind\s+(?:\/|~|\$HOME)\s[^\n]*-delete\b/,
    says: 'destroy',
  },
  // --- persistence --------------------------------------------------------------------------
  {
    code: 'scan-persistence',
    levels: CODE_HIGH,
    pattern:
      /\bcrontab\b(?!\s+-l\b(?![^\n]*\|\s*crontab))(?!\s*$)|\bcrontab\s+-l\b[^\n]*\|\s*crontab\b|(?:>>?|\btee\b|\bcp\b|\bmv\b|\binstall\b)[^\n]*\/(?:etc\/cron|var\/spool\/cron)/,
    says: 'cron',
  },
  {
    code: 'scan-persistence',
    levels: CODE_HIGH,
    pattern: new RegExp(
      String.raw`(?:>>?|\btee\b(?:\s+-a)?|\bcp\b|\bmv\b|\bln\b|Add-Content|Set-Content|Out-File)\s+[^\n]*?${HOME}[\\/]?\.(?:bashrc|bash_profile|bash_login|profile|zshrc|zprofile|zshenv|zlogin|cshrc|tcshrc|config[\\/]fish[\\/]config\.fish)\b|(?:open|appendFile(?:Sync)?|writeFile(?:Sync)?)\([^\n]*\.(?:bashrc|bash_profile|zshrc|zprofile|profile)['"][^\n]*|(?:>>|Add-Content)\s*\$PROFILE\b|${HOME}[\\/]?\.ssh[\\/]authorized_keys[^\n]*|>>\s*[^\n]*authorized_keys`,
    ),
    unless: /^\s*(?:source|\.)\s/,
    says: 'shell-startup',
  },
  {
    code: 'scan-persistence',
    levels: CODE_HIGH,
    pattern:
      /Library\/Launch(?:Agents|Daemons)|\blaunchctl\s+(?:load|bootstrap|submit|enable)\b|\.config\/autostart\b|\bschtasks(?:\.exe)?\s+\/create\b|\b(?:Register|New)-ScheduledTask\b|\breg(?:\.exe)?\s+add\s+[^\n]*\\(?:Run|RunOnce)\b|CurrentVersion\\Run(?:Once)?\b|Start Menu\\Programs\\Startup|\bsystemctl\s+--user\s+enable\b|\.config\/systemd\/user\//i,
    says: 'service',
  },
  {
    code: 'scan-persistence',
    levels: { script: 'medium', code: 'medium' },
    pattern:
      /\bsystemctl\s+enable\b|\.git\/hooks\/|core\.hooksPath|(?:>>?|\btee\b|writeFile|open\()[^\n]*(?:\.claude\/settings(?:\.local)?\.json|\.gemini\/settings\.json|\.codex\/config\.toml)/,
    says: 'hook',
  },
  // --- obfuscation --------------------------------------------------------------------------
  {
    code: 'scan-obfuscation',
    levels: ALL_HIGH,
    pattern: new RegExp(
      String.raw`(?:base64\s+(?:-d|--decode|-D)|xxd\s+-r|openssl\s+(?:base64|enc)\s[^\n|]*-d|gunzip|zcat)\b[^\n|]*\|\s*(?:${SHELLS}|${INTERPRETER_STDIN})|\beval\s+["']?\$\([^)]*(?:base64\s+(?:-d|--decode)|xxd\s+-r)`,
    ),
    says: 'decode-hidden',
  },
  {
    code: 'scan-obfuscation',
    levels: ALL_HIGH,
    pattern:
      /(?<![\w.])(?:exec|eval|compile)\s*\([^\n]*(?:b64decode|b32decode|b85decode|a85decode|fromhex|unhexlify|a2b_base64|decompress|marshal\.loads|codecs\.decode|rot_?13|\[::-1\])|(?<![\w.])(?:eval|Function|vm\.runIn\w+Context|vm\.Script)\s*\([^\n]*(?:atob\(|Buffer\.from\([^\n]*['"](?:base64|hex)['"]|fromCharCode|unescape\()|\b(?:powershell|pwsh)(?:\.exe)?\b[^\n]*\s-(?:e|ec|enc|encodedcommand)\s+[A-Za-z0-9+/=]{16,}|FromBase64String[^\n]*(?:\|\s*iex|Invoke-Expression)|(?:iex|Invoke-Expression)[^\n]*FromBase64String/i,
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
    pattern:
      /(?<![\w.$])(?:exec|eval)\s*\(\s*(?:[^\n)]*?\+\s*[\w'"(]|f['"]|['"][^'"]*['"]\s*%|['"]{2}\.join|chr\()|(?<![\w.$])(?:eval|new\s+Function)\s*\([^\n)]*(?:\+\s*[\w'"`(]|`[^`]*\$\{)/,
    says: 'eval',
  },
];
