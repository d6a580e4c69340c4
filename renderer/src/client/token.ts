/**
 * The browser UI's per-start token arrives in the URL fragment (`#token=...`), which browsers never
 * send to a server or put in a Referer. It is moved to sessionStorage (this tab only, gone when the
 * tab closes, never a cookie) and wiped from the address bar so it is not bookmarked or shared.
 */
export const TOKEN_KEY = 'skilldock.token';

export interface TokenEnv {
  location: { hash: string; pathname: string; search: string };
  history: { replaceState(data: unknown, unused: string, url?: string): void };
  storage: { getItem(key: string): string | null; setItem(key: string, value: string): void };
}

export function takeToken(env: TokenEnv): string | null {
  const hash = env.location.hash.replace(/^#/, '');
  // Textual, not URLSearchParams: a hash route such as `/skills` must survive untouched.
  const parts = hash.split('&');
  const found = parts.find((p) => p.startsWith('token='));
  if (found) {
    const token = decodeURIComponent(found.slice('token='.length));
    if (token) {
      env.storage.setItem(TOKEN_KEY, token);
      const rest = parts.filter((p) => p !== found).join('&');
      env.history.replaceState(null, '', `${env.location.pathname}${env.location.search}${rest ? `#${rest}` : ''}`);
      return token;
    }
  }
  return env.storage.getItem(TOKEN_KEY);
}
