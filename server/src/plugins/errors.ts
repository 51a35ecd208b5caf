import fp from 'fastify-plugin';
import type { FastifyError } from 'fastify';
import {
  ConnectionException,
  ForeignKeyConstraintViolationException,
  NotFoundError,
  UniqueConstraintViolationException,
} from '@mikro-orm/core';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { MESSAGES } from '@concurso/shared';
import { HttpError } from '../lib/http-error.js';
import { isDatabaseUnavailable } from '../db/timeouts.js';
import { isRetryableTransactionError } from '../db/transaction.js';

/** `/name/0/field` → `name.0.field`; the whole body → `_`. */
function fieldOf(instancePath: string): string {
  const field = instancePath.replace(/^\//, '').replaceAll('/', '.');
  return field || '_';
}

/**
 * The one error handler (as in mikro-orm/guide): every failure becomes
 * `{ success: false, message, errors? }` with the status of docs/design.md section 4. Validation → 422 with
 * each field's Spanish messages; ORM unique/foreign-key violations → 409; database down, unreachable
 * or not answering in time (db/timeouts.ts) → 503;
 * anything else → 500 without stack or SQL (those go to the log only).
 */
export default fp(
  async (app) => {
    app.setErrorHandler((error: FastifyError, request, reply) => {
      if (hasZodFastifySchemaValidationErrors(error)) {
        const errors: Record<string, string[]> = {};
        for (const issue of error.validation) {
          const field = fieldOf(issue.instancePath);
          (errors[field] ??= []).push(issue.message ?? MESSAGES.required);
        }
        return reply.code(422).send({ success: false, message: MESSAGES.validation, errors });
      }
      if (error instanceof HttpError) {
        if (error.retryAfterS !== undefined) void reply.header('retry-after', String(error.retryAfterS));
        return reply.code(error.statusCode).send({
          success: false,
          message: error.message,
          ...(error.errors ? { errors: error.errors } : {}),
        });
      }
      if (error.statusCode === 429) {
        return reply.code(429).send({ success: false, message: error.message || MESSAGES.tooManyRequests });
      }
      if (error instanceof NotFoundError) {
        return reply.code(404).send({ success: false, message: MESSAGES.notFound });
      }
      if (error instanceof UniqueConstraintViolationException) {
        return reply.code(409).send({ success: false, message: 'Ya existe un registro con esos datos.' });
      }
      if (error instanceof ForeignKeyConstraintViolationException) {
        return reply
          .code(409)
          .send({ success: false, message: 'El dato está en uso por otros registros y no puede cambiarse.' });
      }
      if (
        error instanceof ConnectionException ||
        isDatabaseUnavailable(error) ||
        // Still deadlocked after `transaction()`'s retries: busy, not broken; the client may retry.
        isRetryableTransactionError(error)
      ) {
        request.log.error({ err: error }, 'database unavailable');
        return reply.code(503).send({ success: false, message: MESSAGES.databaseDown });
      }
      // Fastify's own 4xx (bad JSON, wrong content type, body too large...).
      if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
        const message =
          error.statusCode === 413
            ? 'El contenido enviado es demasiado grande.'
            : error.statusCode === 415
              ? 'Tipo de contenido no admitido.'
              : 'La solicitud no es válida.';
        return reply.code(error.statusCode).send({ success: false, message });
      }
      request.log.error({ err: error }, 'unhandled error');
      return reply.code(500).send({ success: false, message: MESSAGES.serverError });
    });
  },
  { name: 'errors' },
);
