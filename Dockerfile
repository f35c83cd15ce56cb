# The service as a container: docker build -t verified-answers . && docker run -p 8787:8787 verified-answers
# Two stages: the build stage has the dev dependencies (TypeScript, Vite) and builds dist/; the runtime stage
# installs the production dependencies only, from the same lockfile CI tests, and copies dist/ over.
# test/deploy/dockerfile.test.ts runs this file's runtime install and start commands in a clean copy.

FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build

FROM node:22-bookworm-slim AS runtime
ENV NODE_ENV=production
# Listen on every interface of the container; set VERIFIED_API_KEYS so that only your callers get in
# (docker run -e VERIFIED_API_KEYS=k1,k2 …). Without it the service is open and says so in one warning line
# on stderr; set but empty, it refuses to start (exit 2).
ENV VERIFIED_HOST=0.0.0.0
ENV VERIFIED_PORT=8787
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
# The node image's unprivileged user (uid 1000); nothing in /app is writable by it.
USER node
EXPOSE 8787
# node, not curl (the slim image has no curl): liveness, as Kubernetes' livenessProbe checks it.
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s --retries=3 CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.VERIFIED_PORT}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Exec form: node is PID 1 and gets SIGTERM itself (a shell or npx in between would not pass it on).
ENTRYPOINT ["node", "dist/cli/main.js"]
CMD ["serve"]
