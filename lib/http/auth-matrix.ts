import { isUnsafe, type AnyOperation, type AuthTerm } from '@/lib/contract/operation';

function describeAuth(term: AuthTerm): string {
  switch (term.kind) {
    case 'public':
      return 'public';
    case 'session':
      if (!term.stepUp) return 'session';
      if (term.stepUp.passkeyWhenEnrolled) return 'session + step-up (passkey; password when the account has none)';
      return `session + step-up (${term.stepUp.methods.join(' or ')})${term.stepUp.onlyWhen ? ` ${term.stepUp.onlyWhen.says}` : ''}`;
    case 'bearer':
      return `bearer (${term.accepts.join(', ')})`;
    default:
      return term.kind.replace(/_/g, ' ');
  }
}

/** The tenant column: where the organization comes from and the permission it takes. */
function tenantOf(op: AnyOperation): string {
  if (!op.tenant) return '';
  const where = op.tenant.param === 'binding' ? 'bound organization' : 'member';
  return `${where}: ${op.tenant.permission}${op.tenant.ownerOnly ? ', owner only' : ''}`;
}

function scopesOf(term: AuthTerm): string {
  if (term.kind !== 'bearer' || term.scopes.length === 0) return '';
  return term.scopes.join(term.scopeMode === 'any' ? ' or ' : ' and ');
}

/** docs/auth-matrix.md, generated from the registry (a test fails when the committed copy is stale). */
export function buildAuthMatrix(operations: readonly AnyOperation[]): string {
  const rows = [...operations]
    .sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method))
    .map((op) =>
      [
        op.method,
        `\`${op.path}\``,
        op.id,
        describeAuth(op.auth),
        tenantOf(op),
        scopesOf(op.auth),
        op.origin,
        op.auth.kind === 'session' && isUnsafe(op.method) ? 'yes' : '',
        [op.rateLimit, op.subjectRateLimit?.bucket].filter(Boolean).join(', '),
        op.idempotency === 'none' ? '' : op.idempotency,
      ].join(' | '),
    );
  return [
    '# Auth matrix',
    '',
    'Generated from the operation registry by `npm run docs:generate`; do not edit by hand.',
    '',
    '| Method | Path | Operation | Auth | Tenant permission | Scopes | Origin | CSRF | Rate limit | Idempotency-Key |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r} |`),
    '',
  ].join('\n');
}
