// The agent's reconcile loop over the fake clientset (sample-controller
// style): seeded objects, informers synced, one sync, and the commands the
// sync ran (the agent writes nothing to the API; its actions are iptables').

import { afterEach, describe, expect, it } from 'vitest';
import { GVR, SharedInformerFactory } from '@kubelab/client';
import { FakeClock, createFakeClientset, flushPromises } from '@kubelab/client/testing';
import { createLogger } from '@kubelab/component-base';
import type { NetworkPolicy } from '@kubelab/api';
import { PolicyController, SYNC_INTERVALS } from './controller.js';
import type { CommandRunner } from '@kubelab/component-base';
import { lab, policy } from './testing/fixtures.js';

/** Records every command; iptables-save answers with `saved`. */
function fakeRunner(saved = '*filter\n:INPUT ACCEPT [0:0]\nCOMMIT\n') {
  const calls: { argv: string[]; input?: string }[] = [];
  const runner: CommandRunner = {
    run(argv, input) {
      calls.push({ argv, ...(input !== undefined ? { input } : {}) });
      return Promise.resolve({ code: 0, stdout: argv[0] === 'iptables-save' ? saved : '', stderr: '' });
    },
  };
  return { runner, calls };
}

async function setup(policies: NetworkPolicy[], saved?: string, override?: CommandRunner) {
  const fake = createFakeClientset();
  const objs = lab();
  fake.seed(GVR.pods, ...objs.pods);
  fake.seed(GVR.namespaces, ...objs.namespaces);
  fake.seed(GVR.networkPolicies, ...policies);
  const informers = new SharedInformerFactory(fake.clientset);
  const { runner, calls } = fakeRunner(saved);
  const clock = new FakeClock(0);
  let syncs = 0;
  const pods = informers.core.pods();
  const nss = informers.core.namespaces();
  const nps = informers.networking.networkPolicies();
  const controller = new PolicyController({
    nodeName: 'node-1',
    clusterCIDR: '10.244.0.0/16',
    pods: pods.lister(),
    namespaces: nss.lister(),
    policies: nps.lister(),
    runner: override ?? runner,
    logger: createLogger({ component: 'kube-network-policies', level: 'error' }),
    clock,
    onSync: () => syncs++,
  });
  for (const inf of [pods, nss, nps]) inf.addEventHandler({ onAdd: () => controller.enqueue(), onUpdate: () => controller.enqueue(), onDelete: () => controller.enqueue() });
  informers.start();
  await informers.waitForCacheSync();
  controller.cachesSynced();
  // The runner's next sync, at most a min interval away.
  const step = async () => {
    await clock.advance(SYNC_INTERVALS.minIntervalMs);
    await controller.idle();
  };
  cleanups.push(async () => {
    await controller.stop();
    await informers.shutdown();
    fake.closeWatches();
  });
  return { fake, controller, calls, step, clock, syncs: () => syncs };
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

const denyAll = policy('default', 'default-deny', { policyTypes: ['Ingress'] });

describe('PolicyController', () => {
  it('one sync reads the filter table and applies the whole ruleset in one iptables-restore', async () => {
    const { calls, step, controller } = await setup([denyAll]);
    await step();
    expect(calls.map((c) => c.argv.join(' '))).toEqual(['iptables-save -t filter', 'iptables-restore --noflush']);
    const script = calls[1]!.input!;
    expect(script).toContain('-A KUBE-NWPLCY-INGRESS -d 10.244.1.10/32 -m comment --comment "default/web ingress" -j KUBE-NWPLCY-');
    expect(script).toContain('-I INPUT 1 -m comment --comment "kubernetes network policies" -j KUBE-NWPLCY-INGRESS\n');
    expect(controller.rules()?.source).toBe('kernel');
  });

  it('a sync whose render did not change runs nothing (idempotent)', async () => {
    const { calls, step, controller } = await setup([denyAll]);
    await step();
    calls.length = 0;
    controller.enqueue();
    await step();
    expect(calls).toEqual([]);
  });

  it('a new policy queues the node and the next sync applies it; chains the kernel holds but the render lacks are deleted', async () => {
    const { fake, calls, step } = await setup([], '*filter\n:KUBE-NWPLCY-0000000000000000 - [0:0]\nCOMMIT\n');
    await step();
    calls.length = 0;
    await fake.clientset.networking.networkPolicies('default').create(denyAll);
    await step();
    expect(calls.map((c) => c.argv[0])).toEqual(['iptables-save', 'iptables-restore']);
    expect(calls[1]!.input).toContain('default/web has no NetworkPolicy allowing this ingress');
    expect(calls[1]!.input).toContain('-X KUBE-NWPLCY-0000000000000000\n');
  });

  it('a failed restore is retried a second later', async () => {
    let restores = 0;
    const failing: CommandRunner = {
      run: (argv) => {
        if (argv[0] !== 'iptables-restore') return Promise.resolve({ code: 0, stdout: '', stderr: '' });
        restores++;
        return Promise.resolve({ code: 1, stdout: '', stderr: 'iptables-restore: line 3 failed' });
      },
    };
    const { controller, step, clock } = await setup([denyAll], undefined, failing);
    await clock.advance(0);
    await controller.idle();
    expect(restores).toBe(1);
    expect(controller.rules()).toBeUndefined();
    await step();
    expect(restores).toBe(2);
  });

  it("folds a burst of pod events into one sync a second, as upstream's runner (each sync reads every pod)", async () => {
    const { fake, step, clock, controller, syncs } = await setup([denyAll]);
    await step();
    expect(syncs()).toBe(1);
    const pods = fake.clientset.core.pods('default');
    const relabel = async (i: number) => {
      const web = await pods.get('web');
      await pods.update({ ...web, metadata: { ...web.metadata, labels: { ...web.metadata.labels, gen: String(i) } } });
    };
    // The first event after a quiet second syncs at once.
    await relabel(0);
    await flushPromises();
    await clock.advance(0);
    await controller.idle();
    expect(syncs()).toBe(2);
    for (let i = 1; i <= 100; i++) await relabel(i);
    await flushPromises();
    await clock.advance(SYNC_INTERVALS.minIntervalMs - 1);
    await controller.idle();
    expect(syncs()).toBe(2);
    await clock.advance(1);
    await controller.idle();
    expect(syncs()).toBe(3);
    // Nothing new: no further sync before the hourly resync.
    await clock.advance(60_000);
    expect(syncs()).toBe(3);
  });
});
