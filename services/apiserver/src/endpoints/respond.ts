// Writing responses: JSON objects and metav1.Status errors.

import type { ServerResponse } from 'node:http';
import { toStatus, type Status } from '@kubelab/api';

/** `body`: an object to serialize, or JSON already encoded (a string, or bytes such as a list's). */
export function writeJson(res: ServerResponse, code: number, body: unknown, headers: Record<string, string | string[]> = {}): void {
  const text = typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
  res.writeHead(code, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** A protobuf body (upstream's Content-Type carries no parameters for a single object or list). */
export function writeProtobuf(res: ServerResponse, code: number, body: Buffer, headers: Record<string, string | string[]> = {}): void {
  res.writeHead(code, { 'Content-Type': 'application/vnd.kubernetes.protobuf', 'Content-Length': body.length, ...headers });
  res.end(body);
}

export function writeStatus(res: ServerResponse, err: unknown): Status {
  const status = toStatus(err);
  if (res.headersSent) {
    res.end();
    return status;
  }
  writeJson(res, status.code || 500, status);
  return status;
}

/** Warnings as upstream sends them: `Warning: 299 - "text"` headers. */
export function warningHeaders(warnings: string[]): Record<string, string[]> {
  if (warnings.length === 0) return {};
  return { Warning: warnings.map((w) => `299 - ${JSON.stringify(w)}`) };
}
