import { describe, expect, it } from 'vitest';
import { chooseNodes, formatStatus, parseHollowArgs, type HollowNodeState } from './hollow-command.js';

const nodes: HollowNodeState[] = Array.from({ length: 7 }, (_, k) => ({ name: `node-${k + 1}`, zone: ['zone-a', 'zone-b', 'zone-c'][k % 3]!, state: 'running' }));

describe('kubelab hollow arguments', () => {
  it.each([
    [['stop', '--zone', 'zone-a'], { action: 'stop', zone: 'zone-a', nodes: [], all: false }],
    [['start', '--zone=zone-b', '--count', '2'], { action: 'start', zone: 'zone-b', count: 2, nodes: [], all: false }],
    [['stop', 'node-1', 'node-4'], { action: 'stop', nodes: ['node-1', 'node-4'], all: false }],
    [['start', '--all'], { action: 'start', nodes: [], all: true }],
    [['status'], { action: 'status', nodes: [], all: false }],
  ])('%j', (argv, want) => expect(parseHollowArgs([...argv, '--state-dir', '/s'])).toEqual({ ...want, stateDir: '/s' }));

  it.each([
    [['reboot'], /usage: kubelab hollow status/],
    [['stop'], /name the nodes to stop: NODE\.\.\., --zone ZONE or --all/],
    [['stop', '--zone'], /flag needs an argument: --zone/],
    [['stop', '--zone', 'zone-a', '--count', '0'], /--count must be a whole number of at least 1, got "0"/],
    [['stop', 'node-1', '--count', '2'], /--count picks from --zone or --all/],
    [['stop', '--force'], /unknown flag: --force/],
  ])('refuses %j', (argv, msg) => expect(() => parseHollowArgs(argv)).toThrow(msg));
});

describe('which hollow nodes', () => {
  it.each([
    ['a zone', { nodes: [], zone: 'zone-a', all: false }, ['node-1', 'node-4', 'node-7']],
    ['the first 2 of a zone, by number', { nodes: [], zone: 'zone-a', count: 2, all: false }, ['node-1', 'node-4']],
    ['all', { nodes: [], all: true }, ['node-1', 'node-2', 'node-3', 'node-4', 'node-5', 'node-6', 'node-7']],
    ['named', { nodes: ['node-5', 'node-2'], all: false }, ['node-2', 'node-5']],
  ])('%s', (_n, a, want) => expect(chooseNodes(a, nodes)).toEqual(want));

  it('names what is missing', () => {
    expect(() => chooseNodes({ nodes: ['node-9'], all: false }, nodes)).toThrow('no hollow node "node-9"');
    expect(() => chooseNodes({ nodes: [], zone: 'zone-x', all: false }, nodes)).toThrow('no hollow node in zone "zone-x" (zones: zone-a, zone-b, zone-c)');
  });
});

describe('kubelab hollow status', () => {
  it('counts running and stopped nodes per zone, then names the stopped ones', () => {
    const some = nodes.map((n) => (n.zone === 'zone-a' ? { ...n, state: 'stopped' as const } : n));
    expect(formatStatus(some)).toBe(
      ['ZONE     NODES   RUNNING   STOPPED', 'zone-a   3       0         3', 'zone-b   2       2         0', 'zone-c   2       2         0', 'stopped: node-1 node-4 node-7', ''].join('\n'),
    );
  });
});
