// Regenerates src/generated from proto/ with proto-loader-gen-types, using the
// same options as LOADER_OPTIONS in src/load.ts, then adds the `.js`
// extensions that ESM (NodeNext) needs on relative imports.
// `--check` generates into a temporary directory and fails when src/generated
// differs from it (CI: an edited .proto without regenerated types).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const PROTOS = ['kubelab/apiserver/v1/apiserver.proto', 'runtime/v1/api.proto'];

const pkg = fileURLToPath(new URL('..', import.meta.url));
const committed = join(pkg, 'src/generated');
const check = process.argv.includes('--check');
const out = check ? mkdtempSync(join(tmpdir(), 'kubelab-proto-gen-')) : committed;
rmSync(out, { recursive: true, force: true });
execFileSync(
  'pnpm',
  [
    'exec',
    'proto-loader-gen-types',
    '--longs=String',
    '--enums=String',
    '--defaults',
    '--oneofs',
    '--grpcLib=@grpc/grpc-js',
    '--includeDirs=../../proto',
    `--outDir=${out}`,
    ...PROTOS.filter((p) => {
      try {
        return statSync(join(pkg, '../../proto', p)).isFile();
      } catch {
        return false;
      }
    }),
  ],
  { cwd: pkg, stdio: 'inherit' },
);

function files(dir) {
  const found = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) found.push(...files(p));
    else found.push(p);
  }
  return found;
}

for (const p of files(out).filter((f) => f.endsWith('.ts'))) {
  const text = readFileSync(p, 'utf8').replace(/(from '\.{1,2}\/[^']+?)(?<!\.js)'/g, "$1.js'");
  writeFileSync(p, text);
}

if (check) {
  const fresh = new Set(files(out).map((f) => relative(out, f)));
  const have = new Set(files(committed).map((f) => relative(committed, f)));
  const drift = [
    ...[...fresh].filter((f) => !have.has(f)).map((f) => `missing: ${f}`),
    ...[...have].filter((f) => !fresh.has(f)).map((f) => `not generated: ${f}`),
    ...[...fresh].filter((f) => have.has(f) && readFileSync(join(out, f), 'utf8') !== readFileSync(join(committed, f), 'utf8')).map((f) => `differs: ${f}`),
  ];
  rmSync(out, { recursive: true, force: true });
  if (drift.length) {
    console.error(`packages/proto/src/generated is not what proto/ generates (run \`pnpm --filter @kubelab/proto run generate\`):\n  ${drift.join('\n  ')}`);
    process.exit(1);
  }
  console.log('packages/proto/src/generated matches proto/');
}
