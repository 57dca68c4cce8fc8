import { describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { certDirFrom, expirationTables, expiresColumn, shortHumanDuration } from './certs-expiration.js';

const s = 1000;
const m = 60 * s;
const h = 60 * m;
const d = 24 * h;

describe('kubeadm certs check-expiration', () => {
  it.each([
    [-3 * s, '<invalid>'],
    [-1 * s, '0s'],
    [0, '0s'],
    [59 * s, '59s'],
    [60 * s, '1m'],
    [59 * m + 59 * s, '59m'],
    [23 * h + 59 * m, '23h'],
    [24 * h, '1d'],
    [364 * d + 23 * h, '364d'],
    [365 * d, '1y'],
    [10 * 365 * d - 1, '9y'],
  ])('ShortHumanDuration(%d ms) = %s', (ms, want) => {
    expect(shortHumanDuration(ms)).toBe(want);
  });

  it.each([
    ['2027-12-01T20:57:09Z', 'Dec 01, 2027 20:57 UTC'],
    ['2036-01-05T03:04:59Z', 'Jan 05, 2036 03:04 UTC'],
  ])('writes %s as %s', (iso, want) => expect(expiresColumn(new Date(iso))).toBe(want));

  it("prints kubeadm's two tables, columns padded by three spaces, missing files and external CAs marked", () => {
    const now = new Date('2026-12-01T21:00:00Z');
    const year = new Date('2027-12-01T20:57:00Z');
    const out = expirationTables(
      [
        { name: 'admin.conf', expires: year, ca: 'ca', externallyManaged: false },
        { name: 'apiserver-kubelet-client', expires: new Date('2026-12-02T20:00:00Z'), ca: 'ca', externallyManaged: false },
        { name: 'front-proxy-client', expires: year, ca: 'front-proxy-ca', externallyManaged: true },
        { name: 'scheduler.conf', ca: 'ca', externallyManaged: false },
      ],
      [
        { name: 'ca', expires: new Date('2036-11-28T20:57:00Z'), externallyManaged: false },
        { name: 'front-proxy-ca', expires: new Date('2026-11-30T00:00:00Z'), externallyManaged: true },
      ],
      now,
    );
    expect(out).toBe(
      [
        'CERTIFICATE                EXPIRES                  RESIDUAL TIME   CERTIFICATE AUTHORITY   EXTERNALLY MANAGED',
        'admin.conf                 Dec 01, 2027 20:57 UTC   364d            ca                      no      ',
        'apiserver-kubelet-client   Dec 02, 2026 20:00 UTC   23h             ca                      no      ',
        'front-proxy-client         Dec 01, 2027 20:57 UTC   364d            front-proxy-ca          yes     ',
        '!MISSING! scheduler.conf                                                                    ',
        '',
        'CERTIFICATE AUTHORITY   EXPIRES                  RESIDUAL TIME   EXTERNALLY MANAGED',
        'ca                      Nov 28, 2036 20:57 UTC   9y              no      ',
        'front-proxy-ca          Nov 30, 2026 00:00 UTC   <invalid>       yes     ',
        '',
      ].join('\n'),
    );
  });
});

describe('certDirFrom', () => {
  const here = (p: string) => resolve(process.env.INIT_CWD ?? process.cwd(), p);
  it.each<[string, { certDir: string; stateDir: string }, boolean, string]>([
    ['--cert-dir wins', { certDir: '/x/pki', stateDir: '/s' }, true, '/x/pki'],
    ['--state-dir: its pki/', { certDir: '', stateDir: '/s' }, true, '/s/pki'],
    ['nothing, on a kubeadm node (compose)', { certDir: '', stateDir: '' }, true, '/etc/kubernetes/pki'],
    ["nothing, beside kubelab up: the default state dir's pki/", { certDir: '', stateDir: '' }, false, here('.kubelab/local/pki')],
  ])('%s', (_name, flags, etcExists, want) => {
    expect(certDirFrom(flags, () => etcExists)).toBe(want);
  });
});
