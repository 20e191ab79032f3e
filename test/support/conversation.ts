import { expect } from 'vitest';
import type { TroveStack } from './stack';

/**
 * A conversation whose follow-up can only be answered through its thread: the first question asks
 * about parking permits at the Berlin office; the follow-up names another office and nothing
 * else. Asked alone, "and at the Novosibirsk office?" finds the page about that office (its name
 * on every line); read in its thread it becomes a question about parking permits there, which
 * only the parking page answers.
 */
export const CONVERSATION = {
  first: 'How do I request a parking permit at the Berlin office?',
  followUp: 'and at the Novosibirsk office?',
  standalone: 'How do I request a parking permit at the Novosibirsk office?',
  /** What the first question cites. */
  berlin: { fileName: 'office-berlin.md', title: 'Berlin office' },
  /** What the follow-up alone finds first. */
  office: { fileName: 'office-novosibirsk.md', title: 'Novosibirsk office' },
  /** What only the rewritten follow-up finds. */
  parking: { fileName: 'parking-novosibirsk.md', title: 'Parking permits in Novosibirsk' },
} as const;

const DOCUMENTS: Record<string, string> = {
  [CONVERSATION.berlin.fileName]: `# Berlin office

## Parking

Staff of the Berlin office park in the Kantstrasse garage. Request a parking permit from the
reception desk on the ground floor; a permit is valid for one year.
`,
  [CONVERSATION.office.fileName]: `# Novosibirsk office

The Novosibirsk office is at Krasny Prospekt 17, on the fourth floor.
The Novosibirsk office opens at 09:00 local time and closes at 19:00.
Visitors to the Novosibirsk office sign in at the front desk of the Novosibirsk office.
The Novosibirsk office kitchen is restocked every Monday morning.
`,
  [CONVERSATION.parking.fileName]: `# Parking permits in Novosibirsk

## Requesting a permit

Staff of the Novosibirsk office request a parking permit through the facilities bot with the
command /parking-nsk. Permits for the courtyard lot are renewed every six months.
`,
};

/** Uploads the conversation's three pages into the project and waits until they are READY; their ids by file name. */
export async function uploadConversation(
  stack: TroveStack,
  projectId: string,
): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  for (const [fileName, text] of Object.entries(DOCUMENTS)) {
    const upload = await stack.upload(projectId, fileName, text);
    ids[fileName] = upload.body.id as string;
  }
  for (const id of Object.values(ids)) expect((await stack.settled(id)).status).toBe('READY');
  return ids;
}
