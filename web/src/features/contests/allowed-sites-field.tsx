import { Field, Stack, Text, Textarea } from '@chakra-ui/react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { ALWAYS_ALLOWED_TEXT } from '@concurso/shared';
import { ALLOWED_SITES_PLACEHOLDER } from './allowed-sites-form';
import { useAllowedSitesNotices } from './use-allowed-sites-notices';

/** Props of {@link AllowedSitesField}. */
export interface AllowedSitesFieldProps {
  /** `register('allowed_sites')` of the form holding the text. */
  registration: UseFormRegisterReturn;
  /** Every refused line, one per line ('Línea 2: …'), if any. */
  error?: string;
  /** The text area's text now (`watch('allowed_sites')`), for the notices of its host names. */
  text: string;
}

/**
 * «Sitios permitidos»: a text area, one site per line (a name, an IP address or a network,
 * and maybe a port), with what is always allowed under it and the refused lines under that. Empty:
 * the contest has no network policy. Under them, a notice for each listed host name on a CDN's shared
 * addresses («omegaup.com comparte direcciones con otros sitios: se filtrará por nombre»), asked of the
 * server a moment after the names change; advice only, the save does not wait for it. The contest
 * modal and the contests table's dialog both draw it.
 */
export function AllowedSitesField({ registration, error, text }: AllowedSitesFieldProps) {
  const notices = useAllowedSitesNotices(text);
  return (
    <Field.Root invalid={Boolean(error)}>
      <Field.Label>Sitios permitidos</Field.Label>
      <Textarea
        rows={5}
        fontFamily="mono"
        placeholder={ALLOWED_SITES_PLACEHOLDER}
        autoComplete="off"
        spellCheck={false}
        {...registration}
      />
      {/* Said even with an error: an admin must know the server and DNS stay reachable. */}
      <Field.HelperText>{ALWAYS_ALLOWED_TEXT}</Field.HelperText>
      {/* One refused line per line of text. */}
      <Field.ErrorText display="block" whiteSpace="pre-line">
        {error}
      </Field.ErrorText>
      {/* Announced when they appear; empty (and silent) without a shared name. */}
      <Stack gap="1" role="status" aria-live="polite" data-testid="allowed-sites-notices">
        {notices.map((notice) => (
          <Text key={notice} textStyle="sm" color="fg.info">
            {notice}
          </Text>
        ))}
      </Stack>
    </Field.Root>
  );
}
