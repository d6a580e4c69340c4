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
  message: string;
  fix: string;
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
    message: 'Pipes a download straight into a shell or interpreter: whatever the server sends runs unseen.',
    fix: 'Download to a file, check it (pin a version or checksum), then run it; or ship the script in the skill.',
  },
  {
    code: 'scan-pipe-to-shell',
    levels: ALL_HIGH,
    pattern: new RegExp(
      String.raw`(?:${SHELLS}|\bsource|(?:^|\s)\.)\s+<\(\s*(?:curl|wget|fetch)\b|(?:${SHELLS}|python[0-9.]*|perl|ruby|node)\s+-c\s+["']?\$\(\s*(?:curl|wget)\b|\beval\s+["']?\$\(\s*(?:curl|wget)\b|\beval\s+["']?\`\s*(?:curl|wget)\b`,
      'i',
    ),
    message: 'Runs the output of a download (process substitution or `$(curl ...)`): whatever the server sends runs unseen.',
    fix: 'Download to a file, check it, then run it; or ship the script in the skill.',
  },
  {
    code: 'scan-pipe-to-shell',
    levels: ALL_HIGH,
    pattern:
      /\b(?:iex|Invoke-Expression)\b[^\n]*\b(?:iwr|irm|Invoke-WebRequest|Invoke-RestMethod|DownloadString|DownloadData|Net\.WebClient|curl|wget)\b|\b(?:iwr|irm|Invoke-WebRequest|Invoke-RestMethod|DownloadString)\b[^\n]*\|\s*(?:iex|Invoke-Expression)\b/i,
    message: 'PowerShell runs a download as code (`iex (iwr ...)`): whatever the server sends runs unseen.',
    fix: 'Save the script, review it, then run it; or ship it in the skill.',
  },
  {
    code: 'scan-pipe-to-shell',
    levels: { script: 'high', code: 'high' },
    pattern:
      /(?<![\w.])(?:exec|eval|new\s+Function|Function|vm\.runIn\w+Context)\s*\([^\n]*(?:\bfetch\(|requests\.get\(|urlopen\(|httpx\.get\(|urllib\.request|axios\.get\(|https?\.get\()/,
    message: 'Runs code it has just downloaded.',
    fix: 'Ship the code in the skill so it can be reviewed and pinned.',
  },
  // --- credentials ---------------------------------------------------------------------------
  {
    code: 'scan-credential-read',
    levels: CODE_HIGH,
    pattern: SSH_PRIVATE,
    unless: SSH_KEY_TOOLS,
    message: 'Reads SSH private keys.',
    fix: "A skill should never need the user's SSH keys; let git or ssh use them itself.",
  },
  {
    code: 'scan-credential-read',
    levels: CODE_MEDIUM,
    test: (line) => (SSH_KEY_TOOLS.test(line) ? (SSH_PRIVATE.exec(line)?.index ?? -1) + 1 : 0),
    message: 'Touches SSH key files (generating or adding a key).',
    fix: "Leave key management to the user unless that is the skill's purpose; say so in its description.",
  },
  {
    code: 'scan-credential-read',
    levels: CODE_HIGH,
    pattern: new RegExp(
      String.raw`${HOME}[\\/]?(?:\.aws(?:[\\/]credentials\b|[\\/]?(?=["'\s)\]\`]|$))|\.config[\\/]gcloud\b|\.azure\b|\.kube[\\/]config\b|\.docker[\\/]config\.json|\.netrc\b|\.git-credentials\b|\.config[\\/]gh[\\/]hosts\.yml|\.gnupg\b|\.password-store\b)|application_default_credentials\.json|/etc/shadow\b|\b_netrc\b`,
    ),
    message: 'Reads a cloud, git or system credential store.',
    fix: "Use the provider's own CLI or SDK (which read their credentials themselves) instead of the files.",
  },
  {
    code: 'scan-credential-read',
    levels: { script: 'medium', code: 'medium' },
    pattern: new RegExp(String.raw`${HOME}[\\/]?\.(?:npmrc|pypirc|gem[\\/]credentials|cargo[\\/]credentials)`),
    message: 'Reads a package-registry token file.',
    fix: 'Let the package manager read its own token.',
  },
  {
    code: 'scan-credential-read',
    levels: { script: 'medium', code: 'medium' },
    pattern:
      /(?:\b(?:cat|less|more|head|tail|strings|cp|scp|base64|xxd|tar|zip|type|Get-Content|gc)\s+(?:-\S+\s+)*["']?(?:[\w./~-]*\/)?\.env(?:\.[\w-]+)?["']?(?=\s|$|[;|&)])|\b(?:open|readFile(?:Sync)?|read_text|Path)\(\s*['"](?:[\w./~-]*\/)?\.env['"])/,
    unless: /\.env\.(?:example|sample|template|dist)\b/,
    message: 'Reads a `.env` file, where projects keep their secrets.',
    fix: 'Read only the variable the skill needs from the environment.',
  },
  {
    code: 'scan-credential-read',
    levels: CODE_HIGH,
    pattern:
      /\bsecurity\s+(?:dump-keychain|export\b)|Library\/Keychains|login\.keychain|\bsecret-tool\s+(?:lookup|search)|\bkwallet-query\b|\bvaultcmd\b|\bcmdkey\s+\/list|CredEnumerate|\bmimikatz\b|\blazagne\b/i,
    message: 'Reads the OS keychain or credential vault.',
    fix: 'Ask the user for the one secret the skill needs instead of reading the keychain.',
  },
  {
    code: 'scan-credential-read',
    levels: CODE_MEDIUM,
    pattern: /\bsecurity\s+find-(?:generic|internet)-password\b|\bkeyring\.get_password\b/,
    message: 'Reads a password from the OS keychain.',
    fix: "Read only the skill's own entry, and say so in its description.",
  },
  {
    code: 'scan-credential-read',
    levels: CODE_HIGH,
    pattern:
      /(?:Chrome|Chromium|chromium|google-chrome|Edge|BraveSoftware|Brave-Browser|Opera|Vivaldi|firefox|Firefox|\.mozilla)[^\n]*?(?:Login Data|Cookies|cookies\.sqlite|logins\.json|key[34]\.db|Local State|Web Data)\b/,
    message: 'Reads saved passwords or cookies from a browser profile.',
    fix: 'Never read browser credential stores; use a fresh automation profile.',
  },
  {
    code: 'scan-credential-read',
    levels: { script: 'medium', code: 'medium' },
    pattern:
      /Library\/Application Support\/(?:Google\/Chrome|BraveSoftware|Microsoft Edge|Firefox)|\.config\/(?:google-chrome|chromium|BraveSoftware)|\.mozilla\/firefox|AppData\\(?:Local|Roaming)\\(?:Google\\Chrome|Mozilla\\Firefox|Microsoft\\Edge)/,
    message: "Uses the user's own browser profile (its cookies and sessions).",
    fix: 'Use a separate automation profile unless the user asked for theirs.',
  },
  // --- sending data out ---------------------------------------------------------------------
  {
    code: 'scan-exfiltration',
    levels: ALL_HIGH,
    pattern: new RegExp(
      String.raw`${NETWORK}[^\n]*(?:\$\(\s*(?:env|printenv|set|base64|tar|gzip|zip|whoami|hostname|history|id)\b|\$\(\s*cat\s+["']?(?:~|\$HOME|\$\{HOME\}|\/etc\/|[^\s)]*\/\.(?![.\/])|\.(?![.\/]))|\$\(<|\`\s*(?:env|printenv|cat|base64|whoami)\b)|(?:\benv|\bprintenv|\bset|\$\(\s*(?:env|printenv)\s*\)["']?)\s*\|[^\n]*${NETWORK}|--post-file[= ]|--post-data[= ]["']?\$\(`,
    ),
    message: 'Sends file contents or the environment to a URL built at run time.',
    fix: 'Send only the data the task needs, never whole files or the environment; name the endpoint in the description.',
  },
  {
    code: 'scan-exfiltration',
    levels: ALL_HIGH,
    pattern:
      /\/dev\/(?:tcp|udp)\/|\b(?:cat|tar|zip|base64)\b[^\n|]*\|\s*(?:nc|ncat|netcat|socat|telnet)\b|\b(?:nc|ncat|netcat)\b[^\n]*\s<\s*\S/,
    message: 'Streams data to a raw network socket.',
    fix: 'Use a documented HTTPS API instead of a raw socket.',
  },
  {
    code: 'scan-exfiltration',
    levels: { script: 'high', code: 'high' },
    pattern:
      /(?:json\.dumps|str|repr)\(\s*(?:dict\()?os\.environ\b(?!\s*[[.])|JSON\.stringify\(\s*process\.env\s*[,)]|Get-ChildItem\s+env:[^\n]*\|\s*(?:ConvertTo-Json|Out-String)|os\.environ\.items\(\)[^\n]*(?:requests|urlopen|post)/,
    message: 'Serialises the whole environment (API keys and tokens live there).',
    fix: 'Read only the variables the skill needs.',
  },
  {
    code: 'scan-exfiltration',
    levels: { script: 'low', code: 'low' },
    pattern: /\bcurl\b[^\n]*\s(?:-F|--form|-T|--upload-file|--data-binary)\s+["']?[\w-]*=?@(?!-)[^\s"']+/,
    message: 'Uploads a local file.',
    fix: "Make sure the skill's description says what it uploads and where.",
  },
  // --- destructive --------------------------------------------------------------------------
  {
    code: 'scan-destructive',
    levels: ALL_HIGH,
    test: rmEverything,
    message: 'Recursively deletes the root, a home dir or a system dir.',
    fix: "Delete only paths inside the workspace or the skill's state dir.",
  },
  {
    code: 'scan-destructive',
    levels: CODE_MEDIUM,
    test: rmInHome,
    message: 'Recursively deletes a path in the home dir, outside the workspace.',
    fix: "Keep the skill's files in its state dir (~/.skilldock/skills-state/<id>/) and delete only there.",
  },
  {
    code: 'scan-destructive',
    levels: CODE_HIGH,
    pattern:
      /shutil\.rmtree\(\s*(?:os\.path\.expanduser\(\s*['"]~\/?['"]\s*\)|Path\.home\(\)|['"]\/['"]|os\.environ\[['"]HOME['"]\]|os\.getenv\(['"]HOME['"]\))\s*[,)]|\b(?:fs\.)?(?:rmSync|rm|rmdir|rimraf)\(\s*(?:os\.homedir\(\)|['"]\/['"]|process\.env\.HOME)\s*[,)]|Remove-Item\b[^\n]*-Recurse[^\n]*(?:\$HOME|\$env:USERPROFILE|~|[A-Za-z]:\\)\s*(?:$|-)|\b(?:rd|rmdir)\s+\/s\s+\/q\s+[A-Za-z]:\\\s*$|\bdel\s+\/[fsq]\s+(?:\/[fsq]\s+)*[A-Za-z]:\\|\bformat(?:\.com)?\s+[A-Za-z]:\s*(?:\/[a-zA-Z]+\b|$)|\bmkfs(?:\.\w+)?\s+\/dev\/|\bdd\b[^\n]*\bof=\/dev\/(?:sd|hd|nvme|disk|mmcblk)|>\s*\/dev\/(?:sd[a-z]|nvme\d|disk\d)|:\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:|\bchmod\s+-R\s+[0-7]{3,4}\s+\/(?:\s|$)|\bchown\s+-R\s+\S+\s+\/(?:\s|$)|\bfind\s+(?:\/|~|\$HOME)\s[^\n]*-delete\b/,
    message: 'Destroys data outside the workspace (whole disk, home or system dirs).',
    fix: "Limit deletions to the workspace or the skill's state dir.",
  },
  // --- persistence --------------------------------------------------------------------------
  {
    code: 'scan-persistence',
    levels: CODE_HIGH,
    pattern:
      /\bcrontab\b(?!\s+-l\b(?![^\n]*\|\s*crontab))(?!\s*$)|\bcrontab\s+-l\b[^\n]*\|\s*crontab\b|(?:>>?|\btee\b|\bcp\b|\bmv\b|\binstall\b)[^\n]*\/(?:etc\/cron|var\/spool\/cron)/,
    message: 'Installs a cron job that keeps running after the conversation.',
    fix: "Do not schedule anything on the user's machine; tell the user how if they want it.",
  },
  {
    code: 'scan-persistence',
    levels: CODE_HIGH,
    pattern: new RegExp(
      String.raw`(?:>>?|\btee\b(?:\s+-a)?|\bcp\b|\bmv\b|\bln\b|Add-Content|Set-Content|Out-File)\s+[^\n]*?${HOME}[\\/]?\.(?:bashrc|bash_profile|bash_login|profile|zshrc|zprofile|zshenv|zlogin|cshrc|tcshrc|config[\\/]fish[\\/]config\.fish)\b|(?:open|appendFile(?:Sync)?|writeFile(?:Sync)?)\([^\n]*\.(?:bashrc|bash_profile|zshrc|zprofile|profile)['"][^\n]*|(?:>>|Add-Content)\s*\$PROFILE\b|${HOME}[\\/]?\.ssh[\\/]authorized_keys[^\n]*|>>\s*[^\n]*authorized_keys`,
    ),
    unless: /^\s*(?:source|\.)\s/,
    message: 'Writes to a shell startup file or authorized_keys: runs code (or grants access) in every later session.',
    fix: "Do not change the user's shell setup; print the line and let the user add it.",
  },
  {
    code: 'scan-persistence',
    levels: CODE_HIGH,
    pattern:
      /Library\/Launch(?:Agents|Daemons)|\blaunchctl\s+(?:load|bootstrap|submit|enable)\b|\.config\/autostart\b|\bschtasks(?:\.exe)?\s+\/create\b|\b(?:Register|New)-ScheduledTask\b|\breg(?:\.exe)?\s+add\s+[^\n]*\\(?:Run|RunOnce)\b|CurrentVersion\\Run(?:Once)?\b|Start Menu\\Programs\\Startup|\bsystemctl\s+--user\s+enable\b|\.config\/systemd\/user\//i,
    message: 'Registers a launch agent, startup item, scheduled task or service that survives the session.',
    fix: 'Do not install background services; tell the user what to set up if they need it.',
  },
  {
    code: 'scan-persistence',
    levels: { script: 'medium', code: 'medium' },
    pattern:
      /\bsystemctl\s+enable\b|\.git\/hooks\/|core\.hooksPath|(?:>>?|\btee\b|writeFile|open\()[^\n]*(?:\.claude\/settings(?:\.local)?\.json|\.gemini\/settings\.json|\.codex\/config\.toml)/,
    message: 'Installs a git hook, a service or an agent setting that outlives the task.',
    fix: "Say so in the skill's description, or leave it to the user.",
  },
  // --- obfuscation --------------------------------------------------------------------------
  {
    code: 'scan-obfuscation',
    levels: ALL_HIGH,
    pattern: new RegExp(
      String.raw`(?:base64\s+(?:-d|--decode|-D)|xxd\s+-r|openssl\s+(?:base64|enc)\s[^\n|]*-d|gunzip|zcat)\b[^\n|]*\|\s*(?:${SHELLS}|${INTERPRETER_STDIN})|\beval\s+["']?\$\([^)]*(?:base64\s+(?:-d|--decode)|xxd\s+-r)`,
    ),
    message: 'Decodes hidden text and runs it as code.',
    fix: 'Ship the code in readable form.',
  },
  {
    code: 'scan-obfuscation',
    levels: ALL_HIGH,
    pattern:
      /(?<![\w.])(?:exec|eval|compile)\s*\([^\n]*(?:b64decode|b32decode|b85decode|a85decode|fromhex|unhexlify|a2b_base64|decompress|marshal\.loads|codecs\.decode|rot_?13|\[::-1\])|(?<![\w.])(?:eval|Function|vm\.runIn\w+Context|vm\.Script)\s*\([^\n]*(?:atob\(|Buffer\.from\([^\n]*['"](?:base64|hex)['"]|fromCharCode|unescape\()|\b(?:powershell|pwsh)(?:\.exe)?\b[^\n]*\s-(?:e|ec|enc|encodedcommand)\s+[A-Za-z0-9+/=]{16,}|FromBase64String[^\n]*(?:\|\s*iex|Invoke-Expression)|(?:iex|Invoke-Expression)[^\n]*FromBase64String/i,
    message: 'Decodes an encoded string and runs it as code.',
    fix: 'Ship the code in readable form.',
  },
  {
    code: 'scan-obfuscation',
    levels: CODE_MEDIUM,
    test: (line) => {
      const m = /(?:^|[\s;&|(])eval\s+["']?(?:\$[\w{(]|`)/.exec(line);
      return m && !EVAL_TOOL_INIT.test(line) ? m.index + 1 : 0;
    },
    message: 'Runs a string built at run time with shell `eval`.',
    fix: 'Run the command directly; if it must be dynamic, use an array of arguments.',
  },
  {
    code: 'scan-obfuscation',
    levels: CODE_MEDIUM,
    pattern:
      /(?<![\w.$])(?:exec|eval)\s*\(\s*(?:[^\n)]*?\+\s*[\w'"(]|f['"]|['"][^'"]*['"]\s*%|['"]{2}\.join|chr\()|(?<![\w.$])(?:eval|new\s+Function)\s*\([^\n)]*(?:\+\s*[\w'"`(]|`[^`]*\$\{)/,
    message: 'Runs a string built at run time with `eval`/`exec`.',
    fix: 'Call the code directly instead of building it as text.',
  },
];
