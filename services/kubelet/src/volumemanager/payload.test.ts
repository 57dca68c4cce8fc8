import type { Pod } from '@kubelab/api';
import { describe, expect, it } from 'vitest';
import type { Payload } from './atomic-writer.js';
import { formatMap } from './downward.js';
import { configMapPayload, downwardAPIPayload, secretPayload } from './payload.js';
import { projectedPayload } from './projected.js';
import type { TokenRequest } from '@kubelab/api';
import type { VolumeHost } from './plugin.js';

const text = (p: Payload) => Object.fromEntries([...p].map(([k, f]) => [k, `${f.data.toString()} ${f.mode.toString(8)}`]));
const cm = { metadata: { name: 'cfg' }, data: { greeting: 'hello', 'app.ini': 'x=1' }, binaryData: { 'logo.bin': Buffer.from([1, 2]).toString('base64') } };
const secret = { metadata: { name: 's' }, data: { password: Buffer.from('s3cr3t').toString('base64') } };
const pod: Pod = {
  metadata: { name: 'web', namespace: 'default', uid: 'u1', labels: { tier: 'front', app: 'web' }, annotations: { 'note/x': 'say "hi"' } },
  spec: { containers: [{ name: 'app', resources: { limits: { memory: '64Mi' } } }] },
};

describe('configMapPayload / secretPayload (upstream MakePayload)', () => {
  it('projects every key with defaultMode, binaryData decoded', () => {
    const p = configMapPayload(undefined, cm, 0o644, false);
    expect(text(p)).toEqual({ greeting: 'hello 644', 'app.ini': 'x=1 644', 'logo.bin': '\u0001\u0002 644' });
  });

  it('projects only the items, to their paths and modes', () => {
    expect(
      text(
        configMapPayload(
          [
            { key: 'greeting', path: 'msg/hello.txt', mode: 0o400 },
            { key: 'app.ini', path: 'app.ini' },
          ],
          cm,
          0o640,
          false,
        ),
      ),
    ).toEqual({ 'msg/hello.txt': 'hello 400', 'app.ini': 'x=1 640' });
  });

  it('fails on a missing item key unless optional, with the upstream texts', () => {
    expect(() => configMapPayload([{ key: 'nope', path: 'n' }], cm, 0o644, false)).toThrow('configmap references non-existent config key: nope');
    expect(() => secretPayload([{ key: 'nope', path: 'n' }], secret, 0o644, false)).toThrow('references non-existent secret key: nope');
    expect(text(configMapPayload([{ key: 'nope', path: 'n' }], cm, 0o644, true))).toEqual({});
  });

  it('decodes secret data', () => {
    expect(text(secretPayload(undefined, secret, 0o644, false))).toEqual({ password: 's3cr3t 644' });
  });
});

describe('downwardAPIPayload (upstream CollectData)', () => {
  it('writes metadata and resources; labels and annotations as sorted k="v" lines', () => {
    const p = downwardAPIPayload(
      [
        { path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } },
        { path: 'annotations', fieldRef: { fieldPath: 'metadata.annotations' } },
        { path: 'name', fieldRef: { fieldPath: 'metadata.name' }, mode: 0o600 },
        { path: 'tier', fieldRef: { fieldPath: "metadata.labels['tier']" } },
        { path: 'mem', resourceFieldRef: { containerName: 'app', resource: 'limits.memory', divisor: '1Mi' } },
        { path: 'cpu', resourceFieldRef: { containerName: 'app', resource: 'limits.cpu' } },
      ],
      pod,
      0o644,
      { cpu: '3' },
    );
    expect(text(p)).toEqual({ labels: 'app="web"\ntier="front" 644', annotations: 'note/x="say \\"hi\\"" 644', name: 'web 600', tier: 'front 644', mem: '64 644', cpu: '3 644' });
  });

  it('aggregates the errors of several items as upstream does', () => {
    expect(() =>
      downwardAPIPayload(
        [
          { path: 'a', fieldRef: { fieldPath: 'spec.nodeName' } },
          { path: 'b', resourceFieldRef: { containerName: 'nope', resource: 'limits.cpu' } },
        ],
        pod,
        0o644,
        {},
      ),
    ).toThrow('[unsupported fieldPath: spec.nodeName, failed to find container with name nope]');
  });

  it('formatMap of nothing is empty', () => expect(formatMap(undefined)).toBe(''));
});

describe('projectedPayload (upstream projected collectData)', () => {
  const asked: string[] = [];
  const host = (cms: Record<string, typeof cm>): VolumeHost => ({
    rootDir: '/nonexistent',
    sources: { configMap: async (_ns, n) => cms[n], secret: async (_ns, n) => (n === 's' ? secret : undefined) },
    tokens: {
      async getServiceAccountToken(ns, name, r: TokenRequest) {
        asked.push(`${ns}/${name} ${JSON.stringify(r.spec)}`);
        return { ...r, status: { token: `jwt-for-${r.spec.boundObjectRef?.name}`, expirationTimestamp: '1970-01-01T01:00:00Z' } };
      },
    },
    allocatable: () => ({}),
    now: () => new Date(0),
  });

  it('merges the sources with the volume defaultMode, the token bound to the pod from the token manager', async () => {
    const p = await projectedPayload(host({ cfg: cm }), pod, {
      name: 'all',
      projected: {
        defaultMode: 0o440,
        sources: [
          { configMap: { name: 'cfg', items: [{ key: 'greeting', path: 'greeting' }] } },
          { secret: { name: 's' } },
          { downwardAPI: { items: [{ path: 'namespace', fieldRef: { fieldPath: 'metadata.namespace' } }] } },
          { serviceAccountToken: { path: 'token', expirationSeconds: 3607 } },
        ],
      },
    });
    expect(text(p)).toEqual({ greeting: 'hello 440', password: 's3cr3t 440', namespace: 'default 440', token: 'jwt-for-web 440' });
    expect(asked).toEqual(['default/default {"audiences":[],"expirationSeconds":3607,"boundObjectRef":{"apiVersion":"v1","kind":"Pod","name":"web","uid":"u1"}}']);
  });

  it('reports a missing source with the manager text; optional ones are skipped', async () => {
    await expect(projectedPayload(host({}), pod, { name: 'all', projected: { sources: [{ configMap: { name: 'cfg' } }] } })).rejects.toThrow('configmap "cfg" not found');
    await expect(projectedPayload(host({}), pod, { name: 'all', projected: { sources: [{ configMap: { name: 'cfg' } }, { secret: { name: 'x' } }] } })).rejects.toThrow(
      '[configmap "cfg" not found, secret "x" not found]',
    );
    expect(text(await projectedPayload(host({}), pod, { name: 'all', projected: { sources: [{ configMap: { name: 'cfg', optional: true } }] } }))).toEqual({});
  });
});
