/**
 * The agent action catalog: an organization describes the actions agents may ask for (name, purpose,
 * a JSON Schema 2020-12 for their input, a risk level). Registering a high-risk action is gated
 * (`agent_actions.register_high_risk`, target = the name). Execution is not offered: the capability
 * matrix reports it `gated` (lib/status/capabilities.ts).
 */
import { randomUUID } from 'node:crypto';
import { Ajv2020 } from 'ajv/dist/2020';
import { recordAudit } from '@/lib/audit';
import type { SessionActor } from '@/lib/contract/actor';
import { invalidField, serviceError } from '@/lib/contract/errors';
import type { Page, PageRequest } from '@/lib/contract/operation';
import type { TenantActor } from '@/lib/contract/tenant';
import { getDb, inTransaction } from '@/lib/db';
import { toPage } from '@/lib/db/keyset';
import { agentActionApprovalTarget, passApprovalGate } from '../approvals/approval-gate';
import { RISK_LEVELS } from './agent-actions.contract';
import { insertAgentAction, listAgentActions, type AgentActionRow } from './agent-actions.repo';

export { ACTION_NAME, RISK_LEVELS } from './agent-actions.contract';
/** Serialized (UTF-8 JSON) size bound of an input schema. */
export const MAX_INPUT_SCHEMA_BYTES = 16 * 1024;

/** Longest regular expression (`pattern`, `patternProperties` key) an input schema may carry. */
export const MAX_SCHEMA_PATTERN_LENGTH = 256;

/**
 * Whether a regular expression repeats something that itself repeats (`(a+)+`, `(\w+\s?)*`): the
 * shape behind catastrophic backtracking (ReDoS) when the schema is later used on an agent's input.
 * A small scan of the source (escapes and character classes skipped), deliberately conservative.
 */
export function hasNestedQuantifier(source: string): boolean {
  const groups: boolean[] = [];
  let repeats = false;
  let inClass = false;
  const isQuantifier = (c: string | undefined) => c === '*' || c === '+' || c === '{';
  for (let i = 0; i < source.length; i += 1) {
    const c = source[i]!;
    if (c === '\\') {
      i += 1;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') inClass = true;
    else if (c === '(') {
      groups.push(repeats);
      repeats = false;
    } else if (c === ')') {
      if (repeats && isQuantifier(source[i + 1])) return true;
      repeats = (groups.pop() ?? false) || repeats;
    } else if (isQuantifier(c)) repeats = true;
  }
  return false;
}

/** The schema's regular expressions: `pattern` values and `patternProperties` keys, at any depth. */
function schemaPatterns(node: unknown, found: string[] = []): string[] {
  if (Array.isArray(node)) for (const item of node) schemaPatterns(item, found);
  else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'pattern' && typeof value === 'string') found.push(value);
      if (key === 'patternProperties' && value !== null && typeof value === 'object' && !Array.isArray(value)) found.push(...Object.keys(value));
      schemaPatterns(value, found);
    }
  }
  return found;
}

function patternProblem(schema: Record<string, unknown>): string | null {
  for (const pattern of schemaPatterns(schema)) {
    if (pattern.length > MAX_SCHEMA_PATTERN_LENGTH) return `A pattern has at most ${MAX_SCHEMA_PATTERN_LENGTH} characters.`;
    if (hasNestedQuantifier(pattern)) return 'A pattern may not repeat a group that itself repeats (catastrophic backtracking).';
  }
  return null;
}

/**
 * Why the input schema is not acceptable, or null. The schema is compiled (never used on data here)
 * by Ajv's JSON Schema 2020-12 implementation in strict mode: unknown keywords, ambiguous types and
 * unresolvable references are refused. `format` is an annotation (2020-12's default), not checked.
 * A fresh instance per schema: one schema's `$id` never collides with another's.
 */
export function inputSchemaProblem(schema: Record<string, unknown>): string | null {
  const bytes = Buffer.byteLength(JSON.stringify(schema), 'utf8');
  if (bytes > MAX_INPUT_SCHEMA_BYTES) return `The input schema is ${bytes} bytes serialized; at most ${MAX_INPUT_SCHEMA_BYTES} are accepted.`;
  const unsafe = patternProblem(schema);
  if (unsafe) return unsafe;
  try {
    new Ajv2020({ strict: true, validateFormats: false, logger: false }).compile(schema);
    return null;
  } catch (error) {
    const message = error instanceof Error ? error.message : 'The input schema does not compile.';
    return `Not a valid JSON Schema 2020-12 (strict): ${message.slice(0, 300)}`;
  }
}

export function agentActionView(row: AgentActionRow) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    input_schema: row.inputSchema,
    risk_level: row.riskLevel,
    created_at: row.createdAt.toISOString(),
  };
}

/** The catalog, newest first. */
export async function listOrganizationAgentActions(tenant: TenantActor, page: PageRequest): Promise<Page<ReturnType<typeof agentActionView>>> {
  const result = toPage(await listAgentActions(await getDb(), tenant.organizationId, page.after, page.limit + 1), page);
  return { ...result, items: result.items.map(agentActionView) };
}

export interface AgentActionInput {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
  risk_level: (typeof RISK_LEVELS)[number];
  approval_id?: string;
}

export async function registerAgentAction(tenant: TenantActor, actor: SessionActor, input: AgentActionInput, now: Date, requestId: string) {
  const schemaProblem = inputSchemaProblem(input.input_schema);
  if (schemaProblem) throw invalidField('body.input_schema', schemaProblem);
  const row: AgentActionRow = {
    id: randomUUID(),
    organizationId: tenant.organizationId,
    name: input.name,
    description: input.description,
    inputSchema: input.input_schema,
    riskLevel: input.risk_level,
    createdBy: actor.userId,
    createdAt: now,
  };
  await inTransaction(async (tx) => {
    if (input.risk_level === 'high') {
      const target = agentActionApprovalTarget(input.name, { description: input.description, input_schema: input.input_schema });
      await passApprovalGate(tx, tenant, actor, { action: 'agent_actions.register_high_risk', target, approvalId: input.approval_id }, now, requestId);
    }
    // A refused duplicate rolls the transaction back: the approval it would have used stays unused.
    if (!(await insertAgentAction(tx, row))) {
      const message = 'This organization already has an action of this name.';
      throw serviceError('conflict', message, { extras: { errors: [{ path: 'body.name', message }] } });
    }
    await recordAudit(tx, {
      action: 'agent_action.registered',
      outcome: 'success',
      actor,
      organizationId: tenant.organizationId,
      subject: { type: 'agent_action', id: row.id },
      requestId,
      data: { name: input.name, risk_level: input.risk_level },
      at: now,
    });
  });
  return agentActionView(row);
}
