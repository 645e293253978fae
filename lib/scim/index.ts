/** SCIM 2.0 provisioning: what other contexts and the edge may use. */
export { resolveScimToken } from './tokens/tokens';
