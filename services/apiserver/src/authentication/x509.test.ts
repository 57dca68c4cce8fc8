import { describe, expect, it } from 'vitest';
import { userFromCertificate } from './x509.js';

describe('the x509 authenticator', () => {
  it.each([
    ['CN is the user, each O a group, system:authenticated added', { CN: 'jane', O: ['dev', 'ops'] }, { name: 'jane', groups: ['dev', 'ops', 'system:authenticated'] }],
    ['one O', { CN: 'system:node:node-1', O: 'system:nodes' }, { name: 'system:node:node-1', groups: ['system:nodes', 'system:authenticated'] }],
    ['no O', { CN: 'kubelab-bench' }, { name: 'kubelab-bench', groups: ['system:authenticated'] }],
    ['no CN', { O: 'dev' }, undefined],
  ])('%s', (_name, subject, want) => {
    expect(userFromCertificate({ subject: subject as never })).toEqual(want);
  });

  it('gives one identity one frozen user, whichever certificate object carries it', () => {
    const a = userFromCertificate({ subject: { CN: 'sam', O: ['dev'] } as never });
    const b = userFromCertificate({ subject: { CN: 'sam', O: ['dev'] } as never });
    expect(a).toBe(b);
    expect(Object.isFrozen(a) && Object.isFrozen(a?.groups)).toBe(true);
    expect(userFromCertificate({ subject: { CN: 'sam', O: ['ops'] } as never })).not.toBe(a);
  });
});

describe('the x509 memo', () => {
  it('never gives one subject the user of another whose parts join alike', () => {
    const admin = userFromCertificate({ subject: { CN: 'root', O: ['system:masters'] } as never });
    const crafted = userFromCertificate({ subject: { CN: 'root\u0000system:masters' } as never });
    expect(admin?.groups).toContain('system:masters');
    expect(crafted).toEqual({ name: 'root\u0000system:masters', groups: ['system:authenticated'] });
  });
});
