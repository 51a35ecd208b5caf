import { useMemo, useState } from 'react';
import { Box, Button, Field, List, Stack, Text, Textarea } from '@chakra-ui/react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { MESSAGE_MAX_LENGTH, messagesRoutes, receiptsText, sendMessageSchema } from '@concurso/shared';
import { callApi } from '../../api/call-api';
import { describeError } from '../../api/api-error';
import { AppDialog } from '../../ui/dialog/app-dialog';
import { formatDateTime } from '../../ui/date-time';
import { SelectField } from '../../ui/form/select-field';
import { toaster } from '../../ui/toaster';
import { receiptLines, receiptLinesTitle } from './message-receipts';
import { messageTargetOf, messageTargetOptions } from './message-targets';
import { MESSAGES_KEY, messagesQuery } from './messages-query';

/** Props of {@link MessagesDialog}. */
export interface MessagesDialogProps {
  open: boolean;
  onClose: () => void;
  /** The teams a message may go to one by one (the board's, the lab's). */
  teams: ReadonlyArray<{ id: number; name: string }>;
}

/**
 * 'Mensajes': a judge or admin writes a short text (at most 500 characters) to every team,
 * a level or one team of the active contest; their machines show it on screen. Below, the messages
 * sent, newest first, each with 'entregado N/M, visto K/M' (and ', falló F' when machines could not
 * show it) and, folded, each team's receipt (`receiptLines`: falló with the machine and why,
 * pendiente, entregado, visto), kept current by the push channel.
 */
export function MessagesDialog({ open, onClose, teams }: MessagesDialogProps) {
  const client = useQueryClient();
  const messages = useQuery({ ...messagesQuery(), enabled: open });
  const [to, setTo] = useState('todos');
  // The live board re-renders on every push: the teams are sorted only while the dialog is open.
  const options = useMemo(() => (open ? messageTargetOptions(teams) : []), [open, teams]);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  const send = async () => {
    const parsed = sendMessageSchema.safeParse({ ...messageTargetOf(to), text });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Revise el mensaje');
      return;
    }
    setError(null);
    setSending(true);
    try {
      const answer = await callApi(messagesRoutes.send, { body: parsed.data });
      toaster.create({ type: 'success', title: answer.message, duration: 2500 });
      setText('');
      await client.invalidateQueries({ queryKey: MESSAGES_KEY });
    } catch (err) {
      setError(describeError(err));
    } finally {
      setSending(false);
    }
  };

  return (
    <AppDialog
      open={open}
      onClose={onClose}
      busy={sending}
      title="Mensajes a los equipos"
      size="lg"
      closeButton
      testId="messages-dialog"
    >
      <Stack gap="4">
        <SelectField label="Para" value={to} options={options} onChange={setTo} />
        <Field.Root invalid={error !== null}>
          <Field.Label>Mensaje</Field.Label>
          <Textarea
            value={text}
            maxLength={MESSAGE_MAX_LENGTH}
            onChange={(event) => setText(event.target.value)}
            rows={3}
          />
          <Field.HelperText>
            {text.length}/{MESSAGE_MAX_LENGTH}. Se muestra en la pantalla de las máquinas de los equipos.
          </Field.HelperText>
          {error ? <Field.ErrorText>{error}</Field.ErrorText> : null}
        </Field.Root>
        <Button alignSelf="flex-end" colorPalette="blue" loading={sending} onClick={() => void send()}>
          Enviar
        </Button>
        <Stack gap="2" data-testid="messages-list">
          {(messages.data?.rows ?? []).map((row) => (
            <Stack
              key={row.id}
              gap="0"
              borderWidth="1px"
              borderRadius="md"
              p="2"
              data-testid={`message-${row.id}`}
            >
              <Text fontWeight="medium">{row.text}</Text>
              <Text fontSize="sm" color="fg.muted">
                {row.target_label} · {formatDateTime(row.created_at)}
                {row.sender ? ` · ${row.sender}` : ''}
              </Text>
              <Text fontSize="sm" data-testid={`message-receipts-${row.id}`}>
                {receiptsText(row)}
              </Text>
              <Box as="details" fontSize="sm" data-testid={`message-teams-${row.id}`}>
                <Box as="summary" cursor="pointer" color="fg.muted">
                  {receiptLinesTitle(row.receipts.length)}
                </Box>
                <List.Root variant="plain" ps="4">
                  {receiptLines(row).map((line) => (
                    <List.Item
                      key={line.teamId}
                      data-state={line.state}
                      color={line.state === 'falló' ? 'fg.error' : undefined}
                    >
                      {line.text}
                    </List.Item>
                  ))}
                </List.Root>
              </Box>
            </Stack>
          ))}
        </Stack>
      </Stack>
    </AppDialog>
  );
}
