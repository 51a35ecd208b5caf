import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, USER_TYPES, loginAccountLockedMessage } from '@concurso/shared';
import {
  createUser,
  startServerPair,
  startTestServer,
  type ServerPair,
  type TestServer,
} from '@concurso/testkit';

/**
 * No jury lock-out (README, «Configuración»; after OWASP ASVS 2.2.1): failed logins hold back the
 * address that fails, and an account only from the addresses that failed on it; the right password
 * from another address still signs in. Real HTTP from several loopback source addresses (Linux routes
 * all of 127.0.0.0/8 to lo), no proxy trusted, so the server's client address is each TCP peer.
 */

interface Answer {
  status: number;
  body: { access_token?: string; message?: string };
}

/** `POST url` with a JSON body from the local address `from` (e.g. 127.0.0.11). */
function postFrom(from: string, url: string, body: object, token?: string): Promise<Answer> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        localAddress: from,
        agent: false,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        timeout: 15_000,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text || '{}') }));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${url} from ${from}: timed out`)));
    req.on('error', reject);
    req.end(payload);
  });
}

const signInFrom = (server: TestServer, from: string, username: string, password: string) =>
  postFrom(from, `${server.url}/api/auth/login`, { username, password });

/** Failed logins a minute per address and an hour per (account, address): small, so the test is quick. */
const PER_ADDRESS = 6;
const PER_ACCOUNT_ADDRESS = 4;
const JUDGE_PASSWORD = 'Clave-Jurado-Norte-7';
const OTHER_PASSWORD = 'Clave-Jurado-Sur-8';

describe('failed logins never lock the jury out', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({
      loginRateLimitMax: PER_ADDRESS,
      loginAccountLimitMax: PER_ACCOUNT_ADDRESS,
    });
    await createUser(server.orm, USER_TYPES.judge, 'juez', JUDGE_PASSWORD);
    await createUser(server.orm, USER_TYPES.judge, 'juez_vecino', OTHER_PASSWORD);
    await createUser(server.orm, USER_TYPES.judge, 'juez_limpia', JUDGE_PASSWORD);
  });
  afterAll(async () => server?.close());

  it('locks the judge only for the addresses that failed; the right password from a fresh address signs in', async () => {
    const attackers = Array.from({ length: 6 }, (_, i) => `127.0.0.${11 + i}`);
    const statuses: Record<string, number[]> = {};
    let lastRefusal: Answer | undefined;
    for (const [i, from] of attackers.entries()) {
      statuses[from] = [];
      for (let n = 1; n <= PER_ACCOUNT_ADDRESS + 1; n++) {
        // The username in any case is one account.
        const username = (i + n) % 2 ? 'JUEZ' : 'juez';
        const res = await signInFrom(server, from, username, `no-es-la-clave-${n}`);
        statuses[from]!.push(res.status);
        if (res.status === 429) lastRefusal = res;
      }
    }
    // Each address: its failures up to the limit answer 401, then 429 for this account from it.
    const expected = [...Array<number>(PER_ACCOUNT_ADDRESS).fill(401), 429];
    for (const from of attackers) expect(statuses[from], from).toEqual(expected);
    expect(lastRefusal!.body.message).toBe(loginAccountLockedMessage(60));
    const failures = attackers.length * PER_ACCOUNT_ADDRESS;
    console.log(
      `login lock-out: ${attackers.length} addresses × ${PER_ACCOUNT_ADDRESS + 1} wrong passwords; ` +
        `${failures} failures counted for 'juez' (account limit per address ${PER_ACCOUNT_ADDRESS}); ` +
        `statuses per address ${JSON.stringify(expected)}`,
    );
    // Far past what an account-wide count allowed, the judge signs in from an address that never failed.
    const fresh = await signInFrom(server, '127.0.0.20', 'juez', JUDGE_PASSWORD);
    expect(fresh.status).toBe(200);
    expect(fresh.body.access_token!.split('.')).toHaveLength(3);
    const me = await postFrom('127.0.0.20', `${server.url}/api/auth/me`, {}, fresh.body.access_token);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ username: 'juez' });
    // Each failing address stays locked for that account, even with the right password …
    for (const from of attackers) {
      const res = await signInFrom(server, from, 'juez', JUDGE_PASSWORD);
      expect(res.status, from).toBe(429);
      expect(res.body.message).toBe(loginAccountLockedMessage(60));
    }
    // … but not for another account: the lock is the (account, address) pair's, not the address's.
    expect((await signInFrom(server, attackers[0]!, 'juez_vecino', OTHER_PASSWORD)).status).toBe(200);
    console.log(
      `login lock-out: fresh address 127.0.0.20 → ${fresh.status} with a token; ` +
        `failing addresses with the right password → 429; another judge from a failing address → 200`,
    );
  });

  it('refuses every account from an address past its own limit, and only that address', async () => {
    const from = '127.0.0.40';
    const statuses: number[] = [];
    for (let n = 1; n <= PER_ADDRESS + 1; n++) {
      // A different account each time: no (account, address) pair reaches its limit.
      statuses.push((await signInFrom(server, from, `nadie_${n}`, 'no-es-la-clave-1')).status);
    }
    expect(statuses).toEqual([...Array<number>(PER_ADDRESS).fill(401), 429]);
    const limited = await signInFrom(server, from, 'juez_vecino', OTHER_PASSWORD);
    expect(limited.status).toBe(429);
    expect(limited.body.message).toBe(MESSAGES.loginRateLimited);
    expect((await signInFrom(server, '127.0.0.41', 'juez_vecino', OTHER_PASSWORD)).status).toBe(200);
  });

  it("clears an account's failures from an address on a successful login there", async () => {
    const from = '127.0.0.50';
    const steps = ['no-1', 'no-2', 'no-3', JUDGE_PASSWORD, 'no-4', 'no-5', JUDGE_PASSWORD];
    const statuses: number[] = [];
    for (const password of steps)
      statuses.push((await signInFrom(server, from, 'juez_limpia', password)).status);
    // Without the reset the fifth failure would already be refused (4 failures counted before it).
    expect(statuses).toEqual([401, 401, 401, 200, 401, 401, 200]);
  });
});

describe('failed logins shared by two server processes through Redis', () => {
  let pair: ServerPair;

  beforeAll(async () => {
    pair = await startServerPair({ loginAccountLimitMax: 3 });
    await createUser(pair.first.orm, USER_TYPES.judge, 'juez_redis', JUDGE_PASSWORD);
  });
  afterAll(async () => pair?.close());

  it("counts one address's failures on one process against its login on the other, and no other address's", async () => {
    const statuses: number[] = [];
    for (let n = 1; n <= 3; n++) {
      statuses.push((await signInFrom(pair.first, '127.0.0.60', 'juez_redis', `no-es-la-clave-${n}`)).status);
    }
    expect(statuses).toEqual([401, 401, 401]);
    const locked = await signInFrom(pair.second, '127.0.0.60', 'juez_redis', JUDGE_PASSWORD);
    expect(locked.status).toBe(429);
    expect(locked.body.message).toBe(loginAccountLockedMessage(60));
    expect((await signInFrom(pair.second, '127.0.0.61', 'juez_redis', JUDGE_PASSWORD)).status).toBe(200);
  });
});
