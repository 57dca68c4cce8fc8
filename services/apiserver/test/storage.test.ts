// The object store's creates against a real nats-server, counted at the
// wire: a create sends only proposals the stream leader can check before
// proposing or that succeed. A create the leader fails only while applying
// it counts in every replica's failure tally, which replicas of nats-server
// before 2.11 can come to disagree on after a restart (nats-server #6194):
// then they number messages differently, and resourceVersions with them.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { requireTool, startNatsServer, type NatsServerHandle } from '@kubelab/testing';
import { KvStorage, StorageError } from '../src/storage/kv.js';

const BUCKET = 'storagetest';
const enc = (s: string) => new TextEncoder().encode(s);

describe.runIf(requireTool('nats-server'))('KvStorage.create', () => {
  let nats: NatsServerHandle;
  let storage: KvStorage;
  let spy: NatsConnection;
  /** Each publish to a key's subject: the expected revision it carried. */
  const proposals = new Map<string, string[]>();

  beforeAll(async () => {
    nats = await startNatsServer();
    storage = await KvStorage.open({ url: nats.url, bucket: BUCKET });
    spy = await connect({ servers: nats.url });
    spy.subscribe(`$KV.${BUCKET}.>`, {
      callback: (_err, m) => {
        const key = m.subject.slice(`$KV.${BUCKET}.`.length);
        proposals.set(key, [...(proposals.get(key) ?? []), m.headers?.get('Nats-Expected-Last-Subject-Sequence') ?? '-']);
      },
    });
    await spy.flush();
  });
  afterAll(async () => {
    await spy?.close();
    await storage?.close();
    await nats?.dispose();
  });

  /** Proposals seen for `key` once the spy has caught up. */
  const sent = async (key: string) => {
    await storage.nc.flush();
    await spy.flush();
    return proposals.get(key) ?? [];
  };
  /** Forgets what was sent for `key` so far, once the spy has seen it. */
  const forget = async (key: string) => {
    await sent(key);
    proposals.delete(key);
  };
  const failure = (p: Promise<unknown>) =>
    p.then(
      () => 'created',
      (e: unknown) => (e instanceof StorageError ? e.kind : String(e)),
    );

  it('answers exists for a key the cache holds without proposing, once the leader confirms it', async () => {
    const rev = await storage.create('/registry/configmaps/ns/live', enc('a'));
    expect(await failure(storage.create('/registry/configmaps/ns/live', enc('b'), undefined, { revision: rev, live: true }))).toBe('exists');
    expect(await sent('/registry/configmaps/ns/live')).toEqual(['0']);
    expect(new TextDecoder().decode((await storage.get('/registry/configmaps/ns/live'))!.value)).toBe('a');
  });

  it("creates over a delete marker the cache knows with one proposal naming the marker's revision", async () => {
    const key = '/registry/configmaps/ns/gone';
    const rev = await storage.create(key, enc('a'));
    const marker = await storage.delete(key, rev);
    expect(await storage.last(key)).toMatchObject({ revision: marker, live: false });
    const again = await storage.create(key, enc('b'), undefined, { revision: marker, live: false });
    expect(again).toBeGreaterThan(marker);
    expect(await sent(key)).toEqual(['0', String(rev), String(marker)]);
    expect(await storage.get(key)).toMatchObject({ revision: again });
  });

  it("creates over a delete marker the cache did not know of: one failed proposal, then the leader's marker revision", async () => {
    const key = '/registry/configmaps/ns/unknown-marker';
    const marker = await storage.delete(key, await storage.create(key, enc('a')));
    await forget(key);
    await storage.create(key, enc('b'));
    expect(await sent(key)).toEqual(['0', String(marker)]);
  });

  it('a live key the cache did not know of is exists after the one failed proposal', async () => {
    const key = '/registry/configmaps/ns/unknown-live';
    await storage.create(key, enc('a'));
    await forget(key);
    expect(await failure(storage.create(key, enc('b')))).toBe('exists');
    expect(await sent(key)).toEqual(['0']);
  });

  it('a marker the cache remembers that is since replaced: the leader precheck refuses it, then exists', async () => {
    const key = '/registry/configmaps/ns/recreated';
    const marker = await storage.delete(key, await storage.create(key, enc('a')));
    const now = await storage.create(key, enc('b'), undefined, { revision: marker, live: false });
    await forget(key);
    expect(await failure(storage.create(key, enc('c'), undefined, { revision: marker, live: false }))).toBe('exists');
    expect(await sent(key)).toEqual([String(marker)]);
    expect(await storage.get(key)).toMatchObject({ revision: now });
  });

  it('a remembered marker purged since: the leader has no message for the key, so the create proposes revision 0', async () => {
    const key = '/registry/configmaps/ns/purged';
    const marker = await storage.delete(key, await storage.create(key, enc('a')));
    await (await jetstreamManager(spy)).streams.purge(`KV_${BUCKET}`, { filter: `$KV.${BUCKET}.${key}` });
    await forget(key);
    const rev = await storage.create(key, enc('b'), undefined, { revision: marker, live: false });
    expect(await sent(key)).toEqual([String(marker), '0']);
    expect(await storage.get(key)).toMatchObject({ revision: rev });
  });
});
