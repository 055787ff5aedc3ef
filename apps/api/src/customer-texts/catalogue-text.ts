/** One text of the customer catalogue, in both languages (catalogue.ts; the portal's pages in portal.ts). */
export interface CatalogueText {
  en: string;
  sw: string;
  /** Where the text is read: the tests hold each channel to its limits. */
  channel: 'sms' | 'ussd' | 'portal';
  /** A setting the business may reword (Settings), with what it is for. */
  editable?: string;
}
