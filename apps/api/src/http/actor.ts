import type { Role } from '@betdesk/contract';

/** Who is making the request, decided once per request by the auth hook. */
export interface Actor {
  userId: number;
  sessionId: number;
  role: Role;
  categoryId: number;
  name: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    actor: Actor | null;
  }
}
