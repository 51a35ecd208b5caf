/**
 * What the login screen shows for a failed login (docs/spec.md section 8, docs/design.md section 4):
 * 401 the server text or 'Usuario o contraseña incorrectos!' with 'Intentar de nuevo'; the server's
 * Spanish message for 403 (participants), 429 (rate limit) and 422 (validation).
 */
import { MESSAGES } from '@concurso/shared';
import { isApiRequestError } from '../../api/api-error';

/** A dialog to show, plus per-field messages for the form (422). */
export interface LoginErrorView {
  title: string;
  message: string;
  buttonLabel: string;
  fieldErrors: { username?: string; password?: string };
}

/** Maps a login (or post-login session check) failure to what the screen shows. */
export function describeLoginError(error: unknown): LoginErrorView {
  const view = (title: string, message: string, buttonLabel: string = MESSAGES.ok): LoginErrorView => ({
    title,
    message,
    buttonLabel,
    fieldErrors: {},
  });
  if (!isApiRequestError(error)) return view(MESSAGES.error, MESSAGES.serverError);
  if (error.kind === 'network') return view(MESSAGES.connectionErrorTitle, MESSAGES.connectionError);

  const serverMessage = error.serverMessage;
  switch (error.status) {
    case 401:
      return view(MESSAGES.error, serverMessage ?? MESSAGES.loginInvalid, MESSAGES.loginRetry);
    case 403:
      return view(MESSAGES.warning, serverMessage ?? MESSAGES.participantRefused, MESSAGES.loginRetry);
    case 429:
      return view(MESSAGES.warning, serverMessage ?? MESSAGES.loginRateLimited);
    case 422: {
      const fields = error.fieldErrors ?? {};
      return {
        ...view(MESSAGES.info, serverMessage ?? MESSAGES.validation),
        fieldErrors: { username: fields.username?.[0], password: fields.password?.[0] },
      };
    }
    default:
      return view(MESSAGES.error, serverMessage ?? MESSAGES.serverError);
  }
}
