import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { login as loginEndpoint } from '@betdesk/contract';
import { jsonResponse } from '@/testing/test-utils.tsx';
import { goBackStore, present } from './feedback.tsx';
import { callEndpoint, get, HttpError, post, setBearerToken, setUnauthorizedHandler } from './http.ts';
import { progressStore } from './progress.ts';

vi.mock('./feedback.tsx', async (importOriginal) => {
  const actual = await importOriginal<typeof import('./feedback.tsx')>();
  return { ...actual, present: vi.fn(), showToast: vi.fn() };
});

const fetchMock = vi.fn<typeof fetch>();

function lastRequest(): { url: string; init: RequestInit; headers: Headers } {
  const [url, init = {}] = fetchMock.mock.lastCall ?? [];
  return { url: String(url), init, headers: new Headers(init.headers) };
}

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  vi.mocked(present).mockClear();
  vi.spyOn(console, 'error').mockImplementation(() => {});
  progressStore.set({ status: 'idle', pending: 0 });
  goBackStore.set(false);
  setBearerToken(null);
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  document.head.innerHTML = '';
});

describe('http client: headers (spec 7)', () => {
  it('sends X-Requested-With, Accept and the bearer token on every request', async () => {
    vi.spyOn(console, 'debug').mockImplementation(() => {});
    setBearerToken('abc123');
    fetchMock.mockResolvedValue(jsonResponse(200, { ok: true }));
    await get('/api/dashboard');
    const { headers } = lastRequest();
    expect(headers.get('X-Requested-With')).toBe('XMLHttpRequest');
    expect(headers.get('Accept')).toBe('application/json');
    expect(headers.get('Authorization')).toBe('Bearer abc123');
  });

  it('sends no Authorization header when no token is held', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, {}));
    await get('/api/health');
    expect(lastRequest().headers.has('Authorization')).toBe(false);
  });

  it('sends X-CSRF-TOKEN when the page has the meta tag', async () => {
    document.head.innerHTML = '<meta name="csrf-token" content="csrf-xyz">';
    fetchMock.mockResolvedValue(jsonResponse(200, {}));
    await get('/api/dashboard');
    expect(lastRequest().headers.get('X-CSRF-TOKEN')).toBe('csrf-xyz');
  });

  it('logs a missing CSRF meta tag once', async () => {
    vi.resetModules();
    const fresh = await import('./http.ts');
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => {});
    fetchMock.mockImplementation(async () => jsonResponse(200, {}));
    await fresh.get('/api/a');
    await fresh.get('/api/b');
    expect(lastRequest().headers.has('X-CSRF-TOKEN')).toBe(false);
    expect(debug).toHaveBeenCalledOnce();
  });
});

describe('http client: payloads (spec 7)', () => {
  it('puts GET params in the query string', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, {}));
    await get('/api/clients/search', { page: 2, perPage: 100, search: 'Wanjiru K', skip: undefined });
    const { url, init } = lastRequest();
    expect(url).toBe('/api/clients/search?page=2&perPage=100&search=Wanjiru+K');
    expect(init.method).toBe('GET');
    expect(init.body).toBeUndefined();
  });

  it('sends a POST body as JSON', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, {}));
    await post('/api/users/save-clients', { user_id: 3, client_ids: [1, 2] });
    const { init, headers } = lastRequest();
    expect(init.method).toBe('POST');
    expect(headers.get('Content-Type')).toBe('application/json');
    expect(init.body).toBe('{"user_id":3,"client_ids":[1,2]}');
  });

  it('sends multipart form data when the file flag is set', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, {}));
    const image = new File(['png'], 'cover.png', { type: 'image/png' });
    await post('/api/uploads', { title: 'Cover', file: image }, { file: true });
    const { init, headers } = lastRequest();
    expect(init.body).toBeInstanceOf(FormData);
    const form = init.body as FormData;
    expect(form.get('title')).toBe('Cover');
    expect((form.get('file') as File).name).toBe('cover.png');
    expect(headers.has('Content-Type')).toBe(false);
  });

  it('calls a contract endpoint with its method and path', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, { token: 't', user: { name: 'A' } }));
    const answer = await callEndpoint(loginEndpoint, { body: { email: 'a@b.c', password: 'pw' } });
    expect(lastRequest().url).toBe('/api/auth/login');
    expect(lastRequest().init.method).toBe('POST');
    expect(answer).toMatchObject({ token: 't' });
  });
});

describe('http client: responses (spec 8)', () => {
  it('shows the success toast of a 2xx with info and switches the progress bar off', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, { info: 'Bet opened successfully' }));
    await post('/api/bets/save', {});
    expect(present).toHaveBeenCalledWith({ kind: 'success-toast', text: 'Bet opened successfully' });
    expect(progressStore.get().status).toBe('idle');
  });

  it('throws the field errors of a 422 and shows the error toast', async () => {
    fetchMock.mockResolvedValue(
      jsonResponse(422, {
        message: 'Form data has some errors.',
        info: 'Form data has some errors.',
        errors: { password: ['The password must be at least 8 characters'] },
      }),
    );
    const error = await post('/api/auth/save-password', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(422);
    expect((error as HttpError).errors).toEqual({ password: ['The password must be at least 8 characters'] });
    expect(present).toHaveBeenCalledWith({ kind: 'error-toast', text: 'Form data has some errors.' });
    expect(progressStore.get().status).toBe('failed');
  });

  it('on a 401 shows the default text and hands over to the unauthorized handler', async () => {
    const onUnauthorized = vi.fn();
    setUnauthorizedHandler(onUnauthorized);
    fetchMock.mockResolvedValue(jsonResponse(401, {}));
    await expect(get('/api/dashboard')).rejects.toBeInstanceOf(HttpError);
    expect(present).toHaveBeenCalledWith({ kind: 'error-toast', text: 'You need to log in first.' });
    expect(onUnauthorized).toHaveBeenCalledOnce();
  });

  it('shows a 500 as an error popup', async () => {
    fetchMock.mockResolvedValue(jsonResponse(500, { message: 'Internal Server Error' }));
    await expect(get('/api/dashboard')).rejects.toMatchObject({ status: 500 });
    expect(present).toHaveBeenCalledWith({
      kind: 'error-popup',
      title: 'Oops!',
      text: 'A small system hitch has been encountered. The issue is being addressed and all should be well soon.',
    });
  });

  it("with failure: 'progress' only marks the progress bar as failed (login)", async () => {
    fetchMock.mockResolvedValue(jsonResponse(422, { info: 'These credentials do not match our records.' }));
    await expect(post('/api/auth/login', {}, { failure: 'progress' })).rejects.toMatchObject({
      info: 'These credentials do not match our records.',
    });
    expect(present).not.toHaveBeenCalled();
    expect(progressStore.get().status).toBe('failed');
  });

  it("with failure: 'log' only logs (delete)", async () => {
    fetchMock.mockResolvedValue(jsonResponse(404, {}));
    await expect(post('/api/users/delete', { id: 9 }, { failure: 'log' })).rejects.toMatchObject({ status: 404 });
    expect(present).not.toHaveBeenCalled();
    expect(console.error).toHaveBeenCalled();
    expect(progressStore.get().status).toBe('idle');
  });

  it('sets the go-back state when the body asks for it', async () => {
    fetchMock.mockResolvedValue(jsonResponse(404, { info: 'No such client', goback: true }));
    await expect(get('/api/clients/show', { client_id: 999 })).rejects.toBeInstanceOf(HttpError);
    expect(goBackStore.get()).toBe(true);
  });

  it('reports a network failure with status 0 and a failed progress bar', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    await expect(get('/api/dashboard')).rejects.toMatchObject({ status: 0 });
    expect(progressStore.get().status).toBe('failed');
  });

  it('keeps the bar running until every pending response is handled', async () => {
    let answerFirst: (r: Response) => void = () => {};
    fetchMock
      .mockImplementationOnce(() => new Promise((resolve) => (answerFirst = resolve)))
      .mockResolvedValueOnce(jsonResponse(200, {}));
    const first = get('/api/a');
    await get('/api/b');
    expect(progressStore.get().status).toBe('loading');
    answerFirst(jsonResponse(200, {}));
    await first;
    expect(progressStore.get().status).toBe('idle');
  });
});
