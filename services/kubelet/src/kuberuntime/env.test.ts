import type { ConfigMap, Container, Pod, Secret } from '@kubelab/api';
import { describe, expect, it } from 'vitest';
import type { ObjectSource } from '../volumemanager/sources.js';
import { isValidEnvName, makeEnvironmentVariables, type EnvContext } from './env.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const configMaps: Record<string, ConfigMap> = {
  app: { metadata: { name: 'app', namespace: 'default' }, data: { GREETING: 'hello', LEVEL: 'info', '1bad': 'x' } },
  other: { metadata: { name: 'other', namespace: 'default' }, data: { LEVEL: 'debug' } },
};
const secrets: Record<string, Secret> = {
  creds: { metadata: { name: 'creds', namespace: 'default' }, data: { PASSWORD: b64('s3cr3t'), USER: b64('admin') } },
};
const sources: ObjectSource = {
  configMap: async (_ns, name) => configMaps[name],
  secret: async (_ns, name) => secrets[name],
};

const pod = (c: Partial<Container>): Pod => ({
  metadata: { name: 'web', namespace: 'default', uid: 'uid-1', labels: { app: 'web', tier: 'front' }, annotations: { note: 'n' } },
  spec: { nodeName: 'node-1', serviceAccountName: 'default', containers: [{ name: 'app', ...c }] },
});
const ctx = (c: Partial<Container>, extra: Partial<EnvContext> = {}): EnvContext => {
  const p = pod(c);
  return { pod: p, container: p.spec!.containers[0]!, podIPs: ['10.244.1.5'], hostIPs: ['192.168.0.2'], allocatable: { cpu: '2', memory: '4Gi' }, sources, relaxedNames: true, ...extra };
};
const asMap = async (c: EnvContext) => Object.fromEntries((await makeEnvironmentVariables(c)).envs.map((e) => [e.key, e.value]));

describe('makeEnvironmentVariables (upstream kubelet_pods.go)', () => {
  it('takes envFrom first, then env, which wins; later envFrom sources replace earlier ones', async () => {
    const env = await asMap(
      ctx({
        envFrom: [{ configMapRef: { name: 'app' } }, { configMapRef: { name: 'other' } }, { secretRef: { name: 'creds' }, prefix: 'DB_' }],
        env: [
          { name: 'GREETING', value: 'hi there' },
          { name: 'MSG', value: '$(GREETING) from $(DB_USER) $(UNDEFINED) $$(GREETING)' },
        ],
      }),
    );
    expect(env).toEqual({ '1bad': 'x', GREETING: 'hi there', LEVEL: 'debug', DB_PASSWORD: 's3cr3t', DB_USER: 'admin', MSG: 'hi there from admin $(UNDEFINED) $(GREETING)' });
  });

  it('skips an optional missing ConfigMap or Secret and their optional keys', async () => {
    const env = await asMap(
      ctx({
        envFrom: [{ configMapRef: { name: 'nope', optional: true } }, { secretRef: { name: 'nope', optional: true } }],
        env: [
          { name: 'A', valueFrom: { configMapKeyRef: { name: 'nope', key: 'k', optional: true } } },
          { name: 'B', valueFrom: { configMapKeyRef: { name: 'app', key: 'missing', optional: true } } },
          { name: 'C', valueFrom: { secretKeyRef: { name: 'creds', key: 'USER' } } },
        ],
      }),
    );
    expect(env).toEqual({ C: 'admin' });
  });

  it.each([
    ['envFrom configMap', { envFrom: [{ configMapRef: { name: 'missing' } }] }, 'configmap "missing" not found'],
    ['envFrom secret', { envFrom: [{ secretRef: { name: 'missing' } }] }, 'secret "missing" not found'],
    ['configMapKeyRef object', { env: [{ name: 'X', valueFrom: { configMapKeyRef: { name: 'missing', key: 'k' } } }] }, 'configmap "missing" not found'],
    ['configMapKeyRef key', { env: [{ name: 'X', valueFrom: { configMapKeyRef: { name: 'app', key: 'k' } } }] }, "couldn't find key k in ConfigMap default/app"],
    ['secretKeyRef key', { env: [{ name: 'X', valueFrom: { secretKeyRef: { name: 'creds', key: 'k' } } }] }, "couldn't find key k in Secret default/creds"],
    ['resourceFieldRef', { env: [{ name: 'X', valueFrom: { resourceFieldRef: { resource: 'limits.gpu' } } }] }, 'unsupported container resource : limits.gpu'],
    ['fieldRef', { env: [{ name: 'X', valueFrom: { fieldRef: { fieldPath: 'spec.hostname' } } }] }, 'unsupported fieldPath: spec.hostname'],
  ] as [string, Partial<Container>, string][])('fails for a missing %s with the upstream text', async (_n, c, message) => {
    await expect(makeEnvironmentVariables(ctx(c))).rejects.toThrow(message);
  });

  it('resolves fieldRef values of the pod and the node', async () => {
    const paths = [
      'metadata.name',
      'metadata.namespace',
      'metadata.uid',
      "metadata.labels['app']",
      "metadata.annotations['note']",
      'spec.nodeName',
      'spec.serviceAccountName',
      'status.podIP',
      'status.podIPs',
      'status.hostIP',
      'status.hostIPs',
    ];
    const env = await asMap(ctx({ env: paths.map((p, i) => ({ name: `V${i}`, valueFrom: { fieldRef: { fieldPath: p } } })) }, { podIPs: ['10.244.1.5', 'fd00::5'] }));
    expect(Object.values(env)).toEqual(['web', 'default', 'uid-1', 'web', 'n', 'node-1', 'default', '10.244.1.5', '10.244.1.5,fd00::5', '192.168.0.2', '192.168.0.2']);
  });

  it('resolves resourceFieldRef in divisor units, rounding up, with node allocatable for unset limits', async () => {
    const env = await asMap(
      ctx({
        resources: { requests: { cpu: '250m', memory: '100Mi' }, limits: { memory: '128Mi' } },
        env: [
          { name: 'CPU_REQ', valueFrom: { resourceFieldRef: { resource: 'requests.cpu' } } },
          { name: 'CPU_REQ_M', valueFrom: { resourceFieldRef: { resource: 'requests.cpu', divisor: '1m' } } },
          { name: 'CPU_LIM', valueFrom: { resourceFieldRef: { resource: 'limits.cpu' } } },
          { name: 'MEM_LIM_MI', valueFrom: { resourceFieldRef: { resource: 'limits.memory', divisor: '1Mi' } } },
          { name: 'MEM_REQ', valueFrom: { resourceFieldRef: { resource: 'requests.memory' } } },
        ],
      }),
    );
    expect(env).toEqual({ CPU_REQ: '1', CPU_REQ_M: '250', CPU_LIM: '2', MEM_LIM_MI: '128', MEM_REQ: String(100 * 1024 * 1024) });
  });

  it('skips invalid envFrom names with the InvalidEnvironmentVariableNames message (strict names, gate off)', async () => {
    const r = await makeEnvironmentVariables(ctx({ envFrom: [{ configMapRef: { name: 'app' } }, { secretRef: { name: 'creds' }, prefix: '9' }] }, { relaxedNames: false }));
    expect(r.envs.map((e) => e.key)).toEqual(['GREETING', 'LEVEL']);
    expect(r.warnings).toEqual([
      'Keys [1bad] from the EnvFrom configMap default/app were skipped since they are considered invalid environment variable names.',
      'Keys [9PASSWORD, 9USER] from the EnvFrom secret default/creds were skipped since they are considered invalid environment variable names.',
    ]);
  });

  it.each([
    ['GREETING', true, true],
    ['1bad', true, false],
    ['my.var-1', true, true],
    ['a=b', false, false],
    ['', false, false],
    ['tab\tname', false, false],
  ])('isValidEnvName(%j): relaxed %s, strict %s', (name, relaxed, strict) => {
    expect(isValidEnvName(name, true)).toBe(relaxed);
    expect(isValidEnvName(name, false)).toBe(strict);
  });
});
