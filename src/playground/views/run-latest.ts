import { showError } from "./error-box.js";

/** The controls one action drives: its button, its status line and its error box. */
export interface ActionControls {
  submit: HTMLButtonElement;
  status: HTMLElement;
  error: HTMLElement;
}

/**
 * Runs one API action at a time for a view: a new run aborts the one before, the button is disabled while
 * it runs, and only the latest run may render its result or its error (next to the action that caused it).
 */
export function createLatestRunner(
  controls: ActionControls,
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
      showError(controls.error, error);
    } finally {
      if (running === controller) {
        running = null;
        controls.submit.disabled = false;
      }
    }
  };
}
