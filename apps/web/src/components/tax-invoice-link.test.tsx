import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { renderWithProviders } from '@/testing/test-utils.tsx';
import { TaxInvoiceLink } from './tax-invoice-link.tsx';

const qr = 'https://etims-sbx.kra.go.ke/common/link/etims/receipt/indexEtimsReceiptData?Data=P051234567X00ABC123';

describe('a sale’s tax invoice on its row', () => {
  it('links to KRA’s verification page once KRA signed it', () => {
    renderWithProviders(<TaxInvoiceLink invoice={{ id: 7, number: 27, status: 'sent', kra_receipt_number: 27, qr }} testId="inv" />);
    expect(screen.getByRole('link', { name: 'Invoice 27' })).toHaveAttribute('href', qr);
  });

  it('shows the number and status, with no link, while KRA has not got it', () => {
    renderWithProviders(<TaxInvoiceLink invoice={{ id: 8, number: 28, status: 'queued', kra_receipt_number: null, qr: null }} testId="inv" />);
    expect(screen.getByTestId('inv')).toHaveTextContent('Invoice 28 (queued)');
    expect(screen.queryByRole('link')).toBeNull();
  });

  it('shows nothing for a row without an invoice (a staff grant)', () => {
    renderWithProviders(<TaxInvoiceLink invoice={null} testId="inv" />);
    expect(screen.queryByTestId('inv')).toBeNull();
  });
});
