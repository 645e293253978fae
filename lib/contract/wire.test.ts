import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import type { BearerActor, SessionActor } from './actor';
import { requestOf, approvalSlot, type CallInput, type CallOutput, type ItemOf } from './client';
import { bindCollection, bindResource } from './operation';
import type { TenantActor } from './tenant';
import { collectionContract, contractsOf, resourceContract, type SessionTerm } from './wire';

const SESSION: SessionTerm = { kind: 'session' };

const renameThing = resourceContract({
  id: 'renameThing',
  method: 'PATCH',
  path: '/api/things/{id}/names/{name_id}',
  summary: 'Rename',
  tag: 'Things',
  auth: SESSION,
  tenant: { param: 'id', permission: 'settings.manage' },
  origin: 'required',
  idempotency: 'optional',
  params: z.object({ id: z.string(), name_id: z.string() }),
  query: z.strictObject({ approval_id: z.string().optional() }),
  body: z.strictObject({ name: z.string() }),
  successStatus: 200,
  response: z.object({ name: z.string() }),
});

const listThings = collectionContract({
  id: 'listThings',
  method: 'GET',
  path: '/api/v1/things',
  summary: 'List',
  tag: 'Things',
  auth: { kind: 'bearer', accepts: ['api_key'], scopes: [] },
  origin: 'none',
  idempotency: 'none',
  collection: 'things',
  item: z.object({ id: z.string() }),
});

describe('handler contexts are typed by the declaration', () => {
  it('gives a session operation with a tenant a session actor and its tenant', () => {
    const op = bindResource(renameThing, async (ctx) => {
      expectTypeOf(ctx.actor).toEqualTypeOf<SessionActor>();
      expectTypeOf(ctx.tenant).toEqualTypeOf<TenantActor>();
      expectTypeOf(ctx.body).toEqualTypeOf<{ name: string }>();
      return { name: ctx.body.name };
    });
    expect(op.handler).toBeTypeOf('function');
  });

  it('gives a bearer operation without a tenant a bearer actor and no tenant', () => {
    const op = bindCollection(listThings, async (ctx) => {
      expectTypeOf(ctx.actor).toEqualTypeOf<BearerActor>();
      expectTypeOf(ctx.tenant).toEqualTypeOf<null>();
      return { items: [], hasMore: false, last: null };
    });
    expect(op.collection).toBe('things');
  });
});

describe('calling by contract', () => {
  it('substitutes and encodes path parameters and keeps set query values', () => {
    const request = requestOf(renameThing, { params: { id: 'a/b', name_id: 'n 1' }, query: { approval_id: 'ap' }, body: { name: 'x' } });
    expect(request).toEqual({ method: 'PATCH', url: '/api/things/a%2Fb/names/n%201?approval_id=ap', body: { name: 'x' } });
  });

  it('adds the cursor and limit of a collection page and types its envelope', () => {
    expect(requestOf(listThings, { cursor: 'c1', limit: 2 }).url).toBe('/api/v1/things?cursor=c1&limit=2');
    expectTypeOf<CallOutput<typeof listThings>>().toEqualTypeOf<{ things: { id: string }[] } & { has_more: boolean; next_cursor: string | null }>();
    expectTypeOf<CallInput<typeof renameThing>['body']>().toEqualTypeOf<{ name: string }>();
    expectTypeOf<ItemOf<typeof listThings>>().toEqualTypeOf<{ id: string }>();
  });

  it('refuses a call that leaves a path parameter out', () => {
    expect(() => requestOf(renameThing, { params: { id: '1', name_id: '' }, body: { name: 'x' } })).toThrow(/name_id/);
  });

  it('finds where a gated change carries its approval', () => {
    expect(approvalSlot(renameThing)).toBe('query');
    expect(approvalSlot(listThings)).toBeNull();
  });

  it('catalogues a module by operation id and refuses a contract exported under another name', () => {
    expect(Object.keys(contractsOf({ renameThing, listThings, helper: z.string() }))).toEqual(['renameThing', 'listThings']);
    expect(() => contractsOf({ other: renameThing })).toThrow(/exported as other/);
  });
});
