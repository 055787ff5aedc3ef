import { vatReturn } from '@betdesk/contract';
import { downloadFile } from '@/lib/http.ts';

/** GET /api/tax/returns/vat?format=csv|xlsx: the month's VAT return as the file to upload, streamed by the server. */
export function downloadVatReturn(month: string, format: 'csv' | 'xlsx'): Promise<void> {
  return downloadFile(vatReturn.path, { month, format }, `vat-return-${month}.${format}`);
}
