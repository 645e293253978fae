import { serviceError } from './errors';
import type { SignInMethod } from './tenant';

/** A sign-in as the organization's session policies judge it: the methods it proved, and when. */
export interface SignInRecord {
  methods: SignInMethod[];
  authenticatedAt: Date;
}

/**
 * Who is calling, as established by the operation's auth term. Services receive this, never the raw
 * request. Kinds appear here as soon as the pipeline can name them; a term whose credential store does
 * not exist yet never produces its actor (it rejects with 401).
 */
export type Actor =
  | { kind: 'anonymous' }
  | {
      kind: 'session';
      userId: string;
      sessionId: string;
      authenticatedAt: Date;
      stepUpAt: Date | null;
      stepUpMethod: 'passkey' | 'password' | null;
      /** How the session signed in (OIDC amr values: hwk, pwd, otp, fed). */
      amr: string[];
      /** When the session was used before this request (organization idle-timeout policies). */
      lastSeenAt: Date;
      /** Device binding recorded at sign-in (organization session-binding policy); null for older sessions. */
      bindingHash: string | null;
    }
  | { kind: 'enrollment'; enrollmentId: string }
  | { kind: 'recovery'; recoveryId: string }
  | {
      kind: 'bearer';
      credential: 'oauth' | 'api_key';
      credentialId: string;
      userId: string;
      clientId: string | null;
      scopes: string[];
      organizationId: string | null;
      /**
       * The sign-in behind the credential, for the policies of the organization it is bound to: for an
       * OAuth token, the sign-in whose session approved its grant. Absent or null when none is known
       * (API keys; grants bound before it was recorded): it then meets no sign-in policy.
       */
      signIn?: SignInRecord | null;
      /**
       * The OAuth grant (consent) the credential acts under: an access token's grant, or the grant an
       * agent-created API key was minted under. Absent for keys the person created in the portal.
       */
      grantId?: string | null;
    }
  | { kind: 'scim'; tokenId: string; organizationId: string };

export type ActorKind = Actor['kind'];

export const ANONYMOUS: Actor = { kind: 'anonymous' };

export type SessionActor = Extract<Actor, { kind: 'session' }>;
export type BearerActor = Extract<Actor, { kind: 'bearer' }>;
export type EnrollmentActor = Extract<Actor, { kind: 'enrollment' }>;
export type RecoveryActor = Extract<Actor, { kind: 'recovery' }>;
export type ScimActor = Extract<Actor, { kind: 'scim' }>;

/**
 * Narrows the actor an operation's auth term established. The pipeline guarantees the kind; this is
 * the runtime proof for the type system. Should a declaration and a handler ever disagree, the caller
 * lacks the credential the handler needs: the catalogued 401, never a 500 that hides the reason.
 */
export function actorOfKind<K extends Actor['kind']>(actor: Actor, kind: K): Extract<Actor, { kind: K }> {
  if (actor.kind !== kind) throw serviceError('unauthenticated', `This operation needs a ${kind} credential.`);
  return actor as Extract<Actor, { kind: K }>;
}

/** A stable principal string for idempotency scoping and per-account rate limits. */
export function principalOf(actor: Actor): string {
  switch (actor.kind) {
    case 'anonymous':
      return 'anonymous';
    case 'session':
      return `user:${actor.userId}`;
    case 'enrollment':
      return `enrollment:${actor.enrollmentId}`;
    case 'recovery':
      return `recovery:${actor.recoveryId}`;
    case 'bearer':
      return `${actor.credential}:${actor.credentialId}`;
    case 'scim':
      return `scim:${actor.tokenId}`;
  }
}
