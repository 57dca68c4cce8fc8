import { apiserverAddressFrom } from '@kubelab/component-base';
import { describe, expect, it } from 'vitest';
import { kubeletFlags, parseTaints } from './options.js';

describe('kubelet flags', () => {
  it('accepts every flag the local runner passes (packages/kubelab/src/topology.ts)', () => {
    const { values } = kubeletFlags().parse(
      [
        '--hostname-override=node-1',
        '--node-ip=127.0.0.1',
        '--address=127.0.0.1',
        '--apiserver-grpc-address=127.0.0.1:16444',
        '--container-runtime-endpoint=unix:///tmp/x/containerd.sock',
        '--port=20250',
        '--healthz-port=20248',
        '--root-dir=/tmp/x/kubelet',
        '--pod-manifest-path=/tmp/x/manifests',
        '--pod-logs-dir=/tmp/x/pods',
      ],
      {},
    );
    expect(values).toMatchObject({
      'hostname-override': 'node-1',
      'node-ip': '127.0.0.1',
      address: '127.0.0.1',
      'container-runtime-endpoint': 'unix:///tmp/x/containerd.sock',
      port: 20250,
      'healthz-port': 20248,
      'root-dir': '/tmp/x/kubelet',
      'pod-manifest-path': '/tmp/x/manifests',
      'pod-logs-dir': '/tmp/x/pods',
    });
    expect(apiserverAddressFrom(values)).toBe('127.0.0.1:16444');
  });

  it('keeps --apiserver (and KUBELAB_APISERVER) as an alias; the shared default otherwise', () => {
    expect(apiserverAddressFrom(kubeletFlags().parse(['--apiserver=apiserver:6444'], {}).values)).toBe('apiserver:6444');
    expect(apiserverAddressFrom(kubeletFlags().parse([], { KUBELAB_APISERVER: 'apiserver:6444' }).values)).toBe('apiserver:6444');
    expect(apiserverAddressFrom(kubeletFlags().parse([], { KUBELAB_APISERVER_GRPC_ADDRESS: 'a:1' }).values)).toBe('a:1');
    expect(apiserverAddressFrom(kubeletFlags().parse([], {}).values)).toBe('127.0.0.1:6444');
  });

  it("defaults the server's auth as kubeadm's kubelet configuration (no anonymous, webhook authn and authz) with upstream's cache TTLs", () => {
    expect(kubeletFlags().parse([], {}).values).toMatchObject({
      'anonymous-auth': false,
      'authentication-token-webhook': true,
      'authentication-token-webhook-cache-ttl': 120_000,
      'authorization-mode': 'Webhook',
      'authorization-webhook-cache-authorized-ttl': 300_000,
      'authorization-webhook-cache-unauthorized-ttl': 30_000,
      'client-ca-file': '',
      'tls-cert-file': '',
      'cert-dir': '',
    });
  });

  it('has the tracing flags', () => {
    expect(kubeletFlags().parse(['--tracing-endpoint=jaeger:4317', '--tracing-sampling-rate-per-million=1000000'], {}).values).toMatchObject({
      'tracing-endpoint': 'jaeger:4317',
      'tracing-sampling-rate-per-million': 1_000_000,
    });
  });
});

describe('--register-with-taints', () => {
  it('parses key=value:effect and key:effect as upstream', () => {
    const values = kubeletFlags().parse(['--register-with-taints=node-role.kubernetes.io/control-plane:NoSchedule,dedicated=infra:NoExecute']).values;
    expect(parseTaints(values['register-with-taints'])).toEqual([
      { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' },
      { key: 'dedicated', value: 'infra', effect: 'NoExecute' },
    ]);
  });

  it('refuses an unknown effect or a missing key', () => {
    expect(() => parseTaints(['a=b:Sometimes'])).toThrow('invalid taint spec: a=b:Sometimes, unsupported taint effect "Sometimes"');
    expect(() => parseTaints(['=b:NoSchedule'])).toThrow('invalid taint spec: =b:NoSchedule');
  });
});
