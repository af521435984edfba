# gregor: a Kafka-compatible broker. Build:  docker build -t gregor .
# Run:   docker run -p 9092:9092 -p 8080:8080 -v gregor-data:/var/lib/gregor gregor
# Clients on the host then bootstrap from localhost:9092. For other networks set what clients are told
# to connect to: -e GREGOR_ADVERTISED_LISTENERS=PLAINTEXT://broker.example:9092 (or --advertised-listeners).
# Any Kafka server.properties key can be set as GREGOR_<KEY> (upper-case, dots as underscores), with
# --override key=value, or from a file mounted into the container and passed with --config.

# --- build: compile the TypeScript with the dev dependencies ---
# Node 24: the newest maintained LTS line (Node 20 reached its end of life in April 2026); engines in package.json.
FROM node:24-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# Scripts are skipped so `prepare` does not compile before the sources are copied in.
RUN npm ci --ignore-scripts
COPY tsconfig.json ./
COPY src ./src
COPY scripts/bundle-cli.mjs ./scripts/
RUN npx tsc -p tsconfig.json && node scripts/bundle-cli.mjs

# --- runtime: production dependencies and the compiled JavaScript only ---
FROM node:24-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force
COPY --from=build /app/dist/src ./dist/src
COPY --from=build /app/dist/gregor.mjs /app/dist/gregor-command.mjs ./dist/
COPY scripts/healthcheck.mjs ./scripts/

# Data lives in a volume owned by the unprivileged `node` user of the base image.
RUN mkdir -p /var/lib/gregor && chown node:node /var/lib/gregor
USER node
VOLUME /var/lib/gregor

# Bind every interface inside the container; advertise localhost:9092, which is right for
# `docker run -p 9092:9092` and is overridden by environment or flag for anything else.
# The HTTP listener (metrics, health, console) on every interface too: docker run -p 8080:8080.
ENV GREGOR_LISTENERS=PLAINTEXT://0.0.0.0:9092 \
    GREGOR_ADVERTISED_LISTENERS=PLAINTEXT://localhost:9092 \
    GREGOR_GREGOR_HTTP_LISTENERS=http://0.0.0.0:8080 \
    GREGOR_LOG_DIRS=/var/lib/gregor
EXPOSE 9092 8080

# Healthy once /readyz answers 200: the listeners bound, the logs recovered, the coordinators loaded. With another
# HTTP port, override it: --health-cmd 'node scripts/healthcheck.mjs http://127.0.0.1:PORT/readyz'; with HTTP off
# (GREGOR_GREGOR_HTTP_LISTENERS=), ask the Kafka listener: --health-cmd 'node scripts/healthcheck.mjs 127.0.0.1:9092'.
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 CMD ["node", "scripts/healthcheck.mjs", "http://127.0.0.1:8080/readyz"]

# node is PID 1 and handles SIGTERM itself: `docker stop` shuts the broker down cleanly.
STOPSIGNAL SIGTERM
ENTRYPOINT ["node", "dist/gregor.mjs"]
CMD ["start"]
