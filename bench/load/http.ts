/**
 * The load tester's HTTP client: node:http over keep-alive connections (one pool per server process),
 * JSON in and out, a timeout per request. Times are in ms.
 */
import http from 'node:http';

/** A JSON answer and its status. */
export interface HttpAnswer<T = unknown> {
  status: number;
  json: T;
}

/** Options of one request. */
export interface RequestOptions {
  method?: 'GET' | 'POST';
  /** Bearer token (a staff JWT or an agent key). */
  token?: string;
  body?: unknown;
  /** Abort after this many ms (default 30 000). */
  timeoutMs?: number;
}

/**
 * Keep-alive JSON client. `maxSockets` bounds the open connections per server process; requests beyond
 * it wait in node:http's queue (callers bound their own concurrency so that queue stays short).
 */
export class HttpClient {
  private readonly agent: http.Agent;

  constructor(maxSockets: number) {
    this.agent = new http.Agent({
      keepAlive: true,
      keepAliveMsecs: 1_000,
      maxSockets,
      maxFreeSockets: maxSockets,
    });
  }

  /** Sends one request to `url` (`http://127.0.0.1:<port>/api/...`) and parses the JSON answer. */
  request<T = unknown>(url: string, options: RequestOptions = {}): Promise<HttpAnswer<T>> {
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
    const headers: http.OutgoingHttpHeaders = { accept: 'application/json' };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (payload !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = Buffer.byteLength(payload);
    }
    return new Promise((resolve, reject) => {
      const req = http.request(
        url,
        { method: options.method ?? (payload === undefined ? 'GET' : 'POST'), headers, agent: this.agent },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let json: unknown = null;
            try {
              json = text ? JSON.parse(text) : null;
            } catch {
              json = { raw: text.slice(0, 200) };
            }
            resolve({ status: res.statusCode ?? 0, json: json as T });
          });
          res.on('error', reject);
        },
      );
      req.setTimeout(options.timeoutMs ?? 30_000, () => req.destroy(new Error(`timeout ${url}`)));
      req.on('error', reject);
      req.end(payload);
    });
  }

  /** Like `request`, but throws unless the status is 2xx. */
  async ok<T = unknown>(url: string, options: RequestOptions = {}): Promise<T> {
    const answer = await this.request<T>(url, options);
    if (answer.status < 200 || answer.status >= 300) {
      throw new Error(`${options.method ?? 'GET'} ${url}: ${answer.status} ${JSON.stringify(answer.json)}`);
    }
    return answer.json;
  }

  /** Closes the idle connections. */
  close(): void {
    this.agent.destroy();
  }
}

/** Runs `task` over `items` with at most `limit` running at once; answers the results in order. */
export async function mapLimit<I, O>(
  items: I[],
  limit: number,
  task: (item: I, index: number) => Promise<O>,
) {
  const out = new Array<O>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await task(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return out;
}
