// The identity service AUTH_MODE names (SPEC §5); kept apart from the interface so that
// each implementation can import the interface without importing the others.
import type { Config } from '../config.ts';
import { LocalIdentity, type IdentityService } from './identity.ts';
import { OpenSsoIdentity } from './opensso.ts';

/** The identity service of the configured mode; undefined when auth is off. */
export function identityOf(config: Config): IdentityService | undefined {
  if (config.authMode === 'local') return new LocalIdentity(config.dataDir, config.tokenTtlSeconds);
  if (config.authMode === 'opensso') {
    if (!config.authServiceUrl) throw new Error('AUTH_MODE=opensso needs AUTH_SERVICE_URL (e.g. https://host/opensso)');
    return new OpenSsoIdentity(config);
  }
  return undefined;
}
