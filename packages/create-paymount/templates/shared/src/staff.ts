import { randomBytes, timingSafeEqual } from 'node:crypto';

const COOKIE = 'staff';

/**
 * A stub login for the back office (refunds): one password, sessions in memory (lost on restart).
 * Replace it with your own authentication; keep the refund route behind it.
 */
export class StaffLogin {
  private readonly sessions = new Set<string>();

  constructor(
    private readonly password: string,
    /** `Secure` on the cookie when the shop is served over HTTPS. */
    private readonly secure: boolean,
  ) {}

  /** A session cookie for the right password, otherwise undefined. */
  signIn(password: unknown): string | undefined {
    const given = Buffer.from(typeof password === 'string' ? password : '');
    const expected = Buffer.from(this.password);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    const session = randomBytes(24).toString('base64url');
    this.sessions.add(session);
    // SameSite=Strict: no other site's form can post to the refund route with it.
    return `${COOKIE}=${session}; Path=/; HttpOnly; SameSite=Strict${this.secure ? '; Secure' : ''}`;
  }

  isStaff(cookieHeader: string | undefined): boolean {
    const session = cookieHeader?.split(/;\s*/).find((pair) => pair.startsWith(`${COOKIE}=`))?.slice(COOKIE.length + 1);
    return session !== undefined && this.sessions.has(session);
  }
}
