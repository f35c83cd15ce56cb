import { createHash, timingSafeEqual } from "node:crypto";
import { ServiceError } from "../errors/index.js";

function digest(key: string): Buffer {
  return createHash("sha256").update(key).digest();
}

/** Compares keys in constant time: hashing first makes every comparison the same length. */
export function createKeyChecker(allowed: readonly string[]): (key: string) => boolean {
  const digests = allowed.map(digest);
  return (key) => {
    const candidate = digest(key);
    let found = false;
    // Visit every key so the time does not depend on which one matched.
    for (const allowedDigest of digests) found = timingSafeEqual(candidate, allowedDigest) || found;
    return found;
  };
}

/** Reads `Authorization: Bearer <key>`; throws `invalid_key` when it is missing or malformed. */
export function readBearerKey(header: string | undefined): string {
  if (header === undefined || header === "") {
    throw new ServiceError("invalid_key", 'Send your API key as "Authorization: Bearer <key>".');
  }
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  if (!match?.[1]) {
    throw new ServiceError("invalid_key", 'The Authorization header must read "Bearer <key>".');
  }
  return match[1];
}
