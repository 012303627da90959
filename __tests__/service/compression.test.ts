import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { send, TransportError } from '../../src/service/transport.js';

/** Answers are asked for gzipped and unpacked as they are read, within the same 64 MiB cap. */
describe('a gzipped answer', () => {
  const answer = JSON.stringify({
    status: 'PASSED',
    results: { testCases: [{ title: 'Checkout', status: 'PASSED' }] },
  });
  // 70 MiB of zeros, about 70 KB gzipped: under the cap on the wire, over it unpacked.
  const bomb = gzipSync(Buffer.alloc(70 * 1024 * 1024));
  const asked: (string | undefined)[] = [];
  let server: http.Server;
  let base: string;

  beforeAll(async () => {
    server = http.createServer((request, response) => {
      asked.push(request.headers['accept-encoding']);
      if (request.url !== '/plain') response.setHeader('content-encoding', 'gzip');
      if (request.url === '/plain') response.end(answer);
      else response.end(request.url === '/bomb' ? bomb : gzipSync(answer));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  test('is asked for, and read unpacked', async () => {
    const got = await send(`${base}/gzip`, 'GET', {}, undefined, { ms: 10_000 });
    expect(got.body).toBe(answer);
    expect(asked.at(-1)).toBe('gzip');
  });

  test('an answer sent plain is read as it is', async () => {
    expect((await send(`${base}/plain`, 'GET', {}, undefined, { ms: 10_000 })).body).toBe(answer);
  });

  test('that unpacks past 64 MiB is refused, however small it was on the wire', async () => {
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const refused = await send(`${base}/bomb`, 'GET', {}, undefined, { ms: 10_000 }).catch((error) => error);
    expect(refused).toBeInstanceOf(TransportError);
    expect(refused).toMatchObject({ kind: 'too-large' });
  });
});
