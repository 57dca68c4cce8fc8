// The catalogue's servers and their clients inside one container, over real
// loopback sockets (the local runner's network mode): what `kubectl logs`
// and `kubectl exec` show a learner.

import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '@kubelab/testing';
import { HTTPD_INDEX } from '@kubelab/images';
import { startProcess, type StartedProcess } from '../testing/process.js';

let running: StartedProcess | undefined;
afterEach(() => {
  running?.p.kill();
  running = undefined;
});

function start(argv: string[], programs: string[], env: Record<string, string> = {}, files: Record<string, string> = {}): StartedProcess {
  running = startProcess(argv, { programs, env, files, network: true, timeScale: 1 });
  return running;
}

const logged = (s: StartedProcess, text: string) => waitFor(`log line ${text}`, () => s.log.some((l) => l.includes(text)), { timeoutMs: 5000 });

async function get(s: StartedProcess, port: number, path: string): Promise<{ status: number; body: string }> {
  const where = s.ports.get(port)!;
  const res = await fetch(`http://${where.hostIp}:${where.hostPort}${path}`);
  return { status: res.status, body: await res.text() };
}

/** Sends `text` over a raw TCP connection to the container port and collects what comes back until `until` appears. */
async function talk(s: StartedProcess, port: number, text: string, until: string): Promise<string> {
  const where = s.ports.get(port)!;
  const sock = connect(where.hostPort, where.hostIp);
  let got = '';
  await new Promise<void>((resolve, reject) => {
    sock.on('data', (d) => {
      got += d.toString();
      if (got.includes(until)) resolve();
    });
    sock.once('error', reject);
    sock.write(text);
  });
  sock.destroy();
  return got;
}

describe('redis', () => {
  it('logs Ready to accept connections and answers redis-cli from inside the container', async () => {
    const s = start(['docker-entrypoint.sh', 'redis-server'], ['docker-entrypoint.sh', 'redis-server', 'redis-cli'], { REDIS_VERSION: '7.4.1' });
    await logged(s, 'Ready to accept connections tcp');
    expect(s.log.some((l) => /^stdout: 1:C \d\d \w{3} \d{4} [\d:.]+ \* oO0OoO0OoO0Oo Redis is starting oO0OoO0OoO0Oo$/.test(l))).toBe(true);
    expect(await s.p.execSync(['redis-cli', 'SET', 'k', 'v'], 5000)).toMatchObject({ stdout: 'OK\n', exitCode: 0 });
    expect(await s.p.execSync(['redis-cli', 'INCR', 'n'], 5000)).toMatchObject({ stdout: '1\n' });
    expect(await s.p.execSync(['redis-cli', '--no-raw', 'GET', 'k'], 5000)).toMatchObject({ stdout: '"v"\n' });
    expect(await s.p.execSync(['sh', '-c', 'printf "GET k\\nKEYS *\\n" | redis-cli'], 5000)).toMatchObject({ stdout: 'v\nk\nn\n' });
    expect(await s.p.execSync(['redis-cli', '--version'], 5000)).toMatchObject({ stdout: 'redis-cli 7.4.1\n' });
  });

  it('reports connection failures as redis-cli does', async () => {
    const s = start(['sleep', '30'], ['redis-cli']);
    expect(await s.p.execSync(['redis-cli', 'PING'], 5000)).toMatchObject({ stderr: 'Could not connect to Redis at 127.0.0.1:6379: Connection refused\n', exitCode: 1 });
    expect(await s.p.execSync(['redis-cli', '-h', 'redis', 'PING'], 5000)).toMatchObject({ stderr: 'Could not connect to Redis at redis:6379: Name or service not known\n', exitCode: 1 });
  });
});

describe('httpd', () => {
  it('serves htdocs with the ServerName warning and common-log access lines', async () => {
    const s = start(['httpd-foreground'], ['httpd-foreground', 'httpd'], { HTTPD_VERSION: '2.4.62', HTTPD_PREFIX: '/usr/local/apache2' }, { '/usr/local/apache2/htdocs/index.html': HTTPD_INDEX });
    await logged(s, 'AH00094');
    expect(s.log).toContain(
      "stderr: AH00558: httpd: Could not reliably determine the server's fully qualified domain name, using 127.0.0.1. Set the 'ServerName' directive globally to suppress this message",
    );
    expect(await get(s, 80, '/')).toEqual({ status: 200, body: '<html><body><h1>It works!</h1></body></html>\n' });
    expect((await get(s, 80, '/nope')).status).toBe(404);
    await logged(s, '"GET /nope HTTP/1.1" 404 196');
    expect(s.log.some((l) => /^stdout: 127\.0\.0\.1 - - \[\d\d\/\w{3}\/\d{4}:[\d:]+ \+0000\] "GET \/ HTTP\/1\.1" 200 45$/.test(l))).toBe(true);
    expect(await s.p.execSync(['httpd', '-v'], 5000)).toMatchObject({ stdout: 'Server version: Apache/2.4.62 (Unix)\nServer built:   Nov  5 2024 04:13:41\n' });
  });
});

describe('postgres and mysql', () => {
  it('postgres without POSTGRES_PASSWORD exits 1 with the image error', async () => {
    const s = start(['docker-entrypoint.sh', 'postgres'], ['docker-entrypoint.sh', 'postgres'], { PG_MAJOR: '17' });
    const exit = await s.p.exited;
    expect(exit.exitCode).toBe(1);
    expect(s.log).toContain('stderr: Error: Database is uninitialized and superuser password is not specified.');
  });

  it('postgres with a password initialises, is ready, and pg_isready says so', async () => {
    const s = start(['docker-entrypoint.sh', 'postgres'], ['docker-entrypoint.sh', 'postgres', 'pg_isready'], {
      POSTGRES_PASSWORD: 'pw',
      PG_VERSION: '17.2-1.pgdg120+1',
      PGDATA: '/var/lib/postgresql/data',
    });
    await logged(s, 'database system is ready to accept connections');
    expect(s.log).toContain('stdout: PostgreSQL init process complete; ready for start up.');
    expect(s.log.some((l) => /^stderr: \d{4}-\d\d-\d\d [\d:.]+ UTC \[1\] LOG: {2}database system is ready to accept connections$/.test(l))).toBe(true);
    expect(await s.p.execSync(['pg_isready'], 5000)).toMatchObject({ stdout: '/var/run/postgresql:5432 - accepting connections\n', exitCode: 0 });
    expect(await s.p.execSync(['pg_isready', '-p', '5433'], 5000)).toMatchObject({ stdout: '/var/run/postgresql:5433 - no response\n', exitCode: 2 });
  });

  it('mysqld is ready for connections and mysqladmin ping answers', async () => {
    const s = start(['docker-entrypoint.sh', 'mysqld'], ['docker-entrypoint.sh', 'mysqld', 'mysqladmin'], { MYSQL_ROOT_PASSWORD: 'pw', MYSQL_VERSION: '8.4.3-1.el9' });
    await logged(s, 'ready for connections');
    expect(
      s.log.some((l) =>
        l.endsWith("[System] [MY-010931] [Server] /usr/sbin/mysqld: ready for connections. Version: '8.4.3'  socket: '/var/run/mysqld/mysqld.sock'  port: 3306  MySQL Community Server - GPL."),
      ),
    ).toBe(true);
    expect(await s.p.execSync(['mysqladmin', 'ping', '-h', '127.0.0.1'], 5000)).toMatchObject({ stdout: 'mysqld is alive\n', exitCode: 0 });
  });
});

describe('memcached', () => {
  it('speaks the text protocol', async () => {
    const s = start(['memcached'], ['memcached']);
    await waitFor('port 11211', () => s.ports.has(11211), { timeoutMs: 5000 });
    expect(await talk(s, 11211, 'set k 0 0 1\r\nv\r\nget k\r\nincr k 1\r\n', 'CLIENT_ERROR')).toBe(
      'STORED\r\nVALUE k 0 1\r\nv\r\nEND\r\nCLIENT_ERROR cannot increment or decrement non-numeric value\r\n',
    );
  });
});

describe('python, node and agnhost', () => {
  it('python -m http.server lists the directory and logs each request', async () => {
    const s = start(['python3', '-m', 'http.server', '8000'], ['python3'], {}, { '/srv/data/a.txt': 'a\n' });
    await logged(s, 'Serving HTTP on 0.0.0.0 port 8000 (http://0.0.0.0:8000/) ...');
    const listing = await get(s, 8000, '/srv/data/');
    expect(listing.body).toContain('<title>Directory listing for /srv/data/</title>');
    expect(listing.body).toContain('<li><a href="a.txt">a.txt</a></li>');
    await logged(s, '"GET /srv/data/ HTTP/1.1" 200 -');
    expect(await s.p.execSync(['python3', '--version'], 5000)).toMatchObject({ stdout: 'Python 3.13.1\n' });
    expect(await s.p.execSync(['python3', '-c', "import sys; print('hi')"], 5000)).toMatchObject({ stdout: 'hi\n' });
  });

  it("node -e serves a tutorial's one-line server", async () => {
    const s = start(['node', '-e', "require('http').createServer((q, s) => s.end('hello from node')).listen(8080)"], ['node']);
    await waitFor('port 8080', () => s.ports.has(8080), { timeoutMs: 5000 });
    expect(await get(s, 8080, '/')).toEqual({ status: 200, body: 'hello from node' });
  });

  it('agnhost netexec answers /hostname, /echo and /exit', async () => {
    const s = start(['agnhost', 'netexec', '--http-port=8080'], ['agnhost']);
    await logged(s, 'Started HTTP server on port 8080');
    expect(await get(s, 8080, '/hostname')).toEqual({ status: 200, body: 'test' });
    expect(await get(s, 8080, '/echo?msg=hi')).toEqual({ status: 200, body: 'hi' });
    await get(s, 8080, '/exit?code=3');
    expect((await s.p.exited).exitCode).toBe(3);
  });

  it('agnhost with an unknown subcommand fails as cobra does', async () => {
    const s = start(['agnhost', 'nope'], ['agnhost']);
    expect((await s.p.exited).exitCode).toBe(1);
    expect(s.log).toContain('stderr: Error: unknown command "nope" for "agnhost"');
  });
});

describe('wget and curl in a container', () => {
  it('busybox wget -T bounds the connect too: a peer that drops SYNs ends as `download timed out` (the NetworkPolicy lab)', async () => {
    const s = (running = startProcess(['sleep', '1000'], { programs: ['wget'], timeScale: 1, connect: () => new Promise(() => undefined) }));
    expect(await s.p.execSync(['wget', '-qO-', '-T', '1', 'http://10.96.0.20/'], 5000)).toMatchObject({ stderr: 'wget: download timed out\n', exitCode: 1 });
    expect(await s.p.execSync(['wget', '-O-', '--timeout=1', 'http://10.96.0.20/'], 5000)).toMatchObject({
      stderr: 'Connecting to 10.96.0.20 (10.96.0.20:80)\nwget: download timed out\n',
      exitCode: 1,
    });
  });

  const server = () => start(['agnhost', 'netexec', '--http-port=8080'], ['agnhost', 'wget', 'curl']);

  it("busybox wget: -qO- prints the body, the progress lines otherwise, busybox's errors", async () => {
    const s = server();
    await logged(s, 'Started HTTP server on port 8080');
    expect(await s.p.execSync(['wget', '-qO-', 'http://127.0.0.1:8080/hostname'], 5000)).toMatchObject({ stdout: 'test', stderr: '', exitCode: 0 });
    const loud = await s.p.execSync(['wget', '-O-', 'localhost:8080/echo?msg=hi'], 5000);
    expect(loud.stdout).toBe('hi');
    expect(loud.stderr).toMatch(/^Connecting to localhost:8080 \(localhost:8080\)\nwriting to stdout\n- {20}100% \|\*+\| {5}2 {2}0:00:00 ETA\nwritten to stdout\n$/);
    expect(await s.p.execSync(['sh', '-c', 'cd /tmp && wget -q http://127.0.0.1:8080/hostname && cat hostname'], 5000)).toMatchObject({ stdout: 'test' });
    expect(await s.p.execSync(['wget', '-q', '-O-', 'http://127.0.0.1:8080/nope'], 5000)).toMatchObject({ stderr: 'wget: server returned error: HTTP/1.1 404 Not Found\n', exitCode: 1 });
    expect(await s.p.execSync(['wget', '-qO-', 'http://127.0.0.1:9/'], 5000)).toMatchObject({ stderr: "wget: can't connect to remote host (127.0.0.1): Connection refused\n", exitCode: 1 });
    expect(await s.p.execSync(['wget', '-qO-', 'http://web/'], 5000)).toMatchObject({ stderr: "wget: bad address 'web'\n", exitCode: 1 });
  });

  it("curl: the body, -f, -I, -o, and curl's exit codes", async () => {
    const s = server();
    await logged(s, 'Started HTTP server on port 8080');
    expect(await s.p.execSync(['curl', '-s', 'http://localhost:8080/echo?msg=hello'], 5000)).toMatchObject({ stdout: 'hello', stderr: '', exitCode: 0 });
    expect((await s.p.execSync(['curl', 'http://localhost:8080/hostname'], 5000)).stderr).toContain('  % Total    % Received % Xferd  Average Speed');
    expect(await s.p.execSync(['curl', '-sf', 'http://localhost:8080/nope'], 5000)).toMatchObject({ stdout: '', exitCode: 22 });
    expect(await s.p.execSync(['curl', '-sSf', 'http://localhost:8080/nope'], 5000)).toMatchObject({ stderr: 'curl: (22) The requested URL returned error: 404\n', exitCode: 22 });
    expect((await s.p.execSync(['curl', '-sI', 'http://localhost:8080/hostname'], 5000)).stdout).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(await s.p.execSync(['sh', '-c', 'curl -s -o /tmp/h http://localhost:8080/hostname && cat /tmp/h'], 5000)).toMatchObject({ stdout: 'test' });
    expect(await s.p.execSync(['curl', '-s', 'http://127.0.0.1:9/'], 5000)).toMatchObject({ stderr: '', exitCode: 7 });
    expect(await s.p.execSync(['curl', 'http://127.0.0.1:9/'], 5000)).toMatchObject({
      stderr: "curl: (7) Failed to connect to 127.0.0.1 port 9 after 0 ms: Couldn't connect to server\n",
      exitCode: 7,
    });
    expect(await s.p.execSync(['curl', '-sS', 'http://web/'], 5000)).toMatchObject({ stderr: 'curl: (6) Could not resolve host: web\n', exitCode: 6 });
  });
});
