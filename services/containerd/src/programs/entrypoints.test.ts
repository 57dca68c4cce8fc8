import { describe, expect, it } from 'vitest';
import { runEntrypoint } from './entrypoints.js';

const NOW = new Date('2026-12-02T11:40:00.000Z');

describe("the official images' entrypoint scripts", () => {
  it('leave argv alone when the image does not ship the script', () => {
    expect(runEntrypoint(['docker-entrypoint.sh', 'nginx'], {}, ['nginx'], NOW)).toBeUndefined();
    expect(runEntrypoint(['nginx', '-g', 'daemon off;'], {}, ['nginx', 'docker-entrypoint.sh'], NOW)).toBeUndefined();
  });

  it("prints nginx's last configuration line", () => {
    expect(runEntrypoint(['/docker-entrypoint.sh', 'nginx', '-g', 'daemon off;'], {}, ['nginx', 'docker-entrypoint.sh'], NOW)).toEqual({
      prelude: "echo '/docker-entrypoint.sh: Configuration complete; ready for start up'\n",
      argv: ['nginx', '-g', 'daemon off;'],
    });
  });

  it('hands a first argument that is a flag to the server (docker run redis --port 7000)', () => {
    expect(runEntrypoint(['docker-entrypoint.sh', '--port', '7000'], {}, ['docker-entrypoint.sh', 'redis-server', 'redis-cli'], NOW)?.argv).toEqual(['redis-server', '--port', '7000']);
    expect(runEntrypoint(['docker-entrypoint.sh', 'redis-cli', 'ping'], {}, ['docker-entrypoint.sh', 'redis-server', 'redis-cli'], NOW)?.argv).toEqual(['redis-cli', 'ping']);
  });

  it('stops postgres without POSTGRES_PASSWORD, as the image does', () => {
    const e = runEntrypoint(['docker-entrypoint.sh', 'postgres'], { PG_MAJOR: '17' }, ['docker-entrypoint.sh', 'postgres'], NOW)!;
    expect(e.prelude).toContain("echo 'Error: Database is uninitialized and superuser password is not specified.' >&2\n");
    expect(e.prelude.endsWith('exit 1\n')).toBe(true);
    const trusted = runEntrypoint(['docker-entrypoint.sh', 'postgres'], { POSTGRES_HOST_AUTH_METHOD: 'trust' }, ['docker-entrypoint.sh', 'postgres'], NOW)!;
    expect(trusted.prelude).toContain('PostgreSQL init process complete; ready for start up.');
    expect(trusted.prelude).not.toContain('exit 1');
  });

  it('stops mysqld without a root password option, with timestamps', () => {
    const e = runEntrypoint(['docker-entrypoint.sh', 'mysqld'], { MYSQL_VERSION: '8.4.3-1.el9' }, ['docker-entrypoint.sh', 'mysqld'], NOW)!;
    expect(e.prelude).toContain("echo '2026-12-02 11:40:00+00:00 [ERROR] [Entrypoint]: Database is uninitialized and password option is not specified' >&2\n");
    expect(e.prelude).toContain("echo '    - MYSQL_RANDOM_ROOT_PASSWORD' >&2\nexit 1\n");
    const ok = runEntrypoint(['docker-entrypoint.sh', 'mysqld'], { MYSQL_ROOT_PASSWORD: 'pw' }, ['docker-entrypoint.sh', 'mysqld'], NOW)!;
    expect(ok.prelude).toContain('MySQL init process done. Ready for start up.');
  });
});
