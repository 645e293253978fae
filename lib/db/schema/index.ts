export * from './accounts';
export * from './audit';
export * from './oidc';
export * from './outbox';
export * from './platform';
export * from './sessions';
export * from './organizations';
export * from './developer';
