/**
 * The provider's records of developers' API resources (issue 23), written and removed inside the
 * developer context's transaction beside the API's own row, as portal clients are: the provider reads
 * them when a client asks for a token with `resource=<identifier>`. A record exists only while the API
 * is enabled: a disabled or deleted API is an unknown target (invalid_target), so no token for it is
 * issued or refreshed from then on.
 */
import { getDb, type Executor } from '@/lib/db';
import { consumeBucket, metrics } from '@/lib/platform';
import { grantBinding, memberApiPermissions } from './organization-binding.repo';
import { destroyModel, findModel, upsertModel } from './adapter.repo';

export interface ApiResourceServer {
  identifier: string;
  name: string;
  permissions: { name: string; description: string }[];
  accessTokenTtlSeconds: number;
  /** Permissions each confidential client may get with client credentials (by client id). */
  machineAccess: Record<string, string[]>;
  /** The API's own backend: besides each token's own client, it may introspect the API's tokens. */
  resourceServerClientId: string | null;
}

const MODEL = 'ResourceServer';

export async function writeApiResourceServer(tx: Executor, server: ApiResourceServer): Promise<void> {
  await upsertModel(tx, { model: MODEL, id: server.identifier, payload: { ...server }, grantId: null, uid: null, userCode: null, expiresAt: null });
}

export async function removeApiResourceServer(tx: Executor, identifier: string): Promise<void> {
  await destroyModel(tx, MODEL, identifier);
}

export async function findApiResourceServer(identifier: string, now = new Date()): Promise<ApiResourceServer | null> {
  const row = await findModel(await getDb(), MODEL, identifier, now);
  return row ? (row.payload as unknown as ApiResourceServer) : null;
}

/** Whether an enabled developer API has this permission (organization roles may carry it). */
export async function apiPermissionExists(identifier: string, permission: string): Promise<boolean> {
  return (await findApiResourceServer(identifier))?.permissions.some((p) => p.name === permission) ?? false;
}

/** The token request is a client credentials grant (the provider asks about resources for it too). */
export function isClientCredentialsRequest(ctx: { oidc?: { route?: string; params?: Record<string, unknown> } } | undefined): boolean {
  return ctx?.oidc?.route === 'token' && ctx.oidc.params?.grant_type === 'client_credentials';
}

/**
 * A token from an organization-bound grant carries only the API permissions the member holds there
 * (their custom role's), read at every issue and refresh: a role change shows in the next token.
 * Unbound grants keep what the person consented to.
 */
async function withinOrganizationRole(grantId: string, identifier: string, permissions: string[]): Promise<string[]> {
  const db = await getDb();
  const binding = await grantBinding(db, grantId);
  if (!binding) return permissions;
  const held = new Set(
    (await memberApiPermissions(db, binding.organizationId, binding.userId)).filter((p) => p.resource === identifier).map((p) => p.permission),
  );
  return permissions.filter((name) => held.has(name));
}

/** A client credentials request as the provider hands it over: its response headers, and its 429. */
export interface MachineRequest {
  setHeader: (name: string, value: string) => void;
  tooManyRequests: (description: string) => Error;
}

/**
 * The client credentials bucket of one client. The provider asks for the resource only once the
 * client has authenticated, so nobody can spend another client's bucket by naming its client_id.
 */
async function spendMachineBucket(clientId: string, machine: MachineRequest): Promise<void> {
  const decision = await consumeBucket('client_credentials', `client:${clientId}`, new Date());
  if (decision.allowed) return;
  metrics().rateLimitRefusals.inc({ bucket: 'client_credentials' });
  machine.setHeader('Retry-After', String(decision.resetSeconds));
  throw machine.tooManyRequests(`Too many machine token requests for this client: try again in ${decision.resetSeconds} seconds.`);
}

/**
 * What the provider issues for a developer's API, or null when it is no API of ours (invalid_target):
 * RFC 9068 JWT access tokens with the API as audience and its lifetime, carrying its permissions. A
 * person's authorization may carry any of them (the consent page names each); a machine token only
 * those the API's owner granted this client, and a client with none gets no token at all.
 */
export async function apiResourceServerInfo(identifier: string, clientId: string, machine: MachineRequest | null, grantId?: string) {
  const api = await findApiResourceServer(identifier);
  if (!api) return null;
  const granted = machine ? (Object.hasOwn(api.machineAccess, clientId) ? api.machineAccess[clientId]! : []) : api.permissions.map((p) => p.name);
  if (machine && granted.length === 0) return null;
  if (machine) await spendMachineBucket(clientId, machine);
  const permissions = grantId ? await withinOrganizationRole(grantId, api.identifier, granted) : granted;
  return {
    scope: permissions.join(' '),
    audience: api.identifier,
    accessTokenTTL: api.accessTokenTtlSeconds,
    accessTokenFormat: 'jwt' as const,
    jwt: { sign: { alg: 'RS256' as const } },
  };
}
