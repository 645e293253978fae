/**
 * node-oidc-provider's storage adapter on Postgres (or PGlite): every model in `oidc_models`. Nothing
 * about OAuth state lives in process memory, so any instance can serve any step of a flow.
 */
import type { Adapter, AdapterPayload } from 'oidc-provider';
import { getDb } from '@/lib/db';
import { shouldSweep } from '@/lib/platform';
import { consumeModel, deleteExpiredModels, destroyGrant, destroyModel, findModel, findModelBy, upsertModel, type OidcModelRow } from './adapter.repo';

function payloadOf(row: OidcModelRow | null): AdapterPayload | undefined {
  if (!row) return undefined;
  const payload = row.payload as AdapterPayload;
  return row.consumedAt ? { ...payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) } : payload;
}

export class DrizzleAdapter implements Adapter {
  constructor(
    private readonly model: string,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const now = this.clock();
    const db = await getDb();
    await upsertModel(db, {
      model: this.model,
      id,
      payload: payload as Record<string, unknown>,
      grantId: payload.grantId ?? null,
      uid: payload.uid ?? null,
      userCode: payload.userCode ?? null,
      expiresAt: typeof expiresIn === 'number' ? new Date(now.getTime() + expiresIn * 1000) : null,
    });
    if (shouldSweep()) await deleteExpiredModels(db, now);
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    return payloadOf(await findModel(await getDb(), this.model, id, this.clock()));
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return payloadOf(await findModelBy(await getDb(), this.model, 'uid', uid, this.clock()));
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    return payloadOf(await findModelBy(await getDb(), this.model, 'userCode', userCode, this.clock()));
  }

  async consume(id: string): Promise<void> {
    await consumeModel(await getDb(), this.model, id, this.clock());
  }

  async destroy(id: string): Promise<void> {
    await destroyModel(await getDb(), this.model, id);
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await destroyGrant(await getDb(), grantId);
  }
}

/** Removes rows past their expiry (also done opportunistically by writes). */
export async function sweepExpiredOidcModels(now: Date): Promise<number> {
  return deleteExpiredModels(await getDb(), now);
}
