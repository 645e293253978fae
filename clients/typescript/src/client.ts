/**
 * The client: every generated method (src/operations.ts), plus `paginate`, which follows next_cursor
 * through a collection and yields its items one by one.
 */
import { BearerOperations, OPERATION_DESCRIPTORS, type Collections } from './operations.js';
import { Transport, type ClientOptions, type RequestOptions } from './transport.js';

export class IdentityClient extends BearerOperations {
  constructor(options: ClientOptions) {
    super(new Transport(options));
  }

  /**
   * Every item of a collection, page after page: `limit` sets the page size, `cursor` where to start.
   * Stop iterating (break) to stop fetching.
   */
  async *paginate<M extends keyof Collections>(method: M, input: Collections[M]['input'], options?: RequestOptions): AsyncGenerator<Collections[M]['item']> {
    const descriptor = OPERATION_DESCRIPTORS[method];
    const member = descriptor.collection;
    let cursor = input.cursor ?? null;
    for (;;) {
      const page = (await this.transport.call(descriptor, { ...input, cursor }, options)) as Record<string, unknown>;
      yield* page[member] as Collections[M]['item'][];
      if (page.has_more !== true || typeof page.next_cursor !== 'string') return;
      cursor = page.next_cursor;
    }
  }
}
