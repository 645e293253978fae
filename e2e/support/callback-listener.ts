import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A loopback listener standing in for an application's redirect URI (page.route cannot see it). */
export async function callbackListener(): Promise<{ server: Server; url: string; next: () => Promise<URL>; received: URL[] }> {
  const received: URL[] = [];
  const waiting: ((url: URL) => void)[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url!, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    res.end('You can close this window.');
    // The browser also asks for /favicon.ico: only the redirect URI itself is a callback.
    if (url.pathname !== '/callback') return;
    const waiter = waiting.shift();
    if (waiter) waiter(url);
    else received.push(url);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const next = () => (received.length ? Promise.resolve(received.shift()!) : new Promise<URL>((r) => waiting.push(r)));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`, next, received };
}
