import { vi } from 'vitest';

/** One request the fake API holds until the test answers it. */
interface HeldRequest {
  path: string;
  signal: AbortSignal | null | undefined;
  /** Answers it with `status` and `body` as JSON. */
  answer: (body: unknown, status?: number) => void;
  /** Fails it as a network failure (no answer). */
  fail: () => void;
}

/**
 * A stand-in for the server behind `fetch`, for the query layer's unit tests: every request waits in
 * `requests` until the test answers it, so the test controls the order of answers and events.
 */
export function stubApi() {
  const requests: HeldRequest[] = [];
  vi.stubGlobal('localStorage', { getItem: () => 'jwt', removeItem: () => undefined });
  vi.stubGlobal(
    'fetch',
    vi.fn(
      (input: RequestInfo | URL, init?: RequestInit) =>
        new Promise<Response>((resolve, reject) => {
          requests.push({
            path: String(input),
            signal: init?.signal,
            answer: (body, status = 200) => resolve(new Response(JSON.stringify(body), { status })),
            fail: () => reject(new TypeError('Failed to fetch')),
          });
          init?.signal?.addEventListener('abort', () => reject(new DOMException('Abortado', 'AbortError')));
        }),
    ),
  );
  return {
    requests,
    /** The paths asked for since the last `forget()`, sorted. */
    paths: () => requests.map((request) => request.path).sort(),
    /** The held request of `path` (the last one). */
    of: (path: string) => [...requests].reverse().find((request) => request.path === path),
    forget: () => {
      requests.length = 0;
    },
  };
}

/** An ok list answer (docs/spec.md section 7). */
export const okList = (data: unknown[]) => ({ success: true, data, message: '' });

/** Lets the answers' promise chains run. */
export const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
