// The built-in "registry": every image the simulated runtime can pull. Adding
// an image is one entry here (its programs, when new, are simulated in
// services/containerd/src/programs). Configurations follow the official
// images' (`docker inspect`): entrypoint, cmd, env, working dir, user and
// exposed ports; sizes are their compressed linux/amd64 sizes.

import type { ImageDef } from './image.js';

const MiB = 1024 * 1024;
const PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

const osRelease = (name: string, id: string, version: string, pretty = `${name} ${version}`) => `PRETTY_NAME="${pretty}"\nNAME="${name}"\nVERSION_ID="${version}"\nID=${id}\n`;
const DEBIAN_12 = osRelease('Debian GNU/Linux', 'debian', '12', 'Debian GNU/Linux 12 (bookworm)');

const busyboxFiles = {
  '/etc/passwd': 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/home:/bin/false\n',
  '/etc/group': 'root:x:0:\nnobody:x:65534:\n',
  '/root/.keep': '',
};

/** busybox's process, memory, filesystem and network applets, ping, dd and its vi (services/containerd/src/programs/procps.ts, net-tools.ts, vi.ts). */
const BUSYBOX_APPLETS = ['ps', 'top', 'free', 'df', 'mount', 'ip', 'ifconfig', 'netstat', 'pgrep', 'pidof', 'ipcs', 'brctl', 'ping', 'vi', 'dd'];
/** Debian's procps (ps, top, free), coreutils' df and util-linux' mount. */
const DEBIAN_TOOLS = ['ps', 'top', 'free', 'df', 'mount'];

const debianPasswd = (extra = '') => `root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n${extra}`;

/** An official image's config with the defaults most share; `over` sets the rest. */
function image(repository: string, tags: string[], over: Partial<ImageDef> & Pick<ImageDef, 'size' | 'description'>): ImageDef {
  return {
    repository,
    tags,
    entrypoint: [],
    cmd: [],
    env: { PATH },
    workingDir: '/',
    uid: 0,
    files: { '/etc/os-release': DEBIAN_12, '/etc/passwd': debianPasswd() },
    programs: [],
    baseMemoryBytes: 2 * MiB,
    ...over,
  };
}

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

/** Default page of the httpd image (htdocs/index.html). */
export const HTTPD_INDEX = '<html><body><h1>It works!</h1></body></html>\n';

function busybox(tags: string[], size: number): ImageDef {
  return image('docker.io/library/busybox', tags, {
    size,
    cmd: ['sh'],
    files: { ...busyboxFiles, '/etc/os-release': osRelease('BusyBox', 'busybox', tags[0]!) },
    programs: ['wget', 'nslookup', ...BUSYBOX_APPLETS],
    baseMemoryBytes: 400 * 1024,
    description: 'a shell and busybox applets (ps, top, free, df, mount, ip, netstat, wget, nslookup); runs `sh` (exits at once without a command)',
  });
}

function alpine(tags: string[], version: string): ImageDef {
  return image('docker.io/library/alpine', tags, {
    size: 3_600_000,
    cmd: ['/bin/sh'],
    programs: ['wget', 'nslookup', ...BUSYBOX_APPLETS],
    files: { ...busyboxFiles, '/etc/os-release': osRelease('Alpine Linux', 'alpine', version, `Alpine Linux v${version.split('.').slice(0, 2).join('.')}`), '/etc/alpine-release': `${version}\n` },
    baseMemoryBytes: 400 * 1024,
    description: "Alpine Linux's release files, a shell and busybox applets (ps, top, free, df, mount, ip, netstat, wget); runs `/bin/sh`",
  });
}

function nginx(tags: string[], version: string, flavour: 'debian' | 'alpine' | 'stretch' = 'debian'): ImageDef {
  // 1.14.2 (the Kubernetes docs' Deployment example) predates docker-entrypoint.sh.
  const modern = flavour !== 'stretch';
  const os =
    flavour === 'alpine'
      ? osRelease('Alpine Linux', 'alpine', '3.20.3', 'Alpine Linux v3.20')
      : flavour === 'stretch'
        ? osRelease('Debian GNU/Linux', 'debian', '9', 'Debian GNU/Linux 9 (stretch)')
        : DEBIAN_12;
  return image('docker.io/library/nginx', tags, {
    size: flavour === 'alpine' ? 20 * MiB : flavour === 'stretch' ? 44 * MiB : 72 * MiB,
    entrypoint: modern ? ['/docker-entrypoint.sh'] : [],
    cmd: ['nginx', '-g', 'daemon off;'],
    env: { PATH, NGINX_VERSION: version, ...(modern ? { NJS_VERSION: '0.8.7', NJS_RELEASE: '1~bookworm', PKG_RELEASE: '1~bookworm' } : { NJS_VERSION: '1.14.2.0.2.6-1~stretch' }) },
    exposedPorts: ['80/tcp'],
    files: {
      '/usr/share/nginx/html/index.html': NGINX_INDEX,
      '/usr/share/nginx/html/50x.html': '<!DOCTYPE html>\n<html>\n<head><title>Error</title></head>\n<body><h1>An error occurred.</h1></body>\n</html>\n',
      '/etc/nginx/conf.d/default.conf':
        'server {\n    listen       80;\n    server_name  localhost;\n    location / {\n        root   /usr/share/nginx/html;\n        index  index.html index.htm;\n    }\n}\n',
      '/etc/os-release': os,
      '/etc/passwd':
        flavour === 'alpine' ? `${busyboxFiles['/etc/passwd']}nginx:x:101:101:nginx:/var/cache/nginx:/sbin/nologin\n` : debianPasswd('nginx:x:101:101:nginx user:/nonexistent:/bin/false\n'),
    },
    // The Debian-based images ship curl; the alpine one busybox's wget.
    programs: [...(modern ? ['nginx', 'docker-entrypoint.sh'] : ['nginx']), flavour === 'alpine' ? 'wget' : 'curl'],
    baseMemoryBytes: 7 * MiB,
    description: `nginx ${version}: serves /usr/share/nginx/html on :80 with access logs; \`nginx -v\``,
  });
}

function teaching(name: string, entrypoint: string[], cmd: string[], description: string, extra: Partial<ImageDef> = {}): ImageDef {
  return {
    ...image(`docker.io/kubelab/${name}`, ['1.0', 'latest'], {
      size: 6 * MiB,
      entrypoint,
      cmd,
      files: { ...busyboxFiles, '/etc/os-release': osRelease('kubelab teaching image', name, '1.0') },
      programs: entrypoint.length ? [entrypoint[0]!] : [],
      baseMemoryBytes: 1 * MiB,
      description,
      teaching: true,
    }),
    ...extra,
  };
}

/** A control-plane or add-on image as kubeadm 1.32 and kind pull it; its binary is a stand-in for the kubelab process (containerd's programs). */
function component(repository: string, tag: string, size: number, program: string, description: string): ImageDef {
  return image(repository, [tag], { size, programs: [program], description });
}

/** The sandbox image: every pod's infra container runs its `/pause`. */
function pause(tag: string, size: number): ImageDef {
  return image('registry.k8s.io/pause', [tag], {
    size,
    entrypoint: ['/pause'],
    uid: 65535,
    files: {},
    programs: ['pause'],
    baseMemoryBytes: 200 * 1024,
    description: "the sandbox image: every pod's infra container sleeps in `/pause`",
  });
}

/** Credentials of the private teaching image (documented in the README). */
export const PRIVATE_IMAGE_AUTH = { username: 'kubelab', password: 'kubelab-secret' };

const REDIS_VERSION = '7.4.1';
const POSTGRES_VERSION = '17.2';
const MYSQL_VERSION = '8.4.3';

function mysql(tags: string[], version: string): ImageDef {
  const major = version.split('.').slice(0, 2).join('.');
  return image('docker.io/library/mysql', tags, {
    size: 170 * MiB,
    entrypoint: ['docker-entrypoint.sh'],
    cmd: ['mysqld'],
    env: { PATH, GOSU_VERSION: '1.17', MYSQL_MAJOR: major, MYSQL_VERSION: `${version}-1.el9`, MYSQL_SHELL_VERSION: `${version}-1.el9` },
    exposedPorts: ['3306/tcp', '33060/tcp'],
    files: { '/etc/os-release': osRelease('Oracle Linux Server', 'ol', '9.5'), '/etc/passwd': debianPasswd('mysql:x:999:999::/var/lib/mysql:/bin/bash\n') },
    programs: ['docker-entrypoint.sh', 'mysqld', 'mysqladmin', 'mysql'],
    baseMemoryBytes: 360 * MiB,
    description: `MySQL ${version}: needs MYSQL_ROOT_PASSWORD (or MYSQL_ALLOW_EMPTY_PASSWORD, MYSQL_RANDOM_ROOT_PASSWORD), then ready for connections on :3306; \`mysqladmin ping\``,
  });
}

function httpd(repository: string, tags: string[], version: string): ImageDef {
  return image(repository, tags, {
    size: 55 * MiB,
    cmd: ['httpd-foreground'],
    env: { PATH: `/usr/local/apache2/bin:${PATH}`, HTTPD_PREFIX: '/usr/local/apache2', HTTPD_VERSION: version },
    workingDir: '/usr/local/apache2',
    exposedPorts: ['80/tcp'],
    files: { '/etc/os-release': DEBIAN_12, '/etc/passwd': debianPasswd('www-data:x:33:33:www-data:/var/www:/usr/sbin/nologin\n'), '/usr/local/apache2/htdocs/index.html': HTTPD_INDEX },
    programs: ['httpd-foreground', 'httpd'],
    baseMemoryBytes: 5 * MiB,
    description: `Apache httpd ${version}: serves htdocs on :80 ("It works!") with common-log access lines; \`httpd -v\``,
  });
}

/** busybox's /etc/passwd and /etc/group with Debian's www-data (uid/gid 33), as busybox 1.36 ships them. */
const busyboxWithWwwData = {
  ...busyboxFiles,
  '/etc/passwd': `${busyboxFiles['/etc/passwd']}www-data:x:33:33:www-data:/var/www:/bin/false\n`,
  '/etc/group': `${busyboxFiles['/etc/group']}www-data:x:33:\n`,
};

/** cri-tools' test images (gcr.io/k8s-staging-cri-tools, images/ in cri-tools): busybox 1.36.1 with one marker file, or a USER. */
function criTestImage(name: string, tags: string[], over: Partial<ImageDef> = {}): ImageDef {
  return {
    ...busybox(['1.36.1'], 2_150_000),
    repository: `gcr.io/k8s-staging-cri-tools/${name}`,
    tags,
    description: `critest's ${name}: busybox 1.36.1 with the file /${tags[0] === 'latest' ? name : tags[0]}; runs \`sh\``,
    ...over,
  };
}

function criTestUserImage(name: string, user: string): ImageDef {
  const [who, group] = user.split(':');
  const numeric = /^\d+$/.test(who!);
  return criTestImage(name, ['latest'], {
    uid: numeric ? Number(who) : 0,
    ...(numeric ? {} : { username: who! }),
    ...(group ? { gid: Number(group) } : {}),
    files: { ...busyboxWithWwwData, '/etc/os-release': osRelease('BusyBox', 'busybox', '1.36.1') },
    description: `critest's ${name}: busybox 1.36.1 with USER ${user}; runs \`sh\``,
  });
}

/** critest's marker-file images: the file / + name (or tag) tells them apart. */
const CRI_TEST_IMAGES: ImageDef[] = [
  ...['test-image-1', 'test-image-2', 'test-image-3', 'test-image-latest'].map((n) => criTestImage(n, ['latest'], { files: { ...busyboxFiles, [`/${n}`]: '' } })),
  criTestImage('test-image-digest', ['latest'], { files: { ...busyboxFiles, '/test-image-digest': '' }, digest: 'sha256:9700f9a2f5bf2c45f2f605a0bd3bce7cf37420ec9d3ed50ac2758413308766bf' }),
  criTestImage('test-image-tags', ['1', '2', '3'], {
    files: { ...busyboxFiles, '/same-image': '' },
    description: "critest's test-image-tags: busybox 1.36.1 with the file /same-image under three tags; runs `sh`",
  }),
  criTestImage('test-image-tag', ['test'], { files: { ...busyboxFiles, '/test': '' } }),
  criTestImage('test-image-tag', ['all'], { files: { ...busyboxFiles, '/all': '' } }),
  criTestUserImage('test-image-user-uid', '1002'),
  criTestUserImage('test-image-user-username', 'www-data'),
  criTestUserImage('test-image-user-uid-group', '1003:1004'),
  criTestUserImage('test-image-user-username-group', 'www-data:1004'),
  criTestImage('test-image-predefined-group', ['latest'], {
    uid: 1000,
    files: {
      ...busyboxFiles,
      '/etc/passwd': `${busyboxFiles['/etc/passwd']}default-user:x:1000:1000:Linux User,,,:/home/default-user:/bin/sh\n`,
      '/etc/group': `${busyboxFiles['/etc/group']}default-user:x:1000:\ngroup-defined-in-image:x:50000:default-user\n`,
    },
    description: "critest's test-image-predefined-group: busybox 1.36.1, USER 1000 (default-user, also in group 50000 group-defined-in-image); runs `sh`",
  }),
  (() => {
    const def = nginx(['1.25.0'], '1.25.0');
    return {
      ...def,
      repository: 'gcr.io/k8s-staging-cri-tools/hostnet-nginx-amd64',
      tags: ['latest'],
      files: {
        ...def.files,
        '/etc/nginx/conf.d/default.conf':
          'server {\n    listen       12003;\n    server_name  localhost;\n    location / {\n        root   /usr/share/nginx/html;\n        index  index.html index.htm;\n    }\n}\n',
      },
      description: "critest's hostnet-nginx: nginx 1.25.0 serving on :12003 (for host-network pods)",
    };
  })(),
  // The e2e-test-images critest pulls (registry.k8s.io/e2e-test-images).
  {
    ...busybox(['1.29-2'], 730_000),
    repository: 'registry.k8s.io/e2e-test-images/busybox',
    description: "busybox 1.29 as Kubernetes e2e tests and critest pull it (critest's default container image)",
  },
  httpd('registry.k8s.io/e2e-test-images/httpd', ['2.4.39-4'], '2.4.39'),
  { ...nginx(['1.14-2'], '1.14.2', 'alpine'), repository: 'registry.k8s.io/e2e-test-images/nginx', description: 'nginx 1.14.2 on alpine as Kubernetes e2e tests and critest pull it: serves :80' },
  image('registry.k8s.io/e2e-test-images/nonewprivs', ['1.3'], {
    size: 1_300_000,
    cmd: ['/usr/local/bin/nnp'],
    files: { ...busyboxFiles, '/etc/os-release': osRelease('BusyBox', 'busybox', '1.36.1') },
    programs: ['nnp'],
    description: "critest's nonewprivs: a setuid-root `nnp` that prints `Effective uid: N` (0, unless no_new_privs keeps the container's uid)",
  }),
];

export const CATALOG: ImageDef[] = [
  { ...pause('3.10', 320 * 1024), pinned: true },
  pause('3.9', 322 * 1024),

  // --- Base images.
  busybox(['1.37', '1.37.0', 'latest', 'stable'], 2_200_000),
  busybox(['1.36', '1.36.1'], 2_150_000),
  // The Kubernetes docs' examples pin busybox:1.28.
  busybox(['1.28', '1.28.4'], 730_000),
  alpine(['3.20', '3.20.3', 'latest'], '3.20.3'),
  image('docker.io/library/debian', ['bookworm', '12', '12.8', 'latest', 'stable'], {
    size: 48 * MiB,
    cmd: ['bash'],
    programs: ['getent', ...DEBIAN_TOOLS],
    description: 'Debian 12: bash, coreutils and procps (ps, top, free, df, mount); runs `bash`',
  }),
  image('docker.io/library/debian', ['bookworm-slim', '12-slim', '12.8-slim', 'stable-slim'], { size: 28 * MiB, cmd: ['bash'], programs: ['getent', ...DEBIAN_TOOLS], description: 'Debian 12, slim' }),
  image('docker.io/library/ubuntu', ['24.04', 'noble', 'latest'], {
    size: 29 * MiB,
    cmd: ['/bin/bash'],
    files: { '/etc/os-release': osRelease('Ubuntu', 'ubuntu', '24.04', 'Ubuntu 24.04.1 LTS'), '/etc/passwd': debianPasswd('ubuntu:x:1000:1000:Ubuntu:/home/ubuntu:/bin/bash\n') },
    programs: ['getent'],
    description: 'Ubuntu 24.04: bash and coreutils; runs `/bin/bash`',
  }),
  image('docker.io/library/ubuntu', ['22.04', 'jammy'], {
    size: 29 * MiB,
    cmd: ['/bin/bash'],
    files: { '/etc/os-release': osRelease('Ubuntu', 'ubuntu', '22.04', 'Ubuntu 22.04.5 LTS'), '/etc/passwd': debianPasswd() },
    programs: ['getent'],
    description: 'Ubuntu 22.04',
  }),

  // --- Web servers.
  nginx(['1.27', '1.27.3', 'latest', 'mainline', '1'], '1.27.3'),
  nginx(['1.27-alpine', '1.27.3-alpine', 'alpine', 'mainline-alpine'], '1.27.3', 'alpine'),
  nginx(['1.26', '1.26.2', 'stable'], '1.26.2'),
  nginx(['1.14.2', '1.14'], '1.14.2', 'stretch'),
  httpd('docker.io/library/httpd', ['2.4', '2.4.62', '2', 'latest'], '2.4.62'),
  image('docker.io/library/traefik', ['v3.2', 'v3.2.2', 'v3', 'latest'], {
    size: 48 * MiB,
    entrypoint: ['/entrypoint.sh'],
    cmd: ['traefik'],
    exposedPorts: ['80/tcp'],
    files: { ...busyboxFiles, '/etc/os-release': osRelease('Alpine Linux', 'alpine', '3.20.3', 'Alpine Linux v3.20') },
    programs: ['entrypoint.sh', 'traefik'],
    baseMemoryBytes: 30 * MiB,
    description: 'Traefik v3.2.2: answers 404 page not found on :80 (no routers); `traefik version`',
  }),

  // --- Data stores.
  image('docker.io/library/redis', ['7.4', REDIS_VERSION, '7', 'latest'], {
    size: 45 * MiB,
    entrypoint: ['docker-entrypoint.sh'],
    cmd: ['redis-server'],
    env: { PATH, GOSU_VERSION: '1.17', REDIS_VERSION, REDIS_DOWNLOAD_URL: `http://download.redis.io/releases/redis-${REDIS_VERSION}.tar.gz` },
    workingDir: '/data',
    exposedPorts: ['6379/tcp'],
    files: { '/etc/os-release': DEBIAN_12, '/etc/passwd': debianPasswd('redis:x:999:999::/home/redis:/bin/sh\n'), '/data/.keep': '' },
    programs: ['docker-entrypoint.sh', 'redis-server', 'redis-cli'],
    baseMemoryBytes: 4 * MiB,
    description: `Redis ${REDIS_VERSION}: RESP on :6379 (PING, SET, GET, INCR, DEL, KEYS, INFO…); \`redis-cli\` in the container`,
  }),
  image('docker.io/library/postgres', ['17', POSTGRES_VERSION, '17-bookworm', 'latest'], {
    size: 150 * MiB,
    entrypoint: ['docker-entrypoint.sh'],
    cmd: ['postgres'],
    env: { PATH: `${PATH}:/usr/lib/postgresql/17/bin`, GOSU_VERSION: '1.17', LANG: 'en_US.utf8', PG_MAJOR: '17', PG_VERSION: `${POSTGRES_VERSION}-1.pgdg120+1`, PGDATA: '/var/lib/postgresql/data' },
    exposedPorts: ['5432/tcp'],
    files: { '/etc/os-release': DEBIAN_12, '/etc/passwd': debianPasswd('postgres:x:999:999::/var/lib/postgresql:/bin/bash\n') },
    programs: ['docker-entrypoint.sh', 'postgres', 'pg_isready', 'psql'],
    baseMemoryBytes: 22 * MiB,
    description: `PostgreSQL ${POSTGRES_VERSION}: needs POSTGRES_PASSWORD (else exits 1 with the image's error), then accepts connections on :5432; \`pg_isready\``,
  }),
  mysql(['9.1', '9.1.0', '9', 'latest'], '9.1.0'),
  mysql(['8.4', MYSQL_VERSION, '8', 'lts'], MYSQL_VERSION),
  mysql(['8.0', '8.0.40'], '8.0.40'),
  image('docker.io/library/mongo', ['8.0', '8.0.4', '8', 'latest'], {
    size: 270 * MiB,
    entrypoint: ['docker-entrypoint.sh'],
    cmd: ['mongod'],
    env: { PATH, GOSU_VERSION: '1.17', JSYAML_VERSION: '3.13.1', MONGO_MAJOR: '8.0', MONGO_VERSION: '8.0.4', HOME: '/data/db' },
    exposedPorts: ['27017/tcp'],
    files: { '/etc/os-release': osRelease('Ubuntu', 'ubuntu', '24.04', 'Ubuntu 24.04.1 LTS'), '/etc/passwd': debianPasswd('mongodb:x:999:999::/data/db:/bin/sh\n') },
    programs: ['docker-entrypoint.sh', 'mongod'],
    baseMemoryBytes: 80 * MiB,
    description: 'MongoDB 8.0.4: structured JSON log lines, "Waiting for connections" on :27017',
  }),
  image('docker.io/library/memcached', ['1.6', '1.6.34', '1', 'latest'], {
    size: 30 * MiB,
    entrypoint: ['docker-entrypoint.sh'],
    cmd: ['memcached'],
    env: { PATH, MEMCACHED_VERSION: '1.6.34' },
    uid: 11211,
    exposedPorts: ['11211/tcp'],
    files: { '/etc/os-release': DEBIAN_12, '/etc/passwd': debianPasswd('memcache:x:11211:11211::/home/memcache:/usr/sbin/nologin\n') },
    programs: ['docker-entrypoint.sh', 'memcached'],
    baseMemoryBytes: 2 * MiB,
    description: 'memcached 1.6.34: the text protocol on :11211 (set, get, delete, incr, stats, version)',
  }),
  image('docker.io/library/rabbitmq', ['4.0', '4.0.4', '4', 'latest'], {
    size: 100 * MiB,
    entrypoint: ['docker-entrypoint.sh'],
    cmd: ['rabbitmq-server'],
    env: {
      PATH: `/opt/rabbitmq/sbin:/opt/erlang/bin:${PATH}`,
      RABBITMQ_VERSION: '4.0.4',
      RABBITMQ_DATA_DIR: '/var/lib/rabbitmq',
      RABBITMQ_HOME: '/opt/rabbitmq',
      HOME: '/var/lib/rabbitmq',
      LANG: 'C.UTF-8',
    },
    exposedPorts: ['4369/tcp', '5671/tcp', '5672/tcp', '15691/tcp', '15692/tcp', '25672/tcp'],
    files: { '/etc/os-release': osRelease('Ubuntu', 'ubuntu', '24.04', 'Ubuntu 24.04.1 LTS'), '/etc/passwd': debianPasswd('rabbitmq:x:999:999::/var/lib/rabbitmq:/usr/sbin/nologin\n') },
    programs: ['docker-entrypoint.sh', 'rabbitmq-server'],
    baseMemoryBytes: 110 * MiB,
    description: 'RabbitMQ 4.0.4: boot log up to "Server startup complete", listens on :5672',
  }),

  // --- Language runtimes.
  image('docker.io/library/python', ['3.13', '3.13.1', '3', 'latest'], {
    size: 390 * MiB,
    cmd: ['python3'],
    env: { PATH, LANG: 'C.UTF-8', GPG_KEY: '7169605F62C751356D054A26A821E680E5FA6305', PYTHON_VERSION: '3.13.1', PYTHON_SHA256: '' },
    programs: ['python3', 'python', 'curl'],
    baseMemoryBytes: 9 * MiB,
    description: 'Python 3.13.1: `python -m http.server [port]` serves the working directory; `python --version`',
  }),
  image('docker.io/library/python', ['3.13-slim', '3.13.1-slim', 'slim'], {
    size: 45 * MiB,
    cmd: ['python3'],
    env: { PATH, LANG: 'C.UTF-8', PYTHON_VERSION: '3.13.1' },
    programs: ['python3', 'python'],
    baseMemoryBytes: 9 * MiB,
    description: 'Python 3.13.1, slim',
  }),
  image('docker.io/library/node', ['22', '22.12', '22.12.0', 'lts', 'latest'], {
    size: 390 * MiB,
    entrypoint: ['docker-entrypoint.sh'],
    cmd: ['node'],
    env: { PATH, NODE_VERSION: '22.12.0', YARN_VERSION: '1.22.22' },
    files: { '/etc/os-release': DEBIAN_12, '/etc/passwd': debianPasswd('node:x:1000:1000::/home/node:/bin/bash\n') },
    programs: ['docker-entrypoint.sh', 'node', 'curl'],
    baseMemoryBytes: 40 * MiB,
    description: 'Node.js 22.12.0: `node --version`; `node` without a script exits (no REPL on a non-terminal)',
  }),
  image('docker.io/library/golang', ['1.23', '1.23.4', '1', 'latest'], {
    size: 290 * MiB,
    cmd: ['bash'],
    env: { PATH: `/go/bin:/usr/local/go/bin:${PATH}`, GOLANG_VERSION: '1.23.4', GOTOOLCHAIN: 'local', GOPATH: '/go' },
    workingDir: '/go',
    programs: ['go', 'curl'],
    description: 'Go 1.23.4 as a build image: `go version`, `go env GOPATH`',
  }),

  // --- The images Kubernetes' own tests and docs use.
  image('registry.k8s.io/e2e-test-images/agnhost', ['2.53', '2.52', '2.39'], {
    size: 51 * MiB,
    entrypoint: ['/agnhost'],
    cmd: ['pause'],
    files: { ...busyboxFiles, '/etc/os-release': osRelease('Alpine Linux', 'alpine', '3.20.3', 'Alpine Linux v3.20') },
    programs: ['agnhost'],
    baseMemoryBytes: 6 * MiB,
    description: 'agnhost: `netexec` (HTTP :8080: /hostname, /echo, /clientip, /healthz, /exit), `serve-hostname` (:9376), `liveness` (healthy 10 s), `porter` (SERVE_PORT_<n>), `pause`',
  }),
  { ...busybox(['1.36.1-1'], 2_200_000), repository: 'registry.k8s.io/e2e-test-images/busybox', description: 'busybox as Kubernetes e2e tests pull it' },
  // The docs' "Debugging DNS Resolution" pod (dnsutils): bind's lookup tools on Debian 8.
  image('registry.k8s.io/e2e-test-images/jessie-dnsutils', ['1.3'], {
    size: 107 * MiB,
    cmd: ['bash'],
    files: { '/etc/os-release': osRelease('Debian GNU/Linux', 'debian', '8', 'Debian GNU/Linux 8 (jessie)'), '/etc/passwd': debianPasswd() },
    programs: ['nslookup', 'host', 'getent'],
    description: "DNS lookup tools as the docs' dnsutils pod runs them: bind's `nslookup` and `host`, `getent hosts` (no `dig`)",
  }),

  // --- The control plane and add-ons of a kubeadm 1.32 / kind cluster: stand-ins, the real process is kubelab's.
  component('registry.k8s.io/kube-apiserver', 'v1.32.0', 28 * MiB, 'kube-apiserver', "kubeadm's static pod: a stand-in for kubelab's apiserver"),
  component('registry.k8s.io/kube-controller-manager', 'v1.32.0', 26 * MiB, 'kube-controller-manager', "kubeadm's static pod: a stand-in for kubelab's controller-manager"),
  component('registry.k8s.io/kube-scheduler', 'v1.32.0', 20 * MiB, 'kube-scheduler', "kubeadm's static pod: a stand-in for kubelab's scheduler"),
  component('registry.k8s.io/kube-proxy', 'v1.32.0', 30 * MiB, 'kube-proxy', "the kube-proxy DaemonSet's pod: a stand-in for the node's kube-proxy"),
  component('registry.k8s.io/etcd', '3.5.16-0', 57 * MiB, 'etcd', "kubeadm's etcd image (kubelab's store is NATS: see nats)"),
  // CoreDNS itself (programs/coredns.ts): the image's entrypoint is the binary, kubeadm's Deployment passes `-conf /etc/coredns/Corefile`.
  {
    ...component(
      'registry.k8s.io/coredns/coredns',
      'v1.11.3',
      16 * MiB,
      'coredns',
      'CoreDNS 1.11.3 as kubeadm deploys it: cluster DNS for `cluster.local` on 53/UDP and 53/TCP from the watched Services and EndpointSlices, forwarding the rest; /health :8080, /ready :8181, metrics :9153',
    ),
    entrypoint: ['/coredns'],
  },
  // metrics-server's Deployment (upstream components.yaml; the image's entrypoint is the binary): a stand-in for kubelab's metrics-server process.
  {
    ...component('registry.k8s.io/metrics-server/metrics-server', 'v0.7.2', 19 * MiB, 'metrics-server', "metrics-server's Deployment pod: a stand-in for kubelab's metrics-server process"),
    entrypoint: ['/metrics-server'],
  },
  component('docker.io/rancher/local-path-provisioner', 'v0.0.30', 18 * MiB, 'local-path-provisioner', "kind's default storage provisioner: a stand-in"),
  component('registry.k8s.io/node-problem-detector/node-problem-detector', 'v0.8.25', 45 * MiB, 'node-problem-detector', "the Node Problem Detector DaemonSet's pod: a stand-in for the node's NPD"),
  // kube-network-policies' DaemonSet pod (kubernetes-sigs/kube-network-policies): a shell that says where the node's agent runs.
  image('registry.k8s.io/networking/kube-network-policies', ['v0.7.0'], {
    size: 24 * MiB,
    files: { ...busyboxFiles },
    description: "the NetworkPolicy agent DaemonSet's pod: a stand-in for the node's kube-network-policies",
  }),
  // The store's static pod: NATS in etcd's role.
  { ...component('docker.io/library/nats', '2.10', 7 * MiB, 'nats-server', "the store's static pod: NATS in etcd's role, a stand-in"), tags: ['2.10', '2.10.24', 'latest'] },

  // --- Teaching images: each makes a failure mode observable.
  teaching('crasher', ['crasher'], ['5'], 'exits 1 after N seconds (args: [N], default 5): CrashLoopBackOff on demand'),
  teaching('slow-start', ['slow-start'], ['20'], 'listens on :8080 (/healthz) only after N seconds (default 20): startup probes'),
  teaching('memhog', ['memhog'], ['10'], 'allocates 10 MiB per second until its memory limit: OOMKilled'),
  teaching('grpc-health', ['grpc-health'], ['8080'], 'serves grpc.health.v1.Health on :8080 (args: [port] [service...]); `echo NOT_SERVING > /tmp/grpc-status` flips it: gRPC probes'),
  // The Kubernetes docs' memory example: `stress --vm 1 --vm-bytes 150M --vm-hang 1` holds that much memory.
  {
    ...teaching('stress', [], ['stress'], "the Kubernetes docs' `polinux/stress`: holds `--vm N --vm-bytes SIZE` of memory and burns `--cpu N` cores"),
    repository: 'docker.io/polinux/stress',
    tags: ['latest', '1.0.4'],
    programs: ['stress'],
  },
  // Needs imagePullSecrets: ErrImagePull/ImagePullBackOff without them.
  {
    ...teaching(
      'app',
      [],
      ['sh', '-c', 'echo "private app ready"; while true; do sleep 3600; done'],
      'needs `imagePullSecrets` (user `kubelab`, password `kubelab-secret`): ErrImagePull without them',
    ),
    repository: 'registry.kubelab.io/private/app',
    auth: PRIVATE_IMAGE_AUTH,
  },

  // --- The CRI validation suite's images (critest, kubernetes-sigs/cri-tools).
  ...CRI_TEST_IMAGES,
];
