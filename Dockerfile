# One image for both apps; docker-compose.yml picks the entry point.
FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY . .
RUN npm install --omit=dev --no-audit --no-fund && npm cache clean --force \
  && mkdir -p /data/blobs && chown node:node /data/blobs
USER node
EXPOSE 4000
CMD ["node", "-r", "@swc-node/register", "apps/api/src/main.ts"]
