import pkg from '../package.json' with { type: 'json' };

/** The product version, from package.json: the backend version the sidebar shows. */
export const PRODUCT_VERSION: string = pkg.version;
