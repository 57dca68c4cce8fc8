// Client certificate rotation (upstream client-go util/certificate Manager,
// --rotate-certificates): at a jittered 70–90 % of the certificate's life the
// kubelet generates a new key, asks for a new system:node:<name> certificate
// as itself (the approver's selfnodeclient case), stores it and hands it to
// the clientset, whose next calls use the new identity.

import { X509Certificate } from 'node:crypto';
import type { Logger } from '@kubelab/component-base';
import type { Clock, Timer } from '@kubelab/client';
import { createCsr, generateKeyPair, privateKeyToPem } from '@kubelab/pki';
import { clientUsages, nodeSubject, requestCertificate, type CsrClient } from './request.js';
import type { CertificateFileStore, StoredPair } from './store.js';

/** nextRotationDeadline: notBefore + a jittered 70–90 % of the lifetime (random() in [0, 1)). */
export function nextRotationDeadline(notBefore: Date, notAfter: Date, random: () => number = Math.random): Date {
  const total = notAfter.getTime() - notBefore.getTime();
  return new Date(notBefore.getTime() + total * (1 + 0.2 * random()) - total * 0.3);
}

export interface RotationOptions {
  store: CertificateFileStore;
  nodeName: string;
  /**
   * The pair in use when the store has none (a kubeconfig with an embedded
   * certificate, as kubeadm init writes): written to the store and rotated
   * at once (upstream getCurrentCertificateOrBootstrap and forceRotation).
   */
  initialCertPem?: string;
  initialKeyPem?: string;
  /** Requests go out with the identity in use (the clientset of the kubelet). */
  client: CsrClient;
  clock: Clock;
  log: Logger;
  /** The new pair is stored: reconnect with it. */
  onRotated(pair: StoredPair): void;
  random?: () => number;
  /** Waits after a failed rotation: from initial, doubling to max (upstream: 2 s to 5 min). */
  backoff?: { initialMs: number; maxMs: number };
}

export class ClientCertificateManager {
  private timer: Timer | undefined;
  private readonly abort = new AbortController();
  private failures = 0;
  private running: Promise<void> | undefined;

  constructor(private readonly opts: RotationOptions) {}

  /** Schedules the next rotation from the stored certificate; with none (or an expired one), stores the initial pair and rotates now. */
  start(): void {
    const now = this.opts.clock.now();
    const pair = this.opts.store.current();
    if (!pair || now >= pair.notAfter.getTime()) {
      const { initialCertPem: certPem, initialKeyPem: keyPem } = this.opts;
      if (certPem && keyPem && validityOf(certPem)) {
        // Upstream only reports a failed store write (HandleError) and rotates all the same.
        try {
          this.opts.store.update(certPem, keyPem, new Date(now));
          this.opts.log.info("stored the kubeconfig's client certificate; rotating it now", { path: this.opts.store.currentPath });
        } catch (e) {
          this.opts.log.error("unable to store the kubeconfig's client certificate; rotating it now", { err: (e as Error).message });
        }
        this.schedule(0);
        return;
      }
    }
    if (!pair) {
      this.opts.log.info('no client certificate to rotate', { path: this.opts.store.currentPath });
      return;
    }
    const deadline = nextRotationDeadline(pair.notBefore, pair.notAfter, this.opts.random);
    this.opts.log.info('certificate rotation deadline', { deadline: deadline.toISOString(), expiration: pair.notAfter.toISOString() });
    this.schedule(deadline.getTime() - this.opts.clock.now());
  }

  stop(): void {
    this.abort.abort();
    this.timer?.stop();
  }

  /** Resolves when a rotation in progress has finished (tests). */
  whenIdle(): Promise<void> {
    return this.running ?? Promise.resolve();
  }

  private schedule(ms: number): void {
    if (this.abort.signal.aborted) return;
    this.timer?.stop();
    this.timer = this.opts.clock.setTimeout(() => {
      this.running = this.rotate().finally(() => (this.running = undefined));
    }, ms);
  }

  /** One rotation: new key, request, store, hand over; a failure retries with backoff. */
  async rotate(): Promise<void> {
    const { initialMs, maxMs } = this.opts.backoff ?? { initialMs: 2_000, maxMs: 300_000 };
    try {
      const keys = await generateKeyPair('ECDSA-P256');
      const usages = clientUsages('ec');
      const csrPem = await createCsr(nodeSubject(this.opts.nodeName), keys);
      const certPem = await requestCertificate(this.opts.client, { csrPem, usages, signal: this.abort.signal });
      this.opts.store.update(certPem, await privateKeyToPem(keys.privateKey), new Date(this.opts.clock.now()));
      const pair = this.opts.store.current()!;
      this.failures = 0;
      this.opts.log.info('client certificate rotated', { expiration: pair.notAfter.toISOString() });
      this.opts.onRotated(pair);
      this.start();
    } catch (e) {
      if (this.abort.signal.aborted) return;
      const wait = Math.min(maxMs, initialMs * 2 ** this.failures++);
      this.opts.log.warn('client certificate rotation failed; retrying', { err: (e as Error).message, retryInMs: wait });
      this.schedule(wait);
    }
  }
}

function validityOf(certPem: string | undefined): { notBefore: Date; notAfter: Date } | undefined {
  if (!certPem) return undefined;
  try {
    const x = new X509Certificate(certPem);
    return { notBefore: new Date(x.validFrom), notAfter: new Date(x.validTo) };
  } catch {
    return undefined;
  }
}
