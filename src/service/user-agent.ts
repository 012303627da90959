import packageJson from '../../package.json' with { type: 'json' };

/** Every request names the action and its version, read from package.json when bundling. */
export const USER_AGENT = `${packageJson.name}/${packageJson.version}`;
