// The agent against the real apiserver (real nats-server, gRPC on loopback),
// render mode, as its ServiceAccount with the addon's ClusterRole: a
// NetworkPolicy created through the API isolates the selected pod in /rules,
// a pod labelled as the peer gets its ACCEPT, and deleting the policy takes
// the pod's chain away.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiserver, type RunningApiserver } from '@kubelab/apiserver';
import { createTestPki } from '@kubelab/apiserver/testing';
import { createClientset, type Clientset } from '@kubelab/client';
import { createLogger } from '@kubelab/component-base';
import { requireTool, startNatsServer, waitFor, type NatsServerHandle } from '@kubelab/testing';
import { startPolicyAgent, type PolicyAgentHandle } from '../src/server.js';
import { pod, policy } from '../src/testing/fixtures.js';

const quiet = (component: string) => createLogger({ component, format: 'json', write: () => undefined });
const rules = async (port: number) => {
  const res = await fetch(`http://127.0.0.1:${port}/rules`);
  return { status: res.status, body: await res.text(), source: res.headers.get('x-kubelab-rules-source') };
};

describe.runIf(requireTool('nats-server'))('kube-network-policies with the apiserver', () => {
  let nats: NatsServerHandle;
  let api: RunningApiserver;
  let agent: PolicyAgentHandle;
  let cs: Clientset;

  beforeAll(async () => {
    nats = await startNatsServer();
    const pki = await createTestPki();
    api = await startApiserver({ natsUrl: nats.url, bindAddress: '127.0.0.1', advertiseAddress: '127.0.0.1', securePort: 0, grpcPort: 0, logger: quiet('apiserver'), tls: pki.tls });
    await api.ready;
    cs = createClientset({ address: `127.0.0.1:${api.grpcPort}`, component: 'netpol-test', tls: pki.admin });
    // The addon's ClusterRole and binding (packages/kubelab network-policy-addon.ts).
    await cs.rbac.clusterRoles().create({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'kube-network-policies' },
      rules: [
        { apiGroups: [''], resources: ['pods', 'namespaces'], verbs: ['list', 'watch'] },
        { apiGroups: ['networking.k8s.io'], resources: ['networkpolicies'], verbs: ['list', 'watch'] },
      ],
    });
    await cs.rbac.clusterRoleBindings().create({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'kube-network-policies' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'kube-network-policies' },
      subjects: [{ kind: 'ServiceAccount', name: 'kube-network-policies', namespace: 'kube-system' }],
    });
    for (const p of [pod('default', 'web', '10.244.1.10', 'node-1', { app: 'web' }, [{ name: 'http', containerPort: 80 }]), pod('default', 'client', '10.244.2.20', 'node-2', { app: 'client' })]) {
      const { status, ...rest } = p;
      const created = await cs.core.pods('default').create(rest);
      await cs.core.pods('default').updateStatus({ ...created, status: status! });
    }
    agent = await startPolicyAgent({
      nodeName: 'node-1',
      apiserverAddress: `127.0.0.1:${api.grpcPort}`,
      apiserverTls: await pki.clientTls({ commonName: 'system:serviceaccount:kube-system:kube-network-policies', organizations: ['system:serviceaccounts', 'system:serviceaccounts:kube-system'] }),
      bindAddress: '127.0.0.1:0',
      apply: 'never',
      logger: quiet('kube-network-policies'),
    });
  }, 30_000);

  afterAll(async () => {
    await agent?.stop();
    cs?.close();
    await api?.stop();
    await nats?.stop();
  });

  it('a policy created through the API isolates the selected pod in /rules; deleting it removes the chain', async () => {
    await waitFor('the first render', async () => ((await rules(agent.port)).status === 200 ? true : undefined));
    expect((await rules(agent.port)).body).not.toContain('-d 10.244.1.10/32');
    await cs.networking
      .networkPolicies('default')
      .create(
        policy('default', 'allow-client', { podSelector: { matchLabels: { app: 'web' } }, ingress: [{ from: [{ podSelector: { matchLabels: { app: 'client' } } }], ports: [{ port: 'http' }] }] }),
      );
    const r = await waitFor('the policy in /rules', async () => {
      const got = await rules(agent.port);
      return got.body.includes('-s 10.244.2.20/32 -j ACCEPT') ? got : undefined;
    });
    expect(r.source).toBe('render');
    expect(r.body).toContain('-A KUBE-NWPLCY-INGRESS -d 10.244.1.10/32 -m comment --comment "default/web ingress" -j KUBE-NWPLCY-');
    expect(r.body).toContain('-p tcp -m tcp --dport 80 -m comment --comment "default/allow-client ingress rule 0" -j KUBE-NWPLCY-');
    await cs.networking.networkPolicies('default').delete('allow-client');
    await waitFor('the chain gone', async () => (!(await rules(agent.port)).body.includes('-d 10.244.1.10/32') ? true : undefined));
  });
});
