// Promise wrappers over a raw ResourceService client, for tests.

import type * as grpc from '@grpc/grpc-js';
import type { ResourceServiceClient } from '@kubelab/proto';
import type { KubeObject, Status } from '@kubelab/api';
import { grpcToStatus } from '@kubelab/proto';

export interface Gvr {
  group: string;
  version: string;
  resource: string;
}

export const gvr = (resource: string, group = ''): Gvr => ({ group, version: 'v1', resource });

export class RpcError extends Error {
  constructor(
    readonly grpcCode: number,
    readonly details: string,
    readonly status: Status,
  ) {
    super(`${grpcCode}: ${details}`);
  }
}

export function call<Res>(client: ResourceServiceClient, method: string, req: unknown): Promise<Res> {
  return new Promise((resolve, reject) => {
    (client as unknown as Record<string, (r: unknown, cb: (e: grpc.ServiceError | null, r: Res) => void) => void>)[method]!(req, (e, r) => {
      if (e) reject(new RpcError(e.code, e.details, grpcToStatus(e).status));
      else resolve(r);
    });
  });
}

const enc = (o: unknown) => Buffer.from(JSON.stringify(o));
const dec = <T>(b: Buffer | Uint8Array) => JSON.parse(Buffer.from(b).toString('utf8')) as T;

/** Typed helpers over one client. */
export function api(client: ResourceServiceClient) {
  return {
    create: async <T extends KubeObject>(r: Gvr, ns: string, obj: unknown, extra: Record<string, unknown> = {}) =>
      dec<T>((await call<{ json: Buffer }>(client, 'Create', { resource: r, namespace: ns, object: enc(obj), ...extra })).json),
    get: async <T extends KubeObject>(r: Gvr, ns: string, name: string) => dec<T>((await call<{ json: Buffer }>(client, 'Get', { resource: r, namespace: ns, name })).json),
    list: async <T extends KubeObject>(r: Gvr, ns = '', extra: Record<string, unknown> = {}) =>
      dec<{ metadata: { resourceVersion: string; continue?: string }; items: T[] }>((await call<{ json: Buffer }>(client, 'List', { resource: r, namespace: ns, ...extra })).json),
    update: async <T extends KubeObject>(r: Gvr, ns: string, obj: KubeObject) =>
      dec<T>((await call<{ json: Buffer }>(client, 'Update', { resource: r, namespace: ns, name: obj.metadata.name, object: enc(obj) })).json),
    updateStatus: async <T extends KubeObject>(r: Gvr, ns: string, obj: KubeObject) =>
      dec<T>((await call<{ json: Buffer }>(client, 'UpdateStatus', { resource: r, namespace: ns, name: obj.metadata.name, object: enc(obj) })).json),
    patch: async <T extends KubeObject>(r: Gvr, ns: string, name: string, patch: unknown, patchType = 'application/merge-patch+json', subresource = '') =>
      dec<T>((await call<{ json: Buffer }>(client, 'Patch', { resource: r, namespace: ns, name, patchType, patch: enc(patch), subresource })).json),
    delete: async <T extends KubeObject>(r: Gvr, ns: string, name: string, options?: unknown) => {
      const res = await call<{ object: Buffer; deleted: boolean }>(client, 'Delete', {
        resource: r,
        namespace: ns,
        name,
        ...(options ? { options: enc(options) } : {}),
      });
      return { object: dec<T>(res.object), deleted: res.deleted };
    },
    bind: (ns: string, pod: string, node: string) =>
      call<object>(client, 'Bind', { namespace: ns, binding: enc({ apiVersion: 'v1', kind: 'Binding', metadata: { name: pod }, target: { kind: 'Node', name: node } }) }),
  };
}

export interface CollectedEvent {
  type: string;
  object: KubeObject & Record<string, unknown>;
}

/** Opens a watch stream; events accumulate in `events`; `until` waits for a condition. */
export function openWatch(client: ResourceServiceClient, req: Record<string, unknown>) {
  const events: CollectedEvent[] = [];
  let ended = false;
  let error: grpc.ServiceError | undefined;
  const waiters: Array<() => void> = [];
  const stream = (client as unknown as { Watch(r: unknown): grpc.ClientReadableStream<{ type: string; object: Buffer }> }).Watch(req);
  const poke = () => waiters.splice(0).forEach((w) => w());
  stream.on('data', (ev) => {
    events.push({ type: ev.type, object: dec(ev.object) });
    poke();
  });
  stream.on('error', (e: grpc.ServiceError) => {
    if (e.code !== 1) error = e;
    ended = true;
    poke();
  });
  stream.on('end', () => {
    ended = true;
    poke();
  });
  return {
    events,
    get ended() {
      return ended;
    },
    get error() {
      return error;
    },
    /** Resolves when pred(events) holds; rejects after timeoutMs. */
    async until(pred: (evs: CollectedEvent[]) => boolean, timeoutMs = 5_000): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      while (!pred(events)) {
        if (ended && !pred(events)) throw new Error(`watch ended before the condition held (${events.length} events, error: ${error?.details ?? 'none'})`);
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`timed out after ${timeoutMs} ms waiting on the watch (${events.length} events: ${events.map((e) => e.type).join(',')})`);
        await new Promise<void>((r) => {
          const t = setTimeout(r, left);
          waiters.push(() => {
            clearTimeout(t);
            r();
          });
        });
      }
    },
    close() {
      stream.cancel();
    },
  };
}

/** The RpcError p rejects with; anything else (or success) fails the test. */
export async function rpcError(p: Promise<unknown>): Promise<RpcError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof RpcError) return e;
    throw e;
  }
  throw new Error('expected the call to fail');
}
