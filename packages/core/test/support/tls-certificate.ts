import { generate } from 'selfsigned';

/** A self-signed certificate for 127.0.0.1, its own CA: a client trusts it through its `ca` option. */
export function selfSignedCertificate(): { cert: string; key: string } {
  const pems = generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keySize: 2048,
    algorithm: 'sha256',
    days: 2,
    extensions: [
      { name: 'basicConstraints', cA: true },
      { name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] },
    ],
  });
  return { cert: pems.cert, key: pems.private };
}
