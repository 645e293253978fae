/**
 * A real authoritative DNS server on 127.0.0.1 (UDP and TCP on the same free port, via dns2) for
 * domain-verification tests: the service's resolver is pointed at `address` and looks up TXT records
 * the test sets, over the wire, as it would against a company's DNS.
 *
 * - A name set with `setTxt` answers its TXT records (each value one record; a value over 255 bytes
 *   goes out as several <=255-byte character-strings in that record, which resolvers join).
 * - `setTxt(name, [])` makes the name exist without TXT records: NOERROR, no answers (ENODATA).
 * - Any other name answers NXDOMAIN (ENOTFOUND).
 * - `delay(name, ms)` holds the answer back (for resolver timeouts).
 * Names are matched case-insensitively, without the trailing dot.
 */
import dns2, { Packet } from 'dns2';
import type { Socket } from 'node:net';

export interface TestDnsServer {
  /** "127.0.0.1:PORT", for Resolver#setServers */
  address: string;
  setTxt(name: string, values: string[]): void;
  remove(name: string): void;
  /** Answer queries for `name` `ms` late (0 to answer at once again). */
  delay(name: string, ms: number): void;
  close(): Promise<void>;
}

const normalise = (name: string) => name.toLowerCase().replace(/\.$/, '');

/** RFC 1035 §3.3: a character-string is at most 255 bytes; longer text is split (on bytes, not characters). */
function characterStrings(value: string): Buffer[] {
  const bytes = Buffer.from(value, 'utf8');
  const chunks: Buffer[] = [];
  for (let offset = 0; offset < bytes.length; offset += 255) chunks.push(bytes.subarray(offset, offset + 255));
  return chunks.length ? chunks : [Buffer.alloc(0)];
}

/**
 * UDP on a free port, then TCP on the same number (if taken, another port): node's resolver sends no
 * EDNS, so an answer over 512 bytes goes out truncated over UDP and is asked again over TCP.
 */
async function listenOnOnePort(handle: dns2.DnsHandler, wanted: number) {
  for (let attempt = 0; ; attempt++) {
    const udp = dns2.createUDPServer(handle);
    await udp.listen(wanted, '127.0.0.1');
    const port = udp.address().port;
    const tcp = dns2.createTCPServer(handle);
    try {
      await new Promise<void>((resolve, reject) => {
        tcp.once('error', reject);
        tcp.listen(port, '127.0.0.1', resolve);
      });
      return { udp, tcp, port };
    } catch (error) {
      await new Promise<void>((resolve) => udp.close(() => resolve()));
      if (attempt === 4 || wanted !== 0) throw error;
    }
  }
}

/** `port`: a port chosen beforehand (an e2e run tells the service where DNS is before this starts); free by default. */
export async function startDnsServer(wantedPort = 0): Promise<TestDnsServer> {
  const zone = new Map<string, string[]>();
  const delays = new Map<string, number>();
  const pending = new Set<NodeJS.Timeout>();

  const handle: dns2.DnsHandler = (request, send) => {
    const response = Packet.createResponseFromRequest(request);
    response.header.aa = 1;
    const question = request.questions[0];
    const name = question ? normalise(question.name) : '';
    const values = zone.get(name);
    if (!question) response.header.rcode = Packet.RCODE.FORMERR;
    else if (!values) response.header.rcode = Packet.RCODE.NXDOMAIN;
    else if (question.type === Packet.TYPE.TXT || question.type === Packet.TYPE.ANY) {
      for (const value of values) {
        // dns2's TXT encoder takes Buffers as character-strings too; its types say strings only.
        const data = characterStrings(value) as unknown as string[];
        response.answers.push(Packet.createResourceFromQuestion(question, { type: Packet.TYPE.TXT, class: Packet.CLASS.IN, ttl: 60, data }));
      }
    }
    // The socket may be closed by then (and the TCP send returns nothing, not a promise).
    const answer = () =>
      void Promise.resolve()
        .then(() => send(response))
        .catch(() => {});
    const wait = delays.get(name) ?? 0;
    if (!wait) return answer();
    const timer = setTimeout(() => {
      pending.delete(timer);
      answer();
    }, wait);
    pending.add(timer);
  };

  const { udp, tcp, port } = await listenOnOnePort(handle, wantedPort);
  const connections = new Set<Socket>();
  tcp.on('connection', (socket: Socket) => {
    connections.add(socket);
    socket.once('close', () => connections.delete(socket));
  });

  return {
    address: `127.0.0.1:${port}`,
    setTxt: (name, values) => void zone.set(normalise(name), [...values]),
    remove: (name) => void zone.delete(normalise(name)),
    delay: (name, ms) => void (ms > 0 ? delays.set(normalise(name), ms) : delays.delete(normalise(name))),
    async close() {
      for (const timer of pending) clearTimeout(timer);
      pending.clear();
      for (const socket of connections) socket.destroy(); // dns2 keeps idle TCP connections for 10 s
      await Promise.all([new Promise<void>((resolve) => udp.close(() => resolve())), new Promise<void>((resolve) => tcp.close(() => resolve()))]);
    },
  };
}
