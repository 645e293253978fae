export { getDb, getDbDriver, closeDb, inTransaction, TransactionScope, type Db, type Tx, type Executor } from './client';
export { isDatabaseUnavailable } from './unavailable';
export * as tables from './schema';
