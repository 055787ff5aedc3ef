import { TWO_FACTOR_ENROLMENT_REQUIRED, type BodyOf, type Endpoint, type QueryOf, type ResponseOf } from '@betdesk/contract';
import { describeResponse, type ResponseDescription } from './http-catalogue.ts';
import { goBackStore, present, showToast } from './feedback.tsx';
import { navigateTo } from './navigation.ts';
import { progress } from './progress.ts';
import { createStore } from './store.ts';

/**
 * THE HTTP client (spec sections 7 and 8). Every call of the app goes through `request`, which
 * sends the spec's headers, drives the progress bar and applies the error catalogue once.
 */

/**
 * What a failure shows. 'present' (default): the catalogue's toast or popup. 'progress': only the
 * progress bar marks the failure (login). 'log': only logged (delete).
 */
export type FailureHandling = 'present' | 'progress' | 'log';

export interface RequestOptions {
  failure?: FailureHandling;
  /** Send the body as multipart form data instead of JSON (the spec's file flag). */
  file?: boolean;
  signal?: AbortSignal;
}

export type QueryParams = Record<string, unknown>;

export const NETWORK_ERROR_TEXT = 'The server could not be reached. Check the connection and try again.';

export class HttpError extends Error {
  readonly status: number;
  readonly body: unknown;
  /** The text shown for it (server info or status default), if any. */
  readonly info: string | null;
  /** 422 field errors keyed by the spec's field names. */
  readonly errors: Record<string, string[]> | null;
  readonly customError: boolean;

  constructor(args: {
    status: number;
    body: unknown;
    info: string | null;
    errors: Record<string, string[]> | null;
    customError: boolean;
  }) {
    super(args.info ?? `HTTP ${args.status}`);
    this.name = 'HttpError';
    this.status = args.status;
    this.body = args.body;
    this.info = args.info;
    this.errors = args.errors;
    this.customError = args.customError;
  }
}

export function isHttpError(error: unknown): error is HttpError {
  return error instanceof HttpError;
}

/** The last refused read (403) and the screen it was made on. */
export const refusalStore = createStore<{ screen: string; text: string } | null>(null);

let bearerToken: string | null = null;

/** The bearer Authorization header of every request (spec 4: set on login, cleared on logout). */
export function setBearerToken(token: string | null): void {
  bearerToken = token;
}

export function getBearerToken(): string | null {
  return bearerToken;
}

let unauthorizedHandler: () => void = () => navigateTo('/login');

/** What a 401 does: the auth module registers "clear the session and go to /login". */
export function setUnauthorizedHandler(handler: () => void): void {
  unauthorizedHandler = handler;
}

let missingCsrfLogged = false;

function csrfToken(): string | null {
  const token = document.querySelector('meta[name="csrf-token"]')?.getAttribute('content') ?? null;
  if (!token && !missingCsrfLogged) {
    missingCsrfLogged = true;
    console.debug('[http] No <meta name="csrf-token"> on the page; requests go without X-CSRF-TOKEN.');
  }
  return token || null;
}

function buildHeaders(): Headers {
  const headers = new Headers({
    'X-Requested-With': 'XMLHttpRequest',
    Accept: 'application/json',
  });
  if (bearerToken) headers.set('Authorization', `Bearer ${bearerToken}`);
  const csrf = csrfToken();
  if (csrf) headers.set('X-CSRF-TOKEN', csrf);
  return headers;
}

function appendValue(append: (key: string, value: string) => void, key: string, value: unknown): void {
  if (value === undefined || value === null) return;
  if (Array.isArray(value)) {
    for (const item of value) appendValue(append, key, item);
    return;
  }
  append(key, typeof value === 'object' ? JSON.stringify(value) : String(value));
}

export function toQueryString(query: QueryParams | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    appendValue((k, v) => params.append(k, v), key, value);
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

function toFormData(body: QueryParams): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(body)) {
    if (value instanceof Blob) form.append(key, value);
    else if (Array.isArray(value) && value.some((item) => item instanceof Blob)) {
      for (const item of value) if (item instanceof Blob) form.append(key, item);
    } else appendValue((k, v) => form.append(k, v), key, value);
  }
  return form;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return { message: text };
  }
}

export async function request<T>(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  input: { query?: QueryParams; body?: unknown } = {},
  options: RequestOptions = {},
): Promise<T> {
  const failure = options.failure ?? 'present';
  const headers = buildHeaders();
  let payload: BodyInit | undefined;
  if ((method === 'POST' || method === 'PUT') && input.body !== undefined) {
    if (options.file) {
      payload = toFormData(input.body as QueryParams);
    } else {
      headers.set('Content-Type', 'application/json');
      payload = JSON.stringify(input.body);
    }
  }
  const url = `${path}${method === 'GET' ? toQueryString(input.query) : ''}`;

  progress.start();
  let response: Response;
  try {
    response = await fetch(url, { method, headers, body: payload, signal: options.signal });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') {
      progress.done();
      throw error;
    }
    console.error(`[http] ${method} ${path} failed before a response`, error);
    if (failure === 'log') progress.done();
    else progress.fail();
    if (failure === 'present') showToast('error', NETWORK_ERROR_TEXT);
    throw new HttpError({ status: 0, body: null, info: NETWORK_ERROR_TEXT, errors: null, customError: false });
  }

  const body = await readBody(response);
  const description = describeResponse(response.status, body);
  if (description.goBack) goBackStore.set(true);

  if (description.ok) {
    progress.done();
    present(description.presentation);
    return body as T;
  }

  console.error(`[http] ${method} ${path} -> ${response.status}`, body);
  // A list the user may not read says why instead of "No records found.".
  if (response.status === 403 && method === 'GET') {
    refusalStore.set({ screen: window.location.pathname, text: description.text ?? 'You are not authorized to see this.' });
  }
  if (failure === 'log') progress.done();
  else progress.fail();
  // An admin who must enrol a second factor is sent to the enrolment on My Profile, and told why there.
  if (response.status === 403 && (body as { code?: unknown } | null)?.code === TWO_FACTOR_ENROLMENT_REQUIRED) {
    if (window.location.pathname !== '/me') navigateTo('/me');
  } else if (failure === 'present') {
    present(description.presentation);
  }
  throw refusedAs(response.status, body, description);
}

/** The error a refused answer throws; a 401 first goes to the unauthorized handler (back to /login). */
function refusedAs(status: number, body: unknown, description: ResponseDescription): HttpError {
  if (description.unauthorized) unauthorizedHandler();
  return new HttpError({ status, body, info: description.text, errors: description.fieldErrors, customError: description.customError });
}

export function get<T>(path: string, query?: QueryParams, options?: RequestOptions): Promise<T> {
  return request<T>('GET', path, { query }, options);
}

export function post<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T> {
  return request<T>('POST', path, { body }, options);
}

type Input<E> = {
  query?: QueryOf<E>;
  body?: BodyOf<E>;
};

/** A call typed by the contract: GET sends `query`, POST sends `body`; the answer is the response type. */
export function callEndpoint<E extends Endpoint>(
  endpoint: E,
  input: Input<E> = {},
  options?: RequestOptions,
): Promise<ResponseOf<E>> {
  return request<ResponseOf<E>>(
    endpoint.method,
    endpoint.path,
    { query: input.query as QueryParams | undefined, body: input.body },
    options,
  );
}

/**
 * Downloads a file the server streams (CSV exports). It goes through fetch so the bearer header
 * rides along; the browser then saves the received blob under `filename`.
 */
export async function downloadFile(path: string, query: QueryParams | undefined, filename: string): Promise<void> {
  const headers = buildHeaders();
  headers.set('Accept', 'text/csv, application/json');
  progress.start();
  let response: Response;
  try {
    response = await fetch(`${path}${toQueryString(query)}`, { headers });
  } catch (error) {
    console.error(`[http] download ${path} failed before a response`, error);
    progress.fail();
    showToast('error', NETWORK_ERROR_TEXT);
    throw error;
  }
  if (!response.ok) {
    const body = await readBody(response);
    const description = describeResponse(response.status, body);
    progress.fail();
    present(description.presentation);
    throw refusedAs(response.status, body, description);
  }
  const url = URL.createObjectURL(await response.blob());
  progress.done();
  saveLink(url, filename);
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Lets the browser save what `href` points at under `filename`, as a click on a download link would. */
export function saveLink(href: string, filename: string): void {
  const link = document.createElement('a');
  link.href = href;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
}

/**
 * Opens a long-lived GET that the server streams (the live events): the session's headers ride
 * along, so the token never goes into a URL. The caller reads the body and aborts with `signal`.
 */
export function openStream(path: string, signal: AbortSignal): Promise<Response> {
  const headers = buildHeaders();
  headers.set('Accept', 'text/event-stream');
  return fetch(path, { headers, signal, cache: 'no-store' });
}
