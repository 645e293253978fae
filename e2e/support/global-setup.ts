import { startMailSink } from './mail-sink';

export default async function globalSetup() {
  const stop = await startMailSink();
  return stop;
}
