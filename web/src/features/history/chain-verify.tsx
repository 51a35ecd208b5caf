import { Alert, Button, HStack } from '@chakra-ui/react';
import { useMutation } from '@tanstack/react-query';
import {
  CHAIN_VERIFYING,
  CHAIN_VERIFY_BUTTON,
  chainVerdictText,
  logsRoutes,
  type ChainVerdict,
} from '@concurso/shared';
import { callApi } from '../../api/call-api';
import { describeError } from '../../api/api-error';

/** Props of {@link ChainVerify}. */
export interface ChainVerifyProps {
  /** The contest whose chain to verify (the log's); null: the active one, as the server decides. */
  contestId: number | null;
}

/**
 * /bitacora's «Verificar la cadena» (server/src/modules/chain/README.md): asks
 * `GET /api/contestLog/verify` for the contest's chain and says what it found with the shared
 * `chainVerdictText` («Cadena íntegra: N registros», or where and why it breaks) in a green or red
 * alert; a failed call says the usual Spanish error. The end-to-end tests find it by
 * `chain-verify` and `chain-verdict`.
 */
export function ChainVerify({ contestId }: ChainVerifyProps) {
  const verify = useMutation({
    mutationFn: (): Promise<ChainVerdict> =>
      callApi(logsRoutes.verifyChain, { query: contestId === null ? {} : { contests_id: contestId } }).then(
        (answer) => answer.data,
      ),
  });
  const verdict = verify.data;
  return (
    <HStack gap={3} align="center" wrap="wrap" data-testid="chain-verify">
      <Button
        size="sm"
        variant="outline"
        loading={verify.isPending}
        loadingText={CHAIN_VERIFYING}
        onClick={() => verify.mutate()}
      >
        {CHAIN_VERIFY_BUTTON}
      </Button>
      {verdict && !verify.isPending ? (
        <Alert.Root status={verdict.ok ? 'success' : 'error'} width="auto" data-testid="chain-verdict">
          <Alert.Indicator />
          <Alert.Title>{chainVerdictText(verdict)}</Alert.Title>
        </Alert.Root>
      ) : null}
      {verify.isError ? (
        <Alert.Root status="error" width="auto" data-testid="chain-verdict">
          <Alert.Indicator />
          <Alert.Title>{describeError(verify.error)}</Alert.Title>
        </Alert.Root>
      ) : null}
    </HStack>
  );
}
