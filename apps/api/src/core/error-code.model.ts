import { registerEnumType } from '@nestjs/graphql';
import { ErrorCode } from '@trove/domain';

/**
 * The GraphQL enum names each code by its wire value (`PROJECT_NOT_FOUND`), not by the TypeScript
 * member's name, so clients read the same strings as in `extensions.code`.
 */
const ErrorCodeByValue = Object.fromEntries(Object.values(ErrorCode).map((code) => [code, code])) as Record<
  ErrorCode,
  ErrorCode
>;

registerEnumType(ErrorCodeByValue, {
  name: 'ErrorCode',
  description:
    'The stable code of an error: in `extensions.code` of a GraphQL error, `error.code` of a REST one, and on a failed document or sync run. A status without a code of its own comes as HTTP_<status>. Clients classify codes with errorKind (libs/domain).',
});

export { ErrorCodeByValue as ErrorCodeEnum, ErrorCode };
