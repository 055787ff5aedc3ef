import type { Role } from '@betdesk/contract';
import type { z } from 'zod';
import type { Database } from '../db/client.ts';
import type { AppDeps } from '../deps.ts';

/** Who is making the request, decided once per request by the auth hook. */
export interface Actor {
  userId: number;
  sessionId: number;
  role: Role;
  categoryId: number;
  name: string;
  /** An admin who must enrol a second factor (REQUIRE_ADMIN_2FA) before any route but their own account's. */
  mustEnrolSecondFactor: boolean;
  /** The primary's WAL position after the session's last write, when a replica is in use (decision 073). */
  lastWriteLsn?: string | null;
}

/**
 * A staff member's action from a form of the back office: the form as its schema parsed it, done
 * and audited under the request's id, answered with the line the screen shows.
 */
export type StaffFormAction<Form extends z.ZodType> = (
  deps: AppDeps,
  actor: Actor,
  form: z.output<Form>,
  requestId: string,
) => Promise<{ info: string }>;

/** A subscriber signed in to the portal: a phone, whether or not it has bought anything yet. */
export interface PortalSession {
  sessionId: number;
  /** E.164 digits. */
  phone: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    actor: Actor | null;
    /**
     * Who the request's token belongs to now, asked again (a long-lived stream re-checks its
     * session); null when the token is gone or was never given.
     */
    actorNow: () => Promise<Actor | null>;
    portal: PortalSession | null;
    /** Where this request's reading work runs (decision 073, http/reads.ts): the replica or the primary, chosen once; null without a replica. */
    readDatabase: (() => Promise<Database>) | null;
  }
}
