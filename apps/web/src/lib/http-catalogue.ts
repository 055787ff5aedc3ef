import { screenTexts, statusTexts } from '@betdesk/contract';

/**
 * The error catalogue of spec section 8 as one pure decision: given a status and a body, what the
 * user is shown. The HTTP client applies it; nothing else decides presentation.
 */
export type Presentation =
  | { kind: 'none' }
  | { kind: 'success-toast'; text: string }
  | { kind: 'success-popup'; title: typeof screenTexts.successPopupTitle; text: string }
  | { kind: 'error-toast'; text: string }
  | { kind: 'error-popup'; title: typeof screenTexts.errorPopupTitle; text: string };

export interface ResponseDescription {
  ok: boolean;
  /** The server's info, else the default for the status (failures only), else null. */
  text: string | null;
  presentation: Presentation;
  /** The body carries goBack, goback or back. */
  goBack: boolean;
  /** The body carries info or code. */
  customError: boolean;
  /** 401: the session is gone; the client clears it and goes to /login. */
  unauthorized: boolean;
  /** 422: field name -> messages, for the form that sent it. */
  fieldErrors: Record<string, string[]> | null;
}

type Body = Record<string, unknown>;

function asBody(body: unknown): Body {
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Body) : {};
}

function nonEmptyString(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

export function defaultStatusText(status: number): string | null {
  return (statusTexts as Record<number, string>)[status] ?? null;
}

function readFieldErrors(value: unknown): Record<string, string[]> | null {
  if (typeof value !== 'object' || value === null) return null;
  const errors: Record<string, string[]> = {};
  for (const [field, messages] of Object.entries(value)) {
    const list = (Array.isArray(messages) ? messages : [messages]).filter(
      (m): m is string => typeof m === 'string',
    );
    if (list.length > 0) errors[field] = list;
  }
  return Object.keys(errors).length > 0 ? errors : null;
}

export function describeResponse(status: number, rawBody: unknown): ResponseDescription {
  const body = asBody(rawBody);
  const info = nonEmptyString(body.info);
  const popup = body.popup === true;
  const failed = status >= 400;
  const goBack = Boolean(body.goBack || body.goback || body.back);
  const customError = info !== null || (body.code !== undefined && body.code !== null);

  if (!failed) {
    let presentation: Presentation = { kind: 'none' };
    if (info !== null) {
      // A popup carries what the server added in `message` (e.g. "A temporary password was sent by SMS to 07…").
      const message = nonEmptyString(body.message);
      const extra = message !== null && message !== info && !(Object.values(statusTexts) as string[]).includes(message) ? message : null;
      presentation = popup
        ? { kind: 'success-popup', title: screenTexts.successPopupTitle, text: extra ? `${info.replace(/[.!]$/, "")}. ${extra}` : info }
        : { kind: 'success-toast', text: info };
    }
    return {
      ok: status >= 200 && status < 300,
      text: info,
      presentation,
      goBack,
      customError,
      unauthorized: false,
      fieldErrors: null,
    };
  }

  // "Other statuses have no default text": the server's message is the last resort before silence.
  const text = info ?? defaultStatusText(status) ?? nonEmptyString(body.message);
  let presentation: Presentation = { kind: 'none' };
  if (text !== null) {
    presentation =
      status >= 500 || popup
        ? { kind: 'error-popup', title: screenTexts.errorPopupTitle, text }
        : { kind: 'error-toast', text };
  }
  return {
    ok: false,
    text,
    presentation,
    goBack,
    customError,
    unauthorized: status === 401,
    fieldErrors: status === 422 ? readFieldErrors(body.errors) : null,
  };
}
