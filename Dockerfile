# The dashboard and playground are static files built with the development dependencies.
FROM node:20-bookworm-slim AS dashboard
WORKDIR /app
COPY . .
RUN npm install --no-audit --no-fund && bash scripts/build-dashboard.sh

# One image for both apps; docker-compose.yml picks the entry point.
FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY . .
COPY --from=dashboard /app/apps/dashboard/dist apps/dashboard/dist
RUN npm install --omit=dev --no-audit --no-fund && npm cache clean --force \
  && mkdir -p /data/blobs && chown node:node /data/blobs
USER node
EXPOSE 4000
CMD ["node", "-r", "@swc-node/register", "apps/api/src/main.ts"]
