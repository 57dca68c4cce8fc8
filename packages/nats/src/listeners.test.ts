import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireTool, waitFor } from '@kubelab/testing';
import { natsAuthOptions } from './client.js';
import { APISERVER_NATS_IDENTITY, DASHBOARD_NATS_IDENTITY, SCHEDULER_NATS_IDENTITY, TRACE_NATS_IDENTITY, containerdNatsIdentity, type NatsIdentity } from './identities.js';
import { announceListening, LISTEN_TTL_MS, ListenerGate, listening } from './listeners.js';
import { startSecureNatsServer, type SecureNatsServer } from './testing.js';

describe('listening', () => {
  it.each([
    ['nobody ever announced', 0, 1_000, false],
    ['within the TTL', 31_000, 1_000, true],
    ['the TTL ran out', 31_000, 31_000, false],
  ])('%s', (_name, until, now, want) => expect(listening(until, now)).toBe(want));

  it('an announcement keeps records on for LISTEN_TTL_MS', () => {
    let now = 5_000;
    const gate = new ListenerGate('api', () => now);
    expect(gate.active).toBe(false);
    gate.heard();
    now += LISTEN_TTL_MS - 1;
    expect(gate.active).toBe(true);
    now += 1;
    expect(gate.active).toBe(false);
  });
});

describe('announcements over the cluster NATS (real nats-server, the users as the cluster has them)', () => {
  let nats: SecureNatsServer;
  const open: NatsConnection[] = [];
  const as = async (id: NatsIdentity) => {
    const nc = await connect({ servers: nats.url, ...natsAuthOptions(id, await nats.clientTls(id)) });
    open.push(nc);
    return nc;
  };
  beforeAll(async () => {
    requireTool('nats-server');
    nats = await startSecureNatsServer();
  });
  afterAll(async () => {
    for (const nc of open) await nc.close().catch(() => undefined);
    await nats?.dispose();
  });

  it('a reader that announces is confirmed by the apiserver and turns its records on', async () => {
    const gate = new ListenerGate('api').start(await as(APISERVER_NATS_IDENTITY));
    const trace = await as(TRACE_NATS_IDENTITY);
    await trace.flush();
    expect(gate.active).toBe(false);
    const a = announceListening(trace, ['api']);
    expect(await a.ready).toBe(true);
    expect(gate.active).toBe(true);
    a.stop();
    gate.stop();
  });

  it('a publisher that starts after its reader asks, and the reader answers', async () => {
    const dashboard = await as(DASHBOARD_NATS_IDENTITY);
    const a = announceListening(dashboard, ['sched']);
    expect(await a.ready).toBe(false); // no scheduler yet: no responders
    const scheduler = await as(SCHEDULER_NATS_IDENTITY);
    const gate = new ListenerGate('sched').start(scheduler);
    await waitFor('the scheduler hears the dashboard', () => gate.active, { timeoutMs: 5_000 });
    a.stop();
    gate.stop();
  });

  it('a client that is no reader cannot turn records on (Permissions Violation): its announcement is refused', async () => {
    const gate = new ListenerGate('api').start(await as(APISERVER_NATS_IDENTITY));
    const runtime = await as(containerdNatsIdentity('node-1'));
    const a = announceListening(runtime, ['api']);
    expect(await a.ready).toBe(false);
    a.stop();
    await new Promise((r) => setTimeout(r, 200));
    expect(gate.active).toBe(false);
    gate.stop();
  });
});
