/** Verified domains and federation: what other contexts may use. */
export { verifiesEmailDomain } from './domains/domains';
export { deleteFederatedIdentitiesOf as eraseFederatedIdentitiesOf } from './erasure.repo';
