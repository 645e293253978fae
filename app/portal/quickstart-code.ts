/**
 * The few lines a Node.js relying party needs to sign people in with one application, written for
 * Express with openid-client 6 (`discovery`, `buildAuthorizationUrl`, `authorizationCodeGrant`, as
 * e2e/oidc.spec.ts uses them). Built from the application itself: its client ID, first redirect URI,
 * approved scopes and client type, and the issuer discovery names.
 */
export interface QuickstartInput {
  issuer: string;
  clientId: string;
  clientType: 'confidential' | 'public';
  redirectUri: string;
  /** The approved scopes: the ones the provider lets the application request. */
  scopes: readonly string[];
}

/** Scopes a sign-in asks for: the approved ones, openid first (no ID token without it). */
export function quickstartScope(approved: readonly string[]): string {
  return ['openid', ...approved.filter((scope) => scope !== 'openid')].join(' ');
}

/** A JavaScript string literal, in the single quotes the rest of the code uses. */
const quoted = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** The arguments of client.discovery(server, clientId, metadata?, clientAuthentication?, options?), one a line. */
function discoveryArguments(issuer: string, clientId: string, clientType: QuickstartInput['clientType']): string {
  const args = [`new URL(${quoted(issuer)}),`, `${quoted(clientId)},`, 'undefined,'];
  // A confidential client sends its secret with HTTP Basic (the method the portal registers); a public
  // one has none and proves itself with PKCE alone.
  args.push(clientType === 'confidential' ? 'client.ClientSecretBasic(process.env.CLIENT_SECRET),' : 'client.None(),');
  // openid-client refuses plain http unless told to; only a local issuer (http://localhost) needs it.
  if (new URL(issuer).protocol === 'http:') args.push('{ execute: [client.allowInsecureRequests] }, // an http issuer: local development only');
  return `${args.map((arg) => `\n  ${arg}`).join('')}\n`;
}

export function quickstartCode({ issuer, clientId, clientType, redirectUri, scopes }: QuickstartInput): string {
  const redirect = new URL(redirectUri);
  const scope = quickstartScope(scopes);
  const refresh = scopes.includes('offline_access') ? "\n    prompt: 'consent', // a refresh token (offline_access) comes only through consent" : '';
  return `// npm install express express-session openid-client
import express from 'express';
import session from 'express-session';
import * as client from 'openid-client';

const config = await client.discovery(${discoveryArguments(issuer, clientId, clientType)});

const app = express();
app.use(session({ secret: process.env.SESSION_SECRET, resave: false, saveUninitialized: false }));

app.get('/login', async (req, res) => {
  req.session.pkce = client.randomPKCECodeVerifier();
  req.session.state = client.randomState();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: ${quoted(redirect.href)},
    scope: ${quoted(scope)},${refresh}
    code_challenge: await client.calculatePKCECodeChallenge(req.session.pkce),
    code_challenge_method: 'S256',
    state: req.session.state,
  });
  res.redirect(url.href);
});

app.get(${quoted(redirect.pathname)}, async (req, res) => {
  const tokens = await client.authorizationCodeGrant(config, new URL(req.originalUrl, ${quoted(redirect.origin)}), {
    pkceCodeVerifier: req.session.pkce,
    expectedState: req.session.state,
  });
  // name, email and the other claims of your scopes come from userinfo
  req.session.user = await client.fetchUserInfo(config, tokens.access_token, tokens.claims().sub);
  res.redirect('/');
});

app.listen(process.env.PORT ?? ${Number(redirect.port) || 3000});
`;
}
