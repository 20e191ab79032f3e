import {
  getNamedType,
  type GraphQLInputType,
  type GraphQLOutputType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
} from 'graphql';

/**
 * A contract's fields as one comparable tree, read from a zod schema or a GraphQL type, so a test
 * can say two definitions of one contract agree: each field's kind (`string`, `int`, `number`,
 * `boolean`, `enum(A|B)`, `[…]`, a nested shape) and whether a caller must give it (`!`).
 */
export type ContractShape = { [field: string]: string | ContractShape };

type ZodLike = { _def: Record<string, unknown> & { typeName?: string } };

/** `shape`'s fields: names only, or (`deep`) kinds and requiredness too. */
export function zodContractShape(schema: unknown, deep = true): ContractShape {
  const object = unwrapZod(schema as ZodLike).inner;
  const shape = (object as { shape?: Record<string, ZodLike> }).shape;
  if (!shape) throw new Error(`not a zod object schema: ${object._def.typeName}`);
  return Object.fromEntries(
    Object.entries(shape).map(([name, field]) => {
      if (!deep) return [name, 'field'];
      const { inner, optional } = unwrapZod(field);
      return [name, describeZod(inner, !optional)];
    }),
  );
}

function unwrapZod(schema: ZodLike): { inner: ZodLike; optional: boolean } {
  let optional = false;
  let current = schema;
  for (;;) {
    const kind = current._def.typeName;
    if (kind === 'ZodOptional' || kind === 'ZodDefault' || kind === 'ZodNullable') {
      if (kind !== 'ZodNullable') optional = true;
      current = current._def.innerType as ZodLike;
    } else if (kind === 'ZodEffects') current = current._def.schema as ZodLike;
    else return { inner: current, optional };
  }
}

function describeZod(schema: ZodLike, required: boolean): string | ContractShape {
  const mark = required ? '!' : '';
  const def = schema._def;
  switch (def.typeName) {
    case 'ZodString':
      return `string${mark}`;
    case 'ZodBoolean':
      return `boolean${mark}`;
    case 'ZodNumber':
      return `${(def.checks as { kind: string }[]).some((c) => c.kind === 'int') ? 'int' : 'number'}${mark}`;
    case 'ZodEnum':
      return `enum(${[...(def.values as string[])].sort().join('|')})${mark}`;
    case 'ZodNativeEnum':
      return `enum(${Object.values(def.values as object)
        .sort()
        .join('|')})${mark}`;
    case 'ZodArray': {
      const element = unwrapZod(def.type as ZodLike).inner;
      return `[${String(describeZod(element, true))}]${mark}`;
    }
    case 'ZodObject':
      return { ...zodContractShape(schema), ...(required ? { '!': 'required' } : {}) };
    default:
      throw new Error(`no contract kind for ${def.typeName}`);
  }
}

/** A GraphQL input or object type's fields, as `zodContractShape` gives a schema's. */
export function graphqlContractShape(
  type: GraphQLInputType | GraphQLOutputType,
  deep = true,
  omit: readonly string[] = [],
): ContractShape {
  const named = getNamedType(type);
  if (!isInputObjectType(named) && !isObjectType(named)) {
    throw new Error(`${named.name} is not an input or object type`);
  }
  return Object.fromEntries(
    Object.values(named.getFields())
      .filter((field) => !omit.includes(field.name))
      .map((field) => {
        if (!deep) return [field.name, 'field'];
        const hasDefault = 'defaultValue' in field && field.defaultValue !== undefined;
        return [field.name, describeGraphql(field.type, isNonNullType(field.type) && !hasDefault)];
      }),
  );
}

function describeGraphql(
  type: GraphQLInputType | GraphQLOutputType,
  required: boolean,
): string | ContractShape {
  const mark = required ? '!' : '';
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) return `[${String(describeGraphql(inner.ofType, true))}]${mark}`;
  if (isEnumType(inner)) {
    return `enum(${inner
      .getValues()
      .map((v) => v.name)
      .sort()
      .join('|')})${mark}`;
  }
  if (isScalarType(inner)) {
    const kinds: Record<string, string> = {
      ID: 'string',
      String: 'string',
      Int: 'int',
      Float: 'number',
      Boolean: 'boolean',
    };
    const kind = kinds[inner.name];
    if (!kind) throw new Error(`no contract kind for the scalar ${inner.name}`);
    return `${kind}${mark}`;
  }
  return { ...graphqlContractShape(inner), ...(required ? { '!': 'required' } : {}) };
}
