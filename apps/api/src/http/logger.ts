import type { FastifyServerOptions } from 'fastify';

/** Hides the secret path segment of webhook URLs (`/api/hooks/.../<secret>`) from logs. */
export function redactUrl(url: string): string {
  return url.replace(/^(\/api\/hooks\/(?:[^/?]+\/)*?)[^/?]{16,}(?=$|\?)/, '$1[secret]');
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
