export { IdentityClient } from './client.js';
export { API_VERSION, PROBLEM_CODES, type ProblemCode } from './catalogue.js';
export * from './operations.js';
export { ProblemError, UnexpectedResponseError, retryAfterSeconds, type ProblemDocument } from './problem.js';
export type { ClientOptions, Envelope, IdempotentRequestOptions, OperationDescriptor, PageInput, RequestOptions } from './transport.js';
