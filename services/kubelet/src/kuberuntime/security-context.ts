// The pod's and containers' securityContext as the kubelet hands it to the
// runtime (upstream pkg/kubelet/kuberuntime/security_context.go,
// security_context_others.go, kuberuntime_sandbox.go's
// generatePodSandboxLinuxConfig and helpers.go's namespacesForPod /
// getSeccompProfile, pkg/securitycontext's DetermineEffectiveSecurityContext),
// and the runAsNonRoot check against the image's user
// (kuberuntime_container.go's verifyRunAsNonRoot).

import type { Container, Pod } from '@kubelab/api';
import { formatPod } from '../events.js';

type SecurityContext = NonNullable<Container['securityContext']>;
type SeccompProfile = NonNullable<SecurityContext['seccompProfile']>;

export type NamespaceMode = 'POD' | 'CONTAINER' | 'NODE' | 'TARGET';

export interface NamespaceOption {
  network: NamespaceMode;
  pid: NamespaceMode;
  ipc: NamespaceMode;
}

export interface SecurityProfile {
  profileType: 'RuntimeDefault' | 'Unconfined' | 'Localhost';
  localhostRef: string;
}

/** runtime.v1 LinuxContainerSecurityContext. */
export interface LinuxContainerSecurityContext {
  capabilities?: { addCapabilities: string[]; dropCapabilities: string[] };
  privileged: boolean;
  namespaceOptions: NamespaceOption;
  runAsUser?: { value: number };
  runAsGroup?: { value: number };
  runAsUsername: string;
  readonlyRootfs: boolean;
  supplementalGroups: number[];
  noNewPrivs: boolean;
  maskedPaths: string[];
  readonlyPaths: string[];
  seccomp: SecurityProfile;
}

/** runtime.v1 LinuxPodSandboxConfig: the sandbox's security context and the pod's sysctls. */
export interface LinuxPodSandboxConfig {
  securityContext: {
    namespaceOptions: NamespaceOption;
    privileged: boolean;
    runAsUser?: { value: number };
    runAsGroup?: { value: number };
    supplementalGroups: number[];
    seccomp: SecurityProfile;
  };
  sysctls: Record<string, string>;
}

/** The image config's user as ImageStatus gives it: a uid, or a name that is not one. */
export interface ImageUser {
  uid?: number;
  username?: string;
}

/** The paths a runtime masks and makes read-only in /proc and /sys with procMount Default (pkg/securitycontext). */
export const DEFAULT_MASKED_PATHS = [
  '/proc/asound',
  '/proc/acpi',
  '/proc/kcore',
  '/proc/keys',
  '/proc/latency_stats',
  '/proc/timer_list',
  '/proc/timer_stats',
  '/proc/sched_debug',
  '/proc/scsi',
  '/sys/firmware',
  '/sys/devices/virtual/powercap',
];
export const DEFAULT_READONLY_PATHS = ['/proc/bus', '/proc/fs', '/proc/irq', '/proc/sys', '/proc/sysrq-trigger'];

/**
 * The pod's namespaces: the node's with hostPID/hostIPC, one PID namespace
 * for the pod with shareProcessNamespace. The network stays POD even with
 * hostNetwork (upstream: NODE): the kubelet gives host-network pods the
 * node's addresses itself, and the runtime's host-network mode (no pod IP,
 * ports on the node) is not switched on from here yet.
 */
export function namespacesForPod(pod: Pod): NamespaceOption {
  const s = pod.spec;
  return {
    network: 'POD',
    pid: s?.hostPID ? 'NODE' : s?.shareProcessNamespace ? 'POD' : 'CONTAINER',
    ipc: s?.hostIPC ? 'NODE' : 'POD',
  };
}

/** The container's securityContext over the pod's: the fields both have come from the pod when the container leaves them unset. */
export function effectiveSecurityContext(pod: Pod, c: Container): SecurityContext {
  const pod_ = pod.spec?.securityContext ?? {};
  const own = c.securityContext ?? {};
  const sc: SecurityContext = { ...own };
  if (own.runAsUser === undefined && pod_.runAsUser !== undefined) sc.runAsUser = pod_.runAsUser;
  if (own.runAsGroup === undefined && pod_.runAsGroup !== undefined) sc.runAsGroup = pod_.runAsGroup;
  if (own.runAsNonRoot === undefined && pod_.runAsNonRoot !== undefined) sc.runAsNonRoot = pod_.runAsNonRoot;
  if (own.seLinuxOptions === undefined && pod_.seLinuxOptions !== undefined) sc.seLinuxOptions = pod_.seLinuxOptions;
  if (own.seccompProfile === undefined && pod_.seccompProfile !== undefined) sc.seccompProfile = pod_.seccompProfile;
  return sc;
}

/** A seccomp profile for the CRI: the container's, else the pod's, else Unconfined (RuntimeDefault with --seccomp-default). */
export function seccompProfile(pod: Pod, c: Container | undefined, seccompDefault = false): SecurityProfile {
  const p: SeccompProfile | undefined = c?.securityContext?.seccompProfile ?? pod.spec?.securityContext?.seccompProfile;
  if (!p) return { profileType: seccompDefault ? 'RuntimeDefault' : 'Unconfined', localhostRef: '' };
  if (p.type === 'Localhost') return { profileType: 'Localhost', localhostRef: p.localhostProfile ?? '' };
  return { profileType: p.type, localhostRef: '' };
}

/** fsGroup first, then the pod's supplementalGroups. */
function supplementalGroups(pod: Pod): number[] {
  const sc = pod.spec?.securityContext;
  return [...(sc?.fsGroup !== undefined ? [sc.fsGroup] : []), ...(sc?.supplementalGroups ?? [])];
}

/**
 * The container's LinuxContainerSecurityContext: the effective context, the
 * pod's namespaces and groups, no_new_privs from allowPrivilegeEscalation:
 * false, the default masked and read-only paths unless procMount is
 * Unmasked, and, when runAsUser is unset, the image's user (a uid, else its
 * name), so the runtime runs the process as the user the kubelet verified.
 */
export function linuxContainerSecurityContext(pod: Pod, c: Container, image: ImageUser = {}, seccompDefault = false): LinuxContainerSecurityContext {
  const sc = effectiveSecurityContext(pod, c);
  const unmasked = sc.procMount === 'Unmasked';
  const out: LinuxContainerSecurityContext = {
    privileged: !!sc.privileged,
    namespaceOptions: namespacesForPod(pod),
    runAsUsername: '',
    readonlyRootfs: !!sc.readOnlyRootFilesystem,
    supplementalGroups: supplementalGroups(pod),
    noNewPrivs: sc.allowPrivilegeEscalation === false,
    maskedPaths: unmasked ? [] : DEFAULT_MASKED_PATHS,
    readonlyPaths: unmasked ? [] : DEFAULT_READONLY_PATHS,
    seccomp: seccompProfile(pod, c, seccompDefault),
  };
  if (sc.capabilities) out.capabilities = { addCapabilities: [...(sc.capabilities.add ?? [])], dropCapabilities: [...(sc.capabilities.drop ?? [])] };
  if (sc.runAsUser !== undefined) out.runAsUser = { value: sc.runAsUser };
  else if (image.uid !== undefined) out.runAsUser = { value: image.uid };
  else if (image.username) out.runAsUsername = image.username;
  if (sc.runAsGroup !== undefined) out.runAsGroup = { value: sc.runAsGroup };
  return out;
}

/** The sandbox's part: the pod-level context, privileged when any container is, and the pod's sysctls. */
export function linuxPodSandboxConfig(pod: Pod, seccompDefault = false): LinuxPodSandboxConfig {
  const sc = pod.spec?.securityContext;
  const containers = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])];
  return {
    securityContext: {
      namespaceOptions: namespacesForPod(pod),
      privileged: containers.some((c) => !!c.securityContext?.privileged),
      ...(sc?.runAsUser !== undefined ? { runAsUser: { value: sc.runAsUser } } : {}),
      ...(sc?.runAsGroup !== undefined ? { runAsGroup: { value: sc.runAsGroup } } : {}),
      supplementalGroups: supplementalGroups(pod),
      seccomp: seccompProfile(pod, undefined, seccompDefault),
    },
    sysctls: Object.fromEntries((sc?.sysctls ?? []).map((s) => [s.name, s.value])),
  };
}

/** The runAsNonRoot check against the image's user; the error text (CreateContainerConfigError), or undefined. */
export function verifyRunAsNonRoot(pod: Pod, c: Container, image: ImageUser): string | undefined {
  const sc = effectiveSecurityContext(pod, c);
  if (!sc.runAsNonRoot) return undefined;
  const where = `(pod: "${formatPod(pod)}", container: ${c.name})`;
  if (sc.runAsUser !== undefined) return sc.runAsUser === 0 ? `container's runAsUser breaks non-root policy ${where}` : undefined;
  if (image.uid === undefined && image.username) return `container has runAsNonRoot and image has non-numeric user (${image.username}), cannot verify user is non-root ${where}`;
  if (image.uid === 0) return `container has runAsNonRoot and image will run as root ${where}`;
  if (image.uid !== undefined && image.uid > 2147483647)
    return `container has runAsNonRoot and image has an invalid user id (${image.uid}). (Must be 1-(2147483647)): must be between 0 and 2147483647, inclusive ${where}`;
  return undefined;
}
