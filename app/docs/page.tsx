import type { Metadata } from 'next';
import Link from 'next/link';
import { DOC_SECTIONS } from '@/lib/docs';
import { CONTRACTS } from '@/lib/http/contracts';
import { callOperation } from '@/lib/http/internal-call';
import { AskForm } from './ask-form';
import { DocsContents, type ContentsEntry } from './contents';
import './docs.css';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Documentation' };

interface OperationDoc {
  operationId: string;
  summary: string;
  tags: string[];
  responses: Record<string, unknown>;
  'x-auth': string;
  'x-origin-rule': string;
  'x-rate-limit'?: string;
  'x-idempotency': string;
  'x-extension'?: boolean;
}
interface ScopeRow {
  scope: string;
  description: string;
  alias_of: string | null;
  claims: string[];
  routes: string[];
  self_registered_clients: string;
}
type OpenApi = { paths: Record<string, Record<string, OperationDoc>>; 'x-scope-table': ScopeRow[] };

const tagId = (tag: string) => `reference-${tag.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;

export default async function DocsPage() {
  const result = await callOperation(CONTRACTS.getOpenApiDocument, {});
  // The contract describes the document only as an object (its shape is OpenAPI 3.1's): this page reads the parts it shows.
  const document = result.ok ? (result.body as OpenApi) : null;
  const operations = document
    ? Object.entries(document.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ path, method, op })))
    : [];
  const tags = [...new Set(operations.map((o) => o.op.tags[0] ?? 'Other'))];

  const guides = DOC_SECTIONS.filter((s) => s.url.startsWith('/docs#'));
  const contents: ContentsEntry[] = [
    ...guides.map((section) => ({ href: `#${section.slug}`, label: section.title })),
    { href: '#reference', label: 'API reference', children: tags.map((tag) => ({ href: `#${tagId(tag)}`, label: tag })) },
    { href: '#ask', label: 'Ask a question' },
    { href: '/docs/versioning', label: 'Versioning policy (page)' },
  ];

  return (
    <>
      <h1>Documentation</h1>
      <p className="lead">
        How the service behaves, and the API reference generated from its operation registry. The machine-readable contract is at{' '}
        <a href="/api/openapi.json">/api/openapi.json</a>; the version policy is at <Link href="/docs/versioning">/docs/versioning</Link>.
      </p>

      <div className="docs-layout">
        <DocsContents entries={contents} />
        <div className="docs-main">
          {guides.map((section) => (
            <section key={section.slug} id={section.slug} aria-labelledby={`${section.slug}-title`}>
              <h2 id={`${section.slug}-title`}>{section.title}</h2>
              {section.body.map((paragraph) => (
                <p key={paragraph}>{paragraph}</p>
              ))}
              {section.slug === 'scopes' && document && <ScopeTable rows={document['x-scope-table']} />}
            </section>
          ))}

          <section id="reference" aria-labelledby="reference-title">
            <h2 id="reference-title">API reference</h2>
            {!document && <p className="error">The API document is unavailable.</p>}
            {tags.map((tag) => (
              <div key={tag}>
                <h3 id={tagId(tag)}>{tag}</h3>
                <div className="table-wrap">
                  <table aria-labelledby={tagId(tag)}>
                    <thead>
                      <tr>
                        <th scope="col">Operation</th>
                        <th scope="col">Auth</th>
                        <th scope="col">Protections</th>
                        <th scope="col">Statuses</th>
                      </tr>
                    </thead>
                    <tbody>
                      {operations
                        .filter((o) => (o.op.tags[0] ?? 'Other') === tag)
                        .map(({ path, method, op }) => (
                          <tr key={`${method} ${path}`} id={op.operationId}>
                            <td>
                              <span className="method">{method.toUpperCase()}</span> <code>{path}</code>
                              <br />
                              {op.summary}
                              {op['x-extension'] && ' (extension)'}
                            </td>
                            <td data-label="Auth">{op['x-auth'].replace(/_/g, ' ')}</td>
                            <td data-label="Protections">
                              Origin: {op['x-origin-rule']}
                              {op['x-rate-limit'] && `; rate limit: ${op['x-rate-limit']}`}
                              {op['x-idempotency'] !== 'none' && `; Idempotency-Key ${op['x-idempotency']}`}
                            </td>
                            <td data-label="Statuses">{Object.keys(op.responses).join(', ')}</td>
                          </tr>
                        ))}
                    </tbody>
                  </table>
                </div>
              </div>
            ))}
          </section>

          <section id="ask" aria-labelledby="ask-title">
            <h2 id="ask-title">Ask a question</h2>
            <AskForm />
          </section>
        </div>
      </div>
    </>
  );
}

/** Each scope with what the consent screen says, the claims it releases and the routes that take it. */
function ScopeTable({ rows }: { rows: ScopeRow[] }) {
  return (
    <>
      <p>
        Applications registered through <code>POST /oauth/register</code> may ask only for the scopes marked allowed for self-registered clients (
        <code>identity.developer.read</code>, <code>identity.webhooks.test</code> and <code>identity.api_keys.create</code> only with{' '}
        <code>resource={'{base_url}'}/mcp</code>); anything else is refused with <code>invalid_scope</code>. Their consent screen says that the service has not
        verified who runs them.
      </p>
      <div className="table-wrap">
        <table aria-labelledby="scopes-title">
          <thead>
            <tr>
              <th scope="col">Scope</th>
              <th scope="col">Consent screen says</th>
              <th scope="col">Claims</th>
              <th scope="col">Routes</th>
              <th scope="col">Self-registered clients</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.scope}>
                <th scope="row">
                  <code>{row.scope}</code>
                  {row.alias_of && (
                    <>
                      {' '}
                      (alias of <code>{row.alias_of}</code>)
                    </>
                  )}
                </th>
                <td data-label="Consent screen says">{row.description}</td>
                <td data-label="Claims">{row.claims.length > 0 ? row.claims.join(', ') : 'None'}</td>
                <td data-label="Routes">{row.routes.length > 0 ? row.routes.join('; ') : 'No route takes it yet'}</td>
                <td data-label="Self-registered clients">{row.self_registered_clients}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
