import type { MessageParams, MessageRef, ScanFinding } from '../contract/index.js';
import { formatMessage } from '../contract/messages-text.js';

/**
 * A scan finding's sentence and fix as message keys (`scan.<code>.<says>.message` / `.fix`, English
 * in src/contract/messages-security.ts) and their English, for the CLI and SARIF.
 */
export function scanWords(code: string, says: string, params?: MessageParams): Pick<ScanFinding, 'message' | 'msg' | 'fix' | 'fixMsg'> {
  const base = `scan.${code.replace(/^scan-/, '')}.${says}`;
  const msg: MessageRef = params ? { key: `${base}.message`, params } : { key: `${base}.message` };
  const fixMsg: MessageRef = { key: `${base}.fix` };
  return { message: formatMessage(msg), msg, fix: formatMessage(fixMsg), fixMsg };
}
