# syntax=docker/dockerfile:1
# connect-bot: one image for the HTTP/Socket Mode front and the background workers.
#   docker build -t connect-bot .
#   docker run --env-file .env -p 3000:3000 connect-bot          # bot (+ workers in-process)
#   docker run --env-file .env connect-bot worker                 # workers only

# --- build: compile TypeScript with the dev dependencies ---------------------------------
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY views ./views
COPY openapi ./openapi
RUN npm run build && cp -r src/playground/static dist/src/playground/static

# --- runtime: production dependencies only, non-root -------------------------------------
FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
# The sandbox validates requests against the contract at run time.
COPY openapi ./openapi
COPY docker-entrypoint.sh /usr/local/bin/docker-entrypoint.sh
RUN chmod 0755 /usr/local/bin/docker-entrypoint.sh
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
ENTRYPOINT ["/usr/local/bin/docker-entrypoint.sh"]
CMD ["bot"]
