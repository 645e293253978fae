import { bindResource, type AnyOperation } from '@/lib/contract/operation';
import { askHelp } from './ask';
import * as contract from './docs.contract';

export const docsOperations: AnyOperation[] = [bindResource(contract.askDocs, ({ body }) => askHelp(body.question, body.page))];
