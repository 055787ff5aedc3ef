/** Business constants of spec section 9. */

export const PAGE_SIZES = [50, 100, 500, 1000, 2000] as const;
export type PageSize = (typeof PAGE_SIZES)[number];
export const DEFAULT_PAGE_SIZE: PageSize = 50;

/** Modals close this long after a successful save; toasts last as long. */
export const MODAL_CLOSE_DELAY_MS = 3000;
export const TOAST_DURATION_MS = 3000;

/** The spec's SMS page, for information only (the gateway counts real parts). */
export const SMS_PAGE_CHARACTERS = 150;

export const TOKEN_STORAGE_KEY = 'token';
export const SIDEBAR_COLLAPSE_WIDTH_PX = 768;
export const MIN_TABLE_ROWS = 2;
export const MIN_TABLE_COLUMNS = 2;

export const ADMIN_CATEGORY_ID = 1;
export const AGENT_CATEGORY_ID = 2;

export const CURRENCY = 'KES';
export const BUSINESS_TIME_ZONE = 'Africa/Nairobi';

/** The spec's page count for an SMS: length / 150, rounded up. */
export function smsPages(message: string): number {
  return Math.ceil(message.length / SMS_PAGE_CHARACTERS);
}
