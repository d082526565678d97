const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML element content and quoted attribute values alike. */
function escapeHtml(value: string | number): string {
  return String(value).replace(/[&<>"']/g, (char) => ENTITIES[char] ?? char);
}

/** A template tag that escapes every interpolated value unless it is already-rendered `Html`. */
export class Html {
  constructor(readonly text: string) {}
}

export function html(strings: TemplateStringsArray, ...values: Array<string | number | Html | Html[] | undefined>): Html {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    const rendered = Array.isArray(value)
      ? value.map((part) => part.text).join('')
      : value instanceof Html
        ? value.text
        : value === undefined
          ? ''
          : escapeHtml(value);
    out += rendered + (strings[i + 1] ?? '');
  });
  return new Html(out);
}
