/**
 * What a generated walk really ran: each generated test records its operation, and the walk's last
 * test checks the record against the registry, so a walk that silently ran fewer operations (a filter
 * gone wrong, a test registered conditionally, an operation left out of a list) fails instead of
 * passing on what it never did. vitest runs a file's tests in order, so the check goes last.
 */
import type { AnyOperation } from '@/lib/contract/operation';

export class WalkCoverage {
  private readonly ran = new Set<string>();

  record(op: AnyOperation): void {
    this.ran.add(op.id);
  }

  /** Operation ids expected but not run, and run but not expected (both empty when the walk was whole). */
  gaps(expected: readonly AnyOperation[]): { notRun: string[]; unexpected: string[] } {
    const ids = new Set(expected.map((op) => op.id));
    return { notRun: [...ids].filter((id) => !this.ran.has(id)).sort(), unexpected: [...this.ran].filter((id) => !ids.has(id)).sort() };
  }
}
