// `kubelab kubeadm hollow DIR`: the compose `hollow` profile's step that
// `kubelab up --hollow` does in-process (hollow.ts): each hollow node's
// kubelet.conf with its own system:node:<name> certificate from DIR's CA,
// and the bootstrap-kubelet.conf of DIR's token, into the volume the
// hollow-nodes service runs them from.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { FlagError, FlagSet } from '@kubelab/component-base';
import { BOOTSTRAP_TOKEN_FILE } from './bootstrap-token.js';
import { writeHollowIdentities } from './hollow.js';

/** What one hollow-nodes container holds: the top /22 of its network (services/kubemark interfacePlan). */
export const MAX_COMPOSE_HOLLOW_NODES = 1000;

export const KUBEADM_HOLLOW_USAGE = `  hollow DIR --count N [--name-prefix hollow-node-] [--nodes-dir /var/lib/kubelab/hollow] [--control-plane-endpoint apiserver:6443]
          The hollow profile's node identities: <nodes-dir>/<prefix><i>/kubelet.conf (system:node:<prefix><i>, from DIR's CA)
          for i in 1..N, and <nodes-dir>/bootstrap-kubelet.conf (DIR's bootstrap token); files that exist are kept
`;

const flags = () =>
  new FlagSet('kubelab kubeadm hollow DIR')
    .int('count', 0, `how many hollow nodes (1..${MAX_COMPOSE_HOLLOW_NODES})`)
    .string('name-prefix', 'hollow-node-', 'node names are <prefix><number>, as kubemark names its hollow nodes')
    .string('nodes-dir', '/var/lib/kubelab/hollow', "the hollow nodes' folders (the hollow-node process's --nodes-dir)")
    .string('control-plane-endpoint', 'apiserver:6443', 'host:port of the apiserver written into the kubeconfigs');

export interface KubeadmHollowArgs {
  dir: string;
  names: string[];
  nodesDir: string;
  server: string;
}

export function parseKubeadmHollowArgs(argv: string[]): KubeadmHollowArgs {
  const { values, rest } = flags().parse(argv, {});
  if (rest.length !== 1) throw new FlagError('usage: kubelab kubeadm hollow DIR --count N');
  const count = values.count;
  if (!Number.isInteger(count) || count < 1 || count > MAX_COMPOSE_HOLLOW_NODES) throw new FlagError(`--count ${count}: want 1..${MAX_COMPOSE_HOLLOW_NODES}`);
  const prefix = values['name-prefix'];
  // The names are node names (RFC 1123 subdomains) and folder names.
  if (!/^[a-z0-9]([-a-z0-9.]*[-a-z0-9])?$/.test(prefix)) throw new FlagError(`--name-prefix "${prefix}": a node name starts with it (lowercase letters, digits, '-', '.')`);
  const endpoint = values['control-plane-endpoint'];
  if (!/^[^/:\s]+:\d{1,5}$/.test(endpoint)) throw new FlagError(`--control-plane-endpoint "${endpoint}": want host:port`);
  return { dir: rest[0]!, names: Array.from({ length: count }, (_, i) => `${prefix}${i + 1}`), nodesDir: values['nodes-dir'], server: `https://${endpoint}` };
}

export async function kubeadmHollowCommand(argv: string[]): Promise<number> {
  let a: KubeadmHollowArgs;
  try {
    a = parseKubeadmHollowArgs(argv);
  } catch (e) {
    process.stderr.write(`kubelab kubeadm hollow: ${(e as Error).message}\n`);
    return 2;
  }
  const missing = ['pki/ca.crt', 'pki/ca.key', BOOTSTRAP_TOKEN_FILE].filter((f) => !existsSync(join(a.dir, f)));
  if (missing.length) {
    process.stderr.write(`kubelab kubeadm hollow: ${missing.join(', ')} missing in ${a.dir}: run \`kubelab kubeadm init --dir ${a.dir}\` first\n`);
    return 1;
  }
  try {
    await writeHollowIdentities({
      caCertFile: join(a.dir, 'pki', 'ca.crt'),
      caKeyFile: join(a.dir, 'pki', 'ca.key'),
      tokenFile: join(a.dir, BOOTSTRAP_TOKEN_FILE),
      server: a.server,
      nodesDir: a.nodesDir,
      names: a.names,
    });
  } catch (e) {
    process.stderr.write(`kubelab kubeadm hollow: ${(e as Error).message}\n`);
    return 1;
  }
  const range = a.names.length > 1 ? `${a.names[0]} … ${a.names[a.names.length - 1]}` : a.names[0];
  process.stdout.write(`[hollow] Wrote kubelet.conf for ${a.names.length} hollow node${a.names.length === 1 ? '' : 's'} (${range}) under "${a.nodesDir}", and bootstrap-kubelet.conf\n`);
  return 0;
}
