// A tiny authoritative DNS server on 127.0.0.1 for resolver and applet tests
// (a fixture, not the cluster DNS): fixed A/AAAA records, NXDOMAIN for the
// rest, every question recorded; `silent` drops queries to test timeouts.

import { createSocket, type Socket } from 'node:dgram';
import type { AddressInfo } from 'node:net';
import dnsPacket, { type Answer } from 'dns-packet';
import { udpTransport, type DnsTransport } from '../resolver.js';

export interface DnsFixture {
  port: number;
  /** `<type> <name>` of each question, in arrival order. */
  questions: string[];
  transport: DnsTransport;
  close(): Promise<void>;
}

export async function startDnsFixture(records: Record<string, { A?: string[]; AAAA?: string[]; PTR?: string[] }>, opts: { silent?: boolean } = {}): Promise<DnsFixture> {
  const socket: Socket = createSocket('udp4');
  const questions: string[] = [];
  socket.on('message', (msg, rinfo) => {
    const q = dnsPacket.decode(msg);
    const question = q.questions?.[0];
    if (!question) return;
    questions.push(`${question.type} ${question.name}`);
    if (opts.silent) return;
    const rec = records[question.name.toLowerCase()];
    const type = question.type === 'AAAA' || question.type === 'PTR' ? question.type : 'A';
    const answers = (rec?.[type] ?? []).map((data) => ({ type, name: question.name, ttl: 30, class: 'IN', data }) as Answer);
    const reply = dnsPacket.encode({
      type: 'response',
      id: q.id ?? 0,
      flags: dnsPacket.AUTHORITATIVE_ANSWER | dnsPacket.RECURSION_DESIRED | (rec ? 0 : 3), // rcode 3: NXDOMAIN
      questions: [question],
      answers,
    });
    socket.send(reply, rinfo.port, rinfo.address);
  });
  await new Promise<void>((r) => socket.bind(0, '127.0.0.1', () => r()));
  const port = (socket.address() as AddressInfo).port;
  return {
    port,
    questions,
    transport: udpTransport({ localAddress: '127.0.0.1', port }),
    close: () => new Promise((r) => socket.close(() => r())),
  };
}
