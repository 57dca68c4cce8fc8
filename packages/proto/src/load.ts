// Loads the wire contracts under proto/ with the same options the type
// generator uses (see the `generate` script), so generated types and runtime
// objects agree.

import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';

/** Options shared with `proto-loader-gen-types` in package.json. */
export const LOADER_OPTIONS: protoLoader.Options = {
  longs: String,
  enums: String,
  defaults: true,
  oneofs: true,
};

/** proto/ as shipped in dist (built) or at the repository root (sources). */
export function protoRoot(): string {
  const shipped = fileURLToPath(new URL('./proto', import.meta.url));
  if (existsSync(shipped)) return shipped;
  return fileURLToPath(new URL('../../../proto', import.meta.url));
}

const cache = new Map<string, grpc.GrpcObject>();

/** Loads one .proto file (relative to proto/) as a grpc package object. */
export function loadProto(file: string): grpc.GrpcObject {
  let pkg = cache.get(file);
  if (!pkg) {
    const def = protoLoader.loadSync(file, { ...LOADER_OPTIONS, includeDirs: [protoRoot()] });
    pkg = grpc.loadPackageDefinition(def);
    cache.set(file, pkg);
  }
  return pkg;
}
