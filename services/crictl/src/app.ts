// crictl's application (cri-tools main.go): global flags, the endpoint and
// timeout from flags, environment and /etc/crictl.yaml, the connection that
// cri-client validates (Version for the runtime, ImageFsInfo for images),
// the subcommand, and a failed command's error through logrus, exit 1.

import { existsSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { UsageError, parseFlags, type FlagSpec } from './cli.js';
import { goDialError } from '@kubelab/proto';
import { RpcError, connect, type Cri } from './client.js';
import { COMMANDS, findCommand, type Command, type CommandContext } from './commands.js';
import { DEFAULT_CONFIG_PATH, DEFAULT_TIMEOUT_MS, nodePath, readServerConfig, resolveEndpoints } from './config.js';
import { Logger } from './logrus.js';

/** main_unix.go defaultRuntimeEndpoints, tried in order when nothing sets the endpoint. */
export const DEFAULT_RUNTIME_ENDPOINTS = ['unix:///run/containerd/containerd.sock', 'unix:///run/crio/crio.sock', 'unix:///var/run/cri-dockerd.sock'];

export const VERSION = '0.1.0';

const GLOBAL_FLAGS: FlagSpec[] = [
  { name: 'config', aliases: ['c'], type: 'string' },
  { name: 'runtime-endpoint', aliases: ['r'], type: 'string' },
  { name: 'image-endpoint', aliases: ['i'], type: 'string' },
  { name: 'timeout', aliases: ['t'], type: 'duration' },
  { name: 'debug', aliases: ['D'], type: 'bool' },
  { name: 'max-retries', type: 'int', value: 3 },
  { name: 'help', aliases: ['h'], type: 'bool' },
  { name: 'version', aliases: ['v'], type: 'bool' },
];

export interface AppIO {
  out: Writable;
  err: Writable;
  stdin: Readable & { isTTY?: boolean; setRawMode?: (on: boolean) => void };
  env: NodeJS.ProcessEnv;
  /** stderr is a terminal: logrus's short colored form. */
  errIsTTY: boolean;
  signal: AbortSignal;
}

function commandHelp(c: Command): string {
  const opts = c.flags.map((f) => `   --${f.name}${f.aliases?.length ? `, ${f.aliases.map((a) => (a.length === 1 ? `-${a}` : `--${a}`)).join(', ')}` : ''}`);
  return `NAME:\n   crictl ${c.name} - ${c.usage}\n\nUSAGE:\n   crictl ${c.name} [command options]${opts.length ? `\n\nOPTIONS:\n${opts.join('\n')}` : ''}\n`;
}

function appHelp(): string {
  const names = [...COMMANDS].sort((a, b) => a.name.localeCompare(b.name));
  return `NAME:\n   crictl - client for CRI\n\nUSAGE:\n   crictl [global options] command [command options]\n\nVERSION:\n   v${VERSION}\n\nCOMMANDS:\n${names.map((c) => `   ${c.name.padEnd(13)}${c.usage}`).join('\n')}\n`;
}

/** grpc-js's words for an unreachable endpoint, as Go's dialer says them (naming the endpoint as given, not the node path dialled). */
function dialError(endpoint: string, e: unknown): Error {
  const desc = e instanceof RpcError && e.code === 14 ? goDialError(e.details, endpoint.startsWith('unix://') ? endpoint.slice(7) : undefined) : undefined;
  return desc ? new RpcError(14, desc) : (e as Error);
}

export async function runCrictl(argv: string[], io: AppIO): Promise<number> {
  const log = new Logger((s) => io.err.write(s), io.errIsTTY);
  try {
    const g = parseFlags(argv, GLOBAL_FLAGS);
    if (g.flags.version) {
      io.out.write(`crictl version v${VERSION}\n`);
      return 0;
    }
    const name = g.args[0];
    if (!name || g.flags.help) {
      io.out.write(appHelp());
      return 0;
    }
    const cmd = findCommand(name);
    if (!cmd) {
      io.out.write(`No help topic for '${name}'\n`);
      return 3;
    }
    const configPath = (g.flags.config as string | undefined) || io.env.CRI_CONFIG_FILE || DEFAULT_CONFIG_PATH;
    const file = readServerConfig(nodePath(configPath, io.env), g.set.has('config') && name !== 'config');
    log.debugEnabled = Boolean(g.flags.debug ?? file?.debug);
    const timeoutMs = (g.flags.timeout as number | undefined) || file?.timeoutMs || DEFAULT_TIMEOUT_MS;
    const runtimeSet = Boolean(g.flags['runtime-endpoint'] || file?.runtimeEndpoint || io.env.CONTAINER_RUNTIME_ENDPOINT);
    const imageSet = Boolean(g.flags['image-endpoint'] || file?.imageEndpoint || io.env.IMAGE_SERVICE_ENDPOINT || runtimeSet);
    const ep = resolveEndpoints({
      flag: g.flags['runtime-endpoint'] as string | undefined,
      env: io.env.CONTAINER_RUNTIME_ENDPOINT,
      file,
      imageFlag: g.flags['image-endpoint'] as string | undefined,
      imageEnv: io.env.IMAGE_SERVICE_ENDPOINT,
    });
    // A unix socket of the node, as the node sees it (KUBELAB_NODE_ROOT).
    const local = (endpoint: string) => (endpoint.startsWith('unix://') ? `unix://${nodePath(endpoint.slice(7), io.env)}` : endpoint);
    const opened: Cri[] = [];
    // cri-client NewRemoteRuntimeService / NewRemoteImageService: dial, then validate with one call.
    const dial = async (endpoint: string, kind: 'runtime' | 'image'): Promise<Cri> => {
      const cri = connect(local(endpoint), local(endpoint), timeoutMs);
      opened.push(cri);
      try {
        if (kind === 'runtime') await cri.rt('Version', {});
        else await cri.img('ImageFsInfo', {});
      } catch (e) {
        const why = dialError(endpoint, e);
        throw new Error(`validate service connection: validate CRI v1 ${kind} API for endpoint "${endpoint}": ${why.message}`, { cause: e });
      }
      return cri;
    };
    const viaDefaults = async (kind: 'runtime' | 'image'): Promise<Cri> => {
      log.warn(
        `${kind === 'runtime' ? 'runtime' : 'Image'} connect using default endpoints: [${DEFAULT_RUNTIME_ENDPOINTS.join(' ')}]. As the default settings are now deprecated, you should set the endpoint instead.`,
      );
      let last: unknown;
      for (const endpoint of DEFAULT_RUNTIME_ENDPOINTS) {
        try {
          return await dial(endpoint, kind);
        } catch (e) {
          log.error((e as Error).message);
          last = e;
        }
      }
      throw last;
    };
    let runtime: Promise<Cri> | undefined;
    let image: Promise<Cri> | undefined;
    const ctx: CommandContext = {
      runtime: () => (runtime ??= runtimeSet ? dial(ep.runtime, 'runtime') : viaDefaults('runtime')),
      image: () => (image ??= imageSet ? dial(ep.image, 'image') : viaDefaults('image')),
      out: io.out,
      err: io.err,
      stdin: io.stdin,
      log,
      now: () => Date.now(),
      hostPath: (p) => (existsSync(p) ? p : nodePath(p, io.env)),
      signal: io.signal,
    };
    let flags;
    try {
      flags = parseFlags(g.args.slice(1), cmd.flags);
    } catch (e) {
      if (!(e instanceof UsageError)) throw e;
      io.out.write(`Incorrect Usage: ${e.message}\n\n${commandHelp(cmd)}`);
      throw e;
    }
    try {
      return (await cmd.action(ctx, flags.flags, flags.args, flags.set)) ?? 0;
    } catch (e) {
      // cli.ShowSubcommandHelp: the command's help, and no error.
      if (e instanceof UsageError) {
        io.out.write(commandHelp(cmd));
        return 0;
      }
      throw e;
    } finally {
      for (const c of opened) c.close();
    }
  } catch (e) {
    log.error(e instanceof Error ? e.message : String(e));
    return 1;
  }
}
