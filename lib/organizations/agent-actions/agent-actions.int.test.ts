/**
 * The agent action catalog through the real pipeline: JSON Schema 2020-12 validation (Ajv, strict),
 * the size bound, the high-risk gate, duplicates, the bearer read and the capability answer.
 */
import { describe, expect, it } from 'vitest';
import { useMailbox } from '@/tests/helpers/accounts';
import { call, operation, problemOf } from '@/tests/helpers/http';
import { mintAccessToken } from '@/tests/helpers/oauth';
import { asBrowser, createOrganization, joinAs, person, type Person } from '@/tests/helpers/organizations';
import { MAX_INPUT_SCHEMA_BYTES } from './agent-actions';

const mailbox = useMailbox();

const ticketSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: { ticket_id: { type: 'string', format: 'uuid' }, note: { type: 'string', maxLength: 200 } },
  required: ['ticket_id'],
  additionalProperties: false,
};

function register(who: Person, id: string, body: Record<string, unknown>) {
  return asBrowser(who.browser, 'POST', '/api/organizations/{id}/agent/actions', {
    params: { id },
    body: { description: 'Closes a support ticket', input_schema: ticketSchema, risk_level: 'low', ...body },
  });
}

const list = (who: Person, id: string, query?: string) => asBrowser(who.browser, 'GET', '/api/organizations/{id}/agent/actions', { params: { id }, query });
const bearerList = (token: string, id: string) =>
  call(operation('GET', '/api/v1/organizations/{id}/agent/actions'), { params: { id }, headers: { authorization: `Bearer ${token}` } });

describe('agent action catalog', () => {
  it('registers schema-validated actions and lists them newest first', async () => {
    const ada = await person(mailbox, 'ada');
    const member = await person(mailbox, 'member');
    const id = await createOrganization(ada);
    await joinAs(id, member.userId, 'member');

    const created = await register(ada, id, { name: 'tickets.close' });
    expect(created.status).toBe(201);
    const action = await created.json();
    expect(action).toEqual({
      id: expect.any(String),
      name: 'tickets.close',
      description: 'Closes a support ticket',
      input_schema: ticketSchema,
      risk_level: 'low',
      created_at: expect.any(String),
    });
    expect((await register(ada, id, { name: 'tickets.reopen', risk_level: 'medium' })).status).toBe(201);

    const listed = await (await list(member, id)).json();
    expect(listed.actions.map((a: { name: string }) => a.name)).toEqual(['tickets.reopen', 'tickets.close']);
    expect(listed.actions[1]).toEqual(action);
    const first = await (await list(member, id, 'limit=1')).json();
    expect(first).toMatchObject({ has_more: true, actions: [{ name: 'tickets.reopen' }] });
    const second = await (await list(member, id, `limit=1&cursor=${encodeURIComponent(first.next_cursor)}`)).json();
    expect(second).toMatchObject({ has_more: false, actions: [{ name: 'tickets.close' }] });

    const duplicate = await register(ada, id, { name: 'tickets.close' });
    expect(duplicate.status).toBe(409);
    expect((await problemOf(duplicate)).code).toBe('conflict');

    const denied = await register(member, id, { name: 'tickets.delete' });
    expect(await problemOf(denied)).toMatchObject({ code: 'forbidden', permission: 'actions.manage' });

    const trail = await (
      await asBrowser(ada.browser, 'GET', '/api/organizations/{id}/audit-events', { params: { id }, query: 'action=agent_action.registered' })
    ).json();
    expect(trail.audit_events.map((e: { data: object }) => e.data)).toEqual([
      { name: 'tickets.reopen', risk_level: 'medium' },
      { name: 'tickets.close', risk_level: 'low' },
    ]);
  });

  it('refuses invalid names, descriptions and input schemas (Ajv 2020-12, strict) with the field named', async () => {
    const ada = await person(mailbox, 'ada');
    const id = await createOrganization(ada);
    const tooBig = { type: 'object', description: 'x'.repeat(MAX_INPUT_SCHEMA_BYTES) };
    const cases: [string, Record<string, unknown>][] = [
      ['body.name', { name: 'Tickets Close' }],
      ['body.name', { name: '1tickets' }],
      ['body.name', { name: `a${'b'.repeat(64)}` }],
      ['body.description', { name: 'a', description: '' }],
      ['body.description', { name: 'a', description: 'd'.repeat(1001) }],
      ['body.risk_level', { name: 'a', risk_level: 'extreme' }],
      ['body.input_schema', { name: 'a', input_schema: ['not', 'an', 'object'] }],
      ['body.input_schema', { name: 'a', input_schema: { type: 'objekt' } }],
      // Strict mode: unknown keywords and ambiguous schemas are refused.
      ['body.input_schema', { name: 'a', input_schema: { type: 'object', propertees: {} } }],
      ['body.input_schema', { name: 'a', input_schema: { type: 'object', properties: { n: { minimum: 1 } } } }],
      ['body.input_schema', { name: 'a', input_schema: { type: 'object', required: ['missing'] } }],
      ['body.input_schema', { name: 'a', input_schema: { $ref: 'https://schemas.example.test/remote.json' } }],
      ['body.input_schema', { name: 'a', input_schema: tooBig }],
    ];
    for (const [path, body] of cases) {
      const response = await register(ada, id, body);
      expect(response.status, JSON.stringify(body).slice(0, 100)).toBe(400);
      const problem = await problemOf(response);
      expect((problem.errors as { path: string }[]).map((e) => e.path)).toContain(path);
    }
    const size = await problemOf(await register(ada, id, { name: 'a', input_schema: tooBig }));
    expect((size.errors as { message: string }[])[0]!.message).toMatch(/bytes serialized/);
    // Just under the bound is fine; nothing above was stored.
    const fits = { type: 'object', description: 'x'.repeat(MAX_INPUT_SCHEMA_BYTES - 64) };
    expect((await register(ada, id, { name: 'fits', input_schema: fits })).status).toBe(201);
    expect((await (await list(ada, id)).json()).actions.map((a: { name: string }) => a.name)).toEqual(['fits']);
  });

  it('registers a high-risk action only with an approval when the organization gates it', async () => {
    const ada = await person(mailbox, 'ada');
    const bob = await person(mailbox, 'bob');
    const id = await createOrganization(ada);
    await joinAs(id, bob.userId, 'admin');
    expect((await register(ada, id, { name: 'accounts.wipe', risk_level: 'high' })).status).toBe(201);

    const gate = await asBrowser(ada.browser, 'POST', '/api/organizations/{id}/policies', {
      params: { id },
      body: { policy_key: 'approvals.required_for', value: ['agent_actions.register_high_risk'] },
    });
    expect(gate.status).toBe(200);
    // Low and medium risk stay ungated.
    expect((await register(ada, id, { name: 'tickets.close', risk_level: 'medium' })).status).toBe(201);
    const refused = await register(ada, id, { name: 'payments.refund', risk_level: 'high' });
    expect(refused.status).toBe(403);
    // The approval names the action and a digest of exactly what is registered.
    const { approval: gated } = (await problemOf(refused)) as unknown as { approval: { action: string; target: string } };
    expect(gated).toMatchObject({ action: 'agent_actions.register_high_risk', target: expect.stringMatching(/^payments\.refund@sha256:[0-9a-f]{16}$/) });

    const requested = await asBrowser(ada.browser, 'POST', '/api/organizations/{id}/approvals', { params: { id }, body: gated });
    const approval = (await requested.json()) as { id: string };
    const approve = await asBrowser(bob.browser, 'POST', '/api/organizations/{id}/approvals/{approval_id}', {
      params: { id, approval_id: approval.id },
      body: { decision: 'approve' },
    });
    expect(approve.status).toBe(200);
    // The approval is for this name and this content only.
    expect((await register(ada, id, { name: 'payments.void', risk_level: 'high', approval_id: approval.id })).status).toBe(403);
    const otherSchema = { ...ticketSchema, additionalProperties: true };
    expect((await register(ada, id, { name: 'payments.refund', risk_level: 'high', input_schema: otherSchema, approval_id: approval.id })).status).toBe(403);
    // A refused duplicate leaves the approval unused.
    expect((await register(ada, id, { name: 'accounts.wipe', risk_level: 'high', approval_id: approval.id })).status).toBe(403);
    expect((await register(ada, id, { name: 'payments.refund', risk_level: 'high', approval_id: approval.id })).status).toBe(201);
    expect((await register(ada, id, { name: 'payments.refund', risk_level: 'high', approval_id: approval.id })).status).toBe(403);
  });

  it('refuses bearer tokens that are unbound, lack the scope, or are no tokens', async () => {
    const ada = await person(mailbox, 'ada');
    const id = await createOrganization(ada);
    const unbound = await bearerList((await mintAccessToken(ada.userId, 'identity.organization.read')).value, id);
    expect(await problemOf(unbound)).toMatchObject({ status: 403, code: 'forbidden' });
    const narrow = await bearerList((await mintAccessToken(ada.userId, 'identity.profile.read', { organizationId: id })).value, id);
    expect(await problemOf(narrow)).toMatchObject({ status: 403, code: 'insufficient_scope' });
    expect((await bearerList('not-a-token', id)).status).toBe(401);
  });

  it('is readable with an organization-bound bearer token, in the bearer envelope, only for that organization', async () => {
    const ada = await person(mailbox, 'ada');
    const id = await createOrganization(ada);
    const otherId = await createOrganization(ada, 'Other');
    expect((await register(ada, id, { name: 'tickets.close' })).status).toBe(201);

    const minted = await mintAccessToken(ada.userId, 'identity.organization.read', { organizationId: id });
    const response = await bearerList(minted.value, id);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({
      actions: [{ name: 'tickets.close', input_schema: ticketSchema, risk_level: 'low' }],
      has_more: false,
      next_cursor: null,
      authentication: 'oauth',
      scopes: ['identity.organization.read'],
    });
    const elsewhere = await bearerList(minted.value, otherId);
    expect(await problemOf(elsewhere)).toMatchObject({ status: 403, code: 'forbidden' });
  });

  it('reports execution as gated in the capability matrix', async () => {
    const response = await call(operation('GET', '/api/v1/capabilities'));
    const body = await response.json();
    const capabilities = (body.capabilities ?? body) as { id: string; status: string }[];
    expect(capabilities.find((c) => c.id === 'agent_action_execution')).toMatchObject({ status: 'gated' });
  });
});
