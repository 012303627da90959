import { EMPTY_LOG, type QuickTunnelLog, readLogLine } from '../../src/tunnel/cloudflared-log.js';

/** The log of several lines, e.g. a chunk of stderr. */
const readLog = (text: string, log: QuickTunnelLog = EMPTY_LOG) =>
  text.split(/\r?\n/).reduce(readLogLine, log);

/** A quick tunnel coming up, as cloudflared writes it to stderr. */
const STARTED = `2026-08-14T09:12:01Z INF Thank you for trying Cloudflare Tunnel. Doing so, without a Cloudflare account, is a quick way to experiment and try it out. However, be aware that these account-less Tunnels have no uptime guarantee, are subject to the Cloudflare Online Services Terms of Use (https://www.cloudflare.com/website-terms/), and Cloudflare reserves the right to investigate your use of Tunnels for violations of such terms. If you intend to use Tunnels in production you should use a pre-created named tunnel by following: https://developers.cloudflare.com/cloudflare-one/connections/connect-networks/get-started/
2026-08-14T09:12:01Z INF Requesting new quick Tunnel on trycloudflare.com...
2026-08-14T09:12:03Z INF +--------------------------------------------------------------------------------------------+
2026-08-14T09:12:03Z INF |  Your quick Tunnel has been created! Visit it at (it may take some time to be reachable):  |
2026-08-14T09:12:03Z INF |  https://seasonal-deck-organisms-sf.trycloudflare.com                                      |
2026-08-14T09:12:03Z INF +--------------------------------------------------------------------------------------------+
2026-08-14T09:12:03Z INF Version 2026.8.0 (Checksum 4f2a…)
2026-08-14T09:12:03Z INF GOOS: linux, GOVersion: go1.24.4, GoArch: amd64
2026-08-14T09:12:03Z INF Settings: map[config:/tmp/cloudflared-x/config.yml grace-period:1s metrics:127.0.0.1:40123 no-autoupdate:true url:http://localhost:3000]
2026-08-14T09:12:03Z INF Generated Connector ID: 5d7c0f2e-7a51-4d8e-9d43-0b9f2b8a1c11
2026-08-14T09:12:03Z INF Initial protocol quic
2026-08-14T09:12:03Z INF Starting metrics server on 127.0.0.1:40123/metrics
`;
const REGISTERED =
  '2026-08-14T09:12:04Z INF Registered tunnel connection connIndex=0 connection=0c9d7b6e-2f3a-4b1c-8e5d-7a6f5e4d3c2b event=0 ip=198.41.192.27 location=fra08 protocol=quic\n';

describe('reading cloudflared’s stderr', () => {
  test('finds the public URL in the box, and the registration', () => {
    const started = readLog(STARTED);
    expect(started.publicOrigin).toBe('https://seasonal-deck-organisms-sf.trycloudflare.com');
    expect(started.registered).toBe(false);
    expect(started.lastError).toBeUndefined();
    expect(readLog(REGISTERED, started)).toMatchObject({
      publicOrigin: 'https://seasonal-deck-organisms-sf.trycloudflare.com',
      registered: true,
    });
  });

  test('reads lines with Windows line ends and colours', () => {
    const colored =
      '\u001b[90m2026-08-14T09:12:03Z\u001b[0m \u001b[32mINF\u001b[0m |  https://Quiet-River-Lamp.trycloudflare.com  |\r\n';
    expect(readLog(colored).publicOrigin).toBe('https://quiet-river-lamp.trycloudflare.com');
  });

  test('the URL stays the first one named', () => {
    const log = readLog(
      `${STARTED}2026-08-14T09:12:09Z INF |  https://other-words-here.trycloudflare.com  |\n`,
    );
    expect(log.publicOrigin).toBe('https://seasonal-deck-organisms-sf.trycloudflare.com');
  });

  test('no URL from the disclaimer, the API or a URL with a path', () => {
    const failed = readLog(`2026-08-14T09:12:01Z INF Requesting new quick Tunnel on trycloudflare.com...
2026-08-14T09:12:16Z ERR failed to request quick Tunnel: Post "https://api.trycloudflare.com/tunnel": dial tcp: lookup api.trycloudflare.com on 127.0.0.53:53: server misbehaving
2026-08-14T09:12:16Z INF see https://docs-words.trycloudflare.com/guide
2026-08-14T09:12:16Z WRN --quick-service https://api.trycloudflare.com did not answer
failed to request quick Tunnel: Post "https://api.trycloudflare.com/tunnel": dial tcp: lookup api.trycloudflare.com on 127.0.0.53:53: server misbehaving
`);
    expect(failed.publicOrigin).toBeUndefined();
    expect(failed.rateLimited).toBe(false);
    expect(failed.lastError).toBe(
      'failed to request quick Tunnel: Post "https://api.trycloudflare.com/tunnel": dial tcp: lookup api.trycloudflare.com on 127.0.0.53:53: server misbehaving',
    );
  });

  test('recognises the refusal with HTTP 429', () => {
    const refused = readLog(`2026-08-14T09:12:01Z INF Requesting new quick Tunnel on trycloudflare.com...
2026-08-14T09:12:02Z ERR Error unmarshaling QuickTunnel response: error code: 1015 error="invalid character 'e' looking for beginning of value" status_code="429 Too Many Requests"
failed to unmarshal quick Tunnel: invalid character 'e' looking for beginning of value
`);
    expect(refused).toMatchObject({ rateLimited: true, registered: false });
    expect(refused.publicOrigin).toBeUndefined();
    expect(refused.lastError).toBe(
      "failed to unmarshal quick Tunnel: invalid character 'e' looking for beginning of value",
    );
  });

  test('recognises the refusal by Cloudflare’s error 1015 alone', () => {
    expect(
      readLog('2026-07-04T05:07:12Z ERR Error unmarshaling QuickTunnel response: error code: 1015\n')
        .rateLimited,
    ).toBe(true);
    expect(
      readLog('2026-07-04T05:07:12Z ERR Error unmarshaling QuickTunnel response: error code: 1101\n'),
    ).toMatchObject({
      rateLimited: false,
      lastError: 'Error unmarshaling QuickTunnel response: error code: 1101',
    });
  });

  test('a connection that never registers leaves its errors, not a registration', () => {
    const blocked =
      readLog(`${STARTED}2026-08-14T09:12:08Z ERR Failed to dial a quic connection error="failed to dial to edge with quic: timeout: no recent network activity" connIndex=0 event=0 ip=198.41.192.27
2026-08-14T09:12:08Z INF Retrying connection in up to 2s connIndex=0 event=0 ip=198.41.192.27
2026-08-14T09:12:08Z WRN Connection terminated error="failed to dial to edge with quic: timeout: no recent network activity" connIndex=0
`);
    expect(blocked.registered).toBe(false);
    expect(blocked.lastError).toBe(
      'Failed to dial a quic connection error="failed to dial to edge with quic: timeout: no recent network activity" connIndex=0 event=0 ip=198.41.192.27',
    );
    expect(blocked.lastLine).toBe(
      'Connection terminated error="failed to dial to edge with quic: timeout: no recent network activity" connIndex=0',
    );
  });

  test('empty lines change nothing', () => {
    expect(readLog('\n\r\n   \n')).toEqual(EMPTY_LOG);
  });
});
