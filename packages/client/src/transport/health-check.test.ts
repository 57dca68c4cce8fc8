// The connection health check: its settings as client-go reads them, and
// its behaviour on loopback through a TCP relay that delays or freezes
// the bytes: a busy connection whose pings are answered late stays up
// (grpc-js's own keepalive drops it), a connection that reads nothing is
// closed and its watch fails UNAVAILABLE.
import * as net from 'node:net';
import * as grpc from '@grpc/grpc-js';
import { StatusError } from '@kubelab/api';
import { apiserverProto, type ResourceServiceHandlers } from '@kubelab/proto';
import { afterEach, describe, expect, it } from 'vitest';
import { createClientset } from '../clientset/clientset.js';
import { grpcCodeOf } from './errors.js';
import { healthCheckFromEnv, isLost, type HealthCheck } from './health-check.js';

describe('healthCheckFromEnv (client-go: HTTP2_READ_IDLE_TIMEOUT_SECONDS, HTTP2_PING_TIMEOUT_SECONDS)', () => {
  it.each([
    [{}, { readIdleTimeoutMs: 30_000, pingTimeoutMs: 15_000 }],
    [
      { HTTP2_READ_IDLE_TIMEOUT_SECONDS: '10', HTTP2_PING_TIMEOUT_SECONDS: '5' },
      { readIdleTimeoutMs: 10_000, pingTimeoutMs: 5_000 },
    ],
    [{ HTTP2_READ_IDLE_TIMEOUT_SECONDS: '+25' }, { readIdleTimeoutMs: 25_000, pingTimeoutMs: 15_000 }],
    [
      { HTTP2_READ_IDLE_TIMEOUT_SECONDS: '30s', HTTP2_PING_TIMEOUT_SECONDS: '' },
      { readIdleTimeoutMs: 30_000, pingTimeoutMs: 15_000 },
    ],
    [{ HTTP2_READ_IDLE_TIMEOUT_SECONDS: '0' }, undefined],
    [{ HTTP2_READ_IDLE_TIMEOUT_SECONDS: '-1' }, undefined],
  ])('%j → %j', (env, want) => {
    expect(healthCheckFromEnv(env)).toEqual(want);
  });
});

describe('isLost', () => {
  const check: HealthCheck = { readIdleTimeoutMs: 30_000, pingTimeoutMs: 15_000 };
  it.each([
    [0, 1_000, false],
    [30_000, 1_000, false],
    [44_999, 1_000, false],
    [45_000, 1_000, true],
    [120_000, 1_000, true],
    [45_000, 2_000, true],
    // the sweep itself came late: this process was stalled and has not read its sockets yet
    [45_000, 2_001, false],
    [120_000, 60_000, false],
  ])('nothing read for %i ms, the last sweep %i ms ago → lost %s', (idle, sinceLastSweep, want) => {
    expect(isLost(check, 1_000, 1_000 + idle, sinceLastSweep)).toBe(want);
  });
});

/** A TCP relay on loopback: every chunk is passed on after `delayMs`; frozen, nothing passes and nothing closes. */
class Relay {
  delayMs = 0;
  frozen = false;
  private readonly sockets = new Set<net.Socket>();
  private readonly server = net.createServer((down) => {
    const up = net.connect(this.target.port, this.target.host);
    for (const s of [down, up]) {
      this.sockets.add(s);
      s.on('error', () => {});
      s.on('close', () => (down.destroy(), up.destroy()));
    }
    const pipe = (from: net.Socket, to: net.Socket) =>
      from.on('data', (chunk) => {
        if (this.frozen) return;
        if (this.delayMs === 0) to.write(chunk);
        else setTimeout(() => !this.frozen && to.write(chunk), this.delayMs);
      });
    pipe(down, up);
    pipe(up, down);
  });

  constructor(private readonly target: { host: string; port: number }) {}

  async listen(): Promise<string> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    return `127.0.0.1:${(this.server.address() as net.AddressInfo).port}`;
  }

  close(): void {
    for (const s of this.sockets) s.destroy();
    this.server.close();
  }
}

const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A ResourceService whose watches send an ADDED event every 100 ms until cancelled. */
async function streamingServer(): Promise<{ host: string; port: number }> {
  const server = new grpc.Server();
  const watch: ResourceServiceHandlers['Watch'] = (call) => {
    let n = 0;
    const t = setInterval(() => call.write({ type: 'ADDED', object: Buffer.from(JSON.stringify({ metadata: { name: `cm-${n++}`, resourceVersion: String(n) } })) }), 100);
    call.on('cancelled', () => clearInterval(t));
    call.on('close', () => clearInterval(t));
  };
  server.addService(apiserverProto().kubelab.apiserver.v1.ResourceService.service, { Watch: watch } as ResourceServiceHandlers);
  const port = await new Promise<number>((resolve, reject) => server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))));
  cleanups.push(() => void server.forceShutdown());
  return { host: '127.0.0.1', port };
}

/** Reads the watch for `ms`: the events seen, and the error that ended it, if one did. */
async function readFor(stream: AsyncIterable<unknown> & { stop(): void }, ms: number): Promise<{ events: number; err?: unknown }> {
  let events = 0;
  const timer = setTimeout(() => stream.stop(), ms);
  try {
    for await (const _ of stream) events++;
    return { events };
  } catch (err) {
    return { events, err };
  } finally {
    clearTimeout(timer);
  }
}

describe('the health check on a real connection', () => {
  const check: HealthCheck = { readIdleTimeoutMs: 400, pingTimeoutMs: 600 };

  it("keeps a busy connection whose pings come back late; grpc-js's keepalive alone drops it", async () => {
    const relay = new Relay(await streamingServer());
    const address = await relay.listen();
    cleanups.push(() => relay.close());
    relay.delayMs = 700; // a ping's round trip: 1.4 s, past the 600 ms ping timeout

    const checked = createClientset({ address, healthCheck: check });
    cleanups.push(() => checked.close());
    const kept = await readFor(checked.core.configMaps('default').watch(), 4_000);
    expect(kept.err).toBeUndefined();
    expect(kept.events).toBeGreaterThan(15);

    // The control: the same relay, grpc-js's keepalive deciding (ping every 400 ms, ack within 600 ms).
    const keepalive = createClientset({ address, healthCheck: false, channelOptions: { 'grpc.keepalive_time_ms': 400, 'grpc.keepalive_timeout_ms': 600 } });
    cleanups.push(() => keepalive.close());
    const dropped = await readFor(keepalive.core.configMaps('default').watch(), 4_000);
    expect([(dropped.err as StatusError).message, grpcCodeOf(dropped.err)]).toEqual(['Connection dropped', grpc.status.UNAVAILABLE]);
  }, 15_000);

  it('closes a connection that reads nothing for the read-idle plus the ping timeout: the watch fails 503 Connection dropped', async () => {
    const relay = new Relay(await streamingServer());
    const address = await relay.listen();
    cleanups.push(() => relay.close());
    const cs = createClientset({ address, healthCheck: check });
    cleanups.push(() => cs.close());
    const w = cs.core.configMaps('default').watch();
    setTimeout(() => (relay.frozen = true), 500);
    const started = Date.now();
    const r = await readFor(w, 6_000);
    expect(r.events).toBeGreaterThan(0);
    expect(r.err).toBeInstanceOf(StatusError);
    expect([(r.err as StatusError).code, (r.err as StatusError).message, grpcCodeOf(r.err)]).toEqual([503, 'Connection dropped', grpc.status.UNAVAILABLE]);
    // frozen at 0.5 s, lost 1 s later, found by a sweep within 1 s more
    expect(Date.now() - started).toBeLessThan(4_000);
  });
});
