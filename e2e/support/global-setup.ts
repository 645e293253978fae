import { rmSync } from 'node:fs';
import { startMailSink } from './mail-sink';
import { RECORD_DIR } from './recorder';

export default async function globalSetup() {
  // Each run records afresh: the secret scan reads only this run's exchanges.
  rmSync(RECORD_DIR, { recursive: true, force: true });
  const stop = await startMailSink();
  return stop;
}
