import { PassThrough } from 'node:stream';
import type ExcelJS from 'exceljs';
import type { FastifyReply } from 'fastify';

export type XlsxWorkbook = ExcelJS.stream.xlsx.WorkbookWriter;

/**
 * Sends a spreadsheet as a download, written by exceljs's streaming writer: each row is flushed as
 * it is committed, so a sheet of a large month never sits whole in memory. `write` adds the sheets
 * (committing each row and sheet); the workbook is committed after it.
 */
export function sendXlsx(reply: FastifyReply, filename: string, write: (workbook: XlsxWorkbook) => Promise<void>): FastifyReply {
  const stream = new PassThrough();
  void (async () => {
    try {
      // exceljs (with its zip libraries) loads on the first export, not at every process's boot.
      const { default: excel } = await import('exceljs');
      const workbook = new excel.stream.xlsx.WorkbookWriter({ stream, useStyles: false, useSharedStrings: false });
      await write(workbook);
      await workbook.commit();
    } catch (error) {
      reply.log.error({ err: error }, `${filename}.xlsx failed while streaming`);
      stream.destroy(error as Error);
    }
  })();
  return reply
    .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    .header('content-disposition', `attachment; filename="${filename}.xlsx"`)
    .header('cache-control', 'no-store')
    .send(stream);
}
