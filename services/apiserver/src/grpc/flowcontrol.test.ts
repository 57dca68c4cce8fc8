// API Priority and Fairness on the component API: a call waits for a seat of
// its priority level; one refused ends RESOURCE_EXHAUSTED with the 429 Status,
// while another level's calls (leader election) go on.

import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiserverProto, type ResourceServiceClient } from '@kubelab/proto';
import { FakeRegistry } from '../testing/fake-registry.js';
import { api, gvr, rpcError } from '../testing/rpc.js';
import { resourceAttributes } from '../authorization/attributes.js';
import { FlowControl } from '../flowcontrol/flow-control.js';
import { NO_LENDING } from '../flowcontrol/testing.js';
import { startGrpcServer, type RunningGrpcServer } from './server.js';

const kcm = { name: 'system:kube-controller-manager', groups: ['system:authenticated'] };
// Every level one seat of its own, nothing lent; a queued call waits 200 ms at most.
const flow = new FlowControl({ serverConcurrencyLimit: 1, waitLimitMs: 200, levels: NO_LENDING });
const attrs = (verb: string, group: string, resource: string, namespace: string) => resourceAttributes(kcm, verb, { group, resource, namespace });

let server: RunningGrpcServer;
let client: ResourceServiceClient;
beforeAll(async () => {
  server = await startGrpcServer('127.0.0.1', 0, { registry: new FakeRegistry(), flowControl: flow, userOfCall: () => kcm });
  client = new (apiserverProto().kubelab.apiserver.v1.ResourceService)(`127.0.0.1:${server.port}`, grpc.credentials.createInsecure());
});
afterAll(async () => {
  client?.close();
  await server?.stop();
});

describe('gRPC API Priority and Fairness', () => {
  it("refuses the controller-manager's create with RESOURCE_EXHAUSTED and the 429 once workload-high's seat stays taken; its Lease still renews", async () => {
    const k = api(client);
    await k.create(gvr('configmaps'), 'default', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'first' } });
    const held = await flow.admit(attrs('create', '', 'pods', 'default'));
    expect(held).toMatchObject({ ok: true, level: { metadata: { name: 'workload-high' } } });
    const e = await rpcError(k.create(gvr('configmaps'), 'default', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'second' } }));
    expect(e.grpcCode).toBe(grpc.status.RESOURCE_EXHAUSTED);
    expect(e.status).toMatchObject({ code: 429, reason: 'TooManyRequests', message: 'Too many requests, please try again later.', details: { retryAfterSeconds: 1 } });
    const lease = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'kube-controller-manager' }, spec: { holderIdentity: 'kcm-1' } };
    await k.create(gvr('leases', 'coordination.k8s.io'), 'kube-system', lease);
    expect((await k.get(gvr('leases', 'coordination.k8s.io'), 'kube-system', 'kube-controller-manager')).metadata.name).toBe('kube-controller-manager');
    if (held.ok) held.release();
    await k.create(gvr('configmaps'), 'default', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'second' } });
  });
});
