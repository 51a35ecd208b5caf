import type { z } from 'zod';
import type { Access } from './access.js';

/**
 * One REST call of the contract (docs/spec.md section 7, docs/design.md section 4), written once: the server
 * registers it (validation, serialization, OpenAPI, `config.access`) and the web's client is typed by
 * it, so a renamed field fails `tsc` on both sides.
 *
 * `path` is the full path in Fastify's syntax (`/api/deleteSchool/:id`); `reply` is the schema of the
 * 200 answer (the `{success, data, message}` envelope). Errors are the envelope of docs/design.md section 4.
 */
export interface RouteSpec {
  method: 'GET' | 'POST';
  path: `/api/${string}`;
  access: Access;
  /** OpenAPI tag (Spanish, plural: 'escuelas'). */
  tag: string;
  /** One line for OpenAPI, in Spanish. */
  summary: string;
  params?: z.ZodType;
  querystring?: z.ZodType;
  /** A JSON body. */
  body?: z.ZodType;
  /**
   * A `multipart/form-data` body (an upload): its text fields, validated by the route after it
   * reads the stream; the web sends `FormData`.
   */
  multipart?: z.ZodType;
  reply: z.ZodType;
  /**
   * Other statuses answered with a body of their own besides the error envelope, by status
   * (`{ 503: healthReplySchema }`): documented at /api/docs and serialized by their schema.
   */
  replies?: Partial<Record<number, z.ZodType>>;
}

/** Declares a route; answers it unchanged with its literal types kept. */
export const defineRoute = <const R extends RouteSpec>(route: R): R => route;

type Field<R, K extends string> = R extends { [P in K]: infer S extends z.ZodType } ? S : undefined;
type Out<S> = S extends z.ZodType ? z.output<S> : undefined;
type In<S> = S extends z.ZodType ? z.input<S> : undefined;

/** The validated path parameters a handler receives (`{ id: number }`), or undefined. */
export type RouteParams<R extends RouteSpec> = Out<Field<R, 'params'>>;
/** The validated query string a handler receives, or undefined. */
export type RouteQuery<R extends RouteSpec> = Out<Field<R, 'querystring'>>;
/** The validated JSON body a handler receives, or undefined. */
export type RouteBody<R extends RouteSpec> = Out<Field<R, 'body'>>;
/** What a handler returns (before serialization). */
export type RouteReplyInput<R extends RouteSpec> = In<R['reply']>;
/** The 200 answer the web receives. */
export type RouteReply<R extends RouteSpec> = z.output<R['reply']>;

/** What a caller passes: the params, query and body the route declares, each required when declared. */
export type RouteArgs<R extends RouteSpec> = (Field<R, 'params'> extends z.ZodType
  ? { params: z.input<Field<R, 'params'>> }
  : { params?: undefined }) &
  (Field<R, 'querystring'> extends z.ZodType
    ? { query: z.input<Field<R, 'querystring'>> }
    : { query?: undefined }) &
  (Field<R, 'body'> extends z.ZodType ? { body: z.input<Field<R, 'body'>> } : { body?: undefined });

/**
 * The concrete path of a call: `routePath(API.schools.remove, { id: 4 })` → `/api/deleteSchool/4`.
 * Throws when a parameter the path names is missing (a programming error).
 */
export function routePath(route: RouteSpec, params?: Record<string, unknown>): string {
  return route.path.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null) throw new Error(`Falta el parámetro ${name} de ${route.path}`);
    return encodeURIComponent(String(value));
  });
}
