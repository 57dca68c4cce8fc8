// A container's security context as the kernel applies it and the container
// can observe it: containerd's CRI plugin turns the CRI
// LinuxContainerSecurityContext into the OCI spec runc applies (upstream
// containerd pkg/cri/server/container_create_linux.go, pkg/cri/opts), and
// this module does the same into a ContainerSecurity that travels with the
// task to its shim. What each part changes inside the container lives beside
// it: users.ts (id, whoami), capabilities.ts (masks and EPERM),
// filesystem.ts (read-only root, masked and read-only paths, /proc/sys).

import { readFileSync } from 'node:fs';
import type { CriContainerConfig__Output, CriPodSandboxConfig__Output } from '@kubelab/proto';
import { RuntimeError, status } from '../errors.js';
import { boundingSet, capabilityMask, capabilityName, DEFAULT_CAPABILITIES, type CapabilityName } from './capabilities.js';
import { parseGroup, parsePasswd, resolveIdentity, UserLookupError, type Identity } from './users.js';

export type PidNamespace = 'POD' | 'CONTAINER' | 'NODE' | 'TARGET';

/** Everything the simulated kernel needs of a container's security context (JSON: it goes to the shim in the task spec). */
export interface ContainerSecurity {
  identity: Identity;
  readonlyRootfs: boolean;
  privileged: boolean;
  /** The bounding set; root's permitted and effective sets are the same. */
  bounding: CapabilityName[];
  ambient: CapabilityName[];
  noNewPrivs: boolean;
  /** /proc/PID/status Seccomp: 0 disabled (Unconfined), 2 filter (RuntimeDefault, Localhost). */
  seccomp: 0 | 2;
  maskedPaths: string[];
  readonlyPaths: string[];
  /** The pod's sysctls (net.core.somaxconn=1024), as /proc/sys shows them. */
  sysctls: Record<string, string>;
  pidNamespace: PidNamespace;
  /** A localhost seccomp profile's refusals: the syscalls that fail with an errno (or, with defaultDeny, every syscall but these). */
  seccompRules?: SeccompRules;
}

export interface SeccompRules {
  defaultDeny: boolean;
  names: string[];
}

/** runc's default masked paths (containerd's oci.populateDefaultUnixSpec), used when the CRI gives none. */
export const DEFAULT_MASKED_PATHS = [
  '/proc/acpi',
  '/proc/asound',
  '/proc/kcore',
  '/proc/keys',
  '/proc/latency_stats',
  '/proc/timer_list',
  '/proc/timer_stats',
  '/proc/sched_debug',
  '/sys/firmware',
  '/proc/scsi',
];
export const DEFAULT_READONLY_PATHS = ['/proc/bus', '/proc/fs', '/proc/irq', '/proc/sys', '/proc/sysrq-trigger'];

/** A container without a security context: root with containerd's default capabilities, no seccomp filter (what the runtime did before). */
export const DEFAULT_SECURITY: ContainerSecurity = {
  identity: { uid: 0, gid: 0, groups: [0] },
  readonlyRootfs: false,
  privileged: false,
  bounding: [...DEFAULT_CAPABILITIES],
  ambient: [],
  noNewPrivs: false,
  seccomp: 0,
  maskedPaths: DEFAULT_MASKED_PATHS,
  readonlyPaths: DEFAULT_READONLY_PATHS,
  sysctls: {},
  pidNamespace: 'CONTAINER',
};

const int = (v: { value: string | number } | null | undefined) => (v ? Number(v.value) : undefined);

/**
 * Checks CreateContainer makes before anything else (containerd's
 * generateUserString): a group without a user is refused.
 */
export function validateSecurityContext(config: CriContainerConfig__Output): void {
  const sc = config.linux?.securityContext;
  if (!sc) return;
  if (sc.runAsGroup && !sc.runAsUser && !sc.runAsUsername) {
    throw new RuntimeError(status.UNKNOWN, `failed to get container spec opts: failed to generate user string: user group "${int(sc.runAsGroup)}" is specified without user`);
  }
}

/** The effective capabilities: root's are the bounding set; another uid keeps only its ambient ones (execve clears the rest). */
export function effectiveCapabilities(s: ContainerSecurity): CapabilityName[] {
  return s.identity.uid === 0 ? s.bounding : s.ambient.filter((c) => s.bounding.includes(c));
}

/** Whether the container's seccomp filter refuses `syscall` (EPERM); a privileged container has none. */
export function seccompDenies(s: ContainerSecurity, syscall: string): boolean {
  const r = s.seccompRules;
  if (!r || s.seccomp === 0) return false;
  return r.defaultDeny ? !r.names.includes(syscall) : r.names.includes(syscall);
}

const DENYING = new Set(['SCMP_ACT_ERRNO', 'SCMP_ACT_KILL', 'SCMP_ACT_KILL_PROCESS', 'SCMP_ACT_KILL_THREAD', 'SCMP_ACT_TRAP']);

/** The refusals of an OCI seccomp profile (the JSON of a localhost profile); syscall arguments are not modelled. */
export function parseSeccompProfile(text: string, path: string): SeccompRules {
  let doc: { defaultAction?: unknown; syscalls?: { names?: unknown; name?: unknown; action?: unknown }[] };
  try {
    doc = JSON.parse(text) as typeof doc;
    if (typeof doc !== 'object' || doc === null || typeof doc.defaultAction !== 'string') throw new Error('missing defaultAction');
  } catch (err) {
    throw new RuntimeError(
      status.UNKNOWN,
      `failed to get container spec opts: failed to generate seccomp spec opts: failed to load seccomp profile ${JSON.stringify(path)}: decoding seccomp profile failed: ${(err as Error).message}`,
    );
  }
  const defaultDeny = DENYING.has(doc.defaultAction as string);
  const names: string[] = [];
  for (const rule of Array.isArray(doc.syscalls) ? doc.syscalls : []) {
    const ruleDenies = DENYING.has(String(rule.action));
    // With a denying default, the allowed syscalls are the exceptions; with an allowing one, the denied.
    if (ruleDenies === defaultDeny) continue;
    const list = Array.isArray(rule.names) ? rule.names : typeof rule.name === 'string' ? [rule.name] : [];
    for (const n of list) if (typeof n === 'string') names.push(n);
  }
  return { defaultDeny, names };
}

type SeccompChoice = { kind: 'unconfined' } | { kind: 'default' } | { kind: 'localhost'; path: string };

/**
 * The seccomp profile a container asks for, as containerd reads it: the
 * `seccomp` SecurityProfile, else the deprecated `seccomp_profile_path`
 * ("", "unconfined", "runtime/default", "docker/default", "localhost/PATH").
 */
function seccompChoice(sc: NonNullable<NonNullable<CriContainerConfig__Output['linux']>['securityContext']> | null | undefined): SeccompChoice {
  const p = sc?.seccomp;
  if (p) {
    if (p.profileType === 'RuntimeDefault') return { kind: 'default' };
    if (p.profileType === 'Localhost') {
      if (!p.localhostRef) throw new RuntimeError(status.UNKNOWN, 'failed to get container spec opts: failed to generate seccomp spec opts: localhostRef must be set if using localhost profile');
      return { kind: 'localhost', path: p.localhostRef };
    }
    return { kind: 'unconfined' };
  }
  const path = sc?.seccompProfilePath ?? '';
  if (path === '' || path === 'unconfined') return { kind: 'unconfined' };
  if (path === 'runtime/default' || path === 'docker/default') return { kind: 'default' };
  if (!path.startsWith('localhost/'))
    throw new RuntimeError(status.UNKNOWN, `failed to get container spec opts: failed to generate seccomp spec opts: invalid seccomp profile ${JSON.stringify(path)}`);
  return { kind: 'localhost', path: path.slice('localhost/'.length) };
}

/** A localhost profile read from the node (containerd reads it when it generates the spec). */
function loadSeccompProfile(path: string): SeccompRules {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const why = e.code === 'ENOENT' ? 'no such file or directory' : e.code === 'EACCES' ? 'permission denied' : e.code === 'EISDIR' ? 'is a directory' : e.message;
    throw new RuntimeError(status.UNKNOWN, `failed to get container spec opts: failed to generate seccomp spec opts: failed to load seccomp profile ${JSON.stringify(path)}: open ${path}: ${why}`);
  }
  return parseSeccompProfile(text, path);
}

export function hasCapability(s: ContainerSecurity, cap: CapabilityName): boolean {
  return effectiveCapabilities(s).includes(cap);
}

/** The security lines of /proc/PID/status, in the kernel's order and layout. */
export function statusFields(s: ContainerSecurity): { ids: [string, string][]; caps: [string, string][] } {
  const { uid, gid, groups } = s.identity;
  const eff = capabilityMask(effectiveCapabilities(s));
  return {
    ids: [
      ['Uid', `${uid}\t${uid}\t${uid}\t${uid}`],
      ['Gid', `${gid}\t${gid}\t${gid}\t${gid}`],
      ['FDSize', '64'],
      ['Groups', `${groups.join(' ')} `],
    ],
    caps: [
      ['CapInh', '0000000000000000'],
      ['CapPrm', eff],
      ['CapEff', eff],
      ['CapBnd', capabilityMask(s.bounding)],
      ['CapAmb', capabilityMask(s.identity.uid === 0 ? s.ambient : s.ambient.filter((c) => s.bounding.includes(c)))],
      ['NoNewPrivs', s.noNewPrivs ? '1' : '0'],
      ['Seccomp', String(s.seccomp)],
      ['Seccomp_filters', s.seccomp === 2 ? '1' : '0'],
    ],
  };
}

/**
 * The container's security as containerd builds its spec: the user from the
 * CRI fields or the image's config user (looked up in the image's
 * /etc/passwd and /etc/group), capabilities, seccomp, masked and read-only
 * paths (runc's defaults when none are given; none for a privileged
 * container) and the pod's sysctls. A user name the image lacks fails as
 * containerd fails the task's creation.
 */
export function containerSecurity(config: CriContainerConfig__Output, sandbox: CriPodSandboxConfig__Output, image: { user: string; files: Record<string, string> }): ContainerSecurity {
  const sc = config.linux?.securityContext;
  const passwd = parsePasswd(image.files['/etc/passwd']);
  const group = parseGroup(image.files['/etc/group']);
  const uid = int(sc?.runAsUser);
  const gid = int(sc?.runAsGroup);
  let identity: Identity;
  try {
    identity = resolveIdentity(
      {
        ...(uid !== undefined ? { uid } : { username: sc?.runAsUsername || image.user }),
        ...(gid !== undefined ? { gid } : {}),
        supplementalGroups: (sc?.supplementalGroups ?? []).map(Number),
      },
      passwd,
      group,
    );
  } catch (err) {
    if (!(err instanceof UserLookupError)) throw err;
    const who = sc?.runAsUsername || image.user;
    throw new RuntimeError(status.UNKNOWN, `failed to create containerd container: failed to apply user "${who}": unable to find user ${who.split(':')[0]}: ${err.message}`);
  }
  const privileged = !!sc?.privileged;
  const caps = sc?.capabilities;
  const seccomp = seccompChoice(sc);
  const seccompRules = !privileged && seccomp.kind === 'localhost' ? loadSeccompProfile(seccomp.path) : undefined;
  return {
    identity,
    readonlyRootfs: !!sc?.readonlyRootfs,
    privileged,
    bounding: boundingSet(caps?.addCapabilities ?? [], caps?.dropCapabilities ?? [], privileged),
    ambient: (caps?.addAmbientCapabilities ?? []).map(capabilityName).filter((c): c is CapabilityName => c !== undefined),
    noNewPrivs: !!sc?.noNewPrivs,
    seccomp: !privileged && seccomp.kind !== 'unconfined' ? 2 : 0,
    maskedPaths: privileged ? [] : sc?.maskedPaths?.length ? sc.maskedPaths : DEFAULT_MASKED_PATHS,
    readonlyPaths: privileged ? [] : sc?.readonlyPaths?.length ? sc.readonlyPaths : DEFAULT_READONLY_PATHS,
    sysctls: { ...(sandbox.linux?.sysctls ?? {}) },
    pidNamespace: sc?.namespaceOptions?.pid ?? 'CONTAINER',
    ...(seccompRules ? { seccompRules } : {}),
  };
}
