import type { Role } from '@betdesk/contract';

/** Who is making the request, decided once per request by the auth hook. */
export interface Actor {
  userId: number;
  sessionId: number;
  role: Role;
  categoryId: number;
  name: string;
  /** An admin who must enrol a second factor (REQUIRE_ADMIN_2FA) before any route but their own account's. */
  mustEnrolSecondFactor: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    actor: Actor | null;
  }
}
