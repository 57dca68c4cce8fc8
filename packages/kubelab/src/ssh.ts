// `kubelab ssh <node> [-- command...]`: a root shell on a local runner's node,
// as `ssh node-1` on a kubeadm node: bash with the node's tools (systemctl,
// journalctl, ps, ...) first on PATH, resolving the node's paths under
// KUBELAB_NODE_ROOT (<state-dir>/nodes/<node>/root). With a command, runs it
// non-interactively through the shell and returns its exit code, as ssh does.
// For the compose stack (--compose, or a state dir its kubeconfig service
// wrote: a cluster.json and no nodes/) the node is the node-N container:
// `docker compose exec <node> bash`, run from the repository root so compose
// finds the project (COMPOSE_PROJECT_NAME, as compose itself reads it).

import { spawn, spawnSync } from 'node:child_process';
import { constants } from 'node:os';
import { existsSync, mkdirSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { clientStateDir, REPO_ROOT } from './paths.js';
import { nodeDir, nodeRoot } from './topology.js';

export interface SshArgs {
  node: string;
  stateDir: string;
  command: string[];
  compose: boolean;
}

export function parseSshArgs(argv: string[]): SshArgs {
  let stateDir: string | undefined;
  let node: string | undefined;
  let command: string[] = [];
  let compose = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') {
      command = argv.slice(i + 1);
      break;
    }
    if (a === '--compose') compose = true;
    else if (a === '--state-dir') stateDir = argv[++i];
    else if (a.startsWith('--state-dir=')) stateDir = a.slice('--state-dir='.length);
    else if (node === undefined && !a.startsWith('-')) node = a;
    else if (node !== undefined && !a.startsWith('-')) {
      // `kubelab ssh node-1 systemctl status kubelet`, as ssh takes the command after the host.
      command = argv.slice(i);
      break;
    } else throw new Error(`unknown flag ${a}`);
  }
  if (!node) throw new Error('usage: kubelab ssh <node> [--state-dir DIR | --compose] [-- command ...]');
  return { node, stateDir: clientStateDir(stateDir), command, compose };
}

/** A state dir the compose stack's kubeconfig service wrote (cluster.json, but no runner's nodes/). */
export function isComposeStateDir(stateDir: string): boolean {
  return existsSync(join(stateDir, 'cluster.json')) && !existsSync(join(stateDir, 'nodes'));
}

/** `exec` of the node container: a login-less root bash, or the command through it; -T without a terminal, as ssh without -t. */
export function composeExecArgs(node: string, command: string[], tty: boolean): string[] {
  return ['exec', ...(tty ? [] : ['-T']), node, 'bash', ...(command.length ? ['-c', command.join(' ')] : [])];
}

/** The compose CLI: the v2 plugin when Docker has it, else v1's docker-compose. */
export function composeCli(): string[] {
  return spawnSync('docker', ['compose', 'version'], { stdio: 'ignore' }).status === 0 ? ['docker', 'compose'] : ['docker-compose'];
}

function run(cmd: string, args: string[], opts: Parameters<typeof spawn>[2], what: string): Promise<number> {
  const child = spawn(cmd, args, opts);
  // Ctrl-C belongs to the shell and its commands, not to kubelab.
  const ignore = () => {};
  process.on('SIGINT', ignore);
  return new Promise((resolve) => {
    child.once('error', (e) => {
      process.off('SIGINT', ignore);
      process.stderr.write(`kubelab ssh: cannot run ${what}: ${e.message}\n`);
      resolve(255);
    });
    child.once('exit', (code, signal) => {
      process.off('SIGINT', ignore);
      resolve(code ?? (signal ? 128 + (constants.signals[signal] ?? 0) : 255));
    });
  });
}

/** What the node shell sources: its kill (services/node/shell/kill.bash). */
const NODE_SHELL_RC = join(REPO_ROOT, 'services', 'node', 'shell', 'kill.bash');

/** The node shell's environment: the node tools and this node first on PATH, the node root and name, root's prompt. */
export function nodeShellEnv(stateDir: string, node: string, base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const root = nodeRoot({ stateDir }, node);
  const path = [join(REPO_ROOT, 'services', 'node', 'bin'), join(REPO_ROOT, 'services', 'crictl', 'bin'), dirname(process.execPath), base.PATH ?? '/usr/bin:/bin'].join(delimiter);
  // BASH_ENV: `bash -c`'s kill reaches containerd's shims (their pids are virtual: services/node/shell/kill.bash).
  return { ...base, PATH: path, KUBELAB_NODE_ROOT: root, KUBELAB_NODE_NAME: node, PS1: `root@${node}:~# `, BASH_ENV: NODE_SHELL_RC };
}

export async function sshCommand(argv: string[]): Promise<number> {
  let args: SshArgs;
  try {
    args = parseSshArgs(argv);
  } catch (e) {
    process.stderr.write(`kubelab ssh: ${(e as Error).message}\n`);
    return 2;
  }
  if (args.compose || (!existsSync(nodeDir({ stateDir: args.stateDir }, args.node)) && isComposeStateDir(args.stateDir))) {
    const [cmd, ...prefix] = composeCli();
    return run(cmd!, [...prefix, ...composeExecArgs(args.node, args.command, Boolean(process.stdin.isTTY && process.stdout.isTTY))], { stdio: 'inherit', cwd: REPO_ROOT }, cmd!);
  }
  if (!existsSync(nodeDir({ stateDir: args.stateDir }, args.node))) {
    // ssh's own words for a host it cannot find.
    process.stderr.write(`ssh: Could not resolve hostname ${args.node}: Name or service not known\n`);
    return 255;
  }
  const env = nodeShellEnv(args.stateDir, args.node);
  const home = join(env.KUBELAB_NODE_ROOT!, 'root');
  mkdirSync(home, { recursive: true });
  const shellArgs = args.command.length ? ['--noprofile', '--norc', '-c', args.command.join(' ')] : ['--noprofile', '--rcfile', NODE_SHELL_RC, '-i'];
  return run('bash', shellArgs, { stdio: 'inherit', env, cwd: home }, 'bash');
}
