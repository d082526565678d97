import { generateKeyPairSync } from 'node:crypto';
import { generate } from 'selfsigned';

export interface SandboxCertificate {
  key: string;
  /** PEM of the self-signed certificate; a client trusts the sandbox by adding it as its CA. */
  cert: string;
}

// selfsigned accepts a ready key pair (skipping its slow pure-JS RSA generation), though its types omit the option.
type GenerateOptions = NonNullable<Parameters<typeof generate>[1]> & { keyPair?: { privateKey: string; publicKey: string } };

/** A certificate for localhost, 127.0.0.1 and ::1, made at start and valid for 30 days. */
export function createCertificate(): SandboxCertificate {
  const keyPair = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  const options: GenerateOptions = {
    days: 30,
    algorithm: 'sha256',
    keyPair,
    extensions: [
      { name: 'basicConstraints', cA: true },
      { name: 'keyUsage', keyCertSign: true, digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
          { type: 7, ip: '::1' },
        ],
      },
    ],
  };
  const pems = generate([{ name: 'commonName', value: 'paymount sandbox' }], options);
  return { key: keyPair.privateKey, cert: pems.cert };
}

/** TLS settings of the HTTPS sandbox: the minimum of TLS 1.2 (docs/service-contract.md#conventions). */
export const TLS_MIN_VERSION = 'TLSv1.2' as const;
