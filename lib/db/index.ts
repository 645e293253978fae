export { getDb, getDbDriver, closeDb, inTransaction, type Db, type Tx, type Executor } from './client';
export * as tables from './schema';
