/** The service version, from package.json (the build copies it beside its output). */
import pkg from '../../package.json' with { type: 'json' };

export const VERSION: string = pkg.version;
