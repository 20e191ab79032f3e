import { GraphQLScalarType, Kind, type ValueNode } from 'graphql';

/** Any JSON value: a source's configuration, a JSON Schema. Shapes are checked by whoever reads it. */
export const JsonScalar = new GraphQLScalarType({
  name: 'JSON',
  description: 'A JSON value (object, array, string, number, boolean or null)',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (ast, variables) => literal(ast, variables ?? undefined),
});

function literal(ast: ValueNode, variables: Record<string, unknown> | undefined): unknown {
  switch (ast.kind) {
    case Kind.STRING:
    case Kind.BOOLEAN:
      return ast.value;
    case Kind.INT:
    case Kind.FLOAT:
      return Number(ast.value);
    case Kind.NULL:
      return null;
    case Kind.LIST:
      return ast.values.map((value) => literal(value, variables));
    case Kind.OBJECT:
      return Object.fromEntries(
        ast.fields.map((field) => [field.name.value, literal(field.value, variables)]),
      );
    case Kind.VARIABLE:
      return variables?.[ast.name.value];
    case Kind.ENUM:
      return ast.value;
  }
}
