/**
 * node-oidc-provider's storage adapter on Postgres (or PGlite): every model in `oidc_models`. Nothing
 * about OAuth state lives in process memory, so any instance can serve any step of a flow. Ids that
 * are bearer secrets (tokens, codes, session and interaction ids) are stored only as keyed hashes, and
 * payloads never carry them (model-secrets.ts).
 */
import type { Adapter, AdapterPayload } from 'oidc-provider';
import { getDb, inTransaction } from '@/lib/db';
import { shouldSweep } from '@/lib/platform';
import {
  consumeModel,
  deleteExpiredModels,
  destroyGrant,
  destroyModel,
  findModel,
  findModelBy,
  grantIdOfModel,
  lockUnhashedModels,
  rekeyModel,
  upsertModel,
  type OidcModelRow,
} from './adapter.repo';
import { concealPayload, HASHED_ID_PREFIX, publicIdModels, revealPayload, storageId, storedUserCode } from './model-secrets';

/** The provider's payload from a row; `id` is the id it was looked up by (absent for lookups by uid). */
function payloadOf(row: OidcModelRow | null, id?: string): AdapterPayload | undefined {
  if (!row) return undefined;
  const payload = revealPayload(row.model, row.id, row.payload, id) as AdapterPayload;
  return row.consumedAt ? { ...payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) } : payload;
}

/**
 * What a consumption that lost throws. provider.ts passes the provider's own InvalidGrant (the token
 * endpoint then answers `invalid_grant`); oidc-provider is never loaded at import time, so this module
 * cannot name it.
 */
export type ConsumptionRefusal = (description: string) => Error;

export class DrizzleAdapter implements Adapter {
  constructor(
    private readonly model: string,
    private readonly clock: () => Date = () => new Date(),
    private readonly refuseConsumption: ConsumptionRefusal = (description) => new Error(description),
  ) {}

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const now = this.clock();
    const db = await getDb();
    await upsertModel(db, {
      model: this.model,
      id: storageId(this.model, id),
      payload: concealPayload(this.model, id, payload as Record<string, unknown>),
      // Secondary keys: a grant id and a session's uid are references, not credentials.
      grantId: payload.grantId ?? null,
      uid: payload.uid ?? null,
      userCode: payload.userCode ? storedUserCode(payload.userCode) : null,
      expiresAt: typeof expiresIn === 'number' ? new Date(now.getTime() + expiresIn * 1000) : null,
    });
    if (shouldSweep()) await deleteExpiredModels(db, now);
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    return payloadOf(await findModel(await getDb(), this.model, storageId(this.model, id), this.clock()), id);
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return payloadOf(await findModelBy(await getDb(), this.model, 'uid', uid, this.clock()));
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    return payloadOf(await findModelBy(await getDb(), this.model, 'userCode', storedUserCode(userCode), this.clock()));
  }

  /**
   * Single-use models (codes, refresh tokens, device codes, ...). The provider reads `consumed` first
   * and calls this only when it was unset, so concurrent redemptions all pass its read: the
   * conditional update decides, and exactly one wins. A loser is a reuse like the sequential one the
   * provider catches itself (grant_source.js, refresh_token.js), and is treated the same way: the
   * grant goes with everything issued under it (the winner's tokens too), and the request fails with
   * `invalid_grant` (docs/decisions.md, "Single-use codes and refresh tokens under concurrency").
   */
  async consume(id: string): Promise<void> {
    const db = await getDb();
    const rowId = storageId(this.model, id);
    if (await consumeModel(db, this.model, rowId, this.clock())) return;
    const grantId = await grantIdOfModel(db, this.model, rowId);
    if (grantId) await destroyGrant(db, grantId);
    throw this.refuseConsumption(`${this.model} already consumed`);
  }

  async destroy(id: string): Promise<void> {
    await destroyModel(await getDb(), this.model, storageId(this.model, id));
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await destroyGrant(await getDb(), grantId);
  }
}

/**
 * Rows written before ids were hashed keep working: each is rewritten under its keyed hash with a
 * concealed payload, in place, by the first provider start of the new version (a keyed hash cannot be
 * computed in SQL, so this is no SQL migration). Idempotent, and safe with several instances starting.
 */
export async function concealLegacyModels(): Promise<number> {
  return inTransaction(async (tx) => {
    const rows = await lockUnhashedModels(tx, publicIdModels(), HASHED_ID_PREFIX);
    for (const row of rows) {
      // Legacy payloads are the provider's own, as it wrote them.
      const userCode = typeof row.payload.userCode === 'string' ? storedUserCode(row.payload.userCode) : null;
      await rekeyModel(tx, row, { id: storageId(row.model, row.id), payload: concealPayload(row.model, row.id, row.payload), userCode });
    }
    return rows.length;
  });
}

/** Removes rows past their expiry (also done opportunistically by writes). */
export async function sweepExpiredOidcModels(now: Date): Promise<number> {
  return deleteExpiredModels(await getDb(), now);
}
