# Built with the development dependencies: the dashboard and playground (static files), and the
# api's and the worker's bundles (dist/apps: no TypeScript compiled as they and their threads load).
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY . .
RUN npm install --no-audit --no-fund && bash scripts/build-dashboard.sh && node scripts/build-apps.js

# One image for both apps; docker-compose.yml picks the entry point.
FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
# glibc gives each thread that allocates its own malloc arena and rarely returns their free pages:
# with parsing threads, sharp and Tesseract that is 100-150 MB of a worker's memory. Two suffice.
ENV MALLOC_ARENA_MAX=2
ENV TROVE_OCR_DATA_DIR=/usr/share/tesseract-ocr/5/tessdata
# `trove backup` and `trove restore` need pg_dump/pg_restore of the server's major version (17):
# Debian bookworm ships 15, so they come from the PostgreSQL project's apt repository.
# git and ssh: Git sources clone through the git CLI (https, ssh).
# tesseract-ocr-*: the language data OCR reads (English, Russian, simplified Chinese).
# libjemalloc2: the memory allocator the apps run with (LD_PRELOAD below).
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates curl \
  && install -d /usr/share/postgresql-common/pgdg \
  && curl -fsSL -o /usr/share/postgresql-common/pgdg/apt.postgresql.org.asc https://www.postgresql.org/media/keys/ACCC4CF8.asc \
  && echo "deb [signed-by=/usr/share/postgresql-common/pgdg/apt.postgresql.org.asc] https://apt.postgresql.org/pub/repos/apt bookworm-pgdg main" \
    > /etc/apt/sources.list.d/pgdg.list \
  && apt-get update && apt-get install -y --no-install-recommends postgresql-client-17 git openssh-client \
    tesseract-ocr-eng tesseract-ocr-rus tesseract-ocr-chi-sim libjemalloc2 \
  && ln -s "$(find /usr/lib -name libjemalloc.so.2 | head -1)" /usr/local/lib/libjemalloc.so.2 \
  && apt-get purge -y curl && apt-get autoremove -y && rm -rf /var/lib/apt/lists/*
# jemalloc gives back the pages threads free, where glibc's malloc keeps them: a worker's resident
# memory stays nearer what it uses (docs/operations.md, "A worker's memory"), as scripts/apps.sh runs it.
ENV LD_PRELOAD=/usr/local/lib/libjemalloc.so.2
COPY . .
COPY --from=build /app/apps/dashboard/dist apps/dashboard/dist
COPY --from=build /app/dist/apps dist/apps
RUN npm install --omit=dev --no-audit --no-fund && npm cache clean --force \
  && mkdir -p /data/blobs && chown node:node /data/blobs
USER node
# V8 grows its heap in larger steps before collecting when its limit is the machine's default
# (up to 4 GB) than under a 1 GB limit, far above the ~150 MB a worker's main thread keeps live.
ENV NODE_OPTIONS=--max-old-space-size=1024
EXPOSE 4000
CMD ["node", "--enable-source-maps", "dist/apps/api/main.js"]
