import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/** Whom the test provider signs in: every sign-in is this account, consenting to the scopes asked. */
export const IDP_ACCOUNT = { sub: 'idp-user-1', email: 'inti.mamani@idp.test', name: 'Inti Mamani' };

export interface IdpClient {
  id: string;
  secret: string;
  /** The platform's callback (`<origin>/api/auth/oidc/callback`). */
  redirectUri: string;
  /** Called with the URL of every authorization request (`/auth?client_id=…`). */
  onAuthorize?: (url: URL) => void;
}

export interface TestIdp {
  issuer: string;
  /** Answers as the OpenID provider of one confidential client (authorization code + PKCE, client_secret_basic). */
  serve(client: IdpClient): void;
  close(): Promise<void>;
}

/**
 * A real oidc-provider on a free port of 127.0.0.1, shared by the API and browser suites. It listens at once (the
 * platform needs the issuer to start) and answers once `serve` names the client (the platform's URL is known then);
 * its sign-in page signs IDP_ACCOUNT in without asking.
 */
export async function startTestIdp(): Promise<TestIdp> {
  const server = http.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    serve(client) {
      const provider = new Provider(issuer, {
        clients: [
          {
            client_id: client.id,
            client_secret: client.secret,
            redirect_uris: [client.redirectUri],
            grant_types: ['authorization_code'],
            response_types: ['code'],
            token_endpoint_auth_method: 'client_secret_basic',
          },
        ],
        pkce: { required: () => true },
        claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
        findAccount: async (_ctx: unknown, id: string) => ({
          accountId: id,
          claims: async () => ({ sub: id, email: IDP_ACCOUNT.email, email_verified: true, name: IDP_ACCOUNT.name }),
        }),
        cookies: { keys: ['test-idp-cookie-key'] },
        ttl: { Interaction: 600, Grant: 600, Session: 600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
        features: { devInteractions: { enabled: false } },
        interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
      } as never);
      const callback = provider.callback();
      server.on('request', (req, res) => {
        const url = new URL(req.url ?? '/', issuer);
        if (url.pathname === '/auth' && url.searchParams.get('client_id')) client.onAuthorize?.(url);
        if (!url.pathname.startsWith('/interaction/')) return callback(req, res);
        void (async () => {
          const details = await provider.interactionDetails(req, res);
          const grant = new provider.Grant({ accountId: IDP_ACCOUNT.sub, clientId: String(details.params['client_id']) });
          grant.addOIDCScope('openid email profile');
          const grantId = await grant.save();
          await provider.interactionFinished(req, res, { login: { accountId: IDP_ACCOUNT.sub }, consent: { grantId } }, { mergeWithLastSubmission: false });
        })().catch((e: unknown) => {
          res.statusCode = 500;
          res.end(String(e));
        });
      });
    },
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
