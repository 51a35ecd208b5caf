import { DeadlockException, LockWaitTimeoutException } from '@mikro-orm/core';
import { describe, expect, it } from 'vitest';
import { retryTransaction, TRANSACTION_TRIES } from './transaction.js';

const failure = (errno: number) => Object.assign(new Error(`errno ${errno}`), { errno });

describe('retryTransaction', () => {
  it.each([1213, 1205, 1467])(
    'runs the work again after errno %i, and answers what it then gives',
    async (errno) => {
      let runs = 0;
      const answer = await retryTransaction(async () => {
        runs++;
        if (runs === 1) throw failure(errno);
        return 'hecho';
      });
      expect([answer, runs]).toEqual(['hecho', 2]);
    },
  );

  it(`throws a query's own error at once, and a retryable one after ${TRANSACTION_TRIES} runs`, async () => {
    let runs = 0;
    await expect(
      retryTransaction(async () => {
        runs++;
        throw Object.assign(failure(1062), { code: 'ER_DUP_ENTRY' });
      }),
    ).rejects.toMatchObject({ errno: 1062 });
    expect(runs).toBe(1);
    runs = 0;
    await expect(
      retryTransaction(async () => {
        runs++;
        throw failure(1213);
      }),
    ).rejects.toMatchObject({ errno: 1213 });
    expect(runs).toBe(TRANSACTION_TRIES);
  });

  it.each([DeadlockException, LockWaitTimeoutException])(
    "runs the work again after MikroORM's %o (told by name, without loading the ORM)",
    async (Exception) => {
      let runs = 0;
      const answer = await retryTransaction(async () => {
        runs++;
        if (runs === 1) throw new Exception(new Error('from the driver'));
        return 'hecho';
      });
      expect([answer, runs]).toEqual(['hecho', 2]);
    },
  );
});
