// busybox's network applets as a pod sees its namespace: `ip addr`/`ip route`,
// `ifconfig` and `netstat`. The pod has lo and eth0, a veth end on the node's
// bridge carrying the pod IP in the node's /24 (the bridge CNI plugin's
// layout: the gateway is .1, the MAC is 0a:58 followed by the IPv4 bytes) and
// the VXLAN overlay's MTU.

import { readFileSync } from 'node:fs';
import { defineCommand, type Command } from 'just-bash';
import type { ProgramProcess } from '../program-process.js';
import { DEFAULT_SECURITY, hasCapability } from '../security/context.js';
import { ok, podAddress } from './util.js';

/** flannel's VXLAN MTU: 1500 less the encapsulation's 50 bytes. */
const POD_MTU = 1450;

interface Eth {
  ip: string;
  broadcast: string;
  gateway: string;
  network: string;
  mac: string;
  /** The node end's interface index (eth0@ifN). */
  peerIndex: number;
}

/** eth0's addresses from the pod IP; undefined on the host network (no pod IP of its own). */
async function eth0(proc: ProgramProcess): Promise<Eth | undefined> {
  const ip = await podAddress(proc);
  const o = ip.split('.').map(Number);
  if (ip === '127.0.0.1' || o.length !== 4 || o.some((n) => !(n >= 0 && n <= 255))) return undefined;
  const net = o.slice(0, 3).join('.');
  return {
    ip,
    broadcast: `${net}.255`,
    gateway: `${net}.1`,
    network: `${net}.0/24`,
    mac: ['0a', '58', ...o.map((n) => n.toString(16).padStart(2, '0'))].join(':'),
    peerIndex: (o[3]! % 250) + 4,
  };
}

function ipAddr(e: Eth | undefined): string {
  let out =
    '1: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536 qdisc noqueue qlen 1000\n    link/loopback 00:00:00:00:00:00 brd 00:00:00:00:00:00\n' +
    '    inet 127.0.0.1/8 scope host lo\n       valid_lft forever preferred_lft forever\n    inet6 ::1/128 scope host \n       valid_lft forever preferred_lft forever\n';
  if (e)
    out +=
      `2: eth0@if${e.peerIndex}: <BROADCAST,MULTICAST,UP,LOWER_UP,M-DOWN> mtu ${POD_MTU} qdisc noqueue \n    link/ether ${e.mac} brd ff:ff:ff:ff:ff:ff\n` +
      `    inet ${e.ip}/24 brd ${e.broadcast} scope global eth0\n       valid_lft forever preferred_lft forever\n`;
  return out;
}

const IP_USAGE =
  'BusyBox v1.36.1 (2023-05-18 22:34:17 UTC) multi-call binary.\n\nUsage: ip [OPTIONS] address|route|link|tunnel|neigh|rule [ARGS]\n\nOPTIONS := -f[amily] inet|inet6|link | -o[neline]\n';

/** `ip addr|a [show]`, `ip route|r`, `ip link`: the pod's interfaces and routes. */
function ipCommand(proc: ProgramProcess): Command {
  return defineCommand('ip', async (args) => {
    const words = args.filter((a) => !a.startsWith('-'));
    const object = words[0] ?? '';
    const e = await eth0(proc);
    if ('address'.startsWith(object) && object !== '') return ok(ipAddr(e));
    if ('route'.startsWith(object) && object !== '') return ok(e ? `default via ${e.gateway} dev eth0 \n${e.network} dev eth0 scope link  src ${e.ip} \n` : '');
    if ('link'.startsWith(object) && object !== '')
      return ok(
        ipAddr(e)
          .split('\n')
          .filter((l) => !/^ {4}inet|^ {7}valid/.test(l))
          .join('\n'),
      );
    if (object === '') return ok('', 1, IP_USAGE);
    return ok('', 1, `ip: unknown command or invalid argument '${object}'\n`);
  });
}

/** `ifconfig [-a] [IFACE]`: net-tools' layout as busybox prints it. */
function ifconfigCommand(proc: ProgramProcess): Command {
  return defineCommand('ifconfig', async (args) => {
    const e = await eth0(proc);
    const counters = (txq: number) =>
      '          RX packets:0 errors:0 dropped:0 overruns:0 frame:0\n          TX packets:0 errors:0 dropped:0 overruns:0 carrier:0\n' +
      `          collisions:0 txqueuelen:${txq} \n          RX bytes:0 (0.0 B)  TX bytes:0 (0.0 B)\n\n`;
    const blocks: Record<string, string> = {};
    if (e)
      blocks.eth0 =
        `eth0      Link encap:Ethernet  HWaddr ${e.mac.toUpperCase()}  \n          inet addr:${e.ip}  Bcast:${e.broadcast}  Mask:255.255.255.0\n` +
        `          UP BROADCAST RUNNING MULTICAST  MTU:${POD_MTU}  Metric:1\n${counters(0)}`;
    blocks.lo = `lo        Link encap:Local Loopback  \n          inet addr:127.0.0.1  Mask:255.0.0.0\n          inet6 addr: ::1/128 Scope:Host\n          UP LOOPBACK RUNNING  MTU:65536  Metric:1\n${counters(1000)}`;
    const name = args.find((a) => !a.startsWith('-'));
    if (name === undefined) return ok(Object.values(blocks).join(''));
    const b = blocks[name];
    return b ? ok(b) : ok('', 1, `ifconfig: ${name}: error fetching interface information: Device not found\n`);
  });
}

/**
 * `netstat [-tulna]`: the sockets of the pod's network namespace; servers are
 * listed with -l (only them) or -a. busybox's columns; the local address is
 * the wildcard the container's programs bind.
 */
function netstatCommand(proc: ProgramProcess): Command {
  return defineCommand('netstat', async (args) => {
    const flags = new Set(args.flatMap((a) => (a.startsWith('-') ? [...a.slice(1)] : [])));
    const bad = [...flags].find((f) => !'tulnawepWrx'.includes(f));
    if (bad) return ok('', 1, `netstat: invalid option -- '${bad}'\n`);
    if (flags.has('r')) {
      return ok('Kernel IP routing table\nDestination     Gateway         Genmask         Flags   MSS Window  irtt Iface\n');
    }
    const servers = flags.has('l') || flags.has('a');
    const title = flags.has('l') ? '(only servers)' : flags.has('a') ? '(servers and established)' : '(w/o servers)';
    const both = !flags.has('t') && !flags.has('u');
    const ports = proc.system.hostNamespaces?.network ? nodeListeningPorts() : proc.system.listeningPorts();
    let out = `Active Internet connections ${title}\nProto Recv-Q Send-Q ${'Local Address'.padEnd(23)} ${'Foreign Address'.padEnd(23)} State       \n`;
    const row = (proto: string, port: number, state: string) => `${proto}   ${'0'.padStart(6)} ${'0'.padStart(6)} ${`0.0.0.0:${port}`.padEnd(23)} ${'0.0.0.0:*'.padEnd(23)} ${state.padEnd(12)}\n`;
    if (servers) {
      if (both || flags.has('t')) for (const p of ports.tcp) out += row('tcp', p, 'LISTEN');
      if (both || flags.has('u')) for (const p of ports.udp) out += row('udp', p, '');
    }
    return ok(out);
  });
}

export const ip = ipCommand;
export const ifconfig = ifconfigCommand;
export const netstat = netstatCommand;

/**
 * `ipcs [-m|-q|-s]`: the System V IPC objects of the container's IPC
 * namespace, in busybox's layout. No simulated program creates any, so a
 * pod's own tables are empty; with the node's IPC namespace (hostIPC) the
 * shared memory segments are the node's (/proc/sysvipc/shm).
 */
function ipcsCommand(proc: ProgramProcess): Command {
  return defineCommand('ipcs', async (args) => {
    const bad = args.find((a) => !/^-[mqsa]+$/.test(a));
    if (bad) return ok('', 1, `ipcs: invalid option -- '${bad.replace(/^-/, '')[0] ?? ''}'\n`);
    const want = new Set(args.flatMap((a) => [...a.slice(1)]));
    const all = want.size === 0 || want.has('a');
    let out = '';
    if (all || want.has('m')) {
      const rows = proc.system.hostNamespaces?.ipc ? nodeShmSegments() : [];
      out += `\n------ Shared Memory Segments --------\nkey        shmid      owner      perms      bytes      nattch     status      \n${rows.join('')}\n`;
    }
    if (all || want.has('s')) out += '\n------ Semaphore Arrays --------\nkey        semid      owner      perms      nsems     \n\n';
    if (all || want.has('q')) out += '\n------ Message Queues --------\nkey        msqid      owner      perms      used-bytes   messages    \n\n';
    return ok(out);
  });
}

/** Bridges containers created (brctl addbr with CAP_NET_ADMIN), by the container's process. */
const bridges = new WeakMap<object, Set<string>>();

/**
 * `brctl show|addbr|delbr`: the pod's network namespace starts without
 * bridges; creating or deleting one needs CAP_NET_ADMIN (a privileged
 * container, or capabilities add NET_ADMIN), as the kernel answers.
 */
function brctlCommand(proc: ProgramProcess): Command {
  return defineCommand('brctl', async (args) => {
    const [cmd, name] = args;
    let own = bridges.get(proc);
    if (!own) bridges.set(proc, (own = new Set()));
    if (cmd === 'show') return ok(`bridge name\tbridge id\t\tSTP enabled\tinterfaces\n${[...own].map((b) => `${b}\t\t8000.000000000000\tno\t\t\n`).join('')}`);
    if ((cmd === 'addbr' || cmd === 'delbr') && name) {
      if (!hasCapability(proc.system.security ?? DEFAULT_SECURITY, 'NET_ADMIN')) return ok('', 1, `brctl: bridge ${name}: Operation not permitted\n`);
      if (cmd === 'addbr') {
        if (own.has(name)) return ok('', 1, `brctl: bridge ${name}: File exists\n`);
        own.add(name);
      } else if (!own.delete(name)) return ok('', 1, `brctl: bridge ${name}: No such device or address\n`);
      return ok('');
    }
    return ok('', 1, 'BusyBox v1.36.1 (2023-05-18 22:34:17 UTC) multi-call binary.\n\nUsage: brctl COMMAND [BRIDGE [ARGS]]\n\nManage ethernet bridges\n');
  });
}

/**
 * busybox `ping [-c COUNT] HOST`: raw ICMP sockets need CAP_NET_RAW
 * (containerd's default set has it; a container that drops it gets busybox's
 * "permission denied"). Replies come from loopback and the pod's own
 * address; other hosts are not simulated and answer nothing.
 */
function pingCommand(proc: ProgramProcess): Command {
  return defineCommand('ping', async (args, ctx) => {
    let count = Infinity;
    let host = '';
    for (let i = 0; i < args.length; i++) {
      const a = args[i]!;
      if (a === '-c') count = Number(args[++i]);
      else if (/^-c\d+$/.test(a)) count = Number(a.slice(2));
      else if (['-w', '-W', '-i', '-s', '-t', '-I'].includes(a)) i++;
      else if (!a.startsWith('-')) host = a;
    }
    if (!host) return ok('', 1, 'BusyBox v1.36.1 (2023-05-18 22:34:17 UTC) multi-call binary.\n\nUsage: ping [OPTIONS] HOST\n\nSend ICMP ECHO_REQUEST packets to network hosts\n');
    const ip = host === 'localhost' ? '127.0.0.1' : host;
    if (!/^\d+\.\d+\.\d+\.\d+$/.test(ip)) return ok('', 1, `ping: bad address '${host}'\n`);
    const head = `PING ${host} (${ip}): 56 data bytes\n`;
    if (!hasCapability(proc.system.security ?? DEFAULT_SECURITY, 'NET_RAW')) return ok(head, 1, 'ping: permission denied (are you root?)\n');
    const local = ip.startsWith('127.') || ip === (await podAddress(proc));
    // Replies are collected and printed when ping ends (after COUNT, on TERM, or when its exec is cut short).
    let out = head;
    const times: number[] = [];
    let sent = 0;
    let terminated = false;
    const stop = proc.onTerm(() => (terminated = true));
    try {
      while (sent < count && !terminated && !proc.exit && !ctx.signal?.aborted) {
        if (sent > 0) await proc.sleep(1000);
        if (terminated || proc.exit || ctx.signal?.aborted) break;
        if (local) {
          const ms = 0.04 + ((sent * 7) % 50) / 1000;
          times.push(ms);
          out += `64 bytes from ${ip}: seq=${sent} ttl=64 time=${ms.toFixed(3)} ms\n`;
        }
        sent++;
      }
    } finally {
      stop();
    }
    const loss = sent ? Math.round(((sent - times.length) * 100) / sent) : 0;
    out += `\n--- ${host} ping statistics ---\n${sent} packets transmitted, ${times.length} packets received, ${loss}% packet loss\n`;
    if (times.length) out += `round-trip min/avg/max = ${Math.min(...times).toFixed(3)}/${(times.reduce((x, y) => x + y, 0) / times.length).toFixed(3)}/${Math.max(...times).toFixed(3)} ms\n`;
    return ok(out, times.length ? 0 : 1);
  });
}

export const ping = pingCommand;
export const ipcs = ipcsCommand;
export const brctl = brctlCommand;

/** TCP and UDP ports in LISTEN (or bound, for UDP) in the node's network namespace: /proc/net/{tcp,tcp6,udp,udp6}. */
export function nodeListeningPorts(read: (path: string) => string = (p) => readFileSync(p, 'utf8')): { tcp: number[]; udp: number[] } {
  const ports = (files: string[], listenOnly: boolean) => {
    const out = new Set<number>();
    for (const f of files) {
      let text: string;
      try {
        text = read(f);
      } catch {
        continue;
      }
      for (const line of text.split('\n').slice(1)) {
        const cols = line.trim().split(/\s+/);
        if (cols.length < 4) continue;
        const [, local, remote, st] = cols;
        if (listenOnly ? st !== '0A' : !/:0000$/.test(remote ?? '')) continue;
        out.add(parseInt(local!.split(':').pop()!, 16));
      }
    }
    return [...out].sort((a, b) => a - b);
  };
  return { tcp: ports(['/proc/net/tcp', '/proc/net/tcp6'], true), udp: ports(['/proc/net/udp', '/proc/net/udp6'], false) };
}

/** The node's shared memory segments as ipcs -m rows (/proc/sysvipc/shm: key shmid perms size cpid lpid nattch uid ...). */
export function nodeShmSegments(read: (path: string) => string = (p) => readFileSync(p, 'utf8')): string[] {
  let text: string;
  try {
    text = read('/proc/sysvipc/shm');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .slice(1)
    .map((l) => l.trim().split(/\s+/))
    .filter((c) => c.length >= 8)
    .map(([key, shmid, perms, size, , , nattch, uid]) => {
      const k = `0x${(Number(key) >>> 0).toString(16).padStart(8, '0')}`;
      const owner = uid === '0' ? 'root' : uid!;
      return `${k.padEnd(10)} ${shmid!.padEnd(10)} ${owner.padEnd(10)} ${perms!.padEnd(10)} ${size!.padEnd(10)} ${nattch!.padEnd(10)} ${''.padEnd(12)}\n`;
    });
}
