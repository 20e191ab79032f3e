import { Badge, type BadgeProps } from '@mantine/core';
import { STATUS_COLORS } from './format';

/** A status word in its colour; never truncated, however narrow its table cell. */
export function StatusBadge({ status, ...props }: { status: string } & BadgeProps) {
  return (
    <Badge color={STATUS_COLORS[status] ?? 'gray'} variant="light" miw="max-content" {...props}>
      {status}
    </Badge>
  );
}
