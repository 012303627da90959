/**
 * Quick tunnels from the service to this runner's local origins (see "Testing an app the job
 * started" in the spec). This layer imports service/ only; run/ and inputs/ use it.
 */
export {
  CLOUDFLARED_RELEASE,
  type CloudflaredRelease,
  type InstallOptions,
  RELEASE_BASE_URL,
} from './cloudflared-binary.js';
export { type LeftoverOutcome, type LeftoverStop, stopLeftover } from './leftover.js';
export {
  type OpenTunnelsOptions,
  openTunnels,
  TUNNEL_ATTEMPTS,
  TUNNEL_BOUNDS,
  type Tunnel,
  type TunnelBounds,
  TunnelError,
} from './open.js';
export {
  type OriginCheck,
  type OriginsCheck,
  parseTunnelOrigin,
  parseTunnelOrigins,
} from './origin.js';
export {
  type OptionPath,
  rewriteTunnelUrls,
  type UntunnelledUrl,
  untunnelledLoopbackUrls,
} from './rewrite.js';
