/**
 * SCIM discovery (RFC 7644 §4): what this service really supports, said once. ServiceProviderConfig,
 * ResourceTypes and Schemas are read-only and the same for every directory (they hold no tenant data).
 */
import { MAX_OPERATIONS } from './patch';
import { SCIM_MAX_BODY_BYTES } from './scim-terms.contract';

export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const LIST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
const SERVICE_PROVIDER_CONFIG_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig';
const RESOURCE_TYPE_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:ResourceType';
const SCHEMA_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Schema';

/** SCIM list bounds (ARCHITECTURE.md, Limits): ServiceProviderConfig's filter.maxResults. */
export const SCIM_COUNT = { default: 100, max: 500 } as const;

export function serviceProviderConfig(baseUrl: string) {
  return {
    schemas: [SERVICE_PROVIDER_CONFIG_SCHEMA],
    documentationUri: `${baseUrl}/docs`,
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: SCIM_COUNT.max },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: true },
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'SCIM bearer token',
        description:
          'A scim_ token an organization admin issues in the console (Directory sync); it is the only authorization context and names the organization.',
        specUri: 'https://www.rfc-editor.org/rfc/rfc6750',
        primary: true,
      },
    ],
    meta: { resourceType: 'ServiceProviderConfig', location: `${baseUrl}/scim/v2/ServiceProviderConfig` },
    /** Not a SCIM attribute: the PATCH bound, for people reading the document. */
    'urn:identity-service:limits': { patchOperations: MAX_OPERATIONS, bodyBytes: SCIM_MAX_BODY_BYTES },
  };
}

export function resourceTypes(baseUrl: string) {
  const type = (id: 'User' | 'Group', endpoint: string, schema: string, description: string) => ({
    schemas: [RESOURCE_TYPE_SCHEMA],
    id,
    name: id,
    endpoint,
    description,
    schema,
    schemaExtensions: [],
    meta: { resourceType: 'ResourceType', location: `${baseUrl}/scim/v2/ResourceTypes/${id}` },
  });
  return [type('User', '/Users', USER_SCHEMA, 'User Account'), type('Group', '/Groups', GROUP_SCHEMA, 'Group')];
}

interface Attribute {
  name: string;
  type: 'string' | 'boolean' | 'complex' | 'reference' | 'dateTime';
  multiValued?: boolean;
  required?: boolean;
  caseExact?: boolean;
  mutability?: 'readOnly' | 'readWrite' | 'immutable';
  uniqueness?: 'none' | 'server';
  description: string;
  subAttributes?: Attribute[];
  referenceTypes?: string[];
}

function attribute(spec: Attribute): Record<string, unknown> {
  return {
    name: spec.name,
    type: spec.type,
    multiValued: spec.multiValued ?? false,
    description: spec.description,
    required: spec.required ?? false,
    caseExact: spec.caseExact ?? false,
    mutability: spec.mutability ?? 'readWrite',
    returned: 'default',
    uniqueness: spec.uniqueness ?? 'none',
    ...(spec.subAttributes ? { subAttributes: spec.subAttributes.map(attribute) } : {}),
    ...(spec.referenceTypes ? { referenceTypes: spec.referenceTypes } : {}),
  };
}

const USER_ATTRIBUTES: Attribute[] = [
  {
    name: 'userName',
    type: 'string',
    required: true,
    uniqueness: 'server',
    description: "Unique in the organization's directory, compared regardless of case.",
  },
  {
    name: 'name',
    type: 'complex',
    description: "The person's name.",
    subAttributes: [
      { name: 'givenName', type: 'string', description: 'Given name.' },
      { name: 'familyName', type: 'string', description: 'Family name.' },
      { name: 'formatted', type: 'string', description: 'The full name, as displayed.' },
    ],
  },
  { name: 'displayName', type: 'string', description: 'The name shown for the person.' },
  {
    name: 'emails',
    type: 'complex',
    multiValued: true,
    description: 'E-mail addresses; at most one primary. The account is keyed by the primary (or work) address when the user is provisioned.',
    subAttributes: [
      { name: 'value', type: 'string', description: 'The address.' },
      { name: 'type', type: 'string', description: 'work, home or other.' },
      { name: 'primary', type: 'boolean', description: 'The primary address.' },
    ],
  },
  { name: 'active', type: 'boolean', description: "false suspends the person's membership of the organization; true restores it." },
  { name: 'externalId', type: 'string', caseExact: true, description: "The directory's own identifier." },
];

const GROUP_ATTRIBUTES: Attribute[] = [
  {
    name: 'displayName',
    type: 'string',
    required: true,
    uniqueness: 'server',
    description: "The group's name, unique in the organization regardless of case.",
  },
  { name: 'externalId', type: 'string', caseExact: true, mutability: 'immutable', description: "The directory's own identifier; fixed once set." },
  {
    name: 'members',
    type: 'complex',
    multiValued: true,
    description: 'Users of the same directory.',
    subAttributes: [
      { name: 'value', type: 'string', mutability: 'immutable', description: 'The member User id.' },
      { name: 'display', type: 'string', mutability: 'readOnly', description: "The member's display name." },
      { name: '$ref', type: 'reference', mutability: 'readOnly', referenceTypes: ['User'], description: 'The member User location.' },
    ],
  },
];

export function schemas(baseUrl: string) {
  const schema = (id: string, name: string, description: string, attributes: Attribute[]) => ({
    schemas: [SCHEMA_SCHEMA],
    id,
    name,
    description,
    attributes: attributes.map(attribute),
    meta: { resourceType: 'Schema', location: `${baseUrl}/scim/v2/Schemas/${id}` },
  });
  return [schema(USER_SCHEMA, 'User', 'User Account', USER_ATTRIBUTES), schema(GROUP_SCHEMA, 'Group', 'Group', GROUP_ATTRIBUTES)];
}

export function listResponse<T>(resources: T[], totalResults: number, startIndex: number) {
  return { schemas: [LIST_SCHEMA], totalResults, itemsPerPage: resources.length, startIndex, Resources: resources };
}
