// How a remote command ends (client-go remotecommand errorDecoderV4): the
// error stream's metav1.Status. Apart from the transports so that callers can
// recognise the error without loading them.

/** A remote command ended unsuccessfully; `exitCode` set when the command itself exited non-zero. */
export class StreamError extends Error {
  override readonly name = 'StreamError';
  constructor(
    message: string,
    readonly exitCode?: number,
  ) {
    super(message);
  }
}

interface Status {
  status?: string;
  message?: string;
  reason?: string;
  details?: { causes?: { reason?: string; message?: string }[] };
}

/** client-go errorDecoderV4: the error stream's Status → undefined (success) or the error. */
export function decodeStatus(text: string): StreamError | undefined {
  if (text.trim() === '') return undefined;
  let s: Status;
  try {
    s = JSON.parse(text) as Status;
  } catch {
    return new StreamError(`error stream protocol error: ${text}`);
  }
  if (s.status === 'Success') return undefined;
  if (s.status !== 'Failure') return new StreamError('error stream protocol error: unknown error');
  if (s.reason === 'NonZeroExitCode') {
    const cause = s.details?.causes?.find((c) => c.reason === 'ExitCode');
    if (!cause) return new StreamError('while decoding status: missing exit code');
    const rc = Number(cause.message);
    if (!Number.isInteger(rc) || rc < 0 || rc > 255) return new StreamError(`while decoding status: invalid exit code: ${cause.message}`);
    return new StreamError(`command terminated with exit code ${rc}`, rc);
  }
  return new StreamError(s.message ?? '');
}
