export { getDb, getDbDriver, closeDb, type Db, type Tx, type Executor } from './client';
export * as tables from './schema';
