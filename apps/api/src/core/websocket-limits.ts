import type { INestApplication } from '@nestjs/common';
import { GraphQLModule } from '@nestjs/graphql';
import type { WebSocketServer } from 'ws';

/**
 * The largest graphql-ws message the api reads, in bytes: as much as a JSON body over HTTP
 * (Nest's 100 KB); `ws` would otherwise read messages of up to 100 MiB. A larger message closes
 * the socket with 1009 (message too big) before it is parsed.
 */
export const MAX_WEBSOCKET_MESSAGE_BYTES = 100 * 1024;

/**
 * Caps the size of messages on GraphQL's WebSocket. @nestjs/graphql creates its WebSocketServer
 * itself and exposes no option for it, so the cap is set on that server once the app is
 * initialised; `ws` reads it at every upgrade. Refuses to start when the server cannot be found
 * (a changed @nestjs/graphql), rather than running without the cap.
 */
export function limitWebSocketMessages(app: INestApplication, maxBytes = MAX_WEBSOCKET_MESSAGE_BYTES): void {
  const adapter = app.get(GraphQLModule, { strict: false }).graphQlAdapter as unknown as {
    _subscriptionService?: { wss?: WebSocketServer };
  };
  const server = adapter._subscriptionService?.wss;
  if (!server?.options) {
    throw new Error(
      'GraphQL WebSocket server not found: cannot cap its message size (check @nestjs/graphql)',
    );
  }
  server.options.maxPayload = maxBytes;
}
