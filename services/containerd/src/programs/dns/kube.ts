// CoreDNS's connection to the API (client-go's in-cluster config and
// reflectors, in small): list, then watch from the list's resourceVersion,
// over HTTPS with the pod's ServiceAccount token and CA. A watch that ends
// is resumed from the last version seen; an expired version (410) lists again.

import { request, type RequestOptions } from 'node:https';
import type { Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { KubeObject } from '@kubelab/api';

export interface ApiConnection {
  host: string;
  port: number;
  /** The TCP connection to host:port (from the pod's network, or the local runner's host). */
  dial: (host: string, port: number) => Promise<Socket>;
  token: () => Promise<string>;
  ca: string;
}

export interface WatchEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  object: KubeObject & { code?: number; message?: string };
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** One request; `onLine` gets each line of a streamed body, else the whole body is returned. */
function get(api: ApiConnection, path: string, onLine?: (line: string) => void, signal?: AbortSignal): Promise<string> {
  return api.token().then(
    (token) =>
      new Promise<string>((resolve, reject) => {
        const req = request(
          {
            host: api.host,
            port: api.port,
            path,
            method: 'GET',
            headers: { Authorization: `Bearer ${token}`, Accept: 'application/json', 'User-Agent': 'coredns/v1.11.3 (linux/amd64) kubernetes/kubelab' },
            ...(signal ? { signal } : {}),
            createConnection: (_opts: unknown, cb: (err: Error | null, s?: Socket) => void) => {
              api.dial(api.host, api.port).then(
                (raw) => {
                  const s = tlsConnect({ socket: raw, ca: api.ca, servername: 'kubernetes.default.svc' });
                  cb(null, s);
                },
                (err: Error) => cb(err),
              );
              return undefined;
            },
          } as unknown as RequestOptions,
          (res) => {
            res.setEncoding('utf8');
            let body = '';
            res.on('data', (chunk: string) => {
              body += chunk;
              if (!onLine || res.statusCode !== 200) return;
              let nl;
              while ((nl = body.indexOf('\n')) >= 0) {
                const line = body.slice(0, nl);
                body = body.slice(nl + 1);
                if (!line.trim()) continue;
                try {
                  onLine(line);
                } catch (e) {
                  req.destroy();
                  reject(e as Error);
                  return;
                }
              }
            });
            res.on('end', () => (res.statusCode === 200 ? resolve(body) : reject(new HttpError(res.statusCode ?? 0, body.slice(0, 300)))));
            res.on('error', reject);
          },
        );
        req.on('error', reject);
        req.end();
      }),
  );
}

/**
 * Keeps `store` equal to the objects at `path` (e.g. /api/v1/services) until
 * stop() — a reflector: `synced` resolves after the first list; errors go to
 * `warn` and are retried after a second.
 */
export function reflect(api: ApiConnection, path: string, store: Map<string, KubeObject>, changed: () => void, warn: (msg: string) => void): { synced: Promise<void>; stop: () => void } {
  let stopped = false;
  const abort = new AbortController();
  let markSynced!: () => void;
  const synced = new Promise<void>((r) => (markSynced = r));
  const keyOf = (o: KubeObject) => `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;
  const run = async () => {
    let rv = '';
    while (!stopped) {
      try {
        if (!rv) {
          const list = JSON.parse(await get(api, path, undefined, abort.signal)) as { items?: KubeObject[]; metadata?: { resourceVersion?: string } };
          store.clear();
          for (const o of list.items ?? []) store.set(keyOf(o), o);
          rv = list.metadata?.resourceVersion ?? '';
          changed();
          markSynced();
        }
        await get(
          api,
          `${path}?watch=1&allowWatchBookmarks=true&timeoutSeconds=300&resourceVersion=${encodeURIComponent(rv)}`,
          (line) => {
            const ev = JSON.parse(line) as WatchEvent;
            if (ev.type === 'ERROR') {
              if (ev.object.code === 410) rv = '';
              throw new HttpError(ev.object.code ?? 500, ev.object.message ?? 'watch error');
            }
            if (ev.object.metadata?.resourceVersion) rv = ev.object.metadata.resourceVersion;
            if (ev.type === 'BOOKMARK') return;
            if (ev.type === 'DELETED') store.delete(keyOf(ev.object));
            else store.set(keyOf(ev.object), ev.object);
            changed();
          },
          abort.signal,
        );
      } catch (e) {
        if (stopped) return;
        if (e instanceof HttpError && e.status === 410) rv = '';
        warn(`Failed to watch ${path}: ${(e as Error).message}`);
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
  };
  void run();
  return {
    synced,
    stop: () => {
      stopped = true;
      abort.abort();
    },
  };
}
