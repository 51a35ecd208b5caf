import { Alert, Box, Button, HStack, List, Spinner, Stack, Table, Text } from '@chakra-ui/react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { catalogListQuery } from '../../api/queries/catalog-queries';
import { useContestOptions } from '../../catalog-screen/use-contest-options';
import { AppDialog } from '../../ui/dialog/app-dialog';
import { FilePicker } from '../../ui/form/file-picker';
import { SelectField } from '../../ui/form/select-field';
import { toaster } from '../../ui/toaster';
import { useImportTeams } from './import-teams-flow';
import {
  IMPORT_ACCEPT,
  importButtonText,
  importEncodingNote,
  importErrorText,
  importSummaryRows,
} from './import-preview';
import { downloadImportTemplate } from './import-template';

/**
 * 'Descargar plantilla': the template with the current levels, coaches and careers (their lists, from
 * the cache when fresh), or a Spanish toast when they or exceljs cannot be loaded.
 */
async function downloadTemplate(queryClient: QueryClient): Promise<void> {
  try {
    await downloadImportTemplate({
      levels: await queryClient.fetchQuery(catalogListQuery('levels')),
      coaches: await queryClient.fetchQuery(catalogListQuery('coaches')),
      careers: await queryClient.fetchQuery(catalogListQuery('careers')),
    });
  } catch (error: unknown) {
    console.error('No se pudo generar la plantilla', error);
    toaster.create({ type: 'error', title: 'No se pudo generar la plantilla. Intente de nuevo.' });
  }
}

/** Props of {@link ImportTeamsDialog}. */
export interface ImportTeamsDialogProps {
  open: boolean;
  onClose: () => void;
}

/**
 * 'Importar equipos e integrantes': the contest (the active one first), the registration
 * file (.xlsx or .csv, one row per member) and 'Descargar plantilla'; then the preview: the teams that
 * will be created (EQUIPO, NIVEL, COACH, INTEGRANTES) and every bad row ('Línea 7: Nivel desconocido
 * «Experto»'). 'Importar N equipos' is enabled only with no bad row; the upload's percentage and
 * 'Cancelar' show on the screen's progress dialog (`FeedbackHost`), and this dialog cannot be
 * dismissed while it runs.
 */
export function ImportTeamsDialog({ open, onClose }: ImportTeamsDialogProps) {
  const contests = useContestOptions();
  const queryClient = useQueryClient();
  const flow = useImportTeams(open, contests.active, onClose);
  const { preview } = flow;
  const teams = preview ? importSummaryRows(preview) : [];
  const encodingNote = importEncodingNote(preview);

  return (
    <AppDialog
      open={open}
      onClose={onClose}
      busy={flow.importing}
      title="Importar equipos e integrantes"
      size="xl"
      scrollBehavior="inside"
      closeButton
      testId="import-teams-dialog"
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={flow.importing}>
            Cancelar
          </Button>
          <Button
            colorPalette="blue"
            disabled={!flow.ready}
            loading={flow.importing}
            loadingText="Importando…"
            onClick={() => void flow.runImport()}
          >
            {importButtonText(preview)}
          </Button>
        </>
      }
    >
      <Stack gap="4">
        <HStack justify="space-between" align="start" gap="4">
          <Text fontSize="sm" color="fg.muted">
            Un archivo .xlsx o .csv (UTF-8 o el CSV de Excel) con una fila por integrante y las columnas
            Equipo, Nivel, Coach, Código, Nombre, Semestre y Carrera. Los nombres de nivel, coach y carrera
            deben existir en los catálogos (la plantilla los lista); una carrera que comparten dos
            departamentos se escribe «Carrera (Departamento)».
          </Text>
          <Button
            size="sm"
            variant="outline"
            colorPalette="blue"
            flexShrink={0}
            onClick={() => void downloadTemplate(queryClient)}
          >
            Descargar plantilla
          </Button>
        </HStack>

        <SelectField
          label="Concurso"
          placeholder="Seleccione el concurso..."
          value={flow.contestId}
          options={contests.options}
          onChange={flow.chooseContest}
          disabled={flow.importing}
        />

        <FilePicker
          label="Archivo"
          file={flow.file}
          onChange={flow.chooseFile}
          accept={IMPORT_ACCEPT}
          disabled={flow.importing}
        />

        {flow.problem ? (
          <Alert.Root status="error">
            <Alert.Indicator />
            <Alert.Title>{flow.problem}</Alert.Title>
          </Alert.Root>
        ) : null}
        {flow.previewing ? (
          <HStack gap="2">
            <Spinner size="sm" />
            <Text>Revisando el archivo…</Text>
          </HStack>
        ) : null}

        {preview ? (
          <Stack gap="3" data-testid="import-preview">
            <Text fontWeight="medium">
              {`${teams.length} ${teams.length === 1 ? 'equipo' : 'equipos'} y ${preview.members} ${
                preview.members === 1 ? 'fila de integrante' : 'filas de integrantes'
              } en el archivo.`}
            </Text>
            {encodingNote ? (
              <Alert.Root status="warning" data-testid="import-encoding-note">
                <Alert.Indicator />
                <Alert.Title>{encodingNote}</Alert.Title>
              </Alert.Root>
            ) : null}
            {preview.errors.length > 0 ? (
              <Alert.Root status="error" alignItems="start">
                <Alert.Indicator />
                <Box>
                  <Alert.Title>
                    {`${preview.errors.length} ${
                      preview.errors.length === 1 ? 'error' : 'errores'
                    }: corrija el archivo y vuelva a seleccionarlo. No se importará nada mientras haya errores.`}
                  </Alert.Title>
                  <List.Root as="ul" ps="4" mt="2" fontSize="sm" data-testid="import-errors">
                    {preview.errors.map((error, index) => (
                      <List.Item key={`${error.line}-${index}`}>{importErrorText(error)}</List.Item>
                    ))}
                  </List.Root>
                </Box>
              </Alert.Root>
            ) : null}
            {teams.length > 0 ? (
              <Table.Root size="sm" aria-label="Equipos a importar" data-testid="import-teams">
                <Table.Header>
                  <Table.Row>
                    <Table.ColumnHeader>EQUIPO</Table.ColumnHeader>
                    <Table.ColumnHeader>NIVEL</Table.ColumnHeader>
                    <Table.ColumnHeader>COACH</Table.ColumnHeader>
                    <Table.ColumnHeader textAlign="end">INTEGRANTES</Table.ColumnHeader>
                    <Table.ColumnHeader>NOMBRES</Table.ColumnHeader>
                  </Table.Row>
                </Table.Header>
                <Table.Body>
                  {teams.map((team) => (
                    <Table.Row key={team.name}>
                      <Table.Cell>{team.name}</Table.Cell>
                      <Table.Cell>{team.level}</Table.Cell>
                      <Table.Cell>{team.coach}</Table.Cell>
                      <Table.Cell textAlign="end">{team.members}</Table.Cell>
                      <Table.Cell whiteSpace="normal" fontSize="xs" color="fg.muted">
                        {team.names}
                      </Table.Cell>
                    </Table.Row>
                  ))}
                </Table.Body>
              </Table.Root>
            ) : null}
          </Stack>
        ) : null}
      </Stack>
    </AppDialog>
  );
}
