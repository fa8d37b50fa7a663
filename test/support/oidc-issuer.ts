import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type JWTPayload, SignJWT, exportJWK, generateKeyPair } from 'jose';

export interface TestIssuer {
  url: string;
  /** a token signed by this issuer; `iss` defaults to the issuer URL, `exp` to one hour from now */
  mint(claims: JWTPayload & { sub: string }, opts?: { expiresInSeconds?: number }): Promise<string>;
  /** a token with this issuer's `iss` but signed by a key the issuer does not publish */
  forge(claims: JWTPayload & { sub: string }): Promise<string>;
  close(): Promise<void>;
}

/** A local OIDC issuer on loopback: a discovery document and a JWKS, as a workload's platform would serve. */
export async function startTestIssuer(): Promise<TestIssuer> {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const stranger = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  let url = '';
  const server: Server = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url === '/.well-known/openid-configuration') {
      res.end(JSON.stringify({ issuer: url, jwks_uri: `${url}/keys` }));
    } else if (req.url === '/keys') {
      res.end(JSON.stringify({ keys: [jwk] }));
    } else {
      res.statusCode = 404;
      res.end('{}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const sign = (claims: JWTPayload, key: Parameters<SignJWT['sign']>[0], expiresIn: number) =>
    new SignJWT({ ...claims })
      .setProtectedHeader({ alg: 'RS256', kid: 'test-key' })
      .setIssuer(claims.iss ?? url)
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + expiresIn)
      .sign(key);
  return {
    url,
    mint: (claims, opts) => sign(claims, privateKey, opts?.expiresInSeconds ?? 3600),
    forge: (claims) => sign(claims, stranger.privateKey, 3600),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
