import { statsRoutes, type ContestReport } from '@concurso/shared';
import { callApi } from '../../../api/call-api';
import { reportFileName } from './report-tables';

/** The two files 'Reporte' offers. */
export type ReportFormat = 'pdf' | 'xlsx';

/** `GET /api/contestReport/{contestId}`: the report's data, read afresh at each download. */
async function fetchContestReport(contestId: number): Promise<ContestReport> {
  return (await callApi(statsRoutes.contestReport, { params: { contestId } })).data;
}

/**
 * Reads contest `contestId`'s report and downloads it as `reporte-<calendar>.pdf` or `.xlsx`.
 * The writer and its library are loaded only now. Errors are the call's (`ApiRequestError` with
 * the server's Spanish message) or the writer's.
 */
export async function downloadReport(contestId: number, format: ReportFormat): Promise<void> {
  const report = await fetchContestReport(contestId);
  if (format === 'pdf') {
    const { buildReportPdf } = await import('./report-pdf');
    (await buildReportPdf(report)).save(reportFileName(report, 'pdf'));
  } else {
    const [{ buildReportXlsx }, { downloadXlsx }] = await Promise.all([
      import('./report-xlsx'),
      import('../../../ui/data-table/export-excel'),
    ]);
    downloadXlsx(await buildReportXlsx(report), reportFileName(report, 'xlsx'));
  }
}
