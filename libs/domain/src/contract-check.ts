/**
 * Compile-time checks that two definitions of one contract agree (a GraphQL class and the zod
 * schema it is derived from): a field added to, removed from or retyped on one side only fails
 * the build where the check is written.
 */

type Defined<T> = Exclude<T, null | undefined>;

/** True when A and B name the same fields, each of the same type (null and undefined aside), nested objects and arrays alike. */
export type SameFields<A, B> = [Exclude<keyof A, keyof B> | Exclude<keyof B, keyof A>] extends [never]
  ? [{ [K in keyof A & keyof B]: SameValue<Defined<A[K]>, Defined<B[K]>> }[keyof A & keyof B]] extends [true]
    ? true
    : false
  : false;

type SameValue<A, B> = [A] extends [readonly (infer X)[]]
  ? [B] extends [readonly (infer Y)[]]
    ? SameValue<Defined<X>, Defined<Y>>
    : false
  : [A] extends [object]
    ? [B] extends [object]
      ? SameFields<A, B>
      : false
    : [A] extends [B]
      ? [B] extends [A]
        ? true
        : false
      : false;

/** True when A and B name the same fields, whatever their types (a setting shown masked, an enum shown as a string). */
export type SameKeys<A, B> = [Exclude<keyof A, keyof B> | Exclude<keyof B, keyof A>] extends [never]
  ? true
  : false;

/** Compiles only when T is `true`: `type Check = Holds<SameFields<A, B>>`. */
export type Holds<T extends true> = T;
