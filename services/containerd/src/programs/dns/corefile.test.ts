import { describe, expect, it } from 'vitest';
import { KUBEADM_COREFILE } from '../../testing/corefile.js';
import { parseCorefile } from './corefile.js';

describe('parseCorefile', () => {
  it("reads kubeadm's Corefile", () => {
    expect(parseCorefile(KUBEADM_COREFILE)).toEqual({
      port: 53,
      zones: ['.'],
      errors: true,
      health: { port: 8080, lameduckSeconds: 5 },
      ready: { port: 8181 },
      kubernetes: { zones: ['cluster.local.', 'in-addr.arpa.', 'ip6.arpa.'], pods: 'insecure', fallthrough: ['in-addr.arpa.', 'ip6.arpa.'], ttl: 30 },
      prometheus: { port: 9153 },
      forward: { from: '.', to: ['/etc/resolv.conf'] },
      cache: { ttl: 30 },
      loop: true,
      reload: true,
      loadbalance: true,
      log: false,
    });
  });

  it('takes a server port, comments and defaults', () => {
    const c = parseCorefile('# a comment\n.:1053 {\n  kubernetes\n  health :9090\n  cache\n}\n');
    expect(c).toMatchObject({ port: 1053, health: { port: 9090, lameduckSeconds: 0 }, cache: { ttl: 3600 }, kubernetes: { zones: ['.'], pods: 'disabled', ttl: 5 } });
  });

  it.each([
    ['.:53 {\n  errors\n', 'Corefile:1 - Error during parsing: Unexpected EOF'],
    ['.:53 {\n  bogus\n}\n', "Unknown directive 'bogus'"],
    ['.:53 {\n  kubernetes cluster.local {\n    pods sometimes\n  }\n}\n', 'plugin/kubernetes: pods: value must be one of disabled, verified or insecure'],
    ['.:53 {\n  kubernetes cluster.local {\n    ttl 5000\n  }\n}\n', 'plugin/kubernetes: ttl must be in range [0, 3600]: 5000'],
    ['.:53 {\n  forward .\n}\n', 'plugin/forward: Wrong argument count or unexpected line ending after'],
  ])('rejects %j', (text, err) => {
    expect(() => parseCorefile(text)).toThrow(err);
  });
});
