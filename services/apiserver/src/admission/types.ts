// Admission (upstream: k8s.io/apiserver/pkg/admission): every write, once
// authorized, passes the mutating plugins in order, then validation of the
// object, then the validating plugins.

import type { KubeObject, ResourceInfo } from '@kubelab/api';
import type { RequestContext } from '../registry/interface.js';

export type Operation = 'CREATE' | 'UPDATE' | 'DELETE';

export interface AdmissionAttributes {
  operation: Operation;
  info: ResourceInfo;
  namespace: string;
  name: string;
  subresource?: string;
  /** The object being written (mutable for mutating plugins). */
  object?: KubeObject;
  oldObject?: KubeObject;
  ctx: RequestContext;
  dryRun: boolean;
  /** Registers an undo for reservations made by a plugin (write failed or dry run). */
  onRollback(fn: () => void): void;
  /** Registers a follow-up once the write is stored at `rev`. */
  onCommit(fn: (rev: number) => void): void;
}

export interface AdmissionPlugin {
  readonly name: string;
  /** Mutating phase (upstream MutationInterface.Admit). */
  admit?(a: AdmissionAttributes): void | Promise<void>;
  /** Validating phase (upstream ValidationInterface.Validate). */
  validate?(a: AdmissionAttributes): void | Promise<void>;
}

/** One write's attributes (upstream admission.NewAttributesRecord): the hooks collect what its plugins reserve. */
export function admissionAttributes(
  operation: Operation,
  info: ResourceInfo,
  namespace: string,
  name: string,
  ctx: RequestContext,
  hooks: AdmissionHooks,
  object?: KubeObject,
  oldObject?: KubeObject,
  subresource?: string,
): AdmissionAttributes {
  const a: AdmissionAttributes = { operation, info, namespace, name, ctx, dryRun: ctx.dryRun === true, onRollback: hooks.onRollback, onCommit: hooks.onCommit };
  if (object) a.object = object;
  if (oldObject) a.oldObject = oldObject;
  if (subresource) a.subresource = subresource;
  return a;
}

/** Collects rollback/commit hooks for one request (the lists made only when a plugin registers one: most requests have none). */
export class AdmissionHooks {
  private rollbacks: Array<() => void> | undefined;
  private commits: Array<(rev: number) => void> | undefined;
  onRollback = (fn: () => void): void => void (this.rollbacks ??= []).push(fn);
  onCommit = (fn: (rev: number) => void): void => void (this.commits ??= []).push(fn);
  /** Runs the rollback hooks once; the commit hooks are dropped. */
  rollback(): void {
    const fns = this.rollbacks;
    this.rollbacks = undefined;
    this.commits = undefined;
    if (fns) for (const f of fns) f();
  }
  /** Runs the commit hooks once; the rollback hooks are dropped. */
  commit(rev: number): void {
    const fns = this.commits;
    this.commits = undefined;
    this.rollbacks = undefined;
    if (fns) for (const f of fns) f(rev);
  }
}
