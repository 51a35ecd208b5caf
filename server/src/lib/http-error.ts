/**
 * An error with an HTTP status and a Spanish message for the user; the error handler answers it
 * as `{ success: false, message, errors? }` (DESIGN.md section 4).
 */
export class HttpError extends Error {
  constructor(
    public readonly statusCode: number,
    message: string,
    public readonly errors?: Record<string, string[]>,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}
