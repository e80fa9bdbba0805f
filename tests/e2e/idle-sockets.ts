import { Agent } from "node:http";
import type { Socket } from "node:net";

// workerd (the local server) closes a keep-alive connection after 5 s without a request, and says nothing of it in
// its answers (no Keep-Alive header). Node's agents, Playwright's request contexts among them, keep idle sockets for
// ever: a request sent on one just as workerd closes it fails with "socket hang up" (ECONNRESET) before the server
// reads it, a flake that comes about once a few hundred tests on a busy machine (reproduced by idling 4,994-4,998 ms
// between two requests). With every idle socket closed by the client first, the race cannot happen.

/** Shorter than workerd's idle timeout (kj's HttpServer pipelineTimeout, 5 s), with room for a busy event loop. */
const IDLE_SOCKET_MS = 4_000;

let installed = false;

/** Makes every Node HTTP agent in this process drop a pooled socket after IDLE_SOCKET_MS without a request. */
export function closeIdleSocketsBeforeTheServerDoes(): void {
  if (installed) return;
  installed = true;
  const keepSocketAlive = Agent.prototype.keepSocketAlive;
  // keepSocketAlive runs as a socket goes back to the pool; Node's own sets the socket's timeout there (0: none),
  // and a pooled socket that times out is destroyed by the agent. (@types/node says it returns void; it returns
  // whether the socket is kept.)
  Agent.prototype.keepSocketAlive = function (this: Agent, socket) {
    const kept = (keepSocketAlive.call(this, socket) as unknown) !== false;
    const { timeout } = socket as Socket;
    if (kept && !(timeout && timeout <= IDLE_SOCKET_MS)) (socket as Socket).setTimeout(IDLE_SOCKET_MS);
    return kept;
  };
}
