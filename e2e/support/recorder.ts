/**
 * Records what the journeys exchange with the service (request bodies, response bodies, Set-Cookie),
 * one JSON line per exchange under test-results/e2e-recorded, for the secret scan that runs after the
 * suite (scripts/secret-scan.ts): the secrets the suite itself created are the ones it searches for.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { APIRequestContext, APIResponse, BrowserContext, Request, Response } from '@playwright/test';
import { E2E_BASE_URL } from './ports';

export const RECORD_DIR = path.resolve(__dirname, '../../test-results/e2e-recorded');

export interface Exchange {
  url: string;
  method: string;
  status: number;
  requestBody: string | null;
  responseBody: string | null;
  responseType: string;
  setCookies: string[];
}

/**
 * JSON and plain-text bodies: what the API and the protocol answer. Pages are left out (large, and
 * reading them slows every navigation); the one-time secrets they show arrive as JSON.
 */
const TEXT_TYPES = /json|text\/plain/;

let file: string | null = null;

function write(exchange: Exchange): void {
  if (!file) {
    mkdirSync(RECORD_DIR, { recursive: true });
    file = path.join(RECORD_DIR, `${process.pid}.jsonl`);
  }
  appendFileSync(file, `${JSON.stringify(exchange)}\n`);
}

function ours(url: string): boolean {
  return url.startsWith(E2E_BASE_URL);
}

async function fromBrowser(response: Response): Promise<void> {
  const request: Request = response.request();
  if (!ours(response.url())) return;
  const type = response.headers()['content-type'] ?? '';
  let body: string | null = null;
  // Redirects and aborted navigations have no body to read.
  if (TEXT_TYPES.test(type)) body = await response.text().catch(() => null);
  const cookies = (await response.headersArray()).filter((h) => h.name.toLowerCase() === 'set-cookie').map((h) => h.value);
  write({
    url: response.url(),
    method: request.method(),
    status: response.status(),
    requestBody: request.postData(),
    responseBody: body,
    responseType: type,
    setCookies: cookies,
  });
}

const recorded = new WeakSet<BrowserContext>();

export function recordContext(context: BrowserContext): void {
  if (recorded.has(context)) return;
  recorded.add(context);
  // A page that closes mid-read (the journey moved on) leaves that exchange unrecorded, never a failure.
  context.on('response', (response) => void fromBrowser(response).catch(() => undefined));
}

const API_METHODS = new Set(['fetch', 'get', 'post', 'put', 'patch', 'delete', 'head']);

function requestBodyOf(options: unknown): string | null {
  const { data, form } = (options ?? {}) as { data?: unknown; form?: unknown };
  if (data !== undefined) return typeof data === 'string' ? data : JSON.stringify(data);
  if (form !== undefined) return new URLSearchParams(form as Record<string, string>).toString();
  return null;
}

async function fromApi(method: string, response: APIResponse, options: unknown): Promise<void> {
  if (!ours(response.url())) return;
  const type = response.headers()['content-type'] ?? '';
  const body = TEXT_TYPES.test(type) ? await response.text().catch(() => null) : null;
  const cookies = response
    .headersArray()
    .filter((h) => h.name.toLowerCase() === 'set-cookie')
    .map((h) => h.value);
  write({
    url: response.url(),
    method: method.toUpperCase(),
    status: response.status(),
    requestBody: requestBodyOf(options),
    responseBody: body,
    responseType: type,
    setCookies: cookies,
  });
}

/** The same API request context, recording every exchange it makes. */
export function recordApi(request: APIRequestContext): APIRequestContext {
  return new Proxy(request, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof property !== 'string' || !API_METHODS.has(property) || typeof value !== 'function') return value;
      return async (url: string, options?: unknown) => {
        const response = (await (value as (u: string, o?: unknown) => Promise<APIResponse>).call(target, url, options)) as APIResponse;
        const method = property === 'fetch' ? ((options as { method?: string } | undefined)?.method ?? 'GET') : property;
        await fromApi(method, response, options).catch(() => undefined);
        return response;
      };
    },
  });
}
