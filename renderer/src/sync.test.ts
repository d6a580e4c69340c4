import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { EventSource } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HTTP } from '../../src/contract/http';
import { createHttpClient } from './client/http';
import { setClient } from './client-port';
import { createI18n } from './i18n';
import { useCatalog } from './stores/catalog-store';
import { useSettings } from './stores/settings-store';
import { startEngineSync } from './sync';
import { startEngine, type TestEngine } from './test/engine';

// Issue 24 item 6: the browser's event stream misses what the engine pushes while it connects, and
// while it is reconnecting after a drop. The window reads its state again each time the stream
// opens, so both kinds of change reach the stores. A real engine (`skilldock serve`) behind a real
// loopback proxy that holds the event stream's request until told, and can end a stream; the
// client's EventSource is undici's (the one in Node's core), reconnecting as browsers do.

interface Gate {
  origin: string;
  /** Event-stream requests that arrived and are held. */
  held(): number;
  /** Let held and later event-stream requests through. */
  open(): void;
  /** Hold the next ones. */
  close(): void;
  /** End the streams that are through: the client reconnects after the server's `retry`. */
  drop(): void;
  /** Hold the engine's answers to `/api/<method>` until released; `count` says how many are held. */
  holdAnswers(method: string): { count(): number; release(): void };
  stop(): Promise<void>;
}

async function gateEvents(target: string): Promise<Gate> {
  const upstream = new URL(target);
  let passing = false;
  let waiting: Array<() => void> = [];
  let heldMethod: string | null = null;
  let heldAnswers: Array<() => void> = [];
  const live = new Set<{ res: http.ServerResponse; up: http.ClientRequest }>();
  const forward = (req: http.IncomingMessage, res: http.ServerResponse): http.ClientRequest => {
    const up = http.request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host } },
      (answer) => {
        const pass = () => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        };
        if (heldMethod && req.url === `${HTTP.apiPrefix}${heldMethod}`) heldAnswers.push(pass);
        else pass();
      },
    );
    up.on('error', () => res.destroy());
    req.pipe(up);
    return up;
  };
  const server = http.createServer((req, res) => {
    if (!req.url?.startsWith(HTTP.events)) return void forward(req, res);
    const go = () => {
      const pair = { res, up: forward(req, res) };
      live.add(pair);
      res.on('close', () => {
        live.delete(pair);
        pair.up.destroy();
      });
    };
    if (passing) go();
    else waiting.push(go);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    held: () => waiting.length,
    open() {
      passing = true;
      const go = waiting;
      waiting = [];
      for (const fn of go) fn();
    },
    close() {
      passing = false;
    },
    drop() {
      for (const { res, up } of [...live]) {
        up.destroy();
        res.end(); // a stream that ends (not one that errs) is reconnected, by browsers and undici alike
      }
    },
    holdAnswers(method) {
      heldMethod = method;
      return {
        count: () => heldAnswers.length,
        release() {
          heldMethod = null;
          const go = heldAnswers;
          heldAnswers = [];
          for (const fn of go) fn();
        },
      };
    },
    async stop() {
      waiting = [];
      heldAnswers = [];
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

let engine: TestEngine;
let gate: Gate;
beforeAll(async () => {
  engine = await startEngine();
  gate = await gateEvents(engine.origin);
}, 60_000);
afterAll(async () => {
  await gate?.stop();
  await engine?.close();
});

const catalogNames = () =>
  (useCatalog.getState().catalog?.entries ?? []).filter((e) => e.provenance.rootKind === 'library').map((e) => e.name);

describe('engine sync over the browser event stream', () => {
  it('a change made before the stream opened, and one made while it was dropped, both reach the stores', async () => {
    const h = createHttpClient({
      origin: gate.origin,
      token: engine.token,
      EventSource: EventSource as unknown as typeof globalThis.EventSource,
    });
    setClient({ api: h.api, onEvent: h.onEvent, isDesktop: false });
    const stop = startEngineSync(await createI18n('en'));
    try {
      // The first reads are answered while the stream's request is still held.
      await expect.poll(() => gate.held(), { timeout: 10_000 }).toBe(1);
      await expect.poll(() => useSettings.getState().settings?.theme, { timeout: 10_000 }).toBe('system');
      await expect.poll(catalogNames, { timeout: 10_000 }).toContain('docx');

      // Another door changes things now: nobody is subscribed yet, so the events reach no one.
      await engine.client.api.updateSettings({ theme: 'dark' });
      await engine.client.api.createSkill({ name: 'made-while-connecting', description: 'Made before the stream opened.' });
      gate.open();
      await expect.poll(() => useSettings.getState().settings?.theme, { timeout: 10_000 }).toBe('dark');
      await expect.poll(catalogNames, { timeout: 10_000 }).toContain('made-while-connecting');

      // The stream drops; its reconnection is held while the engine changes again.
      gate.close();
      gate.drop();
      await expect.poll(() => gate.held(), { timeout: 10_000 }).toBe(1);
      await engine.client.api.updateSettings({ theme: 'light' });
      await engine.client.api.deleteSkill({ name: 'docx' });
      gate.open();
      await expect.poll(() => useSettings.getState().settings?.theme, { timeout: 10_000 }).toBe('light');
      await expect.poll(catalogNames, { timeout: 10_000 }).not.toContain('docx');

      // And events flow again on the reopened stream.
      await engine.client.api.updateSettings({ theme: 'dark' });
      await expect.poll(() => useSettings.getState().settings?.theme, { timeout: 10_000 }).toBe('dark');

      // An answer older than an event that came before it (a reload's, as on every open) does not
      // put the old settings back: here the reload reads 'dark', the engine then saves 'light' and
      // pushes it, and only then does the reload's answer arrive.
      const held = gate.holdAnswers('getSettings');
      const reload = useSettings.getState().load();
      await expect.poll(() => held.count(), { timeout: 10_000 }).toBe(1); // answered 'dark', held
      await engine.client.api.updateSettings({ theme: 'light' });
      await expect.poll(() => useSettings.getState().settings?.theme, { timeout: 10_000 }).toBe('light');
      held.release();
      await reload;
      expect(useSettings.getState().settings?.theme).toBe('light');
    } finally {
      stop();
    }
  });
});
