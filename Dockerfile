# Kontor: multi-stage image. Build: docker build -t kontor .
# Run:   docker run -p 3000:3000 -v kontor-data:/data -e KONTOR_SECRET=$(openssl rand -hex 32) --stop-timeout 30 kontor
# (--stop-timeout: on SIGTERM Kontor lets running chat replies finish for up to 20 s; Docker's
# default of 10 s would kill it before.)
FROM oven/bun:1.4.4 AS build
WORKDIR /app
COPY package.json bun.lock ./
COPY patches ./patches
RUN bun install --frozen-lockfile
COPY . .
# The web build and the server bundle (decision 0114); the runtime keeps only the production dependencies.
RUN bun web/build.ts && bun src/cli/bundle.ts && rm -rf node_modules && bun install --frozen-lockfile --production

FROM oven/bun:1.4.4-slim AS runtime
WORKDIR /app
ENV NODE_ENV=production \
    PORT=3000 \
    KONTOR_DATA_DIR=/data \
    DATABASE_URL=file:/data/kontor.db
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/package.json ./
COPY --from=build /app/dist/server ./dist/server
COPY --from=build /app/drizzle ./drizzle
COPY --from=build /app/public ./public
RUN mkdir -p /data && chown -R bun:bun /data
USER bun
VOLUME /data
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=3s --start-period=10s \
  CMD bun -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["bun", "dist/server/main.js"]
