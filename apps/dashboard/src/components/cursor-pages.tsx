import { Button, Group } from '@mantine/core';
import { useState } from 'react';

/**
 * Paging a connection by cursor: `after` is the current page's cursor; "Previous" goes back to
 * the page before, "Next" to the page after the last one shown. `reset` starts over (a filter
 * changed).
 */
export function useCursorPages() {
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  return {
    after: cursors[cursors.length - 1],
    reset: () => setCursors([null]),
    pager: (pageInfo: { hasNextPage: boolean; endCursor?: string | null }) => (
      <Group justify="flex-end">
        <Button
          variant="default"
          size="xs"
          disabled={cursors.length === 1}
          onClick={() => setCursors((c) => c.slice(0, -1))}
        >
          Previous
        </Button>
        <Button
          variant="default"
          size="xs"
          disabled={!pageInfo.hasNextPage}
          onClick={() => setCursors((c) => [...c, pageInfo.endCursor ?? null])}
        >
          Next
        </Button>
      </Group>
    ),
  };
}
