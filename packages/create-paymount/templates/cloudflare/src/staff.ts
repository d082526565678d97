import { randomId } from './orders.js';

const COOKIE = 'staff';

/** Digests of equal length, compared in constant time: the password's length and prefix stay secret. */
async function samePassword(given: string, expected: string): Promise<boolean> {
  const digest = (text: string) => crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return crypto.subtle.timingSafeEqual(await digest(given), await digest(expected));
}

/**
 * A stub login for the back office (refunds): one password, sessions in D1 (an isolate's memory is
 * not shared). Replace it with your own authentication; keep the refund route behind it.
 */
export class StaffLogin {
  constructor(
    private readonly db: D1Database,
    private readonly password: string,
    /** `Secure` on the cookie when the shop is served over HTTPS. */
    private readonly secure: boolean,
  ) {}

  /** A session cookie for the right password, otherwise undefined. */
  async signIn(password: unknown): Promise<string | undefined> {
    if (!(await samePassword(typeof password === 'string' ? password : '', this.password))) return undefined;
    const session = randomId(24);
    await this.db.prepare('INSERT INTO staff_sessions (id) VALUES (?)').bind(session).run();
    // SameSite=Strict: no other site's form can post to the refund route with it.
    return `${COOKIE}=${session}; Path=/; HttpOnly; SameSite=Strict${this.secure ? '; Secure' : ''}`;
  }

  async isStaff(cookieHeader: string | undefined): Promise<boolean> {
    const session = cookieHeader?.split(/;\s*/).find((pair) => pair.startsWith(`${COOKIE}=`))?.slice(COOKIE.length + 1);
    if (session === undefined) return false;
    return (await this.db.prepare('SELECT 1 AS found FROM staff_sessions WHERE id = ?').bind(session).first()) !== null;
  }
}
