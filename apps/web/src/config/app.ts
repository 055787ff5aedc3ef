/** Settings of the web app that are not business rules of the contract. */
export const APP_NAME = 'Betdesk';
export const SUPPORT_PHONE = '0700 000 000';
