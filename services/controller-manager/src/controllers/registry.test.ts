import { describe, expect, it } from 'vitest';
import { defaultRegistry } from './index.js';

describe('--controllers', () => {
  const names = (spec: string[]) =>
    defaultRegistry()
      .select(spec)
      .map((d) => d.name);
  it('* runs every controller; -name turns one off; old names are accepted', () => {
    expect(names(['*'])).toContain('node-lifecycle-controller');
    expect(names(['*', '-garbagecollector'])).not.toContain('garbage-collector-controller');
    expect(names(['deployment', 'replicaset-controller'])).toEqual(['deployment-controller', 'replicaset-controller']);
  });
  it('controllers disabled by default run only when named, as kubeadm names tokencleaner', () => {
    expect(names(['*'])).not.toContain('token-cleaner-controller');
    expect(names(['*', 'tokencleaner'])).toContain('token-cleaner-controller');
  });
  it('refuses unknown names', () => {
    expect(() => names(['bogus'])).toThrow('"bogus" is not in the list of known controllers');
  });
});
