import { showError } from "./error-box.js";

/** The controls one action drives: its button, its status line, its error box and its result. */
export interface ActionControls {
  submit: HTMLButtonElement;
  status: HTMLElement;
  error: HTMLElement;
  result: HTMLElement;
}

/**
 * Empties and hides an action's result and shows its error instead, so an earlier answer never stands under
 * an error as if it were the failed run's.
 */
export function showFailure(controls: ActionControls, error: unknown): void {
  controls.result.replaceChildren();
  controls.result.hidden = true;
  showError(controls.error, error);
}

/**
 * Runs one API action at a time for a view: a new run aborts the one before, the button is disabled while
 * it runs, and only the latest run may render its result or its error (next to the action that caused it,
 * in place of the result; `onFailure` lets the view forget what the result referred to).
 */
export function createLatestRunner(
  controls: ActionControls,
  onFailure: () => void = () => {},
): <T>(
  busyText: string,
  call: (signal: AbortSignal) => Promise<T>,
  render: (result: T) => void,
) => Promise<void> {
  let running: AbortController | null = null;
  return async (busyText, call, render) => {
    running?.abort();
    const controller = new AbortController();
    running = controller;
    controls.submit.disabled = true;
    controls.status.textContent = busyText;
    try {
      const result = await call(controller.signal);
      if (running !== controller) return;
      render(result);
      controls.status.textContent = "Done.";
    } catch (error) {
      if (controller.signal.aborted) return;
      controls.status.textContent = "";
      onFailure();
      showFailure(controls, error);
    } finally {
      if (running === controller) {
        running = null;
        controls.submit.disabled = false;
      }
    }
  };
}
