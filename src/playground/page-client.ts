import { type FetchLike, Verified } from "../client/index.js";
import { trimTrailing } from "../util.js";

/** How the page builds the package's client for each call. */
export interface PageClientOptions {
  /** The key as typed, read at call time so a key entered later is used. */
  getKey: () => string;
  /** The page's own URL (`document.baseURI`): the service is wherever the page was served from. */
  pageUrl: string;
  /** For tests; default the browser's `fetch`. */
  fetch?: FetchLike;
}

/**
 * The service's base URL for a page served at `pageUrl`: the page's directory without the trailing slash,
 * so a page served under a path prefix (`https://example.com/verified/`) calls `…/verified/v1/…`.
 */
export function serviceBaseUrl(pageUrl: string): string {
  const directory = new URL(".", pageUrl);
  directory.search = "";
  directory.hash = "";
  return trimTrailing(directory.href, "/");
}

/**
 * Returns a function that builds the package's own client with the key as typed now. The page shows every
 * failure by the action that caused it, so nothing is retried behind the user's back (`maxRetries: 0`),
 * and a long run is never cut off by a client timeout: the user can start another run, which aborts it.
 * With no key typed, no Authorization header is sent and the service says `invalid_key`.
 */
export function pageClient(options: PageClientOptions): () => Verified {
  const baseURL = serviceBaseUrl(options.pageUrl);
  return () => {
    const key = options.getKey().trim();
    return new Verified({
      baseURL,
      apiKey: key === "" ? undefined : key,
      maxRetries: 0,
      timeout: Number.POSITIVE_INFINITY,
      fetch: options.fetch,
    });
  };
}
