/**
 * The tax module's door for other modules (ARCHITECTURE.md): tax invoices and credit notes
 * (invoices.ts, decision 035), a buyer's KRA PIN (identity.ts) and the printable invoice
 * (document.ts, decision 074). The files behind it import invoices.ts, never this door, so the
 * module has no circle of imports.
 * Lives in: apps/api/src/modules/tax.
 */
export * from './invoices.ts';
export { buyerOfInvoice, identityView, saveTaxIdentity, saveTaxIdentityByStaff } from './identity.ts';
export { invoicePdf, sendInvoicePdf } from './document.ts';
export { openInvoiceTicket } from './invoice-link.ts';
export { transmissions } from './returns.ts';
