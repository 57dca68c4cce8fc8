import { parseIpv4Cidr, type Service } from '@kubelab/api';
import { GVR } from '@kubelab/client';
import { describe, expect, it } from 'vitest';
import { fakeEnv } from '../../testing/fakes.js';
import { chooseAddress, LB_CLEANUP_FINALIZER, needsCleanup, wantsLoadBalancer } from './decisions.js';
import { ServiceLbController } from './service-lb-controller.js';

const pool = parseIpv4Cidr('10.250.0.0/29')!;

function svc(name: string, spec: Service['spec'] = {}, more: { finalizers?: string[]; deletionTimestamp?: string; ingress?: string[] } = {}): Service {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: {
      name,
      namespace: 'default',
      ...(more.finalizers ? { finalizers: more.finalizers } : {}),
      ...(more.deletionTimestamp ? { deletionTimestamp: more.deletionTimestamp } : {}),
    },
    spec: { type: 'LoadBalancer', clusterIP: '10.96.0.20', ports: [{ port: 80, nodePort: 30080 }], ...spec },
    ...(more.ingress ? { status: { loadBalancer: { ingress: more.ingress.map((ip) => ({ ip, ipMode: 'VIP' as const })) } } } : {}),
  };
}

describe('service-lb decisions', () => {
  it.each([
    ['a LoadBalancer without a class', svc('a'), true],
    ['a LoadBalancer of another class', svc('b', { loadBalancerClass: 'example.com/other' }), false],
    ['a NodePort', svc('c', { type: 'NodePort' }), false],
  ])('wantsLoadBalancer: %s → %s', (_n, s, want) => {
    expect(wantsLoadBalancer(s)).toBe(want);
  });

  it.each([
    ['deleted with the finalizer', svc('a', {}, { finalizers: [LB_CLEANUP_FINALIZER], deletionTimestamp: '2026-01-01T00:00:00Z' }), true],
    ['turned into a ClusterIP with the finalizer', svc('a', { type: 'ClusterIP' }, { finalizers: [LB_CLEANUP_FINALIZER] }), true],
    ['a ClusterIP that never had one', svc('a', { type: 'ClusterIP' }), false],
    ['a live LoadBalancer', svc('a', {}, { finalizers: [LB_CLEANUP_FINALIZER] }), false],
  ])('needsCleanup: %s → %s', (_n, s, want) => {
    expect(needsCleanup(s)).toBe(want);
  });

  it.each([
    ['the lowest free host address', svc('a'), [], { ip: '10.250.0.1' }],
    ['skips used ones', svc('a'), ['10.250.0.1', '10.250.0.2'], { ip: '10.250.0.3' }],
    ['keeps the one it has', svc('a', {}, { ingress: ['10.250.0.5'] }), ['10.250.0.1'], { ip: '10.250.0.5' }],
    ['honours a free spec.loadBalancerIP', svc('a', { loadBalancerIP: '10.250.0.6' }), [], { ip: '10.250.0.6' }],
    ['refuses a loadBalancerIP outside the range', svc('a', { loadBalancerIP: '192.0.2.1' }), [], { error: 'requested loadBalancerIP 192.0.2.1 is not in the load balancer range 10.250.0.0/29' }],
    ['refuses a taken loadBalancerIP', svc('a', { loadBalancerIP: '10.250.0.6' }), ['10.250.0.6'], { error: 'requested loadBalancerIP 10.250.0.6 is already in use' }],
    ['says when the range is full', svc('a'), ['1', '2', '3', '4', '5', '6'].map((n) => `10.250.0.${n}`), { error: 'no free address in the load balancer range 10.250.0.0/29' }],
  ])('chooseAddress: %s', (_n, s, used, want) => {
    expect(chooseAddress(s, pool, new Set(used))).toEqual(want);
  });
});

describe('service-lb-controller', () => {
  const setup = async (...services: Service[]) => {
    const env = fakeEnv({ loadBalancerCidr: '10.250.0.0/29' });
    env.fake.seed(GVR.services, ...services);
    const c = new ServiceLbController(env.ctx);
    await env.sync();
    return { env, c };
  };

  it('gives a LoadBalancer the next free address and the cleanup finalizer, with upstream events', async () => {
    const { env, c } = await setup(svc('taken', {}, { finalizers: [LB_CLEANUP_FINALIZER], ingress: ['10.250.0.1'] }), svc('web'));
    await c.sync('default/web');
    expect(env.fake.actionLines()).toEqual(['update services default/web', 'update services/status default/web']);
    const stored = env.fake.peek<Service>(GVR.services, 'default', 'web')!;
    expect(stored.metadata.finalizers).toEqual([LB_CLEANUP_FINALIZER]);
    expect(stored.status?.loadBalancer?.ingress).toEqual([{ ip: '10.250.0.2', ipMode: 'VIP' }]);
    expect(env.recorder.events).toEqual(['Normal EnsuringLoadBalancer Ensuring load balancer', 'Normal EnsuredLoadBalancer Ensured load balancer']);
    await env.stop();
  });

  it('does nothing for a Service that already has its address, another class, or another type', async () => {
    const { env, c } = await setup(
      svc('done', {}, { finalizers: [LB_CLEANUP_FINALIZER], ingress: ['10.250.0.3'] }),
      svc('metallb', { loadBalancerClass: 'metallb.io/metallb' }),
      svc('np', { type: 'NodePort' }),
    );
    for (const k of ['default/done', 'default/metallb', 'default/np']) await c.sync(k);
    expect(env.fake.actionLines()).toEqual([]);
    expect(env.recorder.events).toEqual([]);
    await env.stop();
  });

  it('releases the address and the finalizer when the type changes away from LoadBalancer', async () => {
    const { env, c } = await setup(svc('web', { type: 'ClusterIP' }, { finalizers: [LB_CLEANUP_FINALIZER], ingress: ['10.250.0.2'] }));
    await c.sync('default/web');
    expect(env.fake.actionLines()).toEqual(['update services/status default/web', 'update services default/web']);
    const stored = env.fake.peek<Service>(GVR.services, 'default', 'web')!;
    expect(stored.status?.loadBalancer?.ingress ?? []).toEqual([]);
    expect(stored.metadata.finalizers ?? []).toEqual([]);
    expect(env.recorder.events).toEqual(['Normal DeletingLoadBalancer Deleting load balancer', 'Normal DeletedLoadBalancer Deleted load balancer']);
    await env.stop();
  });

  it('drops the finalizer of a deleted Service so the delete completes', async () => {
    const { env, c } = await setup(svc('web', {}, { finalizers: ['example.com/keep', LB_CLEANUP_FINALIZER], deletionTimestamp: '2026-01-01T00:00:00Z', ingress: ['10.250.0.2'] }));
    await c.sync('default/web');
    expect(env.fake.actionLines()).toEqual(['update services default/web']);
    expect(env.fake.peek<Service>(GVR.services, 'default', 'web')!.metadata.finalizers).toEqual(['example.com/keep']);
    await env.stop();
  });

  it('a full range: a warning event, no write', async () => {
    const held = ['1', '2', '3', '4', '5', '6'].map((n) => svc(`s${n}`, {}, { finalizers: [LB_CLEANUP_FINALIZER], ingress: [`10.250.0.${n}`] }));
    const { env, c } = await setup(...held, svc('web'));
    await c.sync('default/web');
    expect(env.fake.actionLines()).toEqual([]);
    expect(env.recorder.events).toEqual([
      'Normal EnsuringLoadBalancer Ensuring load balancer',
      'Warning SyncLoadBalancerFailed Error syncing load balancer: failed to ensure load balancer: no free address in the load balancer range 10.250.0.0/29',
    ]);
    await env.stop();
  });

  it("two LoadBalancers synced before the cache shows the first one's status get different addresses", async () => {
    const { env, c } = await setup(svc('a'), svc('b'));
    // The informer is stopped: it cannot see the first write before the second sync.
    await env.stop();
    await c.sync('default/a');
    await c.sync('default/b');
    const ip = (n: string) => env.fake.peek<Service>(GVR.services, 'default', n)!.status?.loadBalancer?.ingress?.[0]?.ip;
    expect([ip('a'), ip('b')]).toEqual(['10.250.0.1', '10.250.0.2']);
  });

  it('a new LoadBalancer is queued by its informer event', async () => {
    const { env, c } = await setup();
    await env.ctx.clientset.core.services('default').create(svc('web'));
    expect(await c.queue.get()).toBe('default/web');
    await env.stop();
  });
});
