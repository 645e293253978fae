import { describe, expect, it } from 'vitest';
import { termOperations } from '@/tests/helpers/test-operations';
import { buildOpenApiDocument } from './openapi';
import { OPERATIONS } from './registry';

type Json = Record<string, unknown>;
type Operation = { parameters: Json[]; responses: Record<string, Json> };
type Doc = { paths: Record<string, Record<string, Operation>>; components: Record<string, Record<string, Json>> };

const doc = buildOpenApiDocument(OPERATIONS) as unknown as Doc;
const operationsOf = (d: Doc) => Object.entries(d.paths).flatMap(([path, item]) => Object.values(item).map((op) => ({ path, op })));

// What Redocly's rules check in CI (npm run openapi:lint), held here too so `npm test` sees it first.
describe('the generated OpenAPI document', () => {
  it('declares a path parameter for every {param} of every path', () => {
    for (const { path, op } of operationsOf(doc)) {
      for (const [, name] of path.matchAll(/\{(\w+)\}/g)) {
        expect(
          op.parameters.some((p) => p.in === 'path' && p.name === name && p.required === true),
          `${path} {${name}}`,
        ).toBe(true);
      }
    }
  });

  it('documents redirects as redirects (Location, no body), not as problem documents', () => {
    const authorize = doc.paths['/oauth/authorize']!.get!.responses;
    expect(authorize['303']).toMatchObject({ headers: { Location: { $ref: '#/components/headers/Location' } } });
    expect(authorize['303']).not.toHaveProperty('content');
    expect(Object.keys(doc.components.responses!).filter((name) => /[^\d]3\d\d$/.test(name))).toEqual([]);
  });

  it("documents a delegated operation's errors in the OAuth format, and the pipeline's own refusals as problems", () => {
    const token = doc.paths['/oauth/token']!.post!.responses;
    expect(token['401']).toEqual({ $ref: '#/components/responses/ProtocolError401' });
    expect(doc.components.responses!.ProtocolError401!.content).toHaveProperty('application/json.schema.$ref', '#/components/schemas/OAuthError');
    expect(token['413']).toEqual({ $ref: '#/components/responses/Error413' });
  });

  it('documents the bearer collection envelope (authentication, scopes) on bearer collections only', () => {
    const success = (path: string) => doc.paths[path]!.get!.responses['200']! as { content: { 'application/json': { schema: Json } } };
    const bearer = success('/api/v1/developer/api-keys').content['application/json'].schema;
    expect(bearer.required).toEqual(['api_keys', 'has_more', 'next_cursor', 'authentication', 'scopes']);
    expect(bearer.properties).toMatchObject({ authentication: { type: 'string' }, scopes: { type: 'array', items: { type: 'string' } } });
    const session = success('/api/developer/api-keys').content['application/json'].schema;
    expect(session.properties).not.toHaveProperty('authentication');
    expect(session.required).toEqual(['api_keys', 'has_more', 'next_cursor']);
  });

  it('describes an enum-keyed record as an object with those properties', () => {
    const capabilities = doc.paths['/api/v1/capabilities']!.get!.responses['200'] as {
      content: { 'application/json': { schema: { properties: { summary: Json } } } };
    };
    const summary = capabilities.content['application/json'].schema.properties.summary as { required: string[]; properties: Json };
    expect(Object.keys(summary.properties).sort()).toEqual([...summary.required].sort());
  });

  it('carries only the components its operations use', () => {
    const text = JSON.stringify(doc.paths);
    for (const name of Object.keys(doc.components.parameters!)) expect(text, name).toContain(`"#/components/parameters/${name}"`);
    const schemes = new Set(operationsOf(doc).flatMap(({ op }) => ((op as { security?: Json[] }).security ?? []).flatMap((entry) => Object.keys(entry))));
    expect(Object.keys(doc.components.securitySchemes!).sort()).toEqual([...schemes].sort());
    // No operation takes an API key yet; a scheme appears as soon as an operation needs it.
    const withApiKeys = buildOpenApiDocument([...OPERATIONS, ...termOperations]) as unknown as Doc;
    expect(Object.keys(withApiKeys.components.securitySchemes!)).toContain('apiKey');
  });
});
