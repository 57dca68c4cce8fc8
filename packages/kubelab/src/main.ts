#!/usr/bin/env node
// kubelab: run and inspect a local kubelab cluster.
import { imagesMarkdown, imagesTable } from '@kubelab/images';
import { faultCommand } from './fault.js';
import { hollowCommand } from './hollow-command.js';
import { joinNode } from './join.js';
import { tokenCommand } from './token.js';
import { kubeadmCommand } from './kubeadm-command.js';
import { kvCommand } from './kv/run.js';
import { traceCommand } from './trace/run.js';
import { rulesCommand } from './rules.js';
import { sshCommand } from './ssh.js';
import { up } from './up.js';

const USAGE = `Usage: pnpm kubelab <command> [flags]

Commands:
  up      Run the cluster as local processes in the foreground (Ctrl-C stops it)
          --nodes N          worker nodes (default 2)
          --hollow           the workers as hollow nodes: real kubelets with their runtimes, ~500 per process (--nodes up to 1000)
          --state-dir DIR    where state, logs, pid files and the kubeconfig go (default .kubelab/local)
          --port-offset N    add N to every port (apiserver 6443+N, NATS 4222+N, kubelets 10250+N, ...): a second cluster beside the first
          --apiserver-advertise-address ADDR   the apiserver (on every address) and NATS's leafnode port (7422+N) at ADDR: nodes join from other machines
          --ha               a highly available control plane: 3 NATS servers (JetStream R3), 3 apiservers behind haproxy
                             on 6443+N, 3 schedulers and controller-managers with Lease-based leader election (needs haproxy)
          any upstream component flag, e.g. --node-monitor-grace-period=20s, goes to the component that owns it
  trace   Follow the CRI calls kubelets make to their runtime, one line per call (Ctrl-C stops)
          --pod [NS/]NAME  --node NODE  --method M[,M]  --since 5m  --json  --all
          --state-dir DIR (default .kubelab/local, else .kubelab/compose: the compose stack's kubeconfig service writes one)
          --nats-url URL (default: the state dir's cluster.json)
          --nats-ca-file --nats-cert-file --nats-key-file (default: the state dir's pki/etcd/ca.crt, trace-client.crt/.key)
  rules   Print the rules kube-proxy holds on a node (iptables-save / nft / ipvsadm form), then the NetworkPolicy agent's chains
          --node node-1 (default)  --state-dir DIR; on a joined machine --node <its node> (state dir default .kubelab/join)
  ssh NODE [-- COMMAND]
          A root shell on a local node (bash, prompt root@NODE:~#) with the node's tools: systemctl, journalctl,
          dmesg, ps, top, free, df, uptime over the node's journal, units and processes; with a command, runs it
          --state-dir DIR (default .kubelab/local; a compose state dir, e.g. .kubelab/compose, means the compose stack)
          --compose  the compose stack's node: docker compose exec NODE bash (from the repository root)
  fault list | fault NODE FAULT [--clear]
          Inject a fault into a node as it happens on a real one (a kernel hang, a read-only filesystem, an OOM kill,
          a hung or stopped containerd, a crash-looping kubelet, disk/memory/PID pressure, the node cut off from the
          control plane, etcd's role lost), or clear it; \`fault list\` shows what each does and what you see
          --state-dir DIR (default .kubelab/local; a compose state dir means the compose stack)
          --compose  the compose stack's node (docker compose exec NODE node-fault FAULT)   --pod NAME  oom-kill's pod
  hollow status | hollow stop|start (NODE... | --zone ZONE [--count N] | --all)
          A cluster run with --hollow: stop hollow nodes (kubelet and runtime, as if their power went: no more Lease
          renewals or status) or start them again; status shows each zone's running and stopped nodes   --state-dir DIR
  kv      Read the object store's raw bytes, as etcdctl does etcd's (Secrets show their encryption)
          kv get KEY [--hex] [--print-value-only]    e.g. kv get /registry/secrets/default/db --hex
          kv ls [PREFIX]    --bucket kubelab  --nats-url URL  --state-dir DIR
  images  List the images the simulated runtime can pull (its registry has no others), each with its tags, size
          and what running it does; the teaching images last     --markdown  the README's table
  kubeadm init|admin-kubeconfig|encryption-config|nats|cri-stream|certs check-expiration
          kubeadm's file phases as a setup step of their own (the compose stack's kubeadm-init), and when its
          certificates expire (certs check-expiration --cert-dir .kubelab/local/pki); \`kubeadm help\` lists the flags
  token create [TOKEN] [--print-join-command] [--ttl 24h0m0s] [--description TEXT] | token list
          kubeadm's bootstrap tokens of a running cluster (--state-dir DIR); --print-join-command prints the kubelab join line
  join HOST:PORT --token TOKEN --discovery-token-ca-cert-hash sha256:HASH [--node-name N] [--state-dir DIR (default .kubelab/join)]
          A node on another machine, as kubeadm join: token discovery, TLS bootstrap, then containerd, the kubelet and a
          NATS leaf node in the foreground (Ctrl-C stops them); the cluster runs with --apiserver-advertise-address ADDR
`;

async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  switch (cmd) {
    case 'up':
      return up(rest);
    case 'trace':
      return traceCommand(rest);
    case 'rules':
      return rulesCommand(rest);
    case 'kv':
      return kvCommand(rest);
    case 'ssh':
      return sshCommand(rest);
    case 'fault':
      return faultCommand(rest);
    case 'hollow':
      return hollowCommand(rest);
    case 'kubeadm':
      return kubeadmCommand(rest);
    case 'token':
      return tokenCommand(rest);
    case 'join':
      return joinNode(rest);
    case 'images':
      process.stdout.write(rest.includes('--markdown') ? imagesMarkdown() : imagesTable());
      return 0;
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(USAGE);
      return cmd === undefined ? 2 : 0;
    default:
      process.stderr.write(`kubelab: unknown command "${cmd}"\n\n${USAGE}`);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`kubelab: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
