import type { FastifyServerOptions } from 'fastify';

/**
 * Hides from logs the secret path segment of webhook URLs (`/api/hooks/.../<secret>`) and the
 * ticket of an invoice's link (`/portal/i/<ticket>`, decision 087): each opens what it names.
 */
export function redactUrl(url: string): string {
  return url.replace(/^(\/api\/hooks\/(?:[^/?]+\/)*?)[^/?]{16,}(?=$|\?)/, '$1[secret]').replace(/^\/portal\/i\/[^/?]+/, '/portal/i/[ticket]');
}

/** The process logger's options, shared by the API (main.ts) and the worker. */
export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  return {
    level,
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.token', '*.apiKey'],
      censor: '[redacted]',
    },
    serializers: {
      req: (req: { method: string; url: string; ip?: string }) => ({
        method: req.method,
        url: redactUrl(req.url),
        ip: req.ip,
      }),
    },
  };
}
