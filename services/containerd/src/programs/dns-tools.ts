// DNS lookup tools as images ship them: busybox's nslookup applet (1.36's
// own resolver: A and AAAA for each search domain of a dotless name, printed
// per reply), bind's nslookup and host (the dnsutils image the Kubernetes docs'
// "Debugging DNS Resolution" page runs: the search list per ndots), and
// glibc's `getent hosts` (files, then DNS). All send real queries through the
// pod's DNS transport (resolver.ts); without a pod network (loopback mode) no
// server can be reached.

import { defineCommand, type Command } from 'just-bash';
import { joinHostPort } from '@kubelab/api';
import { isIP } from 'node:net';
import type { ProgramProcess } from '../program-process.js';
import { addressesOf, exchange, hostsLookup, parseResolvConf, searchCandidates, type DnsReply, type ResolvConf } from '../resolver.js';
import { ok, type Result } from './util.js';

const NO_SERVERS = ';; connection timed out; no servers could be reached\n';

async function read(proc: ProgramProcess, path: string): Promise<string> {
  try {
    return await proc.fs.readFile(path);
  } catch {
    return '';
  }
}

/** Whose nslookup the image ships: busybox's (busybox, alpine; before 1.29 the libc-based one) or bind's. */
async function nslookupFlavour(proc: ProgramProcess): Promise<'busybox' | 'busybox-1.28' | 'bind'> {
  const release = await read(proc, '/etc/os-release');
  const id = /^ID=(.*)$/m.exec(release)?.[1]?.replace(/"/g, '');
  if (id !== 'busybox' && id !== 'alpine') return 'bind';
  const version = /^VERSION_ID="?([\d.]+)/m.exec(release)?.[1] ?? '';
  return id === 'busybox' && /^1\.(1\d|2[0-8])(\.|$)/.test(version) ? 'busybox-1.28' : 'busybox';
}

/** The name a PTR query gives `ip`, if any (getnameinfo). */
async function reverseName(proc: ProgramProcess, conf: ResolvConf, ip: string): Promise<string | undefined> {
  if (isIP(ip) !== 4 || !proc.dns) return undefined;
  const reply = await exchange(proc.dns, conf, `${ip.split('.').reverse().join('.')}.in-addr.arpa`, 'PTR');
  const ptr = reply?.answers.flatMap((a) => (a.type === 'PTR' ? [a.data] : []))[0];
  return ptr?.replace(/\.$/, '');
}

/** busybox 1.28 `nslookup HOST [SERVER]`: the libc resolver (search list per ndots) and reverse names, as the Kubernetes docs show it. */
async function busybox128Nslookup(proc: ProgramProcess, argv: string[]): Promise<Result> {
  const [name, server] = argv.filter((a) => !a.startsWith('-'));
  if (!name)
    return ok(
      '',
      1,
      'BusyBox v1.28.4 (2018-05-22 17:00:17 UTC) multi-call binary.\n\nUsage: nslookup [HOST] [SERVER]\n\nQuery the nameserver for the IP address of the given HOST\noptionally using a specified DNS server\n',
    );
  const conf = parseResolvConf(await read(proc, '/etc/resolv.conf'));
  if (server) conf.nameservers = [server];
  const ns = conf.nameservers[0]!;
  const line = (header: string, value: string) => `${header.padEnd(10)} ${value}\n`;
  const address = async (ip: string) => {
    const rev = await reverseName(proc, conf, ip);
    return `Address 1: ${ip}${rev ? ` ${rev}` : ''}\n`;
  };
  let out = line('Server:', ns) + (await address(ns)) + '\n';
  const found = isIP(name) ? { name, reply: undefined } : await searchLookup(proc, conf, name, 'A');
  const ips = isIP(name) ? [name] : found?.reply && found.reply.rcode === 'NOERROR' ? addressesOf(found.reply.answers, 'A') : [];
  if (!ips.length) return ok(out, 1, `nslookup: can't resolve '${name}'\n`);
  out += line('Name:', name);
  for (const [i, ip] of ips.entries()) out += (await address(ip)).replace('Address 1:', `Address ${i + 1}:`);
  return ok(out, 0);
}

/** One query (or none without a pod network). */
function ask(proc: ProgramProcess, conf: Pick<ResolvConf, 'nameservers' | 'timeoutMs' | 'attempts'>, name: string, type: 'A' | 'AAAA'): Promise<DnsReply | undefined> {
  return proc.dns ? exchange(proc.dns, conf, name, type) : Promise.resolve(undefined);
}

const BUSYBOX_NSLOOKUP_USAGE =
  'BusyBox v1.36.1 (2023-05-18 22:34:17 UTC) multi-call binary.\n\nUsage: nslookup [-type=QUERY_TYPE] [-debug] HOST [DNS_SERVER]\n\nQuery DNS about HOST\n\nQUERY_TYPE: soa,ns,a,aaaa,cname,mx,txt,any\n';

/** busybox 1.36 `nslookup [-type=a|aaaa] [-timeout=SEC] [-retry=N] HOST [SERVER]`. */
async function busyboxNslookup(proc: ProgramProcess, argv: string[]): Promise<Result> {
  let types: ('A' | 'AAAA')[] = [];
  let timeoutSec = 5;
  let retry = 2;
  const rest: string[] = [];
  for (const a of argv) {
    if (!a.startsWith('-') || rest.length) {
      rest.push(a);
      continue;
    }
    const [opt, val = ''] = a.slice(1).split('=');
    if (opt === 'type' || opt === 'querytype' || opt === 'q') {
      const t = val.toUpperCase();
      if (t !== 'A' && t !== 'AAAA') return ok('', 1, `nslookup: invalid query type "${val}"\n`);
      types.push(t);
    } else if (opt === 'timeout' || opt === 't') timeoutSec = Math.max(1, Number(val) || 5);
    else if (opt === 'retry') retry = Math.max(1, Number(val) || 2);
    else if (opt !== 'debug') return ok('', 1, BUSYBOX_NSLOOKUP_USAGE);
  }
  const [host, server] = rest;
  if (!host || rest.length > 2) return ok('', 1, BUSYBOX_NSLOOKUP_USAGE);
  if (!types.length) types = ['A', 'AAAA'];
  const conf = parseResolvConf(await read(proc, '/etc/resolv.conf'));
  // A dotless name gets each search domain (and is not asked as is); a dotted one is asked only as is.
  const names = !host.includes('.') && conf.search.length ? conf.search.map((d) => `${host}.${d}`) : [host.replace(/\.$/, '')];
  const queries = types.flatMap((type) => names.map((name) => ({ type, name })));
  const servers = server ? [server] : conf.nameservers;
  for (const ns of servers) {
    const replies = await Promise.all(queries.map((q) => ask(proc, { nameservers: [ns], timeoutMs: (timeoutSec * 1000) / retry, attempts: retry }, q.name, q.type)));
    if (!replies.some(Boolean)) continue;
    let out = `Server:\t\t${ns}\nAddress:\t${joinHostPort(ns, 53)}\n\n`;
    queries.forEach((q, i) => {
      const r = replies[i];
      if (!r) return;
      if (r.rcode !== 'NOERROR') out += `** server can't find ${q.name}: ${r.rcode}\n`;
      else {
        if (!r.authoritative) out += 'Non-authoritative answer:\n';
        for (const a of r.answers) {
          if (a.type === 'A' || a.type === 'AAAA') out += `Name:\t${a.name}\nAddress: ${a.data}\n`;
          else if (a.type === 'CNAME') out += `${a.name}\tcanonical name = ${a.data}\n`;
        }
      }
      out += '\n';
    });
    const unanswered = queries.filter((_q, i) => !replies[i]);
    for (const q of unanswered) out += `*** Can't find ${q.name}: No answer\n`;
    if (unanswered.length) out += '\n';
    return ok(out, 0);
  }
  return ok(`${NO_SERVERS}\n`, 1);
}

/** The first candidate of the search list with an answer of `type` (bind's lookups with search on); the last reply otherwise. */
async function searchLookup(proc: ProgramProcess, conf: ResolvConf, host: string, type: 'A' | 'AAAA'): Promise<{ name: string; reply: DnsReply } | undefined> {
  let last: { name: string; reply: DnsReply } | undefined;
  for (const name of searchCandidates(host, conf)) {
    const reply = await ask(proc, conf, name, type);
    if (!reply) return last;
    last = { name, reply };
    if (reply.rcode === 'NOERROR' && reply.answers.length) return last;
  }
  return last;
}

/** bind 9 `nslookup HOST [SERVER]` (dnsutils): the search list per ndots, A records. */
async function bindNslookup(proc: ProgramProcess, argv: string[]): Promise<Result> {
  const [host, server] = argv.filter((a) => !a.startsWith('-'));
  if (!host) return ok('', 1, 'nslookup: interactive mode is not supported here: give a host name\n');
  const conf = parseResolvConf(await read(proc, '/etc/resolv.conf'));
  if (server) conf.nameservers = [server];
  const found = await searchLookup(proc, conf, host, 'A');
  if (!found) return ok(`${NO_SERVERS}`, 1);
  let out = `Server:\t\t${found.reply.server}\nAddress:\t${found.reply.server}#53\n\n`;
  if (found.reply.rcode !== 'NOERROR') return ok(`${out}** server can't find ${host}: ${found.reply.rcode}\n\n`, 1);
  if (!found.reply.authoritative) out += 'Non-authoritative answer:\n';
  for (const a of found.reply.answers) {
    if (a.type === 'A') out += `Name:\t${a.name}\nAddress: ${a.data}\n`;
    else if (a.type === 'CNAME') out += `${a.name}\tcanonical name = ${a.data}.\n`;
  }
  return ok(`${out}\n`, 0);
}

/** bind 9 `host NAME [SERVER]`: A, then AAAA, of the first search candidate that exists. */
async function host(proc: ProgramProcess, argv: string[]): Promise<Result> {
  const [name, server] = argv.filter((a) => !a.startsWith('-'));
  if (!name) return ok('', 1, 'Usage: host [-aCdilrTvVw] [-c class] [-N ndots] [-t type] [-W time]\n            [-R number] [-m flag] hostname [server]\n');
  const conf = parseResolvConf(await read(proc, '/etc/resolv.conf'));
  if (server) conf.nameservers = [server];
  const a = await searchLookup(proc, conf, name, 'A');
  if (!a) return ok(`;; connection timed out; no servers could be reached\n`, 1);
  if (a.reply.rcode !== 'NOERROR') return ok(`Host ${name} not found: ${a.reply.rcode === 'NXDOMAIN' ? '3(NXDOMAIN)' : `2(${a.reply.rcode})`}\n`, 1);
  const head = server ? `Using domain server:\nName: ${server}\nAddress: ${server}#53\nAliases: \n\n` : '';
  let out = addressesOf(a.reply.answers, 'A')
    .map((ip) => `${a.name} has address ${ip}\n`)
    .join('');
  const aaaa = await ask(proc, conf, a.name, 'AAAA');
  out += addressesOf(aaaa?.answers ?? [], 'AAAA')
    .map((ip) => `${a.name} has IPv6 address ${ip}\n`)
    .join('');
  return ok(head + out, 0);
}

/** glibc `getent hosts NAME...` (nsswitch "files dns"; IPv6 asked first, as gethostbyname2(AF_INET6) then AF_INET), and the passwd/group files. */
async function getent(proc: ProgramProcess, argv: string[]): Promise<Result> {
  const [db, ...keys] = argv;
  if (db === 'passwd' || db === 'group') {
    const lines = (await read(proc, `/etc/${db}`)).split('\n').filter(Boolean);
    const pick = keys.length ? lines.filter((l) => keys.some((k) => l.split(':')[0] === k || l.split(':')[2] === k)) : lines;
    return ok(pick.map((l) => `${l}\n`).join(''), keys.length && pick.length < keys.length ? 2 : 0);
  }
  if (db !== 'hosts') return ok('', 1, `Unknown database: ${db ?? ''}\nTry \`getent --help' or \`getent --usage' for more information.\n`);
  const hostsFile = await read(proc, '/etc/hosts');
  if (!keys.length) return ok(hostsFile, 0);
  const conf = parseResolvConf(await read(proc, '/etc/resolv.conf'));
  let out = '';
  let exit = 0;
  for (const key of keys) {
    const line = hostsLine(hostsFile, key);
    if (line) {
      out += `${line.ip.padEnd(15)} ${line.names.join(' ')}\n`;
      continue;
    }
    let answered: { name: string; ips: string[] } | undefined;
    for (const type of ['AAAA', 'A'] as const) {
      const r = isIP(key) ? undefined : await searchLookup(proc, conf, key, type);
      const ips = r ? addressesOf(r.reply.answers, type) : [];
      if (r && ips.length) {
        answered = { name: r.name, ips };
        break;
      }
    }
    if (!answered) {
      exit = 2;
      continue;
    }
    for (const ip of answered.ips) out += `${ip.padEnd(15)} ${answered.name}\n`;
  }
  return ok(out, exit);
}

/** The hosts line for `key`, IPv6 lines first (AF_INET6 is asked first). */
function hostsLine(text: string, key: string): { ip: string; names: string[] } | undefined {
  const ips = hostsLookup(text, key);
  const ip = ips.find((i) => isIP(i) === 6) ?? ips[0];
  if (!ip) return undefined;
  for (const raw of text.split('\n')) {
    const [lineIp, ...names] = raw.replace(/#.*$/, '').trim().split(/\s+/);
    if (lineIp === ip && names.some((n) => n.toLowerCase() === key.toLowerCase())) return { ip, names };
  }
  return undefined;
}

/** `nslookup`: busybox's applet in busybox and alpine images, bind's elsewhere (dnsutils). */
export function nslookup(proc: ProgramProcess): Command {
  return defineCommand('nslookup', async (argv) => {
    const flavour = await nslookupFlavour(proc);
    if (flavour === 'busybox-1.28') return busybox128Nslookup(proc, argv);
    return flavour === 'busybox' ? busyboxNslookup(proc, argv) : bindNslookup(proc, argv);
  });
}

export function hostCommand(proc: ProgramProcess): Command {
  return defineCommand('host', (argv) => host(proc, argv));
}

export function getentCommand(proc: ProgramProcess): Command {
  return defineCommand('getent', (argv) => getent(proc, argv));
}
