/**
 * A record of every JWT access token issued for a developer's API (issue 23). A JWT verifies until it
 * expires whatever happened since, so introspection needs a record to answer `active: false` the
 * moment the token, its grant or its client is revoked. The record holds no secret: its id is the
 * token's `jti` (the JWT itself is the credential), and it goes with its grant and its client like
 * every other artefact (adapter.repo: destroyGrant, destroyClientArtefacts, destroyAccountArtefacts).
 */
import { getDb } from '@/lib/db';
import { destroyModel, findModel, upsertModel } from './adapter.repo';

const MODEL = 'IssuedJwt';

export interface IssuedJwt {
  jti: string;
  clientId: string;
  /** The person; absent for machine tokens. */
  accountId?: string;
  grantId?: string;
  aud: string;
  scope?: string;
  iat: number;
  exp: number;
  organizationId?: string;
  /** DPoP (RFC 9449): the thumbprint of the key the token is bound to. */
  jkt?: string;
}

/** The provider's JWT customizer: called with every JWT access token it signs. */
export async function recordIssuedJwt(token: { accountId?: string; grantId?: string }, jwt: { payload: Record<string, unknown> }): Promise<void> {
  const { payload } = jwt;
  const record: IssuedJwt = {
    jti: String(payload.jti),
    clientId: String(payload.client_id),
    ...(token.accountId ? { accountId: token.accountId } : {}),
    ...(token.grantId ? { grantId: token.grantId } : {}),
    aud: String(payload.aud),
    ...(typeof payload.scope === 'string' ? { scope: payload.scope } : {}),
    iat: Number(payload.iat),
    exp: Number(payload.exp),
    ...(typeof payload.organization_id === 'string' ? { organizationId: payload.organization_id } : {}),
    ...(typeof (payload.cnf as { jkt?: unknown } | undefined)?.jkt === 'string' ? { jkt: (payload.cnf as { jkt: string }).jkt } : {}),
  };
  await upsertModel(await getDb(), {
    model: MODEL,
    id: record.jti,
    payload: { ...record },
    grantId: record.grantId ?? null,
    uid: null,
    userCode: null,
    expiresAt: new Date(record.exp * 1000),
  });
}

export async function findIssuedJwt(jti: string, now: Date): Promise<IssuedJwt | null> {
  const row = await findModel(await getDb(), MODEL, jti, now);
  return row ? (row.payload as unknown as IssuedJwt) : null;
}

export async function forgetIssuedJwt(jti: string): Promise<void> {
  await destroyModel(await getDb(), MODEL, jti);
}
