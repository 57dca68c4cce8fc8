// crictl's commands (cri-tools cmd/crictl): each makes the CRI calls crictl
// makes, in its order, and prints what crictl prints. Formatting lives in
// format/; this file is the I/O edge.

import type { Readable, Writable } from 'node:stream';
import { readdirSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type {
  CriContainer__Output,
  CriContainerStatusResponse__Output,
  CriExecResponse__Output,
  CriExecSyncResponse__Output,
  CriImageFsInfoResponse__Output,
  CriImageStatusResponse__Output,
  CriImage__Output,
  CriListContainerStatsResponse__Output,
  CriListContainersResponse__Output,
  CriListImagesResponse__Output,
  CriListPodSandboxResponse__Output,
  CriListPodSandboxStatsResponse__Output,
  CriPodSandboxStatusResponse__Output,
  CriPodSandbox__Output,
  CriPullImageResponse__Output,
  CriStatusResponse__Output,
  CriVersionResponse__Output,
} from '@kubelab/proto';
import { type FlagSpec, type FlagValues, UsageError } from './cli.js';
import type { Cri } from './client.js';
import { formatContainers, formatImages, formatPods } from './format/lists.js';
import { containerStatusData, formatImageFsInfoTable, formatVersion, imageFsInfoData, imageStatusData, podStatusData, runtimeStatusData } from './format/inspect.js';
import { protoJsonText, toProtoJson } from './format/protojson.js';
import { formatStatusData, yamlText, type StatusData } from './format/status.js';
import { formatContainerStats, formatPodStats, sortStatsById } from './format/stats.js';
import { ago } from './format/humanize.js';
import { followLogs, readLogs, type LogOptions } from './logs.js';
import type { Logger } from './logrus.js';

export interface CommandContext {
  /** Connects (validating as cri-client does) on first use. */
  runtime(): Promise<Cri>;
  image(): Promise<Cri>;
  out: Writable;
  err: Writable;
  stdin: Readable & { isTTY?: boolean; setRawMode?: (on: boolean) => void };
  log: Logger;
  now(): number;
  /** A node path (logs) as this process sees it. */
  hostPath(path: string): string;
  signal: AbortSignal;
}

export interface Command {
  name: string;
  aliases?: string[];
  usage: string;
  flags: FlagSpec[];
  action(ctx: CommandContext, flags: FlagValues, args: string[], set: Set<string>): Promise<number | void>;
}

/** Go's fmt.Errorf("%s: %w"): context in front of the cause. */
export class WrappedError extends Error {
  constructor(prefix: string, cause: unknown) {
    super(`${prefix}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}
const wrap = async <T>(prefix: string, f: () => Promise<T>): Promise<T> => {
  try {
    return await f();
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new WrappedError(prefix, e);
  }
};

const ERR_ID_EMPTY = 'ID cannot be empty';

const print = (ctx: CommandContext, s: string) => ctx.out.write(s);
const println = (ctx: CommandContext, s: string) => ctx.out.write(`${s}\n`);

/** util.go parseLabelStringSlice. */
export function parseLabels(list: string[]): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const s of list) {
    const pair = s.split('=');
    if (pair.length !== 2) throw new Error(`incorrectly specified label: ${s}`);
    labels[pair[0]!] = pair[1]!;
  }
  return labels;
}

function regex(pattern: string | undefined): RegExp | undefined {
  if (!pattern) return undefined;
  try {
    return new RegExp(pattern);
  } catch (e) {
    throw new Error(`invalid regular expression "${pattern}": ${(e as Error).message}`, { cause: e });
  }
}

const byCreatedDesc = <T extends { createdAt: string }>(a: T, b: T) => {
  const x = BigInt(a.createdAt || 0);
  const y = BigInt(b.createdAt || 0);
  return x > y ? -1 : x < y ? 1 : 0;
};

/** util.go truncateCount: --latest keeps one, --last n keeps n. */
export function truncateCount(total: number, latest: boolean, last: number): number {
  let n = total;
  if (latest) n = 1;
  if (last > 0) n = last;
  return Math.min(n, total);
}

const CONTAINER_STATES: Record<string, string> = { created: 'CONTAINER_CREATED', running: 'CONTAINER_RUNNING', exited: 'CONTAINER_EXITED', unknown: 'CONTAINER_UNKNOWN' };

interface ContainerListOptions {
  id?: string;
  podId?: string;
  state?: string;
  all?: boolean;
  name?: string;
  namespace?: string;
  image?: string;
  labels?: Record<string, string>;
  latest?: boolean;
  last?: number;
}

/** container.go ListContainers: the CRI filter, then crictl's own name/namespace/image filters, newest first. */
async function listContainers(ctx: CommandContext, o: ContainerListOptions): Promise<CriContainer__Output[]> {
  const filter: Record<string, unknown> = {};
  if (o.id) filter.id = o.id;
  if (o.podId) filter.podSandboxId = o.podId;
  if (!o.all && !o.state) filter.state = { state: 'CONTAINER_RUNNING' };
  if (o.state) {
    const st = CONTAINER_STATES[o.state.toLowerCase()];
    if (!st) throw new Error('--state should be one of created, running, exited or unknown');
    filter.state = { state: st };
  }
  if (o.latest || (o.last ?? 0) > 0) delete filter.state;
  if (o.labels) filter.labelSelector = o.labels;
  const rt = await ctx.runtime();
  const r = await wrap('call list containers RPC', () => rt.rt<CriListContainersResponse__Output>('ListContainers', { filter }));
  const nameRe = regex(o.name);
  const nsRe = regex(o.namespace);
  let wantImage: string | undefined;
  const out: CriContainer__Output[] = [];
  for (const c of r.containers) {
    if (o.image) {
      const img = await ctx.image();
      wantImage ??= (await img.img<CriImageStatusResponse__Output>('ImageStatus', { image: { image: o.image } })).image?.id ?? '\0none';
      const have = (await img.img<CriImageStatusResponse__Output>('ImageStatus', { image: { image: c.image?.image ?? '' } })).image?.id;
      if (!have || have !== wantImage) continue;
    }
    const ns = c.labels?.['io.kubernetes.pod.namespace'] ?? 'unknown';
    if (c.metadata && (!nameRe || nameRe.test(c.metadata.name)) && (!nsRe || nsRe.test(ns))) out.push(c);
  }
  out.sort(byCreatedDesc);
  return out.slice(0, truncateCount(out.length, !!o.latest, o.last ?? 0));
}

async function listPods(ctx: CommandContext, o: { id?: string; state?: string; labels?: Record<string, string>; name?: string; namespace?: string; latest?: boolean; last?: number }) {
  const filter: Record<string, unknown> = {};
  if (o.id) filter.id = o.id;
  if (o.state) {
    const s = o.state.toLowerCase();
    if (s !== 'ready' && s !== 'notready') throw new Error('--state should be ready or notready');
    filter.state = { state: s === 'ready' ? 'SANDBOX_READY' : 'SANDBOX_NOTREADY' };
  }
  if (o.labels) filter.labelSelector = o.labels;
  const rt = await ctx.runtime();
  const r = await wrap('call list sandboxes RPC', () => rt.rt<CriListPodSandboxResponse__Output>('ListPodSandbox', { filter }));
  const nameRe = regex(o.name);
  const nsRe = regex(o.namespace);
  const out = r.items.filter((p) => p.metadata && (!nameRe || nameRe.test(p.metadata.name)) && (!nsRe || nsRe.test(p.metadata.namespace)));
  out.sort(byCreatedDesc);
  return out.slice(0, truncateCount(out.length, !!o.latest, o.last ?? 0));
}

/** -o json|yaml of a list response (protojson; YAML through JSONToYAML). */
function printList(ctx: CommandContext, output: string, type: string, msg: object): boolean {
  if (output === 'json') {
    println(ctx, protoJsonText(type, msg));
    return true;
  }
  if (output === 'yaml') {
    println(ctx, yamlText(toProtoJson(type, msg)));
    return true;
  }
  return false;
}

const str = (f: FlagValues, k: string) => (f[k] as string | undefined) ?? '';
const bool = (f: FlagValues, k: string) => Boolean(f[k]);
const int = (f: FlagValues, k: string) => (f[k] as number | undefined) ?? 0;
const strs = (f: FlagValues, k: string) => (f[k] as string[] | undefined) ?? [];

const OUTPUT_FLAG = (_usage: string, value?: string): FlagSpec => ({ name: 'output', aliases: ['o'], type: 'string', ...(value ? { value } : {}) });
const B = (name: string, alias?: string): FlagSpec => ({ name, ...(alias ? { aliases: [alias] } : {}), type: 'bool' });
const S = (name: string, alias?: string, value?: string): FlagSpec => ({ name, ...(alias ? { aliases: [alias] } : {}), type: 'string', ...(value !== undefined ? { value } : {}) });
const I = (name: string, alias?: string, value?: number): FlagSpec => ({ name, ...(alias ? { aliases: [alias] } : {}), type: 'int', ...(value !== undefined ? { value } : {}) });
const L = (name: string): FlagSpec => ({ name, type: 'strings' });

/** resourceStatus + outputStatusData: JSON/YAML of statuses. */
function printStatuses(ctx: CommandContext, data: StatusData[], output: string) {
  const text = formatStatusData(data, output);
  if (text) println(ctx, text);
}

function statusTable(ctx: CommandContext, lines: (string | undefined)[]) {
  print(
    ctx,
    lines
      .filter((l) => l !== undefined)
      .map((l) => `${l}\n`)
      .join(''),
  );
}

const labelsBlock = (title: string, m: Record<string, string>) => [
  `${title}:`,
  ...Object.keys(m)
    .sort()
    .map((k) => `\t${k} -> ${m[k]}`),
];

export const COMMANDS: Command[] = [
  {
    name: 'ps',
    usage: 'List containers',
    flags: [
      B('verbose', 'v'),
      S('id'),
      S('name'),
      S('pod', 'p'),
      S('image'),
      S('state', 's'),
      L('label'),
      B('quiet', 'q'),
      OUTPUT_FLAG('Output format, One of: json|yaml|table', 'table'),
      B('all', 'a'),
      B('latest', 'l'),
      I('last', 'n'),
      B('no-trunc'),
      B('resolve-image-path', 'r'),
      S('namespace'),
    ],
    async action(ctx, f, args) {
      if (args.length) throw new UsageError('ps takes no arguments');
      // GetRuntimeService, then GetImageService, as crictl connects.
      await ctx.runtime();
      await ctx.image();
      const list = await wrap('listing containers', () =>
        wrap('list containers', () =>
          listContainers(ctx, {
            id: str(f, 'id'),
            podId: str(f, 'pod'),
            state: str(f, 'state'),
            all: bool(f, 'all'),
            name: str(f, 'name'),
            namespace: str(f, 'namespace'),
            image: str(f, 'image'),
            labels: parseLabels(strs(f, 'label')),
            latest: bool(f, 'latest'),
            last: int(f, 'last'),
          }),
        ),
      );
      const output = str(f, 'output');
      if (printList(ctx, output, 'ListContainersResponse', { containers: list })) return;
      if (output !== 'table') throw new WrappedError('listing containers', new Error(`unsupported output format "${output}"`));
      print(ctx, formatContainers(list, ctx.now(), { quiet: bool(f, 'quiet'), verbose: bool(f, 'verbose'), noTrunc: bool(f, 'no-trunc') }));
    },
  },
  {
    name: 'pods',
    usage: 'List pods',
    flags: [
      S('id'),
      S('name'),
      S('namespace'),
      S('state', 's'),
      L('label'),
      B('verbose', 'v'),
      B('quiet', 'q'),
      OUTPUT_FLAG('Output format, One of: json|yaml|table', 'table'),
      B('latest', 'l'),
      I('last', 'n'),
      B('no-trunc'),
    ],
    async action(ctx, f) {
      const list = await wrap('listing pod sandboxes', () =>
        wrap('list pod sandboxes', () =>
          listPods(ctx, {
            id: str(f, 'id'),
            state: str(f, 'state'),
            labels: parseLabels(strs(f, 'label')),
            name: str(f, 'name'),
            namespace: str(f, 'namespace'),
            latest: bool(f, 'latest'),
            last: int(f, 'last'),
          }),
        ),
      );
      const output = str(f, 'output');
      if (printList(ctx, output, 'ListPodSandboxResponse', { items: list })) return;
      if (output !== 'table') throw new WrappedError('listing pod sandboxes', new Error(`unsupported output format "${output}"`));
      print(ctx, formatPods(list, ctx.now(), { quiet: bool(f, 'quiet'), verbose: bool(f, 'verbose'), noTrunc: bool(f, 'no-trunc') }));
    },
  },
  {
    name: 'images',
    aliases: ['image', 'img'],
    usage: 'List images',
    flags: [B('verbose', 'v'), B('quiet', 'q'), { name: 'filter', aliases: ['f'], type: 'strings' }, OUTPUT_FLAG('Output format, One of: json|yaml|table'), B('digests'), B('no-trunc'), B('pinned')],
    async action(ctx, f, args) {
      if (args.length > 1) throw new UsageError('images takes at most one argument');
      const img = await ctx.image();
      const name = args[0];
      const r = await wrap('listing images', () => img.img<CriListImagesResponse__Output>('ListImages', { filter: name ? { image: { image: name } } : {} }));
      const output = str(f, 'output');
      if (printList(ctx, output, 'ListImagesResponse', r)) return;
      print(ctx, formatImages(r.images, { quiet: bool(f, 'quiet'), verbose: bool(f, 'verbose'), noTrunc: bool(f, 'no-trunc'), digests: bool(f, 'digests'), pinned: bool(f, 'pinned') }));
    },
  },
  {
    name: 'inspect',
    usage: 'Display the status of one or more containers',
    flags: [
      OUTPUT_FLAG('Output format, One of: json|yaml|go-template|table'),
      B('quiet', 'q'),
      S('template'),
      S('name'),
      S('namespace'),
      S('pod', 'p'),
      S('image'),
      S('state', 's'),
      L('label'),
      B('latest', 'l'),
      I('last', 'n'),
      B('all', 'a'),
    ],
    async action(ctx, f, args) {
      const rt = await ctx.runtime();
      await ctx.image();
      let ids = args;
      if (ids.length === 0) {
        const list = await wrap('listing containers', () =>
          listContainers(ctx, {
            name: str(f, 'name'),
            podId: str(f, 'pod'),
            namespace: str(f, 'namespace'),
            image: str(f, 'image'),
            state: str(f, 'state'),
            labels: parseLabels(strs(f, 'label')),
            latest: bool(f, 'latest'),
            last: int(f, 'last'),
            all: bool(f, 'all'),
          }),
        );
        ids = list.map((c) => c.id);
      }
      if (ids.length === 0) {
        ctx.log.error('No IDs provided or nothing found per filter');
        throw new UsageError('inspect');
      }
      const output = str(f, 'output') || 'json';
      const verbose = !bool(f, 'quiet');
      const data: StatusData[] = [];
      await wrap('get the status of containers', async () => {
        for (const id of ids) {
          const r = await wrap('get container status', () => rt.rt<CriContainerStatusResponse__Output>('ContainerStatus', { containerId: id, verbose }));
          if (output === 'table') {
            const s = r.status!;
            statusTable(ctx, [
              `ID: ${s.id}`,
              s.metadata?.name ? `Name: ${s.metadata.name}` : undefined,
              s.metadata?.attempt ? `Attempt: ${s.metadata.attempt}` : undefined,
              `State: ${s.state}`,
              `Created: ${ago(s.createdAt, ctx.now())}`,
              s.state !== 'CONTAINER_CREATED' ? `Started: ${ago(s.startedAt, ctx.now())}` : undefined,
              s.state === 'CONTAINER_EXITED' && Number(s.finishedAt) > 0 ? `Finished: ${ago(s.finishedAt, ctx.now())}` : undefined,
              s.state === 'CONTAINER_EXITED' ? `Exit Code: ${s.exitCode}` : undefined,
              ...labelsBlock('Labels', s.labels ?? {}),
              ...labelsBlock('Annotations', s.annotations ?? {}),
              verbose
                ? `Info: map[${Object.keys(r.info ?? {})
                    .sort()
                    .map((k) => `${k}:${r.info[k]}`)
                    .join(' ')}]`
                : undefined,
            ]);
          } else data.push(containerStatusData(r));
        }
        printStatuses(ctx, data, output);
      });
    },
  },
  {
    name: 'inspectp',
    usage: 'Display the status of one or more pods',
    flags: [
      OUTPUT_FLAG('Output format, One of: json|yaml|go-template|table'),
      B('quiet', 'q'),
      S('template'),
      S('name'),
      S('namespace'),
      S('state', 's'),
      L('label'),
      B('latest', 'l'),
      I('last', 'n'),
    ],
    async action(ctx, f, args) {
      const rt = await ctx.runtime();
      let ids = args;
      if (ids.length === 0) {
        const list = await wrap('listing pod sandboxes', () =>
          listPods(ctx, { name: str(f, 'name'), namespace: str(f, 'namespace'), state: str(f, 'state'), labels: parseLabels(strs(f, 'label')), latest: bool(f, 'latest'), last: int(f, 'last') }),
        );
        ids = list.map((p) => p.id);
      }
      if (ids.length === 0) {
        ctx.log.error('No IDs provided or nothing found per filter');
        throw new UsageError('inspectp');
      }
      const output = str(f, 'output') || 'json';
      const verbose = !bool(f, 'quiet');
      const data: StatusData[] = [];
      await wrap('get the status of pod sandboxes', async () => {
        for (const id of ids) {
          const r = await wrap('get pod sandbox status', () => rt.rt<CriPodSandboxStatusResponse__Output>('PodSandboxStatus', { podSandboxId: id, verbose }));
          if (output === 'table') {
            const s = r.status!;
            statusTable(ctx, [
              `ID: ${s.id}`,
              s.metadata?.name ? `Name: ${s.metadata.name}` : undefined,
              s.metadata?.uid ? `UID: ${s.metadata.uid}` : undefined,
              s.metadata?.namespace ? `Namespace: ${s.metadata.namespace}` : undefined,
              s.metadata ? `Attempt: ${s.metadata.attempt}` : undefined,
              `Status: ${s.state}`,
              `Created: ${ago(s.createdAt, ctx.now())}`,
              s.network ? `IP Addresses: ${s.network.ip}` : undefined,
              ...(s.network?.additionalIps ?? []).map((ip) => `Additional IP: ${ip.ip}`),
              ...labelsBlock('Labels', s.labels ?? {}),
              ...labelsBlock('Annotations', s.annotations ?? {}),
              verbose
                ? `Info: map[${Object.keys(r.info ?? {})
                    .sort()
                    .map((k) => `${k}:${r.info[k]}`)
                    .join(' ')}]`
                : undefined,
            ]);
          } else data.push(podStatusData(r));
        }
        printStatuses(ctx, data, output);
      });
    },
  },
  {
    name: 'inspecti',
    usage: 'Return the status of one or more images',
    flags: [OUTPUT_FLAG('Output format, One of: json|yaml|go-template|table'), B('quiet', 'q'), S('template'), S('name'), { name: 'filter', aliases: ['f'], type: 'strings' }],
    async action(ctx, f, args) {
      const img = await ctx.image();
      let ids = args;
      if (ids.length === 0) {
        const name = str(f, 'name');
        const r = await wrap('listing images', () => img.img<CriListImagesResponse__Output>('ListImages', { filter: name ? { image: { image: name } } : {} }));
        ids = r.images.map((i) => i.id);
      }
      if (ids.length === 0) {
        ctx.log.error('No IDs provided or nothing found per filter');
        throw new UsageError('inspecti');
      }
      const output = str(f, 'output') || 'json';
      const verbose = !bool(f, 'quiet');
      const data: StatusData[] = [];
      for (const id of ids) {
        const r = await wrap(`image status for "${id}" request`, () => img.img<CriImageStatusResponse__Output>('ImageStatus', { image: { image: id }, verbose }));
        if (!r.image) throw new Error(`no such image "${id}" present`);
        if (output === 'table') {
          const i: CriImage__Output = r.image;
          statusTable(ctx, [
            `ID: ${i.id}`,
            ...i.repoTags.map((t) => `Tag: ${t}`),
            ...i.repoDigests.map((d) => `Digest: ${d}`),
            `Size: ${formatImages([i]).split('\n')[1]?.trim().split(/\s+/).pop() ?? ''}`,
          ]);
        } else data.push(imageStatusData(r));
      }
      printStatuses(ctx, data, output);
    },
  },
  {
    name: 'imagefsinfo',
    usage: 'Return image filesystem info',
    flags: [OUTPUT_FLAG('Output format, One of: json|yaml|go-template|table'), S('template')],
    async action(ctx, f) {
      const img = await ctx.image();
      const output = str(f, 'output') || 'json';
      const r = await wrap('image filesystem info request', () => img.img<CriImageFsInfoResponse__Output>('ImageFsInfo', {}));
      if (output === 'table') print(ctx, formatImageFsInfoTable(r));
      else printStatuses(ctx, [imageFsInfoData(r)], output);
    },
  },
  {
    name: 'info',
    usage: 'Display information of the container runtime',
    flags: [OUTPUT_FLAG('Output format, One of: json|yaml|go-template', 'json'), B('quiet', 'q'), S('template')],
    async action(ctx, f, args) {
      if (args.length) throw new UsageError('info takes no arguments');
      const rt = await ctx.runtime();
      const r = await wrap('getting status of runtime', () => rt.rt<CriStatusResponse__Output>('Status', { verbose: !bool(f, 'quiet') }));
      await wrap('getting status of runtime', async () => printStatuses(ctx, [runtimeStatusData(r)], str(f, 'output')));
    },
  },
  {
    name: 'version',
    usage: 'Display runtime version information',
    flags: [],
    async action(ctx, _f, args) {
      if (args.length) throw new UsageError('version takes no arguments');
      const rt = await ctx.runtime();
      const r = await wrap('getting the runtime version', () => rt.rt<CriVersionResponse__Output>('Version', { version: 'v1' }));
      print(ctx, formatVersion(r));
    },
  },
  {
    name: 'stopp',
    usage: 'Stop one or more running pods',
    flags: [],
    async action(ctx, _f, args) {
      if (args.length === 0) throw new UsageError('stopp');
      const rt = await ctx.runtime();
      for (const id of args) {
        await wrap(`stopping the pod sandbox "${id}"`, () => rt.rt('StopPodSandbox', { podSandboxId: id }));
        println(ctx, `Stopped sandbox ${id}`);
      }
    },
  },
  {
    name: 'rmp',
    usage: 'Remove one or more pods',
    flags: [B('force', 'f'), B('all', 'a')],
    async action(ctx, f, args) {
      const rt = await ctx.runtime();
      let ids = args;
      if (bool(f, 'all')) ids = (await rt.rt<CriListPodSandboxResponse__Output>('ListPodSandbox', {})).items.map((p: CriPodSandbox__Output) => p.id);
      if (ids.length === 0) {
        if (bool(f, 'all')) return ctx.log.info('No pods to remove');
        throw new UsageError('rmp');
      }
      const errors = await aggregate(
        ids.map((id) => async () => {
          const s = await wrap(`getting sandbox status of pod "${id}"`, () => rt.rt<CriPodSandboxStatusResponse__Output>('PodSandboxStatus', { podSandboxId: id, verbose: false }));
          if (s.status?.state === 'SANDBOX_READY') {
            if (!bool(f, 'force')) throw new Error(`pod sandbox "${id}" is running, please stop it first`);
            await wrap(`stopping the pod sandbox "${id}" failed`, () => rt.rt('StopPodSandbox', { podSandboxId: id }));
            println(ctx, `Stopped sandbox ${id}`);
          }
          await wrap(`removing the pod sandbox "${id}"`, () => rt.rt('RemovePodSandbox', { podSandboxId: id }));
          println(ctx, `Removed sandbox ${id}`);
        }),
      );
      if (errors) throw errors;
    },
  },
  {
    name: 'stop',
    usage: 'Stop one or more running containers',
    flags: [I('timeout', 't', 0), B('all', 'a')],
    async action(ctx, f, args) {
      const rt = await ctx.runtime();
      let ids = args;
      if (bool(f, 'all'))
        ids = (await wrap('listing containers', () => rt.rt<CriListContainersResponse__Output>('ListContainers', { filter: { state: { state: 'CONTAINER_RUNNING' } } }))).containers.map((c) => c.id);
      if (ids.length === 0) {
        if (bool(f, 'all')) return ctx.log.info('No containers to stop');
        throw new UsageError('stop');
      }
      const timeout = int(f, 'timeout');
      const errors = await aggregate(
        ids.map((id) => async () => {
          await wrap(`stopping the container "${id}"`, () => rt.rt('StopContainer', { containerId: id, timeout }, timeout * 1000 + 2000));
          println(ctx, id);
        }),
      );
      if (errors) throw errors;
    },
  },
  {
    name: 'update',
    usage: 'Update one or more running containers',
    flags: [I('cpu-count'), I('cpu-period'), I('cpu-quota'), I('cpu-share'), S('cpuset-cpus'), S('cpuset-mems'), I('memory')],
    async action(ctx, f, args) {
      if (args.length === 0) throw new Error(ERR_ID_EMPTY);
      const rt = await ctx.runtime();
      // Only the fields given: the runtime keeps the others (a memory of 0 would mean no limit).
      const linux = {
        ...(int(f, 'cpu-period') ? { cpuPeriod: int(f, 'cpu-period') } : {}),
        ...(int(f, 'cpu-quota') ? { cpuQuota: int(f, 'cpu-quota') } : {}),
        ...(int(f, 'cpu-share') ? { cpuShares: int(f, 'cpu-share') } : {}),
        ...(f['cpuset-cpus'] ? { cpusetCpus: f['cpuset-cpus'] as string } : {}),
        ...(f['cpuset-mems'] ? { cpusetMems: f['cpuset-mems'] as string } : {}),
        ...(int(f, 'memory') ? { memoryLimitInBytes: int(f, 'memory') } : {}),
      };
      const errors = await aggregate(
        args.map((id) => async () => {
          await wrap(`updating container resources for "${id}"`, () => rt.rt('UpdateContainerResources', { containerId: id, linux }));
          println(ctx, id);
        }),
      );
      if (errors) throw errors;
    },
  },
  {
    name: 'rm',
    usage: 'Remove one or more containers',
    flags: [B('force', 'f'), B('keep-logs', 'k'), B('all', 'a')],
    async action(ctx, f, args) {
      const rt = await ctx.runtime();
      let ids = args;
      if (bool(f, 'all')) ids = (await rt.rt<CriListContainersResponse__Output>('ListContainers', {})).containers.map((c) => c.id);
      if (ids.length === 0) {
        if (bool(f, 'all')) return ctx.log.info('No containers to remove');
        throw new UsageError('rm');
      }
      const errors = await aggregate(
        ids.map((id) => async () => {
          const s = await wrap(`getting container status "${id}"`, () => rt.rt<CriContainerStatusResponse__Output>('ContainerStatus', { containerId: id, verbose: false }));
          if (s.status?.state === 'CONTAINER_RUNNING') {
            if (!bool(f, 'force')) throw new Error(`container "${id}" is running, please stop it first`);
            await wrap(`stopping the container "${id}"`, () => rt.rt('StopContainer', { containerId: id, timeout: 0 }));
            println(ctx, id);
          }
          await wrap(`removing container "${id}"`, () => rt.rt('RemoveContainer', { containerId: id }));
          println(ctx, id);
          const logPath = s.status?.logPath;
          if (logPath && !bool(f, 'keep-logs')) {
            const local = ctx.hostPath(logPath);
            for (const file of [...logRotations(local), local])
              try {
                rmSync(file);
              } catch (e) {
                ctx.log.error(`removing log file ${logPath} for container "${id}" failed: ${(e as Error).message}`);
              }
          }
        }),
      );
      if (errors) throw errors;
    },
  },
  {
    name: 'pull',
    usage: 'Pull an image from a registry',
    flags: [S('creds'), S('auth'), S('username', 'u'), S('pod-config'), L('annotation')],
    async action(ctx, f, args) {
      const image = args[0];
      if (!image) throw new Error('image name cannot be empty');
      if (args.length > 1) throw new UsageError('pull');
      const img = await ctx.image();
      let auth: Record<string, string> | null = null;
      if (str(f, 'creds') && str(f, 'auth')) throw new Error('both `--creds` and `--auth` are specified');
      if (str(f, 'creds')) {
        const [u, ...p] = str(f, 'creds').split(':');
        if (!u) throw new Error("username can't be empty");
        auth = { username: u, password: p.join(':') };
      } else if (str(f, 'auth')) auth = { auth: str(f, 'auth') };
      const annotations = parseLabels(strs(f, 'annotation'));
      const r = await wrap('pulling image', () => img.img<CriPullImageResponse__Output>('PullImage', { image: { image, annotations }, auth }, 5 * 60_000));
      println(ctx, `Image is up to date for ${r.imageRef}`);
    },
  },
  {
    name: 'rmi',
    usage: 'Remove one or more images',
    flags: [B('all', 'a'), B('prune', 'q')],
    async action(ctx, f, args) {
      const img = await ctx.image();
      const ids = new Map<string, boolean>(args.map((a) => [a, true]));
      const all = bool(f, 'all');
      const prune = bool(f, 'prune');
      if (all || prune) for (const i of (await img.img<CriListImagesResponse__Output>('ListImages', {})).images) if (!(prune && i.pinned)) ids.set(i.id, true);
      if (prune) {
        const rt = await ctx.runtime();
        for (const c of (await rt.rt<CriListContainersResponse__Output>('ListContainers', {})).containers) {
          try {
            const s = await img.img<CriImageStatusResponse__Output>('ImageStatus', { image: { image: c.image?.image ?? '' } });
            if (s.image) ids.set(s.image.id, false);
          } catch (e) {
            ctx.log.error(`image status request for "${c.image?.image}" failed: ${(e as Error).message}`);
          }
        }
      }
      if (ids.size === 0) {
        if (all || prune) return ctx.log.info('No images to remove');
        throw new UsageError('rmi');
      }
      const errors = await aggregate(
        [...ids]
          .filter(([, remove]) => remove)
          .map(([id]) => async () => {
            const s = await wrap(`image status request for "${id}" failed`, () => img.img<CriImageStatusResponse__Output>('ImageStatus', { image: { image: id } }));
            if (!s.image) throw new Error(`no such image ${id}`);
            try {
              await img.img('RemoveImage', { image: { image: id } });
            } catch (e) {
              if (prune) return;
              throw new WrappedError(`error of removing image "${id}"`, e);
            }
            for (const name of s.image.repoTags.length ? s.image.repoTags : s.image.repoDigests) println(ctx, `Deleted: ${name}`);
          }),
      );
      if (errors) throw errors;
    },
  },
  {
    name: 'logs',
    usage: 'Fetch the logs of a container',
    flags: [
      B('follow', 'f'),
      B('previous', 'p'),
      B('reopen', 'r'),
      { name: 'tail', type: 'int', value: -1 },
      { name: 'limit-bytes', type: 'int', value: -1 },
      S('since'),
      B('timestamps', 't'),
      S('stream', 's'),
    ],
    async action(ctx, f, args, set) {
      const id = args[0];
      if (!id) throw new Error(ERR_ID_EMPTY);
      if (args.length > 1) throw new UsageError('logs');
      const rt = await ctx.runtime();
      if (bool(f, 'reopen')) {
        await wrap('reopen container logs', () => rt.rt('ReopenContainerLog', { containerId: id }));
        ctx.log.info('Container logs reopened');
      }
      const stream = str(f, 'stream');
      if (stream !== '' && stream !== 'stdout' && stream !== 'stderr') throw new Error(`invalid stream "${stream}", must be "stdout" or "stderr"`);
      if (set.has('tail') && set.has('stream')) throw new Error('--tail and --stream are mutually exclusive');
      const since = parseSince(str(f, 'since'), ctx.now());
      const s = await rt.rt<CriContainerStatusResponse__Output>('ContainerStatus', { containerId: id, verbose: false });
      let logPath = s.status?.logPath ?? '';
      if (!logPath) throw new Error('the container has not set log path');
      if (bool(f, 'previous')) {
        const attempt = s.status?.metadata?.attempt ?? 0;
        if (attempt === 0) throw new Error(`previous terminated container ${s.status?.metadata?.name} not found`);
        logPath = `${logPath.slice(0, logPath.lastIndexOf('/') + 1)}${attempt - 1}${logPath.slice(logPath.lastIndexOf('.'))}`;
      }
      const o: LogOptions = {
        timestamps: bool(f, 'timestamps'),
        tail: int(f, 'tail'),
        stream: stream as LogOptions['stream'],
        limitBytes: int(f, 'limit-bytes'),
        ...(since !== undefined ? { sinceMs: since } : {}),
      };
      const sink = { stdout: (t: string) => ctx.out.write(t), stderr: (t: string) => ctx.err.write(t) };
      const path = ctx.hostPath(logPath);
      try {
        if (!bool(f, 'follow')) readLogs(path, o, sink);
        else
          await followLogs(
            path,
            o,
            sink,
            async () => (await rt.rt<CriContainerStatusResponse__Output>('ContainerStatus', { containerId: id, verbose: false })).status?.state === 'CONTAINER_RUNNING',
            ctx.signal,
          );
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new Error(`failed to try resolving symlinks in path "${logPath}": lstat ${logPath}: no such file or directory`, { cause: e });
        throw e;
      }
    },
  },
  {
    name: 'exec',
    usage: 'Run a command in a running container',
    flags: [
      B('sync', 's'),
      I('timeout'),
      B('tty', 't'),
      B('interactive', 'i'),
      S('transport', 'r', 'spdy'),
      S('name'),
      S('pod', 'p'),
      S('image'),
      S('state'),
      L('label'),
      B('latest', 'l'),
      I('last', 'n'),
      B('quiet', 'q'),
      B('ignore-errors', 'e'),
      B('parallel', 'x'),
    ],
    async action(ctx, f, args, set) {
      if (args.length < 1) throw new UsageError('exec');
      const rt = await ctx.runtime();
      await ctx.image();
      let ids = [args[0]!];
      let cmd = args.slice(1);
      let outputId = false;
      const quiet = bool(f, 'quiet');
      if (bool(f, 'ignore-errors') && !quiet) ctx.log.warn('The `--ignore-errors` option has been set all errors returned by the command will be ignored.');
      if (['name', 'pod', 'image', 'state', 'label', 'latest', 'last'].some((k) => set.has(k))) {
        cmd = args;
        outputId = !quiet && !bool(f, 'parallel');
        const list = await wrap('listing containers', () =>
          listContainers(ctx, {
            name: str(f, 'name'),
            podId: str(f, 'pod'),
            image: str(f, 'image'),
            state: str(f, 'state'),
            labels: parseLabels(strs(f, 'label')),
            latest: bool(f, 'latest'),
            last: int(f, 'last'),
          }),
        );
        ids = list.map((c) => c.id);
        if (ids.length === 0) {
          ctx.log.error('No containers found per filter flags');
          throw new UsageError('exec');
        }
      } else if (args.length < 2) throw new UsageError('exec');
      const transport = str(f, 'transport');
      if (transport !== 'spdy' && transport !== 'websocket') throw new Error(`get executor: unknown transport: ${transport}`);
      const tty = bool(f, 'tty');
      const interactive = bool(f, 'interactive');
      const timeout = int(f, 'timeout');
      for (const id of ids) {
        if (outputId) println(ctx, `${id}:`);
        try {
          if (bool(f, 'sync')) {
            const r = await wrap(`execing command in container ${id} synchronously`, async () => {
              const res = await rt.rt<CriExecSyncResponse__Output>('ExecSync', { containerId: id, cmd, timeout }, timeout > 0 ? timeout * 1000 + 2000 : 2 * 60_000);
              // cri-client turns a non-zero exit into an error carrying stderr.
              if (res.exitCode !== 0) throw new Error(`command '${cmd.join(' ')}' exited with ${res.exitCode}: ${Buffer.from(res.stderr).toString()}`);
              return res;
            });
            println(ctx, Buffer.from(r.stdout).toString());
            println(ctx, Buffer.from(r.stderr).toString());
          } else {
            await wrap(`execing command in container ${id}`, async () => {
              const r = await rt.rt<CriExecResponse__Output>('Exec', { containerId: id, cmd, tty, stdin: interactive, stdout: true, stderr: !tty });
              let url = r.url;
              if (!/^[a-z]+:\/\//.test(url)) url = `http://127.0.0.1:10250${url.startsWith('/') ? '' : '/'}${url}`;
              await runStream(ctx, url, transport, tty, interactive);
            });
          }
        } catch (e) {
          // main prints the error and exits 1, whatever the command's own exit code was.
          if (bool(f, 'ignore-errors')) continue;
          throw e;
        }
      }
    },
  },
  {
    name: 'stats',
    usage: 'List container(s) resource usage statistics',
    flags: [B('all', 'a'), S('id'), S('pod', 'p'), L('label'), OUTPUT_FLAG('Output format, One of: json|yaml|table'), { name: 'seconds', aliases: ['s'], type: 'int', value: 1 }, B('watch', 'w')],
    async action(ctx, f, args) {
      if (args.length > 1) throw new UsageError('stats');
      const rt = await ctx.runtime();
      const id = str(f, 'id') || args[0] || '';
      const filter = { id, podSandboxId: str(f, 'pod'), labelSelector: parseLabels(strs(f, 'label')) };
      const sample = async () => sortStatsById((await rt.rt<CriListContainerStatsResponse__Output>('ListContainerStats', { filter })).stats);
      await wrap('get container stats', async () => {
        do {
          const before = await sample();
          if (printList(ctx, str(f, 'output'), 'ListContainerStatsResponse', { stats: before })) return;
          await sleep(int(f, 'seconds') * 1000, ctx.signal);
          print(ctx, formatContainerStats(before, await sample(), bool(f, 'all')));
        } while (bool(f, 'watch') && !ctx.signal.aborted);
      });
    },
  },
  {
    name: 'statsp',
    usage: "List pod statistics. Stats represent a structured API that will fulfill the Kubelet's /stats/summary endpoint.",
    flags: [S('id'), L('label'), OUTPUT_FLAG('Output format, One of: json|yaml|table'), { name: 'seconds', aliases: ['s'], type: 'int', value: 1 }, B('watch', 'w')],
    async action(ctx, f, args) {
      if (args.length > 1) throw new UsageError('statsp');
      const rt = await ctx.runtime();
      const id = str(f, 'id') || args[0] || '';
      const filter = { id, labelSelector: parseLabels(strs(f, 'label')) };
      const sample = async () => sortStatsById((await rt.rt<CriListPodSandboxStatsResponse__Output>('ListPodSandboxStats', { filter })).stats);
      await wrap('get pod stats', async () => {
        do {
          const before = await sample();
          if (printList(ctx, str(f, 'output'), 'ListPodSandboxStatsResponse', { stats: before })) return;
          await sleep(int(f, 'seconds') * 1000, ctx.signal);
          print(ctx, formatPodStats(before, await sample()));
        } while (bool(f, 'watch') && !ctx.signal.aborted);
      });
    },
  },
];

/** The rotated siblings of a log file (`<path>.*`, filepath.Glob in crictl rm). */
function logRotations(path: string): string[] {
  try {
    return readdirSync(dirname(path))
      .filter((n) => n.startsWith(`${basename(path)}.`))
      .map((n) => join(dirname(path), n));
  } catch {
    return [];
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
  });
}

/** util.go AggregateGoroutines: all in parallel, the errors joined by newlines (errors.Join). */
async function aggregate(funcs: (() => Promise<void>)[]): Promise<Error | undefined> {
  const results = await Promise.allSettled(funcs.map((f) => f()));
  const errs = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => r.reason as Error);
  if (errs.length === 0) return undefined;
  return new Error(errs.map((e) => e.message).join('\n'), { cause: errs[0] });
}

/** logs --since: RFC 3339 (with or without zone) or a relative duration like 42m. */
export function parseSince(v: string, nowMs: number): number | undefined {
  if (!v) return undefined;
  const rel = /^(\d+)(s|m|h)$/.exec(v);
  if (rel) return nowMs - Number(rel[1]) * { s: 1000, m: 60_000, h: 3_600_000 }[rel[2] as 's' | 'm' | 'h'];
  const t = Date.parse(/[zZ]|[+-]\d\d:\d\d$/.test(v) ? v : `${v}Z`);
  if (Number.isNaN(t)) throw new Error(`failed to parse timestamp "${v}"`);
  return t;
}

async function runStream(ctx: CommandContext, url: string, transport: string, tty: boolean, interactive: boolean): Promise<void> {
  const raw = tty && interactive && ctx.stdin.isTTY && ctx.stdin.setRawMode;
  if (raw) ctx.stdin.setRawMode!(true);
  const out = ctx.out as Writable & { columns?: number; rows?: number; on(e: 'resize', f: () => void): unknown };
  try {
    const io = {
      ...(interactive ? { stdin: ctx.stdin } : {}),
      stdout: ctx.out,
      stderr: ctx.err,
      tty,
      size: () => (out.columns && out.rows ? { width: out.columns, height: out.rows } : undefined),
      onResize: (fn: () => void) => void (typeof out.on === 'function' && out.on('resize', fn)),
    };
    // Loaded only here: the SPDY code comes with component-base, slow to load for every other command.
    const { streamSpdy, streamWebSocket } = await import('./stream.js');
    await (transport === 'websocket' ? streamWebSocket(url, io) : streamSpdy(url, io));
  } finally {
    if (raw) ctx.stdin.setRawMode!(false);
    if (interactive) ctx.stdin.pause();
  }
}

export function findCommand(name: string): Command | undefined {
  return COMMANDS.find((c) => c.name === name || c.aliases?.includes(name));
}
