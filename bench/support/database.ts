/**
 * A scratch database on the PostgreSQL server for one benchmark run (the service migrates it), and
 * the run's exit: the database pools of the process would otherwise keep it alive.
 */
import postgres from 'postgres';

export const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432';

export interface ScratchDatabase {
  url: string;
  drop(): Promise<void>;
}

export async function scratchDatabase(prefix: string): Promise<ScratchDatabase> {
  const name = `bench_${prefix}_${Date.now()}`;
  const admin = postgres(`${PG_URL}/postgres`, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  return {
    url: `${PG_URL}/${name}`,
    async drop() {
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

export function runBenchmark(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
