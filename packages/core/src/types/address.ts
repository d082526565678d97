/**
 * A billing or shipping address of a direct payment (the vendor's CheckoutAddress). Every part is
 * optional; a part that is sent must not be empty, since the service uses it for address verification.
 */
export type CheckoutAddress = {
  /** 1–128 characters. */
  line1?: string | undefined;
  /** 1–128 characters. */
  line2?: string | undefined;
  /** 1–64 characters. */
  city?: string | undefined;
  /** 1–64 characters. */
  state?: string | undefined;
  /** 1–16 characters: letters, digits, spaces and `-`, starting with a letter or digit. */
  postalCode?: string | undefined;
  /** An ISO 3166-1 alpha-2 country code in upper case, e.g. `"US"`. */
  countryCode?: string | undefined;
};
