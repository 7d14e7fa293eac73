import http from 'node:http';

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  json(): any;
}

/**
 * An HTTP request with exactly the headers given (fetch would set Content-Length itself): for 411/413 tests and
 * binary bodies. `declaredLength` overrides Content-Length; `chunked` sends no length at all.
 */
export function rawRequest(
  baseUrl: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: Buffer; declaredLength?: number; chunked?: boolean } = {},
): Promise<RawResponse> {
  const url = new URL(path, baseUrl);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...options.headers };
    if (!options.chunked && options.body !== undefined) headers['content-length'] = String(options.declaredLength ?? options.body.length);
    if (options.chunked) headers['transfer-encoding'] = 'chunked';
    const req = http.request({ hostname: url.hostname, port: url.port, path: url.pathname + url.search, method: options.method ?? 'POST', headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, json: () => JSON.parse(body.toString('utf8')) });
      });
      res.on('error', reject);
    });
    // The server may answer early (411/413/415) and close while we are still sending: keep the answer.
    req.on('error', (error) => reject(error));
    if (options.body !== undefined) {
      const sendable = options.declaredLength !== undefined && options.declaredLength < options.body.length
        ? options.body.subarray(0, options.declaredLength)
        : options.body;
      req.end(sendable);
    } else req.end();
  });
}
