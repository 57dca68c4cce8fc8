// `kubelab token create|list`: kubeadm's token commands against a running
// cluster of `kubelab up` (its state dir's admin.conf, as kubeadm uses
// /etc/kubernetes/admin.conf). create writes a bootstrap token Secret (the
// bootstrap signer then signs cluster-info with it) and prints the token or,
// with --print-join-command, the whole `kubelab join` line; list prints
// kubeadm's table.

import { readFileSync } from 'node:fs';
import type { Secret } from '@kubelab/api';
import { clientTlsFromKubeconfig, createClientset, type Clientset } from '@kubelab/client';
import { parseDuration } from '@kubelab/component-base';
import { BOOTSTRAP_TOKEN_SECRET_PREFIX, BOOTSTRAP_TOKEN_SECRET_TYPE, bootstrapTokenSecret, generateBootstrapToken, parseBootstrapToken, secretData } from '@kubelab/serviceaccount';
import { parse } from 'yaml';
import { rfc3339 } from './bootstrap-token.js';
import { shortHumanDuration } from './certs-expiration.js';
import { caCertHash } from './discovery.js';
import { readClusterInfo, stateDirFrom } from './paths.js';
import { controlPlanePorts, kubeadmFiles } from './topology.js';

const DEFAULT_GROUP = 'system:bootstrappers:kubeadm:default-node-token';
const DEFAULT_USAGES = ['signing', 'authentication'];
const EXTRA_GROUP = /^system:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]$/;

export interface TokenCreateArgs {
  token?: string;
  printJoinCommand: boolean;
  ttlMs: number;
  description: string;
  groups: string[];
  usages: string[];
  stateDir: string;
}

/** `token create [TOKEN] [--print-join-command] [--ttl 24h0m0s] [--description D] [--groups G] [--usages U] [--state-dir DIR]`. */
export function parseTokenCreateArgs(argv: readonly string[]): TokenCreateArgs {
  const out: TokenCreateArgs = { printJoinCommand: false, ttlMs: 24 * 3600_000, description: '', groups: [DEFAULT_GROUP], usages: [...DEFAULT_USAGES], stateDir: stateDirFrom(undefined) };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const eq = a.indexOf('=');
    const name = a.startsWith('--') && eq > 0 ? a.slice(0, eq) : a;
    const value = () => {
      const v = a.startsWith('--') && eq > 0 ? a.slice(eq + 1) : argv[++i];
      if (v === undefined) throw new Error(`flag needs an argument: ${name}`);
      return v;
    };
    if (name === '--print-join-command') out.printJoinCommand = true;
    else if (name === '--ttl') out.ttlMs = parseDuration(value());
    else if (name === '--description') out.description = value();
    else if (name === '--groups') out.groups = value().split(',').filter(Boolean);
    else if (name === '--usages') out.usages = value().split(',').filter(Boolean);
    else if (name === '--state-dir') out.stateDir = stateDirFrom(value());
    else if (a.startsWith('-')) throw new Error(`unknown flag: ${name}`);
    else if (out.token === undefined) out.token = a;
    else throw new Error(`accepts at most 1 arg(s), received ${argv.filter((x) => !x.startsWith('-')).length}`);
  }
  if (out.token !== undefined && !parseBootstrapToken(out.token)) throw new Error(`the bootstrap token "${out.token}" was not of the form "[a-z0-9]{6}.[a-z0-9]{16}"`);
  for (const g of out.groups) if (!EXTRA_GROUP.test(g)) throw new Error(`bootstrap group "${g}" is invalid (must match ${EXTRA_GROUP.source})`);
  for (const u of out.usages) if (!['signing', 'authentication'].includes(u)) throw new Error(`invalid bootstrap token usage string: ${u}, valid usage options: signing,authentication`);
  return out;
}

/** The Secret `kubeadm token create` writes. */
export function tokenSecret(token: string, a: Pick<TokenCreateArgs, 'ttlMs' | 'description' | 'groups' | 'usages'>, now: number): Secret {
  const { id, secret } = parseBootstrapToken(token)!;
  const s = bootstrapTokenSecret(id, secret, {
    groups: a.groups,
    ...(a.ttlMs > 0 ? { expiration: rfc3339(Math.floor(now / 1000) * 1000 + a.ttlMs) } : {}),
    ...(a.description ? { description: a.description } : {}),
  }) as Secret;
  const b64 = (v: string) => Buffer.from(v).toString('base64');
  for (const u of DEFAULT_USAGES) delete s.data![`usage-bootstrap-${u}`];
  for (const u of a.usages) s.data![`usage-bootstrap-${u}`] = b64('true');
  return s;
}

/** `kubeadm join <endpoint> --token <token> --discovery-token-ca-cert-hash sha256:<hash>`, as kubelab's command. */
export function joinCommandLine(endpoint: string, token: string, caPem: string): string {
  return `kubelab join ${endpoint} --token ${token} --discovery-token-ca-cert-hash ${caCertHash(caPem)}`;
}

/** host:port of a server URL (`https://10.0.0.1:6443` → `10.0.0.1:6443`). */
export function endpointOf(server: string): string {
  const u = new URL(server);
  return u.port ? u.host : `${u.host}:443`;
}

/** One row of kubeadm's token list (humanReadableBootstrapToken). */
export function tokenRow(s: Secret, now: number): string[] | undefined {
  const id = secretData(s, 'token-id');
  const secret = secretData(s, 'token-secret');
  if (!id || !secret || s.metadata.name !== `${BOOTSTRAP_TOKEN_SECRET_PREFIX}${id}`) return undefined;
  const exp = secretData(s, 'expiration');
  const usages = Object.keys(s.data ?? {})
    .filter((k) => k.startsWith('usage-bootstrap-') && secretData(s, k) === 'true')
    .map((k) => k.slice('usage-bootstrap-'.length))
    .sort();
  const groups = secretData(s, 'auth-extra-groups');
  return [
    `${id}.${secret}`,
    exp ? shortHumanDuration(Date.parse(exp) - now) : '<forever>',
    exp ? rfc3339(Date.parse(exp)) : '<never>',
    usages.join(',') || '<none>',
    secretData(s, 'description') || '<none>',
    groups || '<none>',
  ];
}

/** Go's text/tabwriter with kubeadm's settings (minwidth 10, padding 3, spaces): every column but the last padded. */
export function tabwrite(rows: readonly (readonly string[])[]): string {
  const widths: number[] = [];
  for (const r of rows) r.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 10, c.length + 3)));
  return rows.map((r) => r.map((c, i) => (i < r.length - 1 ? c.padEnd(widths[i]!) : c)).join('') + '\n').join('');
}

export function tokenTable(secrets: readonly Secret[], now: number): string {
  const rows = secrets
    .filter((s) => s.type === BOOTSTRAP_TOKEN_SECRET_TYPE)
    .flatMap((s) => {
      const r = tokenRow(s, now);
      return r ? [r] : [];
    });
  return tabwrite([['TOKEN', 'TTL', 'EXPIRES', 'USAGES', 'DESCRIPTION', 'EXTRA GROUPS'], ...rows]);
}

function adminClient(stateDir: string): Clientset {
  const info = readClusterInfo(stateDir);
  if (!info) throw new Error(`no cluster in ${stateDir} (no cluster.json): start one with \`pnpm kubelab up --state-dir ${stateDir}\``);
  const ports = controlPlanePorts(info.portOffset ?? 0);
  const tls = clientTlsFromKubeconfig(kubeadmFiles({ stateDir, nodes: 0, portOffset: 0, ports }).admin);
  return createClientset({ address: `127.0.0.1:${ports.apiserverGrpc}`, tls, component: 'kubeadm' });
}

export async function tokenCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  try {
    if (sub === 'create') {
      const a = parseTokenCreateArgs(rest);
      const cs = adminClient(a.stateDir);
      try {
        const token = a.token ?? generateBootstrapToken();
        await cs.core.secrets('kube-system').create(tokenSecret(token, a, Date.now()));
        if (!a.printJoinCommand) {
          process.stdout.write(`${token}\n`);
          return 0;
        }
        // The endpoint joining nodes use: the runner's advertise address, else cluster-info's server (kubeadm's controlPlaneEndpoint).
        const info = readClusterInfo(a.stateDir);
        let endpoint = info?.advertiseAddress ? `${info.advertiseAddress}:${controlPlanePorts(info.portOffset ?? 0).apiserver}` : undefined;
        if (!endpoint) {
          const cm = await cs.core.configMaps('kube-public').get('cluster-info');
          const doc = parse(cm.data?.kubeconfig ?? '') as { clusters?: { cluster?: { server?: string } }[] };
          const server = doc?.clusters?.[0]?.cluster?.server;
          if (!server) throw new Error('the cluster-info ConfigMap in kube-public names no server');
          endpoint = endpointOf(server);
        }
        const caPem = readFileSync(kubeadmFiles({ stateDir: a.stateDir, nodes: 0, portOffset: 0, ports: controlPlanePorts() }).caCert, 'utf8');
        process.stdout.write(`${joinCommandLine(endpoint, token, caPem)}\n`);
        return 0;
      } finally {
        cs.close();
      }
    }
    if (sub === 'list') {
      let stateDir = stateDirFrom(undefined);
      for (let i = 0; i < rest.length; i++) {
        const a = rest[i]!;
        if (a === '--state-dir') stateDir = stateDirFrom(rest[++i]);
        else if (a.startsWith('--state-dir=')) stateDir = stateDirFrom(a.slice('--state-dir='.length));
        else throw new Error(`unknown flag: ${a}`);
      }
      const cs = adminClient(stateDir);
      try {
        const list = await cs.core.secrets('kube-system').list();
        process.stdout.write(tokenTable(list.items, Date.now()));
        return 0;
      } finally {
        cs.close();
      }
    }
    process.stderr.write('Usage: kubelab token create [TOKEN] [--print-join-command] [--ttl 24h0m0s] [--description TEXT] | token list   [--state-dir DIR]\n');
    return 2;
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n`);
    return 1;
  }
}
