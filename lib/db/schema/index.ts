export * from './accounts';
export * from './audit';
export * from './outbox';
export * from './platform';
export * from './sessions';
