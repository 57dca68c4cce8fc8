// Linux capabilities as runc sets them from containerd's OCI spec (upstream
// containerd pkg/cri/opts WithCapabilities, oci.DefaultSpec's set): the CRI
// add/drop lists applied to containerd's default set, "ALL" first, and the
// masks /proc/PID/status prints (CapInh, CapPrm, CapEff, CapBnd, CapAmb).

/** Capability names by bit number (include/uapi/linux/capability.h; CAP_LAST_CAP 40 as of Linux 5.9). */
export const CAPABILITIES = [
  'CHOWN',
  'DAC_OVERRIDE',
  'DAC_READ_SEARCH',
  'FOWNER',
  'FSETID',
  'KILL',
  'SETGID',
  'SETUID',
  'SETPCAP',
  'LINUX_IMMUTABLE',
  'NET_BIND_SERVICE',
  'NET_BROADCAST',
  'NET_ADMIN',
  'NET_RAW',
  'IPC_LOCK',
  'IPC_OWNER',
  'SYS_MODULE',
  'SYS_RAWIO',
  'SYS_CHROOT',
  'SYS_PTRACE',
  'SYS_PACCT',
  'SYS_ADMIN',
  'SYS_BOOT',
  'SYS_NICE',
  'SYS_RESOURCE',
  'SYS_TIME',
  'SYS_TTY_CONFIG',
  'MKNOD',
  'LEASE',
  'AUDIT_WRITE',
  'AUDIT_CONTROL',
  'SETFCAP',
  'MAC_OVERRIDE',
  'MAC_ADMIN',
  'SYSLOG',
  'WAKE_ALARM',
  'BLOCK_SUSPEND',
  'AUDIT_READ',
  'PERFMON',
  'BPF',
  'CHECKPOINT_RESTORE',
] as const;

export type CapabilityName = (typeof CAPABILITIES)[number];

/** containerd's default set (oci.DefaultSpec's bounding/effective/permitted lists). */
export const DEFAULT_CAPABILITIES: readonly CapabilityName[] = [
  'CHOWN',
  'DAC_OVERRIDE',
  'FSETID',
  'FOWNER',
  'MKNOD',
  'NET_RAW',
  'SETGID',
  'SETUID',
  'SETFCAP',
  'SETPCAP',
  'NET_BIND_SERVICE',
  'SYS_CHROOT',
  'KILL',
  'AUDIT_WRITE',
];

/** A CRI capability string as containerd reads it: upper case, `CAP_` optional; undefined for a name the kernel lacks (runc skips those). */
export function capabilityName(s: string): CapabilityName | undefined {
  const n = s.toUpperCase().replace(/^CAP_/, '');
  return (CAPABILITIES as readonly string[]).includes(n) ? (n as CapabilityName) : undefined;
}

/** The bounding set from containerd's default and the CRI lists: ALL added, then ALL dropped, then each add, then each drop. */
export function boundingSet(add: readonly string[], drop: readonly string[], privileged = false): CapabilityName[] {
  if (privileged) return [...CAPABILITIES];
  const upper = (l: readonly string[]) => l.map((c) => c.toUpperCase());
  let set = new Set<CapabilityName>(DEFAULT_CAPABILITIES);
  if (upper(add).includes('ALL')) set = new Set(CAPABILITIES);
  if (upper(drop).includes('ALL')) set.clear();
  for (const c of add) {
    const n = capabilityName(c);
    if (n) set.add(n);
  }
  for (const c of drop) {
    const n = capabilityName(c);
    if (n) set.delete(n);
  }
  return CAPABILITIES.filter((c) => set.has(c));
}

/** A set as the 16-hex-digit mask /proc/PID/status prints. */
export function capabilityMask(set: readonly string[]): string {
  let m = 0n;
  for (const c of set) {
    const bit = (CAPABILITIES as readonly string[]).indexOf(c);
    if (bit >= 0) m |= 1n << BigInt(bit);
  }
  return m.toString(16).padStart(16, '0');
}
