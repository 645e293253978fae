/**
 * The user directory: account records and their public view. The lowest domain context: sessions,
 * OAuth and the account use cases all read users through this entry point.
 */
export { findUserByEmail, findUserById, insertUser, lockUser, updateUserProfile, type UserRow } from './users.repo';
export { userView } from './user-view';
