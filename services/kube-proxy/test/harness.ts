// Small HTTP helpers for the tests that start a server (loopback only).

export async function get(port: number, path: string): Promise<{ status: number; body: string; headers: Headers }> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`);
  return { status: res.status, body: await res.text(), headers: res.headers };
}
