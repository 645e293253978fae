/** SCIM 2.0 provisioning: what other contexts and the edge may use. */
export { resolveScimToken } from './tokens/tokens';
export { deleteDirectoryUsersOf as eraseDirectoryUsersOf } from './users/users.repo';
