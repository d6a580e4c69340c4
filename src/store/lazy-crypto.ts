import { createRequire } from 'node:module';

// node:crypto brings ~20 internal modules: about a tenth of a bare Node start. The write guard's
// hook (`policy check-write --hook`, run before every write of an agent) mostly hashes and writes
// nothing, so the modules it shares with the engine load node:crypto when they first need it.

let loaded: typeof import('node:crypto') | undefined;

export function nodeCrypto(): typeof import('node:crypto') {
  return (loaded ??= createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto'));
}

/** `n` random bytes as hex (temp-file names, lock nonces, conversation ids). */
export function randomHex(n: number): string {
  return nodeCrypto().randomBytes(n).toString('hex');
}
