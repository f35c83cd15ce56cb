import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { readServeSettings } from "../../src/cli/commands/serve-settings.js";
import { startWithoutGateway } from "../server/harness.js";
import { portkeyVersion } from "../support/start-portkey-gateway.js";
import { parseDockerfile } from "./dockerfile.js";

// Every manifest under deploy/kubernetes and compose.yaml, parsed with a YAML library and held against the
// service: probe paths answer as the probes expect, ports agree, every VERIFIED_* variable named is one the
// `serve` command reads, and the shutdown timings fit the grace period. Nothing here talks to a cluster.
const root = fileURLToPath(new URL("../..", import.meta.url));
const kubernetesFolder = join(root, "deploy", "kubernetes");

// biome-ignore lint/suspicious/noExplicitAny: manifests are untyped YAML; the assertions check their shape.
type Manifest = any;

function readYaml(path: string): Manifest[] {
  return parseAllDocuments(readFileSync(path, "utf8")).map((document) => {
    expect(document.errors, path).toEqual([]);
    return document.toJS();
  });
}

const manifestFiles = readdirSync(kubernetesFolder).filter((file) => file.endsWith(".yaml"));
const kustomization = readYaml(join(kubernetesFolder, "kustomization.yaml"))[0];
const resources: Manifest[] = manifestFiles
  .filter((file) => file !== "kustomization.yaml")
  .flatMap((file) => readYaml(join(kubernetesFolder, file)));
const ofKind = (kind: string): Manifest => {
  const found = resources.filter((each) => each.kind === kind);
  expect(found, kind).toHaveLength(1);
  return found[0];
};
const deployment = ofKind("Deployment");
const pod = deployment.spec.template.spec;
const container = pod.containers[0];
const compose = readYaml(join(root, "compose.yaml"))[0];
const runtime = parseDockerfile(readFileSync(join(root, "Dockerfile"), "utf8")).at(-1);
const packageVersion = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string })
  .version;

/** The VERIFIED_* variables `verified serve` reads: those its settings reader asks for, and serve's own. */
function variablesServeReads(): Set<string> {
  const read = new Set<string>();
  const recording = new Proxy({} as Record<string, string | undefined>, {
    get(_target, name) {
      if (typeof name === "string") read.add(name);
      return undefined;
    },
  });
  readServeSettings(recording);
  const serveSource = readFileSync(join(root, "src", "cli", "commands", "serve.ts"), "utf8");
  for (const match of serveSource.matchAll(/\benv\.(VERIFIED_[A-Z_]+)/g)) read.add(match[1] as string);
  return new Set([...read].filter((name) => name.startsWith("VERIFIED_")));
}

/** The container's environment as the pod would see it; a Secret's value stands in as "from-secret". */
function containerEnvironment(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const literal of kustomization.configMapGenerator[0].literals as string[]) {
    const equals = literal.indexOf("=");
    env[literal.slice(0, equals)] = literal.slice(equals + 1);
  }
  for (const entry of container.env) env[entry.name] = entry.value ?? "from-secret";
  return env;
}

describe("deploy/kubernetes", () => {
  it("lists every manifest of the folder in kustomization.yaml, and they all parse", () => {
    expect([...kustomization.resources].sort()).toEqual(
      manifestFiles.filter((file) => file !== "kustomization.yaml").sort(),
    );
    expect(resources.map((each) => each.kind).sort()).toEqual([
      "Deployment",
      "HorizontalPodAutoscaler",
      "PodDisruptionBudget",
      "Service",
    ]);
  });

  it("names only VERIFIED_* variables that `verified serve` reads", () => {
    const known = variablesServeReads();
    expect(known).toContain("VERIFIED_API_KEYS");
    const named = Object.keys(containerEnvironment()).filter((name) => name.startsWith("VERIFIED_"));
    expect(named.filter((name) => !known.has(name))).toEqual([]);
  });

  it("gives serve settings it accepts: all interfaces, the container port, keys required", () => {
    const outcome = readServeSettings(containerEnvironment());
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.settings.host).toBe("0.0.0.0");
    expect(container.ports).toEqual([{ name: "http", containerPort: outcome.settings.port }]);
    expect(outcome.settings.config.apiKeys).toEqual(["from-secret"]);
    expect(container.env.find((each: Manifest) => each.name === "VERIFIED_API_KEYS").valueFrom).toEqual({
      secretKeyRef: { name: "verified-keys", key: "api-keys" },
    });
    // No key, of the service or of the gateway, is written into a manifest.
    for (const entry of container.env.filter((each: Manifest) => /KEY/.test(each.name))) {
      expect(entry.value, entry.name).toBeUndefined();
    }
  });

  it("lets a shutdown finish on schedule within terminationGracePeriodSeconds", () => {
    const outcome = readServeSettings(containerEnvironment());
    if (!outcome.ok) throw new Error(outcome.message);
    const { shutdownDelayMs, shutdownTimeoutMs } = outcome.settings;
    expect(shutdownDelayMs).toBeGreaterThan(0);
    // closeGracefully allows connections at most MAX_SHUTDOWN_GRACE_MS (1 s) after the shutdown deadline; the
    // other second is for the exit.
    expect(pod.terminationGracePeriodSeconds * 1000).toBeGreaterThan(
      shutdownDelayMs + shutdownTimeoutMs + 2_000,
    );
  });

  it("probes /readyz for readiness and /healthz for liveness, and the service answers them so", async () => {
    expect(container.readinessProbe.httpGet).toEqual({ path: "/readyz", port: "http" });
    expect(container.livenessProbe.httpGet).toEqual({ path: "/healthz", port: "http" });
    const service = await startWithoutGateway({ config: { apiKeys: ["from-secret"] } });
    const status = async (path: string) => (await fetch(`${service.url}${path}`)).status;
    expect([await status("/readyz"), await status("/healthz")]).toEqual([200, 200]);
    service.app.inFlight.beginShutdown();
    expect([await status("/readyz"), await status("/healthz")]).toEqual([503, 200]);
  });

  it("runs as non-root with a read-only root filesystem and no privileges", () => {
    expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
    expect(container.securityContext).toEqual({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ["ALL"] },
    });
  });

  it("sizes memory above the largest accepted request's peak in the memory benchmark", () => {
    const figures = readFileSync(join(root, "docs", "reliability-limits.md"), "utf8");
    const acceptedPeaks = [...figures.matchAll(/^\| accepted: .*\| 200 \| (\d+) MB \|$/gm)].map((match) =>
      Number(match[1]),
    );
    expect(acceptedPeaks.length).toBeGreaterThan(0);
    const mebibytes = (quantity: string) => Number(/^(\d+)Mi$/.exec(quantity)?.[1]);
    const limitMB = (mebibytes(container.resources.limits.memory) * 1024 * 1024) / 1e6;
    expect(limitMB).toBeGreaterThan(Math.max(...acceptedPeaks) * 1.5);
    expect(mebibytes(container.resources.requests.memory)).toBeGreaterThan(0);
    // The autoscaler's utilisation is relative to the CPU request.
    expect(container.resources.requests.cpu).toMatch(/^\d+m$/);
  });

  it("routes the Service, the autoscaler and the disruption budget to the Deployment's pods", () => {
    const labels = deployment.spec.template.metadata.labels;
    expect(deployment.spec.selector.matchLabels).toEqual(labels);
    const service = ofKind("Service");
    expect(service.spec.selector).toEqual(labels);
    expect(service.spec.ports.map((port: Manifest) => port.targetPort)).toEqual(["http"]);
    expect(ofKind("PodDisruptionBudget").spec.selector.matchLabels).toEqual(labels);
    const autoscaler = ofKind("HorizontalPodAutoscaler");
    expect(autoscaler.spec.scaleTargetRef).toEqual({
      apiVersion: "apps/v1",
      kind: "Deployment",
      name: deployment.metadata.name,
    });
    expect(autoscaler.spec.metrics.map((metric: Manifest) => metric.resource.name)).toEqual(["cpu"]);
    expect(autoscaler.spec.minReplicas).toBeGreaterThanOrEqual(2);
  });

  it("deploys the image of this package's version", () => {
    expect(kustomization.images).toEqual([{ name: container.image, newTag: packageVersion }]);
  });
});

describe("compose.yaml", () => {
  const verified = compose.services.verified;
  const gateway = compose.services.gateway;

  it("builds the service from the Dockerfile beside the Portkey gateway version the tests run", () => {
    expect(verified.build).toBe(".");
    expect(gateway.image).toBe(`portkeyai/gateway:${portkeyVersion}`);
    expect(verified.depends_on).toEqual(["gateway"]);
  });

  it("points the service at the gateway's service name and publishes the image's port on loopback", () => {
    expect(new URL(verified.environment.VERIFIED_GATEWAY_URL).host).toBe("gateway:8787");
    expect(verified.ports).toEqual([`127.0.0.1:${runtime?.env.VERIFIED_PORT}:${runtime?.env.VERIFIED_PORT}`]);
    expect(verified.read_only).toBe(true);
  });

  it("names only VERIFIED_* variables that `verified serve` reads, in compose and in the Dockerfile", () => {
    const known = variablesServeReads();
    const named = [...Object.keys(verified.environment), ...Object.keys(runtime?.env ?? {})].filter((name) =>
      name.startsWith("VERIFIED_"),
    );
    expect(named.length).toBeGreaterThan(3);
    expect(named.filter((name) => !known.has(name))).toEqual([]);
    // Compose's defaults are settings serve accepts: a variable with no value is passed on only when the
    // shell sets it (so VERIFIED_API_KEYS is unset, never empty), `${OPENAI_API_KEY:-}` is empty.
    const passedOn = Object.entries(verified.environment).filter(([, value]) => value !== null);
    expect(Object.keys(verified.environment)).toContain("VERIFIED_API_KEYS");
    expect(verified.environment.VERIFIED_API_KEYS).toBeNull();
    const env = { ...runtime?.env, ...Object.fromEntries(passedOn), VERIFIED_GATEWAY_KEY: "" };
    expect(readServeSettings(env).ok).toBe(true);
  });
});
