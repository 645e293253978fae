export * from './audit';
export * from './outbox';
export * from './platform';
