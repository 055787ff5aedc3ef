import type { Config } from '../config.ts';

/*
 * The addresses customer texts link to: always a portal page (server-rendered under /portal), the
 * one about that purchase, never the staff app at the site's root. The host is the public one
 * M-Pesa calls back on (`MPESA_CALLBACK_BASE_URL`); every text that links is sent only when M-Pesa's
 * API is configured, so a text without it carries the path alone.
 */

const origin = (config: Pick<Config, 'mpesa'>) => config.mpesa.api?.callbackBaseUrl ?? '';

/** A package's page: pay it again (STK push after signing in, or the paybill instructions). */
export const packageLink = (config: Pick<Config, 'mpesa'>, packageId: number) => `${origin(config)}/portal/packages/${packageId}`;

/** My account: the subscriptions, their automatic renewal and how to stop it. */
export const accountLink = (config: Pick<Config, 'mpesa'>) => `${origin(config)}/portal/account`;

/** A document sent by SMS (decision 087): its signed ticket opens the PDF without signing in. */
export const invoiceLink = (config: Pick<Config, 'mpesa'>, ticket: string) => `${origin(config)}/portal/i/${ticket}`;
