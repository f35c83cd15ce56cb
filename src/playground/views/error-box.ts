import { AuthenticationError, UngroundedError, VerifiedError } from "../../client/index.js";
import { h } from "../dom.js";
import { reasonInWords } from "./result-text.js";

const hints: Record<string, string> = {
  invalid_key:
    "Enter your API key at the top of the page: one the service lists in VERIFIED_API_KEYS, or, when it lists none, your model gateway's key. The local model on such an open service needs no key.",
  connection_error: "Check that the service is still running, then try again.",
};

/** Shows a failed action's error in words next to the action, with the service's code and status. */
export function showError(box: HTMLElement, error: unknown): void {
  box.replaceChildren();
  box.hidden = false;
  if (!(error instanceof VerifiedError)) {
    box.append(h("p", { class: "error-message" }, error instanceof Error ? error.message : String(error)));
    return;
  }
  const where = error.status === 0 ? "no response" : `HTTP ${error.status}`;
  box.append(
    h("p", { class: "error-message" }, messageOf(error)),
    h(
      "p",
      { class: "error-code" },
      h("code", {}, error.type),
      ` (${where})`,
      error.param !== undefined && " · field ",
      error.param !== undefined && h("code", {}, error.param),
    ),
  );
  const hint = hints[error.type];
  if (hint !== undefined) box.append(h("p", { class: "error-hint" }, hint));
  if (error instanceof UngroundedError && error.unsupported.length > 0) {
    box.append(
      h(
        "ul",
        { class: "unsupported", "aria-label": "Claims that could not be grounded" },
        ...error.unsupported.map((item) =>
          h(
            "li",
            {},
            h("del", {}, item.claim),
            " ",
            h("span", { class: "reason" }, `— ${reasonInWords(item.reason)}`),
          ),
        ),
      ),
    );
  }
}

/**
 * The message to show. The client adds a hint for programmers to a refused call sent without a key (it
 * names its constructor option); the page's own hint says where the key goes instead, as the CLI's does.
 */
function messageOf(error: VerifiedError): string {
  const hint = error instanceof AuthenticationError ? error.message.indexOf(" No API key was sent:") : -1;
  return hint < 0 ? error.message : error.message.slice(0, hint);
}

/** Hides and empties an error box. */
export function clearError(box: HTMLElement): void {
  box.hidden = true;
  box.replaceChildren();
}
