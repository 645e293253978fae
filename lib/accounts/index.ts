/**
 * Accounts: enrollment, sign-in, step-up, passkeys, passwords, recovery and the person's own sessions.
 * What the edge and other contexts may use of it.
 */
export { authenticatorsOf } from './authenticators';
export { canonicalEmail, emailField } from './terms';
export { resolveChallengeToken } from './email-challenges';
export { PASSWORD_LOCKOUT_POLICY } from './lockout';
export { readProfile } from './profile';
export { PROFILE_FIELDS } from './profile.contract';
export { deliver } from './mails';
export { startVerifiedEnrollment } from './enrollment';
export { stepUpMethodsOf } from './step-up-methods';
export { startSession } from './session-start';
export { createVouchedAccount, type VouchedPerson } from './vouched-account';
export { eraseAccount } from './erasure';
