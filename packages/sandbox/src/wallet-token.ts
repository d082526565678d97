import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { SandboxRefusal } from './envelope';

/**
 * Sandbox wallet tokens, shaped like a real wallet payment token: a JSON string
 * `{ protocolVersion, signature, signedMessage }` whose signedMessage holds an
 * AES-256-GCM encrypted payload. Only the sandbox that minted a token can open
 * it: the keys are random per sandbox, so a token from another run is refused.
 */

export const PROTOCOL_VERSION = 'ECv2';
export const DEFAULT_TOKEN_LIFETIME_MS = 24 * 60 * 60_000;

export type AuthMethod = 'CRYPTOGRAM_3DS' | 'PAN_ONLY';

export interface MintWalletTokenOptions {
  /** Default `CRYPTOGRAM_3DS`; `PAN_ONLY` makes a token the service refuses (W04). */
  authMethod?: AuthMethod;
  /** Marks the card as needing additional 3DS verification: the payment is declined with `F`. */
  additional3dsRequired?: boolean;
  /** The tokenization `gateway`; defaults to the sandbox's gatewayId. */
  gatewayId?: string;
  /** The tokenization `gatewayMerchantId`; defaults to the sandbox's merchantId. */
  gatewayMerchantId?: string;
  /** Default `VISA`. */
  cardNetwork?: string;
  /** Token lifetime in service time; default 24 hours. */
  expiresInMs?: number;
}

export interface WalletTokenPayload {
  gatewayId: string;
  gatewayMerchantId: string;
  messageId: string;
  messageExpiration: string;
  paymentMethod: 'CARD';
  paymentMethodDetails: {
    authMethod: string;
    cardNetwork: string;
    cardLast4: string;
    cryptogram?: string;
    eciIndicator?: string;
    additional3dsRequired: boolean;
  };
}

export interface WalletTokenKeys {
  encryptionKey: Buffer;
  signingKey: Buffer;
}

export function createWalletTokenKeys(): WalletTokenKeys {
  return { encryptionKey: randomBytes(32), signingKey: randomBytes(32) };
}

const ZERO_IV = Buffer.alloc(12);
const KEY_INFO = 'paymount-sandbox-wallet-token';

// Each token derives its own AES key from a fresh ephemeral value, which is why a fixed IV is safe.
function tokenKey(keys: WalletTokenKeys, ephemeral: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', keys.encryptionKey, ephemeral, KEY_INFO, 32));
}

function sign(keys: WalletTokenKeys, signedMessage: string): Buffer {
  return createHmac('sha256', keys.signingKey).update(`${PROTOCOL_VERSION}\n${signedMessage}`).digest();
}

export function mintWalletToken(
  keys: WalletTokenKeys,
  defaults: { gatewayId: string; merchantId: string },
  now: number,
  options: MintWalletTokenOptions = {},
): string {
  const authMethod = options.authMethod ?? 'CRYPTOGRAM_3DS';
  const payload: WalletTokenPayload = {
    gatewayId: options.gatewayId ?? defaults.gatewayId,
    gatewayMerchantId: options.gatewayMerchantId ?? defaults.merchantId,
    messageId: randomUUID(),
    messageExpiration: String(now + (options.expiresInMs ?? DEFAULT_TOKEN_LIFETIME_MS)),
    paymentMethod: 'CARD',
    paymentMethodDetails: {
      authMethod,
      cardNetwork: options.cardNetwork ?? 'VISA',
      cardLast4: '1111',
      ...(authMethod === 'CRYPTOGRAM_3DS' ? { cryptogram: randomBytes(20).toString('base64'), eciIndicator: '05' } : {}),
      additional3dsRequired: options.additional3dsRequired ?? false,
    },
  };
  const ephemeral = randomBytes(32);
  const cipher = createCipheriv('aes-256-gcm', tokenKey(keys, ephemeral), ZERO_IV);
  const encrypted = Buffer.concat([cipher.update(JSON.stringify(payload), 'utf8'), cipher.final()]);
  const signedMessage = JSON.stringify({
    encryptedMessage: encrypted.toString('base64'),
    ephemeralPublicKey: ephemeral.toString('base64'),
    tag: cipher.getAuthTag().toString('base64'),
  });
  return JSON.stringify({
    protocolVersion: PROTOCOL_VERSION,
    signature: sign(keys, signedMessage).toString('base64'),
    signedMessage,
  });
}

function objectOf(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Opens a token for the expected gateway and merchant, or refuses with the
 * W-code of the first rule it breaks. Nothing about the token is echoed in a
 * refusal.
 */
export function openWalletToken(
  keys: WalletTokenKeys,
  token: string,
  expected: { gatewayId: string; merchantId: string },
  now: number,
): WalletTokenPayload {
  const outer = objectOf(token);
  if (!outer || outer.protocolVersion !== PROTOCOL_VERSION || typeof outer.signature !== 'string' || typeof outer.signedMessage !== 'string') {
    throw new SandboxRefusal('W01', 'cardEncryptedData must be the wallet token JSON string with protocolVersion, signature and signedMessage');
  }
  const given = Buffer.from(outer.signature, 'base64');
  const wanted = sign(keys, outer.signedMessage);
  if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) {
    throw new SandboxRefusal('W02', 'wallet token signature does not verify');
  }
  const payload = decrypt(keys, outer.signedMessage);
  if (payload.gatewayId !== expected.gatewayId || payload.gatewayMerchantId !== expected.merchantId) {
    throw new SandboxRefusal('W03', 'wallet token was issued for another gateway or gatewayMerchantId');
  }
  if (payload.paymentMethodDetails.authMethod !== 'CRYPTOGRAM_3DS') {
    throw new SandboxRefusal('W04', 'wallet token authMethod must be CRYPTOGRAM_3DS (PAN_ONLY is not supported)');
  }
  if (Number(payload.messageExpiration) <= now) {
    throw new SandboxRefusal('W05', 'wallet token has expired');
  }
  return payload;
}

function decrypt(keys: WalletTokenKeys, signedMessage: string): WalletTokenPayload {
  // Only reachable with a valid signature, i.e. for a message this sandbox built; a failure here is a forgery all the same.
  try {
    const message = JSON.parse(signedMessage) as { encryptedMessage: string; ephemeralPublicKey: string; tag: string };
    const decipher = createDecipheriv('aes-256-gcm', tokenKey(keys, Buffer.from(message.ephemeralPublicKey, 'base64')), ZERO_IV);
    decipher.setAuthTag(Buffer.from(message.tag, 'base64'));
    const plain = Buffer.concat([decipher.update(Buffer.from(message.encryptedMessage, 'base64')), decipher.final()]);
    return JSON.parse(plain.toString('utf8')) as WalletTokenPayload;
  } catch {
    throw new SandboxRefusal('W02', 'wallet token does not verify');
  }
}
