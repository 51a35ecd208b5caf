import type { QueryFunctionContext } from '@tanstack/react-query';
import { messagesRoutes, type Messages } from '@concurso/shared';
import { callApi } from '../../api/call-api';

/** The query key of the messages: `catalog.changed` of `messages` refetches it (api/queries/catalog-sync.ts). */
export const MESSAGES_KEY = ['messages'] as const;

/** `GET /api/messages`: the active contest's messages with their receipts. */
export function messagesQuery() {
  return {
    queryKey: MESSAGES_KEY,
    queryFn: ({ signal }: QueryFunctionContext): Promise<Messages> =>
      callApi(messagesRoutes.list, { signal }).then((answer) => answer.data),
    meta: { failure: 'No se pudieron cargar los mensajes' },
  };
}
