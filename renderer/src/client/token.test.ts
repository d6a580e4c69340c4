import { describe, expect, it } from 'vitest';
import { TOKEN_KEY, takeToken, type TokenEnv } from './token';

function env(hash: string, stored: string | null = null) {
  const store = new Map<string, string>(stored ? [[TOKEN_KEY, stored]] : []);
  const urls: string[] = [];
  const e: TokenEnv = {
    location: { hash, pathname: '/', search: '' },
    history: { replaceState: (_d, _u, url) => urls.push(String(url)) },
    storage: { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => void store.set(k, v) },
  };
  return { e, store, urls };
}

describe('takeToken', () => {
  it('moves the token from the fragment to sessionStorage and wipes it from the address bar', () => {
    const { e, store, urls } = env('#token=abc_DEF-123');
    expect(takeToken(e)).toBe('abc_DEF-123');
    expect(store.get(TOKEN_KEY)).toBe('abc_DEF-123');
    expect(urls).toEqual(['/']);
  });

  it('keeps a hash route next to the token', () => {
    const { e, urls } = env('#/assistants&token=t1');
    expect(takeToken(e)).toBe('t1');
    expect(urls).toEqual(['/#/assistants']);
  });

  it('falls back to the stored token after a reload, and to null without one', () => {
    expect(takeToken(env('', 'kept').e)).toBe('kept');
    expect(takeToken(env('#/skills').e)).toBeNull();
  });
});
