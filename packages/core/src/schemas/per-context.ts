import type { SchemaContext } from './urls';

/**
 * A request schema factory that compiles each of its variants once: a
 * SchemaContext holds only `localDevelopment`, so there are two, and every
 * client (and the exported strict schema) shares them instead of compiling
 * its own.
 */
export function perContext<S>(build: (context: SchemaContext) => S): (context?: SchemaContext) => S {
  const built = new Map<boolean, S>();
  return (context = {}) => {
    const localDevelopment = context.localDevelopment === true;
    let schema = built.get(localDevelopment);
    if (schema === undefined) {
      schema = build({ localDevelopment });
      built.set(localDevelopment, schema);
    }
    return schema;
  };
}
