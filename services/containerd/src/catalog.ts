// The built-in "registry": every image the simulated runtime can pull, with
// real-looking references, sizes, entrypoints and the files its rootfs seeds
// into each container's virtual filesystem. Teaching images (crasher, slow
// starter, memory hog, private app) exist to make failure modes observable.

import { createHash } from 'node:crypto';

export interface ImageDef {
  repository: string;
  /** Tags naming this exact image (the first is its canonical tag). */
  tags: string[];
  /** Compressed size in bytes (drives pull time). */
  size: number;
  entrypoint: string[];
  cmd: string[];
  env: Record<string, string>;
  workingDir: string;
  /** Image config `User` (uid). */
  uid: number;
  /** Files of the image rootfs, seeded into every container's filesystem. */
  files: Record<string, string>;
  /** Built-in programs (simulated binaries) this image ships, beside the shell utilities. */
  programs: string[];
  /** Resident memory of the idle main process, for stats. */
  baseMemoryBytes: number;
  /** Registry credentials required to pull (the private teaching image). */
  auth?: { username: string; password: string };
  /** Pinned images are exempt from image GC (upstream: the sandbox image). */
  pinned?: boolean;
}

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

/** Registry digest of the image manifest (`repo@sha256:...`). */
export function imageDigest(def: ImageDef): string {
  return `sha256:${sha(`manifest\n${def.repository}:${def.tags[0]}`)}`;
}

/** Image ID: the digest of its config blob, as containerd reports it. */
export function imageId(def: ImageDef): string {
  return `sha256:${sha(`config\n${def.repository}:${def.tags[0]}\n${def.entrypoint.join(' ')}\n${def.cmd.join(' ')}`)}`;
}

const MiB = 1024 * 1024;
const PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

const osRelease = (name: string, id: string, version: string) => `NAME="${name}"\nID=${id}\nVERSION_ID=${version}\nPRETTY_NAME="${name} ${version}"\n`;

const busyboxFiles = {
  '/etc/passwd': 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/home:/bin/false\n',
  '/etc/group': 'root:x:0:\nnobody:x:65534:\n',
  '/root/.keep': '',
};

/** Default page of the nginx image (served at /). */
export const NGINX_INDEX = `<!DOCTYPE html>
<html>
<head>
<title>Welcome to nginx!</title>
</head>
<body>
<h1>Welcome to nginx!</h1>
<p>If you see this page, the nginx web server is successfully installed and
working. Further configuration is required.</p>
<p><em>Thank you for using nginx.</em></p>
</body>
</html>
`;

/** The sandbox image: every pod's infra container runs its `/pause`. */
function pause(tag: string, size: number): ImageDef {
  return {
    repository: 'registry.k8s.io/pause',
    tags: [tag],
    size,
    entrypoint: ['/pause'],
    cmd: [],
    env: { PATH },
    workingDir: '/',
    uid: 65535,
    files: {},
    programs: ['pause'],
    baseMemoryBytes: 200 * 1024,
  };
}

function busybox(tags: string[], size: number): ImageDef {
  return {
    repository: 'docker.io/library/busybox',
    tags,
    size,
    entrypoint: [],
    cmd: ['sh'],
    env: { PATH },
    workingDir: '/',
    uid: 0,
    files: { ...busyboxFiles, '/etc/os-release': osRelease('BusyBox', 'busybox', tags[0]!) },
    programs: [],
    baseMemoryBytes: 400 * 1024,
  };
}

function nginx(tags: string[], version: string): ImageDef {
  return {
    repository: 'docker.io/library/nginx',
    tags,
    size: 72 * MiB,
    entrypoint: ['/docker-entrypoint.sh'],
    cmd: ['nginx', '-g', 'daemon off;'],
    env: { PATH, NGINX_VERSION: version, NJS_VERSION: '0.8.7' },
    workingDir: '/',
    uid: 0,
    files: {
      '/usr/share/nginx/html/index.html': NGINX_INDEX,
      '/usr/share/nginx/html/50x.html': '<!DOCTYPE html>\n<html>\n<head><title>Error</title></head>\n<body><h1>An error occurred.</h1></body>\n</html>\n',
      '/etc/nginx/conf.d/default.conf':
        'server {\n    listen       80;\n    server_name  localhost;\n    location / {\n        root   /usr/share/nginx/html;\n        index  index.html index.htm;\n    }\n}\n',
      '/etc/os-release': osRelease('Debian GNU/Linux', 'debian', '12'),
      '/etc/passwd': 'root:x:0:0:root:/root:/bin/bash\nnginx:x:101:101:nginx user:/nonexistent:/bin/false\n',
    },
    programs: ['nginx', 'docker-entrypoint.sh'],
    baseMemoryBytes: 7 * MiB,
  };
}

function teaching(name: string, entrypoint: string[], cmd: string[], extra: Partial<ImageDef> = {}): ImageDef {
  return {
    repository: `docker.io/kubelab/${name}`,
    tags: ['1.0', 'latest'],
    size: 6 * MiB,
    entrypoint,
    cmd,
    env: { PATH },
    workingDir: '/',
    uid: 0,
    files: { ...busyboxFiles, '/etc/os-release': osRelease('kubelab teaching image', name, '1.0') },
    programs: entrypoint.length ? [entrypoint[0]!] : [],
    baseMemoryBytes: 1 * MiB,
    ...extra,
  };
}

/** A control-plane image as kubeadm 1.32 pulls it; its binary is a stand-in (programs.ts). */
function component(name: string, tag: string, size: number): ImageDef {
  return {
    repository: `registry.k8s.io/${name}`,
    tags: [tag],
    size,
    entrypoint: [],
    cmd: [],
    env: { PATH },
    workingDir: '/',
    uid: 0,
    files: { '/etc/os-release': osRelease('Debian GNU/Linux', 'debian', '12') },
    programs: [name],
    baseMemoryBytes: 2 * MiB,
  };
}

/** Credentials of the private teaching image (documented in the README). */
export const PRIVATE_IMAGE_AUTH = { username: 'kubelab', password: 'kubelab-secret' };

export const CATALOG: ImageDef[] = [
  { ...pause('3.10', 320 * 1024), pinned: true },
  pause('3.9', 322 * 1024),
  busybox(['1.37', 'latest', 'stable'], 2_200_000),
  busybox(['1.36', '1.36.1'], 2_150_000),
  nginx(['1.27', '1.27.3', 'latest', 'mainline'], '1.27.3'),
  nginx(['1.26', '1.26.2', 'stable'], '1.26.2'),
  {
    ...busybox(['3.20', 'latest'], 3_600_000),
    repository: 'docker.io/library/alpine',
    files: { ...busyboxFiles, '/etc/os-release': osRelease('Alpine Linux', 'alpine', '3.20.3'), '/etc/alpine-release': '3.20.3\n' },
  },
  // Exits 1 after N seconds (args: [N], default 5): CrashLoopBackOff on demand.
  teaching('crasher', ['crasher'], ['5']),
  // Listens on :8080 only after N seconds (default 20): startup probes.
  teaching('slow-start', ['slow-start'], ['20']),
  // Allocates 10 MiB per second until its memory limit: OOMKilled.
  teaching('memhog', ['memhog'], ['10']),
  // Serves grpc.health.v1.Health on :8080 (args: [port] [service...]); /tmp/grpc-status sets the answer: gRPC probes.
  teaching('grpc-health', ['grpc-health'], ['8080']),
  // The Kubernetes docs' memory example: `stress --vm 1 --vm-bytes 150M --vm-hang 1` holds that much memory.
  {
    ...teaching('stress', [], ['stress']),
    repository: 'docker.io/polinux/stress',
    tags: ['latest', '1.0.4'],
    programs: ['stress'],
  },
  // The control plane and kube-proxy of kubeadm 1.32 (static pods, the kube-proxy DaemonSet): stand-ins.
  component('kube-apiserver', 'v1.32.0', 28 * MiB),
  component('kube-controller-manager', 'v1.32.0', 26 * MiB),
  component('kube-scheduler', 'v1.32.0', 20 * MiB),
  component('kube-proxy', 'v1.32.0', 30 * MiB),
  // The Node Problem Detector's DaemonSet (upstream's deployment manifest): a stand-in too.
  { ...component('node-problem-detector/node-problem-detector', 'v0.8.25', 45 * MiB), programs: ['node-problem-detector'] },
  // metrics-server's Deployment (upstream components.yaml; the image's entrypoint is the binary): a stand-in too.
  { ...component('metrics-server/metrics-server', 'v0.7.2', 19 * MiB), entrypoint: ['/metrics-server'], programs: ['metrics-server'] },
  // The store's static pod: NATS in etcd's role.
  { ...component('nats-server', '2.10', 7 * MiB), repository: 'docker.io/library/nats', tags: ['2.10', '2.10.24', 'latest'] },
  // Needs imagePullSecrets: ErrImagePull/ImagePullBackOff without them.
  {
    ...teaching('app', [], ['sh', '-c', 'echo "private app ready"; while true; do sleep 3600; done']),
    repository: 'registry.kubelab.io/private/app',
    auth: PRIVATE_IMAGE_AUTH,
  },
];

export interface CatalogMatch {
  def: ImageDef;
  /** The tag that was asked for (or the canonical one for digest refs). */
  tag: string;
}

/** Finds an image by normalised repository and tag or digest. */
export function lookupCatalog(repository: string, tag: string | undefined, digest: string | undefined, catalog = CATALOG): CatalogMatch | undefined {
  for (const def of catalog) {
    if (def.repository !== repository) continue;
    if (digest && imageDigest(def) === digest) return { def, tag: def.tags[0]! };
    if (tag && def.tags.includes(tag)) return { def, tag };
  }
  return undefined;
}

export function repositoryKnown(repository: string, catalog = CATALOG): boolean {
  return catalog.some((d) => d.repository === repository);
}
