import { describe, expect, it } from 'vitest';
import { anonymousAllowed, parseAuthenticationConfig, type AnonymousAuth } from './config.js';

const doc = (anonymous: string) => `apiVersion: apiserver.config.k8s.io/v1\nkind: AuthenticationConfiguration\n${anonymous}`;
const healthOnly = doc('anonymous:\n  enabled: true\n  conditions:\n  - path: /livez\n  - path: /readyz\n  - path: /healthz\n');

describe('parseAuthenticationConfig', () => {
  it.each<[string, string, AnonymousAuth | undefined]>([
    ['no anonymous section', doc(''), undefined],
    ['enabled without conditions: anyone', doc('anonymous:\n  enabled: true\n'), { enabled: true }],
    ['disabled', doc('anonymous:\n  enabled: false\n'), { enabled: false }],
    ['the health paths', healthOnly, { enabled: true, paths: new Set(['/livez', '/readyz', '/healthz']) }],
    ['v1beta1 too', healthOnly.replace('/v1\n', '/v1beta1\n'), { enabled: true, paths: new Set(['/livez', '/readyz', '/healthz']) }],
  ])('%s', (_name, text, want) => {
    expect(parseAuthenticationConfig(text)).toEqual(want);
  });

  it.each([
    [
      'conditions without enabled',
      doc('anonymous:\n  enabled: false\n  conditions:\n  - path: /livez\n'),
      'anonymous.conditions: Invalid value: enabled should be set to true when conditions are defined',
    ],
    ['an empty path', doc('anonymous:\n  enabled: true\n  conditions:\n  - path: ""\n'), 'anonymous.conditions[0].path: Required value'],
    ['a path twice', doc('anonymous:\n  enabled: true\n  conditions:\n  - path: /livez\n  - path: /livez\n'), 'anonymous.conditions[1].path: Duplicate value: "/livez"'],
    ['another kind', 'apiVersion: v1\nkind: Config\n', 'no kind "Config" is registered for version "v1"'],
    ['JWT authenticators', doc('jwt:\n- issuer: {url: https://example.com}\n'), 'jwt: kubelab does not implement JWT authenticators'],
    ['not YAML', '{', 'error converting YAML to JSON'],
  ])('refuses %s', (_name, text, message) => {
    expect(() => parseAuthenticationConfig(text)).toThrow(message);
  });
});

describe('anonymousAllowed', () => {
  const health: AnonymousAuth = { enabled: true, paths: new Set(['/healthz', '/version']) };
  it.each<[AnonymousAuth, string, boolean]>([
    [{ enabled: true }, '/api/v1/pods', true],
    [{ enabled: false }, '/healthz', false],
    [health, '/healthz', true],
    [health, '/version', true],
    // Exact paths, as upstream: no prefix matching.
    [health, '/healthz/etcd', false],
    [health, '/api', false],
  ])('%o on %s: %s', (a, path, want) => {
    expect(anonymousAllowed(a, path)).toBe(want);
  });
});
