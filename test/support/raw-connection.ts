import { connect, type Socket } from "node:net";

/**
 * A TCP connection to `url` that writes `text` (a request, or the start of one) and collects what comes back;
 * `closed` resolves with it when the connection closes, by either side or by a reset.
 */
export function openRawConnection(url: string, text: string): { socket: Socket; closed: Promise<string> } {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  let received = "";
  socket.setEncoding("utf8").on("data", (chunk: string) => {
    received += chunk;
  });
  socket.on("error", () => {});
  socket.write(text);
  // Not `events.once`, which rejects on the reset a destroyed connection may give.
  const closed = new Promise<string>((resolve) => socket.once("close", () => resolve(received)));
  return { socket, closed };
}
