/** Types of cli/fresh-build.mjs (plain JavaScript: it runs before any TypeScript loader). */
export function freshBuild(cliDir?: URL, env?: NodeJS.ProcessEnv): URL | undefined;
