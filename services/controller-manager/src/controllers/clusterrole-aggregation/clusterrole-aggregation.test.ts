import { describe, expect, it } from 'vitest';
import { GVR } from '@kubelab/client';
import type { ClusterRole, PolicyRule } from '@kubelab/api';
import { waitFor } from '@kubelab/testing';
import { fakeEnv } from '../../testing/fakes.js';
import { ClusterRoleAggregationController } from './clusterrole-aggregation-controller.js';
import { aggregatedRules } from './decisions.js';

const AGG = (to: string) => `rbac.authorization.k8s.io/aggregate-to-${to}`;
const role = (name: string, rules: PolicyRule[] | undefined, labels: Record<string, string> = {}, aggregateTo?: string): ClusterRole => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRole',
  metadata: { name, labels },
  ...(rules ? { rules } : {}),
  ...(aggregateTo ? { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [AGG(aggregateTo)]: 'true' } }] } } : {}),
});
const pods: PolicyRule = { verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['pods'] };
const cms: PolicyRule = { verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['configmaps'] };
const deploy: PolicyRule = { verbs: ['create'], apiGroups: ['apps'], resources: ['deployments'] };

describe('aggregatedRules', () => {
  it.each<[string, ClusterRole, ClusterRole[], PolicyRule[]]>([
    [
      'the rules of the matched roles, by name, each once',
      role('view', undefined, {}, 'view'),
      [role('b', [cms, pods], { [AGG('view')]: 'true' }), role('a', [pods], { [AGG('view')]: 'true' }), role('c', [deploy])],
      [pods, cms],
    ],
    ['nothing matched: no rules', role('view', undefined, {}, 'view'), [role('c', [deploy])], []],
    ['never itself', role('self', [deploy], { [AGG('self')]: 'true' }, 'self'), [role('self', [deploy], { [AGG('self')]: 'true' })], []],
  ])('%s', (_n, r, all, want) => {
    expect(aggregatedRules(r, [r, ...all])).toEqual(want);
  });
});

describe('clusterrole-aggregation controller', () => {
  it('fills aggregated roles, chains through edit, and is idempotent', async () => {
    const env = fakeEnv();
    env.fake.seed(
      GVR.clusterRoles,
      role('view', undefined, { [AGG('edit')]: 'true' }, 'view'),
      role('edit', undefined, {}, 'edit'),
      role('system:aggregate-to-view', [pods], { [AGG('view')]: 'true' }),
      role('system:aggregate-to-edit', [deploy], { [AGG('edit')]: 'true' }),
      role('unrelated', [cms]),
    );
    const c = new ClusterRoleAggregationController(env.ctx);
    await env.sync();
    // The informer's adds enqueued the aggregated roles, once each.
    expect(c.queue.len()).toBe(2);
    await c.processItem('view');
    expect(env.fake.actionLines()).toEqual(['update clusterroles view']);
    expect(env.fake.peek<ClusterRole>(GVR.clusterRoles, '', 'view')!.rules).toEqual([pods]);

    // edit selects view (labelled aggregate-to-edit) and system:aggregate-to-edit.
    await waitForCache(env, 'view', [pods]);
    env.fake.clearActions();
    await c.processItem('edit');
    expect(env.fake.peek<ClusterRole>(GVR.clusterRoles, '', 'edit')!.rules).toEqual([deploy, pods]);

    await waitForCache(env, 'edit', [deploy, pods]);
    env.fake.clearActions();
    await c.processItem('view');
    await c.processItem('edit');
    await c.processItem('unrelated');
    await c.processItem('gone');
    expect(env.fake.actionLines()).toEqual([]);
    await env.stop();
  });

  it('a new labelled role extends the aggregate; a removed one shrinks it', async () => {
    const env = fakeEnv();
    env.fake.seed(GVR.clusterRoles, role('view', [pods], {}, 'view'), role('a', [pods], { [AGG('view')]: 'true' }));
    const c = new ClusterRoleAggregationController(env.ctx);
    await env.sync();
    await c.processItem('view');
    expect(env.fake.actionLines()).toEqual([]);

    await env.ctx.clientset.rbac.clusterRoles().create(role('monitoring', [cms], { [AGG('view')]: 'true' }));
    await waitForCache(env, 'monitoring', [cms]);
    env.fake.clearActions();
    await c.processItem('view');
    expect(env.fake.peek<ClusterRole>(GVR.clusterRoles, '', 'view')!.rules).toEqual([pods, cms]);

    await waitForCache(env, 'view', [pods, cms]);
    await env.ctx.clientset.rbac.clusterRoles().delete('monitoring');
    await waitForCache(env, 'monitoring', undefined);
    await c.processItem('view');
    expect(env.fake.peek<ClusterRole>(GVR.clusterRoles, '', 'view')!.rules).toEqual([pods]);
    await env.stop();
  });
});

/** Waits for the informer to see a role's rules (undefined: gone): the fake's watch delivers asynchronously. */
function waitForCache(env: ReturnType<typeof fakeEnv>, name: string, rules: PolicyRule[] | undefined): Promise<unknown> {
  const lister = env.ctx.informers.rbac.clusterRoles().lister();
  return waitFor(`the informer to see ${name} with ${JSON.stringify(rules)}`, () => {
    const r = lister.get(name);
    return rules === undefined ? !r : JSON.stringify(r?.rules) === JSON.stringify(rules);
  });
}
