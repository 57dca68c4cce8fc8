// The strategy of one served version of a CRD (upstream: apiextensions'
// customresource strategy and status strategy): defaulting then pruning
// by the version's structural schema, validation against it, and the
// generation rule (+1 when anything but metadata and, with a status
// subresource, status changes).

import { canonicalJson, methodNotAllowed, type CustomResourceDefinitionVersion, type FieldError, type JSONSchemaProps } from '@kubelab/api';
import type { CustomStrategy } from '../registry/interface.js';
import { applyDefaults, prune, validateValue } from './structural.js';

type Obj = Parameters<CustomStrategy['normalize']>[0];

const stable = (v: unknown) => canonicalJson(v, { omitNull: true });

/** What a generation compares: the object without metadata (and without status when /status is its own). */
function generationView(o: Obj, hasStatus: boolean): unknown {
  const { metadata: _m, status, ...rest } = o;
  return hasStatus ? rest : { ...rest, status };
}

/** `terminating`: the CRD is being deleted, and creates are refused (upstream: the CR handler while Terminating). */
export function customStrategy(version: CustomResourceDefinitionVersion, opts: { terminating?: boolean } = {}): CustomStrategy {
  const schema: JSONSchemaProps = version.schema?.openAPIV3Schema ?? { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
  const hasStatus = version.subresources?.status !== undefined;
  const strategy: CustomStrategy = {
    schema,
    columns: version.additionalPrinterColumns ?? [],
    unknownFields(o) {
      return prune(schema, structuredClone(o));
    },
    normalize(o) {
      applyDefaults(schema, o);
      prune(schema, o);
    },
    validate(o): FieldError[] {
      return validateValue(schema, o);
    },
    prepareForCreate(o) {
      if (opts.terminating) throw methodNotAllowed('create not allowed while custom resource definition is terminating');
      o.metadata.generation = 1;
      // With /status, a create's status is dropped (upstream: the strategy's PrepareForCreate).
      if (hasStatus) delete o.status;
    },
    prepareForUpdate(next, old, subresource) {
      const gen = old.metadata.generation ?? 1;
      const changed = subresource === undefined && stable(generationView(next, hasStatus)) !== stable(generationView(old, hasStatus));
      next.metadata.generation = changed ? gen + 1 : gen;
    },
  };
  if (version.subresources?.scale) return { ...strategy, scale: version.subresources.scale };
  return strategy;
}
