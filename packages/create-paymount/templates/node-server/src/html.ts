const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Markup whose interpolated values were escaped; interpolated into another, it is kept as is. */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

function render(value: unknown): string {
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  return value === undefined ? '' : String(value).replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** Escaped by construction: every interpolated value is text unless it is `Html`. */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  return new Html(strings.reduce((out, part, i) => out + render(values[i - 1]) + part));
}
