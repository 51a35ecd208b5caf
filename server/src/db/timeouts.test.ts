import { DeadlockException, DriverException, UniqueConstraintViolationException } from '@mikro-orm/core';
import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './timeouts.js';

/** What MikroORM makes of a knex error: its class copies the message and the own fields, not the name. */
const wrapped = (previous: Error) => new DriverException(previous);

describe('isDatabaseUnavailable', () => {
  it('is true for a pool that could not give a connection in time, even once MikroORM renamed the error', () => {
    const knexTimeout = Object.assign(
      new Error('Knex: Timeout acquiring a connection. The pool is probably full.'),
      { name: 'KnexTimeoutError' },
    );
    expect(isDatabaseUnavailable(knexTimeout)).toBe(true);
    expect(isDatabaseUnavailable(wrapped(knexTimeout))).toBe(true);
  });

  it('is true for a lost connection by its driver code, also under a cause', () => {
    const lost = Object.assign(new Error('Connection lost: The server closed the connection.'), {
      code: 'PROTOCOL_CONNECTION_LOST',
    });
    expect(isDatabaseUnavailable(lost)).toBe(true);
    expect(isDatabaseUnavailable(new Error('outer', { cause: lost }))).toBe(true);
  });

  it('is false for errors of the query itself: the client must not retry those', () => {
    const duplicate = Object.assign(new Error("Duplicate entry 'x' for key 'name'"), {
      code: 'ER_DUP_ENTRY',
    });
    expect(isDatabaseUnavailable(new UniqueConstraintViolationException(duplicate))).toBe(false);
    expect(isDatabaseUnavailable(new DeadlockException(new Error('Deadlock found')))).toBe(false);
    expect(isDatabaseUnavailable(new Error('You have an error in your SQL syntax'))).toBe(false);
  });
});
