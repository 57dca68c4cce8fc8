import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRulesArgs, rulesSources } from './rules.js';

describe('kubelab rules', () => {
  it.each([
    ['node-1 by default, in the local state dir', [], { node: 'node-1', dir: '.kubelab/local' }],
    ['a local node', ['--node', 'node-3'], { node: 'node-3', dir: '.kubelab/local' }],
    ["a joined node: kubelab join's state dir", ['--node=far-1'], { node: 'far-1', dir: '.kubelab/join' }],
    ['a joined node in a state dir given', ['--node', 'far-1', '--state-dir', '/x/far'], { node: 'far-1', dir: '/x/far' }],
  ])('takes %s', (_what, argv, want) => {
    const a = parseRulesArgs(argv);
    expect(a.node).toBe(want.node);
    expect(a.stateDir.endsWith(want.dir)).toBe(true);
  });

  it.each([
    ['node-2 of a cluster', { node: 'node-2', stateDir: '/s' }, { portOffset: 0 }, ['kube-proxy-2', 10349, 'kube-network-policies-2', 10390]],
    ['node-1 of a cluster with --port-offset 1000', { node: 'node-1', stateDir: '/s' }, { portOffset: 1000 }, ['kube-proxy-1', 11249, 'kube-network-policies-1', 11290]],
    ['a joined node', { node: 'far-1', stateDir: '/s' }, { portOffset: 0, joined: { nodeName: 'far-1', portOffset: 0 } }, ['kube-proxy', 10249, 'kube-network-policies', 10290]],
    [
      'a joined node with --port-offset 1000',
      { node: 'far-1', stateDir: '/s' },
      { portOffset: 0, joined: { nodeName: 'far-1', portOffset: 1000 } },
      ['kube-proxy', 11249, 'kube-network-policies', 11290],
    ],
  ] as const)("reads %s's kube-proxy and NetworkPolicy agent", (_what, args, at, [proxy, proxyPort, policies, policiesPort]) => {
    expect(rulesSources(args, at)).toEqual({
      node: args.node,
      proxy: { who: proxy, pidFile: join('/s', 'run', `${proxy}.pid`), url: `http://127.0.0.1:${proxyPort}/rules` },
      policies: { who: policies, pidFile: join('/s', 'run', `${policies}.pid`), url: `http://127.0.0.1:${policiesPort}/rules` },
      joined: 'joined' in at,
    });
  });

  it.each([
    ['a name no local node has', { node: 'far-1', stateDir: '/s' }, { portOffset: 0 }, 'got "far-1"'],
    ["another node than the join state dir's", { node: 'far-2', stateDir: '/s' }, { portOffset: 0, joined: { nodeName: 'far-1', portOffset: 0 } }, 'the node kubelab join runs from /s is far-1'],
  ])('refuses %s', (_what, args, at, message) => {
    expect(() => rulesSources(args, at)).toThrow(message);
  });
});
