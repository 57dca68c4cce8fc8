import { describe, expect, it } from 'vitest';
import { haproxyConfig } from './haproxy.js';

const backends = [1, 2, 3].map((i) => ({ name: `apiserver-${i}`, host: '127.0.0.1', https: 6443 + 10 * i, grpc: 6444 + 10 * i }));
const text = haproxyConfig({ bind: '127.0.0.1', httpsPort: 6443, grpcPort: 6444, monitorPort: 8404, backends });
const lines = text.split('\n');

/** The lines of one section (from its header to the next blank line). */
function section(header: string): string[] {
  const start = lines.indexOf(header);
  if (start < 0) throw new Error(`no section ${header}`);
  const end = lines.indexOf('', start);
  return lines.slice(start, end < 0 ? undefined : end);
}

describe('haproxyConfig', () => {
  const cases: { name: string; section: string; line: string }[] = [
    { name: 'runs in the foreground, logging to stdout', section: 'global', line: '    log stdout format raw local0 info' },
    { name: 'balances TCP (TLS passes through to the apiservers)', section: 'defaults', line: '    mode tcp' },
    { name: 'retries a refused connection on another apiserver', section: 'defaults', line: '    option redispatch' },
    { name: 'leaves idle watches open', section: 'defaults', line: '    timeout tunnel 1h' },
    { name: 'answers its own /healthz', section: 'frontend monitor', line: '    monitor-uri /healthz' },
    { name: 'binds the HTTPS frontend on the control-plane endpoint', section: 'frontend apiserver', line: '    bind 127.0.0.1:6443' },
    { name: 'binds the gRPC frontend beside it', section: 'frontend apiserver-grpc', line: '    bind 127.0.0.1:6444' },
    { name: 'checks each apiserver over HTTP', section: 'backend apiserver', line: '    option httpchk' },
    { name: 'checks /readyz', section: 'backend apiserver', line: '    http-check send meth GET uri /readyz' },
    { name: 'wants 200', section: 'backend apiserver', line: '    http-check expect status 200' },
    {
      name: 'sends HTTPS to apiserver-1 and checks it with TLS, unverified',
      section: 'backend apiserver',
      line: '    server apiserver-1 127.0.0.1:6453 check port 6453 check-ssl verify none inter 1000 fall 2 rise 2',
    },
    {
      name: "sends gRPC to apiserver-3's gRPC port, checked on its HTTPS port",
      section: 'backend apiserver-grpc',
      line: '    server apiserver-3 127.0.0.1:6474 check port 6473 check-ssl verify none inter 1000 fall 2 rise 2',
    },
  ];
  for (const c of cases) it(c.name, () => expect(section(c.section)).toContain(c.line));

  it('takes the check path and thresholds given', () => {
    const custom = haproxyConfig({ bind: '0.0.0.0', httpsPort: 6443, grpcPort: 6444, monitorPort: 8404, backends: backends.slice(0, 1), checkPath: '/healthz', interMs: 500, fall: 3, rise: 1 });
    expect(custom).toContain('    http-check send meth GET uri /healthz');
    expect(custom).toContain('    server apiserver-1 127.0.0.1:6453 check port 6453 check-ssl verify none inter 500 fall 3 rise 1');
    expect(custom).toContain('    bind 0.0.0.0:6443');
  });
});
