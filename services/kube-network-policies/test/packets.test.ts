// Real packets through the agent's rules, in a network namespace this test
// creates (and deletes), laid out as a compose node: the pods' IPs are local
// addresses of the node's namespace, so a connection between two of them
// leaves by OUTPUT and comes back in by INPUT over lo. web (app=web) serves
// TCP on 10.244.1.10:80; client (app=client) and other (app=other) connect
// from their own addresses. Needs root, ip and iptables (skipped without).

import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NetworkPolicy } from '@kubelab/api';
import { createLogger } from '@kubelab/component-base';
import { requirePrerequisite, requireTool, waitFor } from '@kubelab/testing';
import { PolicyController } from '../src/controller.js';
import { execRunner } from '@kubelab/component-base';
import { lab, namespace, pod, policy } from '../src/testing/fixtures.js';

const enabled = ['ip', 'iptables-restore', 'iptables-save'].every((t) => requireTool(t)) && requirePrerequisite('root (ip netns add, for the packet tests)', process.getuid?.() === 0);
const ns = `kubelab-netpol-${randomBytes(4).toString('hex')}`;
const WEB = '10.244.1.10';
const CLIENT = '10.244.1.20';
const OTHER = '10.244.1.11';
const NODE = '10.0.0.5';

/** Connects from `from` to web:80 inside the namespace; 'ok' with the server's answer, or 'timeout' (a dropped SYN). */
function connect(from: string, port = 80): string {
  const script = `const s=require('net').connect({host:'${WEB}',port:${port},localAddress:'${from}'});s.setTimeout(1000,()=>{console.log('timeout');process.exit(0)});s.on('data',d=>{console.log('ok '+d);process.exit(0)});s.on('error',e=>{console.log(e.code);process.exit(0)})`;
  return execFileSync('ip', ['netns', 'exec', ns, process.execPath, '-e', script], { encoding: 'utf8' }).trim();
}

describe.skipIf(!enabled)('policy rules against real connections in a network namespace', () => {
  let server: ChildProcess | undefined;
  const policies: NetworkPolicy[] = [];
  const objects = lab();
  objects.pods.push(pod('default', 'client', CLIENT, 'node-1', { app: 'client' }));
  objects.pods = objects.pods.filter((p) => p.status?.podIP !== '10.244.2.20');
  objects.namespaces.push(namespace('kube-system'));
  const controller = new PolicyController({
    nodeName: 'node-1',
    clusterCIDR: '10.244.0.0/16',
    pods: { list: () => objects.pods },
    namespaces: { list: () => objects.namespaces },
    policies: { list: () => policies },
    runner: execRunner(ns),
    logger: createLogger({ component: 'kube-network-policies', level: 'error' }),
  });

  beforeAll(async () => {
    execFileSync('ip', ['netns', 'add', ns]);
    const sh = (...argv: string[]) => execFileSync('ip', ['netns', 'exec', ns, ...argv]);
    sh('ip', 'link', 'set', 'lo', 'up');
    for (const a of [WEB, CLIENT, OTHER, NODE]) sh('ip', 'addr', 'add', `${a}/32`, 'dev', 'lo');
    server = spawn('ip', ['netns', 'exec', ns, process.execPath, '-e', `require('net').createServer(c=>c.end('hello')).listen(80,'${WEB}',()=>console.log('listening'))`], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    server.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    await waitFor('the web server to listen', () => out.includes('listening'));
  });
  afterAll(() => {
    server?.kill('SIGKILL');
    execFileSync('ip', ['netns', 'del', ns]);
  });

  it('no policy: both pods reach web', async () => {
    await controller.sync();
    expect(connect(CLIENT)).toBe('ok hello');
    expect(connect(OTHER)).toBe('ok hello');
  });

  it('default-deny ingress: connections time out (the SYN is dropped), the node itself still gets in', async () => {
    policies.push(policy('default', 'default-deny', { policyTypes: ['Ingress'] }));
    await controller.sync();
    expect(connect(CLIENT)).toBe('timeout');
    expect(connect(OTHER)).toBe('timeout');
    expect(connect(NODE)).toBe('ok hello');
  });

  it('allow from app=client on the named port: client gets in, other still times out', async () => {
    policies.push(
      policy('default', 'allow-client', {
        podSelector: { matchLabels: { app: 'web' } },
        ingress: [{ from: [{ podSelector: { matchLabels: { app: 'client' } } }], ports: [{ protocol: 'TCP', port: 'http' }] }],
      }),
    );
    await controller.sync();
    expect(connect(CLIENT)).toBe('ok hello');
    expect(connect(OTHER)).toBe('timeout');
  });

  it('egress deny on client: its own connections time out, though web would let it in', async () => {
    policies.push(policy('default', 'client-egress', { podSelector: { matchLabels: { app: 'client' } }, policyTypes: ['Egress'] }));
    await controller.sync();
    expect(connect(CLIENT)).toBe('timeout');
    policies.pop();
  });

  it('deleting the policies removes their chains: both reach web again', async () => {
    policies.length = 0;
    await controller.sync();
    expect(connect(CLIENT)).toBe('ok hello');
    expect(connect(OTHER)).toBe('ok hello');
    const save = execFileSync('ip', ['netns', 'exec', ns, 'iptables-save', '-t', 'filter'], { encoding: 'utf8' });
    expect(save.split('\n').filter((l) => l.startsWith(':KUBE-NWPLCY-'))).toEqual([':KUBE-NWPLCY-EGRESS - [0:0]', ':KUBE-NWPLCY-INGRESS - [0:0]']);
    // Jumps are not duplicated by repeated syncs.
    expect(save.split('\n').filter((l) => l.startsWith('-A INPUT'))).toEqual(['-A INPUT -m comment --comment "kubernetes network policies" -j KUBE-NWPLCY-INGRESS']);
  });
});
