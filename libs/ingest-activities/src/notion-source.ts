import { ApplicationFailure } from '@temporalio/activity';
import type { Client } from '@notionhq/client';
import type { NotionConfig, SecretBox } from '@trove/config';
import type { Source } from '@trove/domain';
import { TroveErrorCode } from '@trove/domain';
import {
  classifyNotionError,
  createNotionClient,
  NotionReader,
  renderPage,
  type RequestCounter,
} from '@trove/connector-notion';
import { PARSED_JSON_MEDIA_TYPE } from '@trove/parsing';

/** Failure types a sync reacts to: the item is gone (skip and delete) or the token is rejected. */
export const SOURCE_ITEM_GONE = 'SOURCE_ITEM_GONE';

export interface FetchedPage {
  data: Buffer;
  mediaType: string;
  title: string;
  url: string;
  breadcrumb: string[];
  editedAt: string;
}

/** Opens Notion clients for sources (decrypting their tokens) and fetches pages as parsed JSON. */
export class NotionSources {
  constructor(
    private readonly secrets: SecretBox | undefined,
    private readonly config: NotionConfig,
  ) {}

  client(source: Source, counter?: RequestCounter): Client {
    if (!this.secrets) {
      throw ApplicationFailure.create({
        nonRetryable: true,
        type: TroveErrorCode.Internal,
        message: 'TROVE_SECRET_KEY is not set on the worker, so the Notion token cannot be decrypted',
      });
    }
    return createNotionClient(
      {
        token: this.secrets.decrypt(source.encryptedToken!),
        baseUrl: this.config.apiBaseUrl,
        requestsPerSecond: this.config.requestsPerSecond,
      },
      counter,
    );
  }

  async fetchPage(source: Source, pageId: string): Promise<FetchedPage> {
    const reader = new NotionReader(this.client(source));
    try {
      const snapshot = await reader.snapshot(pageId);
      if (snapshot.page.in_trash || snapshot.page.archived) {
        throw ApplicationFailure.create({
          nonRetryable: true,
          type: SOURCE_ITEM_GONE,
          message: `Notion page ${pageId} is in the trash`,
        });
      }
      const parsed = renderPage(snapshot);
      return {
        data: Buffer.from(JSON.stringify(parsed)),
        mediaType: PARSED_JSON_MEDIA_TYPE,
        title: snapshot.title,
        url: snapshot.page.url,
        breadcrumb: snapshot.breadcrumb,
        editedAt: snapshot.page.last_edited_time,
      };
    } catch (error) {
      throw notionFailure(error, `Notion page ${pageId}`);
    }
  }
}

/** Maps a Notion client error to the failure the workflow acts on. */
export function notionFailure(error: unknown, what: string): unknown {
  switch (classifyNotionError(error)) {
    case 'skip':
      return ApplicationFailure.create({
        nonRetryable: true,
        type: SOURCE_ITEM_GONE,
        message: `${what} is not available to the integration (deleted, unshared or forbidden): ${(error as Error).message}`,
      });
    case 'unauthorized':
      return ApplicationFailure.create({
        nonRetryable: true,
        type: TroveErrorCode.NotionUnauthorized,
        message: 'Notion rejected the integration token (revoked or wrong); set a new token on the source',
      });
    default:
      return error; // transient or unknown: the activity's retry policy applies
  }
}
