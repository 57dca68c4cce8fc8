// `systemd-unit <unit> -- <command...>`: one unit's service manager as a
// process of its own, the entrypoint of a node component's container (compose)
// in systemd's place: it runs the command as the unit's main process under
// KUBELAB_NODE_ROOT (default /), journals it, serves the unit's control
// socket, and outlives the main process (Restart=no) until it is told to stop
// (SIGTERM/SIGINT: `docker compose stop`), when it stops the unit first.
// KUBELAB_UNIT_CONTAINER names the compose service whose container this is,
// so systemctl can say what to start once the container (and with it the
// manager) is gone.

import { hostname } from 'node:os';
import { ServiceManager } from './manager.js';
import { NODE_UNITS, nodeUnit, type NodeUnitName } from './units.js';

export interface RunUnitArgs {
  unit: NodeUnitName;
  command: string[];
}

export function parseRunUnitArgs(argv: string[]): RunUnitArgs {
  const sep = argv.indexOf('--');
  const [unit, ...extra] = sep < 0 ? argv : argv.slice(0, sep);
  const command = sep < 0 ? [] : argv.slice(sep + 1);
  if (!unit || extra.length || command.length === 0) throw new Error('usage: systemd-unit <unit> -- <command> [args...]');
  if (!(unit in NODE_UNITS)) throw new Error(`unknown unit "${unit}" (one of ${Object.keys(NODE_UNITS).join(', ')})`);
  return { unit: unit as NodeUnitName, command };
}

export async function runUnit(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let args: RunUnitArgs;
  try {
    args = parseRunUnitArgs(argv);
  } catch (e) {
    process.stderr.write(`systemd-unit: ${(e as Error).message}\n`);
    return 2;
  }
  const mgr = new ServiceManager({
    root: env.KUBELAB_NODE_ROOT || '/',
    hostname: env.KUBELAB_NODE_NAME || hostname(),
    unit: nodeUnit(args.unit, args.command.join(' ')),
    command: args.command,
    env,
    ...(env.KUBELAB_UNIT_CONTAINER ? { container: env.KUBELAB_UNIT_CONTAINER } : {}),
  });
  await mgr.listen();
  const stopped = new Promise<void>((resolve) => {
    // The container going away is the unit's cgroup going: what KillMode=process left (shims) ends too.
    const stop = () => void mgr.shutdown().then(() => mgr.close().then(resolve));
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  });
  await mgr.start();
  await stopped;
  return 0;
}
