// The official images' entrypoint scripts (docker-entrypoint.sh and
// traefik's entrypoint.sh): what each prints and checks before it execs the
// server, as a shell prelude to PID 1's command. A pure decision: argv, env
// and the image's programs in, the prelude and the argv it execs out.

import { basename, quoteArg } from '../shell.js';

export interface Entrypoint {
  /** Shell text run before the command (may `exit 1`: a required variable missing). */
  prelude: string;
  /** What the script execs. */
  argv: string[];
}

const ENTRYPOINTS = new Set(['docker-entrypoint.sh', 'entrypoint.sh']);

const echo = (lines: string[], stream: 1 | 2 = 1) => lines.map((l) => `echo ${quoteArg(l)}${stream === 2 ? ' >&2' : ''}\n`).join('');

/** postgres' entrypoint refuses to initialise without a superuser password (its docker_verify_minimum_env). */
function postgres(env: Record<string, string>): string {
  if (!env.POSTGRES_PASSWORD && env.POSTGRES_HOST_AUTH_METHOD !== 'trust') {
    return `${echo(
      [
        'Error: Database is uninitialized and superuser password is not specified.',
        '       You must specify POSTGRES_PASSWORD to a non-empty value for the',
        '       superuser. For example, "-e POSTGRES_PASSWORD=password" on "docker run".',
        '',
        '       You may also use "POSTGRES_HOST_AUTH_METHOD=trust" to allow all',
        '       connections without a password. This is *not* recommended.',
        '',
        '       See PostgreSQL documentation about "trust":',
        '       https://www.postgresql.org/docs/current/auth-trust.html',
      ],
      2,
    )}exit 1\n`;
  }
  const pgdata = env.PGDATA || '/var/lib/postgresql/data';
  // A data directory that has a PG_VERSION (a volume kept from an earlier run) is not initialised again.
  return `if [ -s ${quoteArg(pgdata)}/PG_VERSION ]; then
${echo(['', 'PostgreSQL Database directory appears to contain a database; Skipping initialization', ''])}else
mkdir -p ${quoteArg(pgdata)} && echo ${quoteArg(env.PG_MAJOR ?? '17')} > ${quoteArg(pgdata)}/PG_VERSION
${echo([
  'The files belonging to this database system will be owned by user "postgres".',
  'This user must also own the server process.',
  '',
  'The database cluster will be initialized with locale "en_US.utf8".',
  'The default database encoding has accordingly been set to "UTF8".',
  'The default text search configuration will be set to "english".',
  '',
  `fixing permissions on existing directory ${pgdata} ... ok`,
  'creating subdirectories ... ok',
  'performing post-bootstrap initialization ... ok',
  'syncing data to disk ... ok',
  '',
  'Success. You can now start the database server using:',
  '',
  `    pg_ctl -D ${pgdata} -l logfile start`,
  '',
  '',
  'PostgreSQL init process complete; ready for start up.',
  '',
])}fi
`;
}

/** mysql's entrypoint: its notes, and the password check of docker_verify_minimum_env. */
function mysql(env: Record<string, string>, now: Date): string {
  const ts = `${now.toISOString().slice(0, 19).replace('T', ' ')}+00:00`;
  const version = env.MYSQL_VERSION ?? '8.4.3-1.el9';
  const notes = echo([
    `${ts} [Note] [Entrypoint]: Entrypoint script for MySQL Server ${version} started.`,
    `${ts} [Note] [Entrypoint]: Switching to dedicated user 'mysql'`,
    `${ts} [Note] [Entrypoint]: Entrypoint script for MySQL Server ${version} started.`,
  ]);
  if (!env.MYSQL_ROOT_PASSWORD && !env.MYSQL_ALLOW_EMPTY_PASSWORD && !env.MYSQL_RANDOM_ROOT_PASSWORD) {
    return `${notes}${echo(
      [
        `${ts} [ERROR] [Entrypoint]: Database is uninitialized and password option is not specified`,
        '    You need to specify one of the following as an environment variable:',
        '    - MYSQL_ROOT_PASSWORD',
        '    - MYSQL_ALLOW_EMPTY_PASSWORD',
        '    - MYSQL_RANDOM_ROOT_PASSWORD',
      ],
      2,
    )}exit 1\n`;
  }
  return `${notes}${echo([`${ts} [Note] [Entrypoint]: Initializing database files`, `${ts} [Note] [Entrypoint]: Database files initialized`, `${ts} [Note] [Entrypoint]: MySQL init process done. Ready for start up.`, ''])}`;
}

/** When argv starts with an image entrypoint script the image ships, what it does before exec'ing the rest; undefined otherwise. */
export function runEntrypoint(argv: readonly string[], env: Record<string, string>, programs: readonly string[], now = new Date()): Entrypoint | undefined {
  const script = argv[0] === undefined ? '' : basename(argv[0]);
  if (!ENTRYPOINTS.has(script) || !programs.includes(script)) return undefined;
  let rest = argv.slice(1);
  // `docker run redis --port 7000`: a first argument that is a flag goes to the image's server.
  const server = programs.find((p) => ['redis-server', 'memcached', 'mongod', 'traefik', 'node'].includes(p));
  if (server && (rest.length === 0 || rest[0]!.startsWith('-'))) rest = [server, ...rest];
  const cmd = rest[0] === undefined ? '' : basename(rest[0]);
  let prelude = '';
  if (cmd === 'nginx' && programs.includes('nginx')) prelude = echo(['/docker-entrypoint.sh: Configuration complete; ready for start up']);
  else if (cmd === 'postgres' && programs.includes('postgres')) prelude = postgres(env);
  else if (cmd === 'mysqld' && programs.includes('mysqld')) prelude = mysql(env, now);
  return { prelude, argv: rest };
}
