import cli from './translate.cli.sh?raw';
import client from './translate.client.mjs?raw';
import curl from './translate.curl.sh?raw';

/**
 * The documentation's runnable examples (cURL, @gaia/client, the gaia-translate CLI). These files are what
 * the page shows and what tests/api/docs-examples.e2e-spec.ts runs against a real gateway, with the
 * placeholders below replaced.
 */
export const EXAMPLE_ORIGIN = 'http://localhost:8080';

const withOrigin = (code: string, origin: string) => code.split(EXAMPLE_ORIGIN).join(origin).trimEnd();

export const curlExample = (origin: string) => withOrigin(curl, origin);
export const clientExample = (origin: string) => withOrigin(client, origin);
export const cliExample = (origin: string) => withOrigin(cli, origin);
